/**
 * Real time and real event-loop turns for long scripts (lib/scripting/lua.ts), out of reach of fake
 * timers. Measured (Node 20, @sinonjs/fake-timers 15, jest 29):
 * - jest's fake timers (modern and legacy) replace the globals of the test environment
 *   (`setTimeout`, `setImmediate`, `performance`, `Date`, `process.hrtime`, …); @sinonjs/fake-timers
 *   installed on the real global (sinon) replaces those globals and also the functions of Node's
 *   `timers` and `timers/promises` modules, and `process.hrtime`; vitest 4.1's `vi.useFakeTimers()`
 *   replaces the globals only (its bundled copy is evaluated before vitest hands it the modules).
 * - Neither touches `perf_hooks`' `performance` object (sinon swaps the global property for an
 *   object of its own) nor `worker_threads`' MessageChannel.
 * So time is `perf_hooks` `performance.now()`, and a turn of the event loop is a message on a
 * fresh MessageChannel: it is delivered from libuv's poll phase of a later loop iteration, after
 * due timers and I/O (one port delivers up to 1000 messages in one go, so each turn has its own
 * channel). The port holds the process open until its message arrives.
 */
import { performance } from 'perf_hooks';
import { MessageChannel } from 'worker_threads';

/** Milliseconds on a monotonic clock fake timers do not move. */
export function realNow(): number {
  return performance.now();
}

/** Run `fn` on a later turn of the event loop, whatever fake timers are installed. */
export function nextTurn(fn: () => void): void {
  const { port1, port2 } = new MessageChannel();
  port1.once('message', () => {
    port1.close();
    fn();
  });
  port2.postMessage(null);
}
