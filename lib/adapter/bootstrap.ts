/**
 * Start-up: importing the package must cost little more than importing ioredis-mock (jest loads
 * it once per test file). So the adapter (./install.ts) and the engine behind it load when
 * ioredis-mock constructs its first instance, not at import.
 *
 * `installStreamsOnFirstUse(RedisMock)` puts a one-shot `batch` accessor on the class's
 * prototype: ioredis-mock's constructor assigns `this.batch` first, right after the
 * EventEmitter constructor, before it touches `context`, `data`, `expires`, `_initCommands` or
 * `options` (the properties the adapter hooks). That first assignment removes the accessor,
 * loads the adapter and runs its `installStreams(RedisMock)`, then stores the value as an own
 * property, as the plain assignment would have; the rest of the constructor then runs on the
 * installed prototype. So every instance — of the default export, of ioredis-mock's own class,
 * of its `Cluster` — has the engine, as with an install at import; only the class's prototype is
 * bare until the first instance is constructed (`installStreams()` installs at once).
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

const INSTALLED = Symbol.for('ioredis-mock-streams.installed');

/**
 * Arrange for the adapter's `installStreams(RedisMock)` to run when the first instance of
 * `RedisMock` (or of a subclass) is constructed.
 * @returns the same class
 */
export function installStreamsOnFirstUse<T extends MockClass>(RedisMock: T): T {
  const proto = (RedisMock as MockClass).prototype;
  if (proto[INSTALLED] || Object.prototype.hasOwnProperty.call(proto, 'batch')) return RedisMock;
  Object.defineProperty(proto, 'batch', {
    configurable: true,
    get: () => undefined,
    set(this: any, value: unknown) {
      delete proto.batch;
      adapterModule().installStreams(RedisMock);
      this.batch = value;
    },
  });
  return RedisMock;
}
