/**
 * A manual fake clock built on @sinonjs/fake-timers' `createClock`: it touches no globals and
 * moves only when the test says so.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { Clock, ClockTimer, StreamsMockError, scheduleLong } from './clock';

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

export class FakeClock implements Clock {
  readonly kind = 'fake' as const;
  private readonly timers;

  constructor(options: FakeClockOptions = {}) {
    const now = options.now ?? 0;
    if (!(now instanceof Date ? Number.isFinite(now.getTime()) : typeof now === 'number' && Number.isFinite(now))) {
      throw new StreamsMockError(`createFakeClock: now must be a finite number of ms or a Date, got ${String(now)}`);
    }
    this.timers = FakeTimers.createClock(options.now ?? 0, options.loopLimit ?? 1000);
  }

  /** Current fake time in ms since the epoch. */
  now(): number {
    return this.timers.now;
  }

  schedule(fn: () => void, ms: number): ClockTimer {
    // fake-timers' typings union the id type of browser and node timers
    return scheduleLong(
      (f, d) => this.timers.setTimeout(f, d),
      (id) => this.timers.clearTimeout(id),
      fn,
      ms,
    );
  }

  /** Advance by `ms` milliseconds, firing due timers (BLOCK timeouts) synchronously. */
  tick(ms: number): number {
    return this.timers.tick(ms);
  }

  /**
   * Advance by `ms` milliseconds, letting promises settle between timers, so code awaiting a
   * blocked read runs before the next timer fires. Prefer this in async tests.
   */
  tickAsync(ms: number): Promise<number> {
    return this.timers.tickAsync(ms);
  }

  /** Jump to an absolute time (ms or Date) without firing timers (like fake-timers' setSystemTime). */
  setSystemTime(now: number | Date): void {
    this.timers.setSystemTime(now);
  }

  /** Fire every pending timer (throws after `loopLimit` timers). */
  runAll(): number {
    return this.timers.runAll();
  }

  /** Async variant of `runAll`. */
  runAllAsync(): Promise<number> {
    return this.timers.runAllAsync();
  }

  /** Number of pending timers (BLOCK deadlines, CLAIM wake-ups, key expiries). */
  countTimers(): number {
    return this.timers.countTimers();
  }

  /** Cancel every timer and (optionally) move to `now`. */
  reset(now?: number | Date): void {
    this.timers.reset();
    if (now !== undefined) this.timers.setSystemTime(now);
  }
}

/**
 * Create a manual fake clock.
 * @example
 * const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
 * const redis = new Redis({ streams: { clock } });
 * await clock.tickAsync(5_000); // a BLOCK 5000 read now answers nil
 */
export function createFakeClock(options: FakeClockOptions = {}): FakeClock {
  return new FakeClock(options);
}
