/**
 * Long timers on a @sinonjs/fake-timers clock (jest's modern fake timers, `FakeTimers.install()`,
 * `FakeTimers.createClock()`), without a chain of 24.8-day steps.
 *
 * fake-timers, like Node, turns a delay above 2^31 − 1 ms into 1 ms, so a long timer would be a
 * chain of maximal steps, and advancing such a clock by 1e16 ms would fire 4.6 million of them
 * (a BLOCK near INT64_MAX ms: hours of work per `tick`). Instead the timer is created with the
 * maximal delay and its due time (`callAt`, the field fake-timers orders its timers by since
 * its first versions) is then set to the real deadline. If the clock does not look like that
 * (another library, a future layout), the caller falls back to the chain.
 */
import { MAX_TIMER_DELAY, type ClockTimer } from './clock';

/** The parts of a fake-timers clock used here. */
export interface FakeTimersClock {
  now: number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  timers?: Record<string, { callAt?: unknown; createdAt?: unknown } | undefined>;
}

/** True for a fake-timers clock object (`createClock()`, `install()`, the `.clock` of a faked setTimeout). */
export function isFakeTimersClock(value: unknown): value is FakeTimersClock {
  const c = value as FakeTimersClock | null;
  return (
    typeof c === 'object' && c !== null && typeof c.now === 'number' &&
    typeof c.setTimeout === 'function' && typeof c.clearTimeout === 'function'
  );
}

/** The fake-timers clock behind a (possibly faked) global `setTimeout`, if any. */
export function fakeTimersClockOf(setTimeoutFn: unknown): FakeTimersClock | undefined {
  const clock = (setTimeoutFn as { clock?: unknown } | undefined)?.clock;
  return isFakeTimersClock(clock) ? clock : undefined;
}

/**
 * Schedule `fn` `ms` (> MAX_TIMER_DELAY) after now on a fake-timers clock, as one timer.
 * Returns undefined when the clock's timers cannot be addressed (then chain instead).
 */
export function scheduleFar(clock: FakeTimersClock, fn: () => void, ms: number): ClockTimer | undefined {
  const handle = clock.setTimeout(fn, MAX_TIMER_DELAY);
  // A number in browsers; in Node an object with `id` (fake-timers 10) or a Symbol.toPrimitive (15).
  const id = typeof handle === 'object' && handle !== null ? ((handle as { id?: unknown }).id ?? Number(handle)) : handle;
  const timer = clock.timers?.[String(id)];
  if (!timer || typeof timer.callAt !== 'number' || typeof timer.createdAt !== 'number') {
    clock.clearTimeout(handle);
    return undefined;
  }
  timer.callAt = timer.createdAt + ms;
  return { cancel: () => clock.clearTimeout(handle) };
}
