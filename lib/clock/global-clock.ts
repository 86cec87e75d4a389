/**
 * A clock that reads the global `Date.now` and schedules with the global `setTimeout`, both
 * looked up at call time, so `jest.useFakeTimers()` or an installed @sinonjs/fake-timers
 * clock drives stream IDs, idle times and BLOCK timeouts. Without fake timers it is real time.
 * Timers beyond 24.8 days are one fake timer under fake-timers (./fake-timers-long.ts) and a
 * chain of 24.8-day steps otherwise.
 *
 * A timer armed on fake timers outlives them: when the test removes them (`jest.useRealTimers()`,
 * `vi.useRealTimers()`, sinon's `uninstall()`, or installs new ones), the fake timer that held it
 * is gone, so a check every FAKE_TIMERS_CHECK_MS of real time (a real timer, ref'd unless the
 * timer was unref'd: it keeps the process alive meanwhile, as a blocked call's socket to a server
 * would) arms what is left of it on the timers in place then: a worker's `XREADGROUP … BLOCK 200` started under fake
 * timers times out after the rest of its 200 ms once they are removed, as against a server.
 */
import { Clock, ClockTimer, MAX_TIMER_DELAY, scheduleLong } from './clock';
import { fakeTimersClockOf, scheduleFar } from './fake-timers-long';
import { realClearTimeout, realSetTimeout } from './real-timers';

/**
 * How often (ms of real time) a timer armed on fake timers checks that they are still installed:
 * once they are removed, it fires at most this much later than the rest of its delay.
 */
export const FAKE_TIMERS_CHECK_MS = 50;

export const globalClock: Clock = {
  kind: 'global',
  now: () => globalThis.Date.now(),
  schedule(fn: () => void, ms: number): ClockTimer {
    const set = globalThis.setTimeout;
    if (set === realSetTimeout) return scheduleOn(set, globalThis.clearTimeout, fn, ms);
    return scheduleOnFakeTimers(set, fn, ms);
  },
};

/** `fn` after `ms` with the timer functions `set`/`clear` (one fake timer for a far one under fake-timers). */
function scheduleOn(set: typeof setTimeout, clear: typeof clearTimeout, fn: () => void, ms: number): ClockTimer {
  if (ms > MAX_TIMER_DELAY) {
    const fake = fakeTimersClockOf(set);
    const far = fake && scheduleFar(fake, fn, ms);
    if (far) return far;
  }
  return scheduleLong((f, d) => set(f, d), (h) => clear(h), fn, ms);
}

/**
 * `fn` after `ms` on the fake (or otherwise replaced) global timers `set`, re-armed on whatever
 * timers are global once `set` is no longer (the module comment): with what is left of `ms` on
 * the fake clock's time when it was removed (its `now`; the time last seen for fakes without one),
 * never more than `ms`.
 */
function scheduleOnFakeTimers(set: typeof setTimeout, fn: () => void, ms: number): ClockTimer {
  const fakeClock = fakeTimersClockOf(set);
  const fakeNow = () => (fakeClock !== undefined ? fakeClock.now : globalThis.Date.now());
  const deadline = fakeNow() + ms;
  let lastSeen = deadline - ms;
  let done = false;
  let unrefd = false;
  let check: ReturnType<typeof realSetTimeout> | null = null;
  const fire = () => {
    if (done) return;
    done = true;
    if (check !== null) realClearTimeout(check);
    fn();
  };
  const watch = () => {
    check = realSetTimeout(() => {
      check = null;
      if (done) return;
      if (globalThis.setTimeout === set) {
        lastSeen = fakeNow();
        watch();
        return;
      }
      // the fake timers holding `current` were removed (or replaced): the rest on the timers now;
      // on new fake timers, no later than the deadline on their clock either (what a test
      // advanced them by before this check saw them counts)
      current.cancel();
      const replacedBy = globalThis.setTimeout !== realSetTimeout ? fakeTimersClockOf(globalThis.setTimeout) : undefined;
      const rest = deadline - (fakeClock !== undefined ? fakeClock.now : lastSeen);
      const left = Math.max(0, Math.min(ms, rest, replacedBy !== undefined ? deadline - replacedBy.now : rest));
      current = globalClock.schedule(fire, left);
      if (unrefd) current.unref?.();
    }, FAKE_TIMERS_CHECK_MS);
    // ref'd as the timer it stands for (a blocked call keeps the process alive, as its socket
    // to a server would), unless that one was unref'd
    if (unrefd) check.unref?.();
  };
  let current = scheduleOn(set, globalThis.clearTimeout, fire, ms);
  watch();
  return {
    cancel: () => {
      done = true;
      if (check !== null) realClearTimeout(check);
      current.cancel();
    },
    unref: () => {
      unrefd = true;
      current.unref?.();
      check?.unref?.();
    },
  };
}
