/** Whether `p` has settled after `turns` microtask turns (a call that waits, e.g. blocked or queued, has not). */
export async function settled(p: Promise<unknown>, turns = 5): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < turns; i++) await Promise.resolve();
  return done;
}
