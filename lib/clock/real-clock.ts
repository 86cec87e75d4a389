/**
 * Wall-clock time that fake timers cannot touch: `perf_hooks` and `timers` module functions,
 * which jest and @sinonjs/fake-timers leave alone (they patch globals only).
 */
import { performance } from 'perf_hooks';
import * as timers from 'timers';
import { Clock, ClockTimer, scheduleLong } from './clock';

export const realClock: Clock = {
  kind: 'real',
  now: () => Math.floor(performance.timeOrigin + performance.now()),
  schedule(fn: () => void, ms: number): ClockTimer {
    return scheduleLong((f, d) => timers.setTimeout(f, d), (h) => timers.clearTimeout(h), fn, ms);
  },
};
