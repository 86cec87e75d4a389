/**
 * Wall-clock time that fake timers cannot touch: the platform's `Date.now` (`wallNow`), and
 * Node's own timers (./real-timers.ts; the `timers` module's functions read at call time are
 * fakes while @sinonjs/fake-timers is installed on the real global).
 */
import { Clock, ClockTimer, scheduleLong } from './clock';
import { realClearTimeout, realSetTimeout } from './real-timers';

/* eslint-disable @typescript-eslint/no-require-imports */
let nativeNow: (() => number) | undefined;

/**
 * Wall time in ms since the epoch as the platform's own `Date.now` reads it (CLOCK_REALTIME, what
 * Redis's mstime() reads), whatever fake timers do to the global `Date`: the global's `now` when
 * it is still the native one at first use, else (fake timers installed already) the `Date.now` of
 * a fresh V8 context, which no fake timers reach. Not `performance.timeOrigin + performance.now()`:
 * that follows the monotonic clock, which drifts from wall time (by 5 ms a second on some
 * virtual machines, so stream IDs fell behind `Date.now()` within seconds).
 */
export function wallNow(): number {
  return (nativeNow ??= findNativeNow())();
}

function findNativeNow(): () => number {
  const now = Date.now;
  if (/\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(now))) return now;
  return (require('vm') as typeof import('vm')).runInNewContext('Date.now') as () => number;
}

export const realClock: Clock = {
  kind: 'real',
  now: () => Math.floor(wallNow()),
  schedule(fn: () => void, ms: number): ClockTimer {
    return scheduleLong((f, d) => realSetTimeout(f, d), (h) => realClearTimeout(h as ReturnType<typeof realSetTimeout>), fn, ms);
  },
};
