/**
 * The clock a keyspace runs on. Every time a stream command reads (XADD `*` IDs, idle times,
 * seen-time/active-time, XCLAIM IDLE/TIME, BLOCK deadlines, key TTLs) comes from one `Clock`.
 *
 * The rule for clocks given by users (`streams.clock`, `setClock`), enforced in ./accept.ts and
 * at every read:
 * - a `Clock` (`now()` + `schedule(fn, ms)` returning `{ cancel() }`), or a @sinonjs/fake-timers
 *   clock (`createClock()`, `install()`), which is adapted;
 * - `now()` answers ms since the Unix epoch as a number in [0, 2^53 − 1]; a fraction is dropped
 *   (Redis keeps whole ms). Anything else (NaN, negative, 2^64, a string) makes the command
 *   reject with a StreamsMockError before it changes anything;
 * - `schedule()` returns an object with a `cancel()` method; otherwise the call that needed the
 *   timer (a blocked read) rejects with a StreamsMockError.
 */

/** A scheduled callback; cancel it with `cancel()` (idempotent). */
export interface ClockTimer {
  cancel(): void;
  /**
   * Optional: let the process exit while this timer waits (Node's `timeout.unref()`), for
   * timers nobody awaits (active key expiry). Clocks without real timers may leave it out.
   */
  unref?(): void;
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

/** The misuse error of a project without ioredis (the package's peer dependency; Yarn 1 installs no peers). */
export function ioredisMissingError(): StreamsMockError {
  return new StreamsMockError(
    'ioredis-mock-streams needs ioredis 5 or 6 in your project (its peer dependency), and none was found: ' +
      'install it next to this package (npm install --save-dev ioredis)',
  );
}

/** Largest delay a JS timer takes (2^31 − 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_DELAY = 2 ** 31 - 1;

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return String(value);
}

/**
 * `clock.now()`, checked: ms since the epoch as a whole number in [0, 2^53 − 1].
 * @throws StreamsMockError when the clock answers anything else
 */
export function readNow(clock: Clock): number {
  const value: unknown = clock.now();
  if (typeof value !== 'number' || !(value >= 0 && value <= Number.MAX_SAFE_INTEGER)) invalidNow(value);
  return Math.floor(value);
}

/**
 * The error of a clock whose `now()` answered `value` (not ms since the epoch in [0, 2^53 − 1]).
 * @throws StreamsMockError always
 */
export function invalidNow(value: unknown): never {
  throw new StreamsMockError(
    `clock.now() returned ${show(value)}; it must return ms since the Unix epoch as a number from 0 to 2^53 - 1 ` +
      `(like Date.now()). Fix the clock given in streams.clock / setClock()`,
  );
}

/**
 * `clock.schedule(fn, ms)`, checked: the handle must have `cancel()`.
 * @throws StreamsMockError when it has not (the timer may still fire; callers ignore it then)
 */
export function scheduleChecked(clock: Clock, fn: () => void, ms: number): ClockTimer {
  const handle: unknown = clock.schedule(fn, ms);
  if (typeof handle !== 'object' || handle === null || typeof (handle as ClockTimer).cancel !== 'function') {
    throw new StreamsMockError(
      `clock.schedule() returned ${show(handle)}; it must return an object with a cancel() method ` +
        `(e.g. { cancel: () => clearTimeout(id) }). Fix the clock given in streams.clock / setClock()`,
    );
  }
  return handle as ClockTimer;
}

/**
 * Schedule `fn` after `ms` using a timer API limited to MAX_TIMER_DELAY, by chaining timers,
 * so a BLOCK of 30 days waits 30 days (JS timers would fire after 1 ms). Each step costs one
 * timer per 24.8 days of the clock's time: nothing for real time; for fake timers, see
 * ./fake-timers-long.ts, which avoids the chain.
 */
export function scheduleLong(
  setT: (fn: () => void, ms: number) => unknown,
  clearT: (handle: never) => void,
  fn: () => void,
  ms: number,
): ClockTimer {
  let handle: unknown;
  let cancelled = false;
  let unrefd = false;
  const unrefHandle = () => {
    const h = handle as { unref?: () => unknown } | null;
    if (h !== null && typeof h === 'object' && typeof h.unref === 'function') h.unref();
  };
  const arm = (left: number) => {
    const step = Math.min(Math.max(0, left), MAX_TIMER_DELAY);
    handle = setT(() => {
      if (cancelled) return;
      if (left > step) arm(left - step);
      else fn();
    }, step);
    if (unrefd) unrefHandle();
  };
  arm(ms);
  return {
    cancel: () => {
      cancelled = true;
      clearT(handle as never);
    },
    unref: () => {
      unrefd = true;
      unrefHandle();
    },
  };
}
