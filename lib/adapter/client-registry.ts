/**
 * Who wants to know when a fake client is created (the jest setup tags each client with the
 * test that created it, to close it and name that test once the test is over).
 */
const listeners = new Set<(client: object) => void>();

/** Called by the adapter for each new client. */
export function clientCreated(client: object): void {
  for (const l of listeners) l(client);
}

/** Hear about every client created from now on. @returns unsubscribe */
export function onClientCreated(listener: (client: object) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
