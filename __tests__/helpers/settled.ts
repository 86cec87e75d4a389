/** Whether `p` has settled after a few microtask turns (a call that waits, e.g. blocked or queued, has not). */
export async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}
