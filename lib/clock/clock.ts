/**
 * The clock a keyspace runs on. Every time a stream command reads (XADD `*` IDs, idle times,
 * seen-time/active-time, XCLAIM IDLE/TIME, BLOCK deadlines, key TTLs) comes from one `Clock`.
 */

/** A scheduled callback; cancel it with `cancel()` (idempotent). */
export interface ClockTimer {
  cancel(): void;
}

export interface Clock {
  /** Current time in ms since the Unix epoch. */
  now(): number;
  /** Run `fn` once `ms` (>= 0) have passed on this clock. */
  schedule(fn: () => void, ms: number): ClockTimer;
  /** A short description for error messages and debugging. */
  readonly kind: 'fake' | 'global' | 'real' | 'custom';
}

/** Error for library misuse (never a Redis reply). */
export class StreamsMockError extends Error {
  constructor(message: string) {
    super(`[ioredis-mock-streams] ${message}`);
    this.name = 'StreamsMockError';
  }
}

/** Largest delay a JS timer takes (2^31 − 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_DELAY = 2 ** 31 - 1;

/**
 * Schedule `fn` after `ms` using a timer API limited to MAX_TIMER_DELAY, by chaining timers,
 * so a BLOCK of 30 days waits 30 days (JS timers would fire after 1 ms).
 */
export function scheduleLong(
  setT: (fn: () => void, ms: number) => unknown,
  clearT: (handle: never) => void,
  fn: () => void,
  ms: number,
): ClockTimer {
  let handle: unknown;
  let cancelled = false;
  const arm = (left: number) => {
    const step = Math.min(Math.max(0, left), MAX_TIMER_DELAY);
    handle = setT(() => {
      if (cancelled) return;
      if (left > step) arm(left - step);
      else fn();
    }, step);
  };
  arm(ms);
  return {
    cancel: () => {
      cancelled = true;
      clearT(handle as never);
    },
  };
}
