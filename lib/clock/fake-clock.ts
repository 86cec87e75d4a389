/**
 * A manual fake clock: it touches no globals and moves only when the test says so. Its API is
 * @sinonjs/fake-timers' (`tick`, `tickAsync`, `setSystemTime`, `runAll`, `runAllAsync`,
 * `countTimers`, `reset`, `loopLimit`) and so are the firing rules (timers due at the same ms in
 * creation order; a 0 ms timer created while a tick runs is due 1 ms later; `tickAsync` lets
 * promise callbacks run before it starts and after each timer). Two things differ, on purpose,
 * because a keyspace needs them and fake-timers' own timers cannot give them:
 * - a timer is due at an absolute time: `setSystemTime()` past a BLOCK deadline leaves the read
 *   due, and the next `tick`/`tickAsync` (even of 0 ms) answers it; fake-timers moves every
 *   timer along with the jump instead;
 * - delays have no 2^31 − 1 ms limit and advancing costs one step per due timer, whatever the
 *   distance (a BLOCK of 1e15 ms and `tick(1e15)` are as cheap as 5 s).
 * Time stays within 0 … 2^53 − 1 ms since the epoch (JS numbers are exact there; Date ends
 * sooner): moving past it throws, and a timer due later (a BLOCK near INT64_MAX ms) never fires.
 */
import { Clock, ClockTimer, StreamsMockError } from './clock';
import { realSetImmediate } from './real-timers';

export interface FakeClockOptions {
  /**
   * Start time, ms since the Unix epoch (or a Date).
   * @default 0
   */
  now?: number | Date;
  /**
   * Maximum timers `runAll` fires before throwing (fake-timers' loopLimit).
   * @default 1000
   */
  loopLimit?: number;
}

interface Timer {
  readonly id: number;
  /** Due time, ms since the epoch (moved by `reset`). */
  at: number;
  readonly fn: () => void;
}

/** Real macrotask turn (Node's own setImmediate: fake timers cannot stall it). */
const nextMacrotask = () => new Promise<void>((resolve) => realSetImmediate(resolve));

function epochMs(value: unknown, what: string): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= Number.MAX_SAFE_INTEGER)) {
    throw new StreamsMockError(`${what} must be ms since the Unix epoch (0 to 2^53 - 1) or a Date, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  }
  return Math.floor(ms);
}

function durationMs(value: unknown, what: string): number {
  if (typeof value !== 'number' || !(value >= 0) || value === Infinity) {
    throw new StreamsMockError(`${what} must be a finite number of ms >= 0, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  }
  return value;
}

/** Earlier due time first, then creation order (fake-timers' compareTimers). */
function before(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}

export class FakeClock implements Clock {
  readonly kind = 'fake' as const;
  private readonly start: number;
  private readonly loopLimit: number;
  private current: number;
  /** Sub-ms part of the ticks so far (fake-timers keeps it the same way). */
  private fraction = 0;
  private duringTick = false;
  private nextId = 1;
  /** Binary heap ordered by `before`; cancelled timers are dropped when they reach the top. */
  private readonly heap: Timer[] = [];
  private readonly live = new Set<number>();

  constructor(options: FakeClockOptions = {}) {
    this.start = epochMs(options.now ?? 0, 'createFakeClock: now');
    const loopLimit = options.loopLimit ?? 1000;
    if (!Number.isInteger(loopLimit) || loopLimit < 1) {
      throw new StreamsMockError(`createFakeClock: loopLimit must be a whole number >= 1, got ${String(loopLimit)}`);
    }
    this.loopLimit = loopLimit;
    this.current = this.start;
  }

  /** Current fake time in ms since the epoch. */
  now(): number {
    return this.current;
  }

  /** Run `fn` when the clock reaches now + `ms` (any length; 0 while ticking means 1, as in fake-timers). */
  schedule(fn: () => void, ms: number): ClockTimer {
    const delay = Math.max(0, Number(ms) || 0);
    const timer: Timer = { id: this.nextId++, at: this.current + (delay === 0 && this.duringTick ? 1 : delay), fn };
    this.push(timer);
    this.live.add(timer.id);
    return { cancel: () => void this.live.delete(timer.id) };
  }

  /**
   * Advance by `ms` milliseconds, firing due timers (BLOCK timeouts) synchronously, in order.
   * An exception of a timer callback is re-thrown after the tick.
   * @returns the new time
   */
  tick(ms: number): number {
    const target = this.targetOf(ms);
    let firstError: { e: unknown } | undefined;
    this.duringTick = true;
    try {
      for (let t = this.popDue(target); t; t = this.popDue(target)) {
        const err = this.fire(t);
        if (err && !firstError) firstError = err;
      }
    } finally {
      this.duringTick = false;
    }
    this.current = Math.max(this.current, target);
    if (firstError) throw firstError.e;
    return this.current;
  }

  /**
   * Advance by `ms` milliseconds, letting promises settle before the first timer and after each
   * one, so code awaiting a blocked read runs before the next timer fires. Prefer this in async
   * tests.
   * @returns the new time
   */
  async tickAsync(ms: number): Promise<number> {
    const target = this.targetOf(ms);
    let firstError: { e: unknown } | undefined;
    await nextMacrotask();
    this.duringTick = true;
    try {
      for (let t = this.popDue(target); t; t = this.popDue(target)) {
        const err = this.fire(t);
        if (err && !firstError) firstError = err;
        await nextMacrotask();
      }
    } finally {
      this.duringTick = false;
    }
    this.current = Math.max(this.current, target);
    if (firstError) throw firstError.e;
    return this.current;
  }

