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
