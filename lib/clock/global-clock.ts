/**
 * A clock that reads the global `Date.now` and schedules with the global `setTimeout`, both
 * looked up at call time, so `jest.useFakeTimers()` or an installed @sinonjs/fake-timers
 * clock drives stream IDs, idle times and BLOCK timeouts. Without fake timers it is real time.
 */
import { Clock, ClockTimer, scheduleLong } from './clock';

export const globalClock: Clock = {
  kind: 'global',
  now: () => globalThis.Date.now(),
  schedule(fn: () => void, ms: number): ClockTimer {
    const set = globalThis.setTimeout;
    const clear = globalThis.clearTimeout;
    return scheduleLong((f, d) => set(f, d), (h) => clear(h), fn, ms);
  },
};