  /**
   * Jump to an absolute time (ms or Date) without firing timers. Timers keep their due times:
   * those the jump passed fire at the next `tick`/`tickAsync` (fake-timers would shift them).
   */
  setSystemTime(now: number | Date): void {
    this.current = epochMs(now, 'setSystemTime');
    this.fraction = 0;
  }

  /**
   * Fire every pending timer (due within 2^53 − 1 ms), moving the clock to each one's due time.
   * @throws StreamsMockError after `loopLimit` timers (an endless chain of timers)
   */
  runAll(): number {
    for (let i = 0; i < this.loopLimit; i++) {
      const t = this.popDue(Number.MAX_SAFE_INTEGER);
      if (!t) return this.current;
      this.fireAlone(t);
    }
    if (!this.hasDue(Number.MAX_SAFE_INTEGER)) return this.current;
    throw this.loopError();
  }

  /** Async variant of `runAll`: promises settle before the first timer and after each one. */
  async runAllAsync(): Promise<number> {
    for (let i = 0; i < this.loopLimit; i++) {
      await nextMacrotask();
      const t = this.popDue(Number.MAX_SAFE_INTEGER);
      if (!t) return this.current;
      this.fireAlone(t);
    }
    await nextMacrotask();
    if (!this.hasDue(Number.MAX_SAFE_INTEGER)) return this.current;
    throw this.loopError();
  }

  /** Number of pending timers (BLOCK deadlines, CLAIM wake-ups, key expiries). */
  countTimers(): number {
    return this.live.size;
  }

  /**
   * Go back to the start time, or to `now` (ms since the epoch or a Date) if given. Pending
   * timers are kept, each at the same remaining delay from the new time: they are the engine's
   * (BLOCK timeouts, active key expiry, CLIENT PAUSE), and a blocked read whose timeout was dropped
   * would never answer. Keys keep their absolute expire times (the keyspace's, as on a server
   * whose clock is set): a key whose time the new `now` has passed is expired when next touched.
   * @throws StreamsMockError when `now` is not ms since the epoch / a Date
   */
  reset(now?: number | Date): void {
    const to = now === undefined ? this.start : epochMs(now, 'reset');
    const shift = to - this.current;
    // one shift for all: the heap's order is unchanged
    for (const t of this.heap) t.at += shift;
    this.fraction = 0;
    this.current = to;
  }

  private loopError(): StreamsMockError {
    return new StreamsMockError(`runAll: aborting after running ${this.loopLimit} timers, assuming an infinite loop (raise loopLimit in createFakeClock if this is expected)`);
  }

  /** The time a tick of `ms` ends at (whole ms; fractions add up as in fake-timers). */
  private targetOf(ms: number): number {
    const d = durationMs(ms, 'tick');
    let whole = Math.floor(d);
    let fraction = this.fraction + d - whole;
    if (fraction >= 1) {
      whole += 1;
      fraction -= 1;
    }
    const target = this.current + whole;
    if (target > Number.MAX_SAFE_INTEGER) {
      throw new StreamsMockError(`tick(${ms}) would move the fake clock past 2^53 - 1 ms since the epoch, the largest exact time`);
    }
    this.fraction = fraction;
    return target;
  }

  /** Run one timer at its due time (never moving the clock back); returns its exception. */
  /** Fire one timer as a tick of its own (runAll); its callback's exception is re-thrown. */
  private fireAlone(t: Timer): void {
    this.duringTick = true;
    try {
      const err = this.fire(t);
      if (err) throw err.e;
    } finally {
      this.duringTick = false;
    }
  }

  private fire(t: Timer): { e: unknown } | undefined {
    this.current = Math.max(this.current, t.at);
    try {
      t.fn();
      return undefined;
    } catch (e) {
      return { e };
    }
  }

  /** True if a live timer is due at or before `limit`. */
  private hasDue(limit: number): boolean {
    const t = this.popDue(limit);
    if (!t) return false;
    this.push(t);
    this.live.add(t.id);
    return true;
  }

  /** Remove and return the first live timer due at or before `limit`, if any. */
  private popDue(limit: number): Timer | undefined {
    for (;;) {
      const top = this.heap[0];
      if (!top) return undefined;
      if (!this.live.has(top.id)) {
        this.pop();
        continue;
      }
      if (top.at > limit) return undefined;
      this.pop();
      this.live.delete(top.id);
      return top;
    }
  }

  private push(t: Timer): void {
    const h = this.heap;
    let i = h.push(t) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l], h[m])) m = l;
      if (r < h.length && before(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}

/**
 * Create a manual fake clock.
 * @param options `{ now, loopLimit }`, or just the start time (ms since the epoch or a Date)
 * @throws StreamsMockError for a start time that is not ms since the epoch / a Date, or unknown options
 * @example
 * const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
 * const redis = new Redis({ streams: { clock } });
 * await clock.tickAsync(5_000); // a BLOCK 5000 read now answers nil
 */
export function createFakeClock(options: FakeClockOptions | number | Date = {}): FakeClock {
  if (typeof options === 'number' || options instanceof Date) return new FakeClock({ now: options });
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new StreamsMockError(`createFakeClock takes { now, loopLimit } or a start time, got ${typeof options === 'string' ? JSON.stringify(options) : String(options)}`);
  }
  const unknown = Object.keys(options).filter((k) => k !== 'now' && k !== 'loopLimit');
  if (unknown.length > 0) {
    throw new StreamsMockError(`createFakeClock: unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')}; the options are now and loopLimit`);
  }
  return new FakeClock(options);
}
