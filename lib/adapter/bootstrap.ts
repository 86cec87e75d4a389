/**
 * Start-up: importing the package must cost little more than importing ioredis-mock (jest loads
 * it once per test file). So the adapter (./install.ts and everything it needs: keyspaces, the
 * blocking machinery, the model, the command registry) loads when ioredis-mock constructs its
 * first instance, not at import.
 *
 * `installStreamsOnFirstUse(RedisMock)` puts a one-shot `options` accessor on the class's
 * prototype. ioredis-mock assigns `this.options` last in its constructor; the first assignment
 * loads the adapter, removes the accessor, runs the adapter's `installStreams(RedisMock)` (which
 * installs everything on the class, including its own `options` hook) and assigns the options
 * again, now through the adapter. Every instance therefore has the stream commands, as with an
 * eager install; only the class's prototype is bare until the first instance exists.
 */
import type * as Adapter from './install';

/* eslint-disable @typescript-eslint/no-explicit-any */
type MockClass = any;

let adapter: typeof Adapter | undefined;

/** The adapter module, loaded now if no instance has loaded it yet. */
export function adapterModule(): typeof Adapter {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (adapter ??= require('./install') as typeof Adapter);
}

/** The adapter module if an instance (or a caller) has loaded it; undefined otherwise. */
export function loadedAdapter(): typeof Adapter | undefined {
  return adapter;
}

const INSTALLED = Symbol.for('ioredis-mock-streams.installed');

/**
 * Arrange for the adapter's `installStreams(RedisMock)` to run when the first instance of
 * `RedisMock` (or of a subclass) is constructed.
 * @returns the same class
 */
export function installStreamsOnFirstUse<T extends MockClass>(RedisMock: T): T {
  const proto = (RedisMock as MockClass).prototype;
  if (proto[INSTALLED] || Object.prototype.hasOwnProperty.call(proto, 'options')) return RedisMock;
  Object.defineProperty(proto, 'options', {
    configurable: true,
    get: () => undefined,
    set(this: any, value: unknown) {
      delete proto.options;
      adapterModule().installStreams(RedisMock);
      this.options = value;
    },
  });
  return RedisMock;
}
