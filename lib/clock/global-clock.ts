/**
 * A clock that reads the global `Date.now` and schedules with the global `setTimeout`, both
 * looked up at call time, so `jest.useFakeTimers()` or an installed @sinonjs/fake-timers
 * clock drives stream IDs, idle times and BLOCK timeouts. Without fake timers it is real time.
 * Timers beyond 24.8 days are one fake timer under fake-timers (./fake-timers-long.ts) and a
 * chain of 24.8-day steps otherwise.
 */
import { Clock, ClockTimer, MAX_TIMER_DELAY, scheduleLong } from './clock';
import { fakeTimersClockOf, scheduleFar } from './fake-timers-long';

export const globalClock: Clock = {
  kind: 'global',
  now: () => globalThis.Date.now(),
  schedule(fn: () => void, ms: number): ClockTimer {
    const set = globalThis.setTimeout;
    const clear = globalThis.clearTimeout;
    if (ms > MAX_TIMER_DELAY) {
      const fake = fakeTimersClockOf(set);
      const far = fake && scheduleFar(fake, fn, ms);
      if (far) return far;
    }
    return scheduleLong((f, d) => set(f, d), (h) => clear(h), fn, ms);
  },
};
