/**
 * Who wants to know when a fake client is created (the jest setup tags each client with the
 * test that created it, to close it and name that test once the test is over).
 *
 * The listeners live on the global object, not in this module: after `jest.resetModules()`
 * (or with `resetModules: true`) a test loads a second copy of the package, and the setup
 * file's listener (registered by the first copy) must still hear about that copy's clients.
 */
const KEY = Symbol.for('ioredis-mock-streams.clientListeners');
const holder = globalThis as { [KEY]?: Set<(client: object) => void> };
const listeners: Set<(client: object) => void> = (holder[KEY] ??= new Set());

/** Called by the adapter for each new client. */
export function clientCreated(client: object): void {
  for (const l of listeners) l(client);
}

/** Hear about every client created from now on. @returns unsubscribe */
export function onClientCreated(listener: (client: object) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
