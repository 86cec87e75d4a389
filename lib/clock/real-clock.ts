/**
 * Wall-clock time that fake timers cannot touch: `perf_hooks`' performance (loaded on first use
 * of the clock), which no fake timers replace, and Node's own timers (./real-timers.ts; the
 * `timers` module's functions read at call time are fakes while @sinonjs/fake-timers is installed
 * on the real global).
 */
import type { Performance } from 'perf_hooks';
import { Clock, ClockTimer, scheduleLong } from './clock';
import { realClearTimeout, realSetTimeout } from './real-timers';

/* eslint-disable @typescript-eslint/no-require-imports */
let performance: Performance | undefined;
/** `performance.timeOrigin`: fixed for the process, and a getter that costs a third of `now()`. */
let timeOrigin = 0;

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
    return scheduleLong((f, d) => realSetTimeout(f, d), (h) => realClearTimeout(h as ReturnType<typeof realSetTimeout>), fn, ms);
  },
};
