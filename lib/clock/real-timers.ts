/**
 * Node's own timers and `process.nextTick`, whatever fake timers a test installs, for the
 * package's internal deliveries (reply batches, the spin guard's turn, tracking invalidations,
 * pub/sub messages, the reconnect delay, real-time clocks, replication pings, polling helpers),
 * which must never wait for a test to advance a fake clock. Measured (Node 20):
 * - jest's fake timers (modern and legacy) replace the globals of the test environment
 *   (`setTimeout`, `setImmediate`, `process.nextTick`, `queueMicrotask`, `Date`, …), never
 *   the functions of Node's `timers` module;
 * - vitest 4's `vi.useFakeTimers()` replaces the globals (`process.nextTick` and
 *   `queueMicrotask` only with `toFake`), not the `timers` module;
 * - @sinonjs/fake-timers `install()` on the real global (sinon's `useFakeTimers()`, and vitest
 *   builds whose bundled copy sees the module) replaces the globals *and* the `timers` module's
 *   functions, `process.nextTick` and `queueMicrotask` included by default (version 15).
 * So each function is taken from the `timers` module (from `process` for nextTick) when this
 * module loads; if fake-timers was installed already then (an `install()` before the package
 * was required, jest's `fakeTimers.enableGlobally` or a setup file that fakes), the function
 * found is a fake, which carries its clock: the original it replaced is taken from that clock.
 */
import * as timers from 'timers';

/** What fake-timers keeps of the functions it replaced (`clock._setTimeout`, `timersModuleMethods`). */
interface FakeTimersClockOriginals {
  timersModuleMethods?: { methodName: string; original: unknown }[];
  [key: string]: unknown;
}

/** `fn` itself, or, when it is a @sinonjs/fake-timers fake, the function it replaced. */
function unfaked<F extends (...args: never[]) => unknown>(fn: F, name: string): F {
  const clock = (fn as { clock?: FakeTimersClockOriginals }).clock;
  if (typeof clock !== 'object' || clock === null) return fn;
  const fromModule = clock.timersModuleMethods?.find((m) => m.methodName === name)?.original;
  for (const original of [fromModule, clock[`_${name}`]]) {
    if (typeof original === 'function' && (original as { clock?: unknown }).clock === undefined) return original as F;
  }
  return fn;
}

/** Node's setTimeout, never a fake. */
export const realSetTimeout: typeof timers.setTimeout = unfaked(timers.setTimeout, 'setTimeout');
/** Node's clearTimeout, never a fake (a fake one would only warn about a native timer and keep it). */
export const realClearTimeout: typeof timers.clearTimeout = unfaked(timers.clearTimeout, 'clearTimeout');
/** Node's setImmediate, never a fake. */
export const realSetImmediate: typeof timers.setImmediate = unfaked(timers.setImmediate, 'setImmediate');
/** `process.nextTick` as it was when the package loaded, never a fake-timers fake. */
export const realNextTick: typeof process.nextTick = unfaked(process.nextTick, 'nextTick');

/**
 * Run `fn` with `process.nextTick` pointing at the real one, for code of ioredis-mock that
 * delivers through it (pub/sub messages): a fake nextTick (jest's modern fake timers fake it by
 * default, @sinonjs/fake-timers 15 too, vitest with `toFake`) would hold the messages until the
 * test advances its clock.
 */
export function withRealNextTick<T>(fn: () => T): T {
  const proc = process;
  const current = proc.nextTick;
  if (current === realNextTick || (current as { clock?: unknown }).clock === undefined) return fn();
  proc.nextTick = realNextTick;
  try {
    return fn();
  } finally {
    proc.nextTick = current;
  }
}
