/**
 * Wall-clock time that fake timers cannot touch: `perf_hooks` and `timers` module functions,
 * which jest and @sinonjs/fake-timers leave alone (they patch globals only). Both modules load
 * on first use of the clock, not with the package.
 */
import type { Performance } from 'perf_hooks';
import type * as Timers from 'timers';
import { Clock, ClockTimer, scheduleLong } from './clock';

/* eslint-disable @typescript-eslint/no-require-imports */
let performance: Performance | undefined;
/** `performance.timeOrigin`: fixed for the process, and a getter that costs a third of `now()`. */
let timeOrigin = 0;
let timers: typeof Timers | undefined;

export const realClock: Clock = {
  kind: 'real',
  now: () => {
    let perf = performance;
    if (perf === undefined) {
      perf = performance = (require('perf_hooks') as typeof import('perf_hooks')).performance;
      timeOrigin = perf.timeOrigin;
    }
    return Math.floor(timeOrigin + perf.now());
  },
  schedule(fn: () => void, ms: number): ClockTimer {
    const t = (timers ??= require('timers') as typeof Timers);
    return scheduleLong((f, d) => t.setTimeout(f, d), (h) => t.clearTimeout(h), fn, ms);
  },
};
