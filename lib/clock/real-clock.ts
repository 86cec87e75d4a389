/**
 * Wall-clock time that fake timers cannot touch: the platform's `Date.now` (`wallNow`), and
 * Node's own timers (./real-timers.ts; the `timers` module's functions read at call time are
 * fakes while @sinonjs/fake-timers is installed on the real global).
 */
import { performance } from 'perf_hooks';
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

/** Whether `fn` is the platform's own (not a fake timers' replacement). */
function isNative(fn: unknown): boolean {
  return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(fn));
}

function findNativeNow(): () => number {
  const now = Date.now;
  if (isNative(now)) return now;
  return (require('vm') as typeof import('vm')).runInNewContext('Date.now') as () => number;
}

export const realClock: Clock = {
  kind: 'real',
  now: () => Math.floor(wallNow()),
  schedule(fn: () => void, ms: number): ClockTimer {
    return scheduleLong((f, d) => realSetTimeout(f, d), (h) => realClearTimeout(h as ReturnType<typeof realSetTimeout>), fn, ms);
  },
};

/**
 * Whether `clock` reads wall time: realClock, globalClock while the global `Date.now` is the
 * platform's, or a clock that is wall time moved by whole ms (`followsWallTime`: serve's default
 * AdjustableClock).
 */
function readsWallTime(clock: Clock): boolean {
  if (clock.kind === 'real') return true;
  if ((clock as { readonly followsWallTime?: boolean }).followsWallTime === true) return true;
  return clock.kind === 'global' && isNative(globalThis.Date.now);
}

/** The last microseconds given within a millisecond (`microsWithin`). */
const lastMicros = { ms: -1, us: 0 };

/**
 * The microseconds within millisecond `ms` (0–999) of a time read from `clock`, as TIME reports
 * them (Redis: ustime()): 0 for a clock that is not wall time (a fake clock's time has no finer
 * part); else the sub-millisecond part of the monotonic clock now, never less than the last one
 * given within the same millisecond. (A time snapshot keeps the value read when it was taken:
 * Keyspace `snapshotMicros`.)
 */
export function microsWithin(clock: Clock, ms: number): number {
  if (!readsWallTime(clock)) return 0;
  let us = Math.floor(((performance.timeOrigin + performance.now()) % 1) * 1000);
  if (ms === lastMicros.ms && us < lastMicros.us) us = lastMicros.us;
  lastMicros.ms = ms;
  lastMicros.us = us;
  return us;
}
