/**
 * Wall time that a test can move: real time plus an offset, like miniredis's `SetTime` /
 * `FastForward`. It runs on its own (BLOCK timeouts fire in real time, so other processes see
 * a normal server), and `tick(ms)` / `setTime(ms)` shift it: timers that the new time has
 * reached fire at once, in deadline order, the rest are re-armed for their remaining time.
 * Real time is the platform's `Date.now` (./real-clock.ts wallNow) and timers are Node's own
 * (./real-timers.ts), which no fake timers replace.
 */
import { wallNow } from './real-clock';
import { Clock, ClockTimer, StreamsMockError, scheduleLong } from './clock';
import { realClearTimeout, realSetTimeout } from './real-timers';

/**
 * The latest time this clock is set or moved to: the largest Date (8.64e15 ms, year 275760).
 * Wall time keeps moving it on from there, and every clock must stay within 2^53 - 1 ms (the
 * largest exact integer, about 11,000 years later).
 */
const MAX_TIME = 8.64e15;

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  real: ClockTimer | null;
  done: boolean;
}

export class AdjustableClock implements Clock {
  readonly kind = 'custom' as const;
  /** Wall time moved by whole ms: TIME reports the wall clock's microseconds within each ms. */
  readonly followsWallTime = true;
  private offset = 0;
  private seq = 0;
  private readonly pending = new Set<Pending>();

  /** @param startMs the time `now()` answers right away (ms since the epoch; default: wall time) */
  constructor(startMs?: number) {
    if (startMs !== undefined) this.setOffsetFor(startMs);
  }

  private setOffsetFor(ms: number): void {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_TIME) {
      throw new StreamsMockError(`clock time must be ms since the epoch from 0 to 8.64e15 (the largest Date), got ${String(ms)}`);
    }
    this.offset = ms - wallNow();
  }

  /** Current time in ms since the epoch (an integer, like Redis's mstime()). */
  now(): number {
    return Math.floor(wallNow() + this.offset);
  }

  schedule(fn: () => void, ms: number): ClockTimer {
    const p: Pending = { at: this.now() + Math.max(0, ms), seq: ++this.seq, fn, real: null, done: false };
    this.pending.add(p);
    this.arm(p);
    return {
      cancel: () => {
        p.done = true;
        p.real?.cancel();
        this.pending.delete(p);
      },
    };
  }

  private arm(p: Pending): void {
    p.real?.cancel();
    p.real = scheduleLong(
      (f, d) => realSetTimeout(f, d),
      (h) => realClearTimeout(h as ReturnType<typeof realSetTimeout>),
      () => {
        if (p.done) return;
        if (this.now() < p.at) this.arm(p); // real timers may fire a little early
        else this.fire(p);
      },
      Math.max(0, p.at - this.now()),
    );
  }

  private fire(p: Pending): void {
    if (p.done) return;
    p.done = true;
    p.real?.cancel();
    this.pending.delete(p);
    p.fn();
  }

  /** Fire every timer now due (deadline order), re-arm the others. */
  private settle(): void {
    const now = this.now();
    const due = [...this.pending].filter((p) => p.at <= now).sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const p of this.pending) if (p.at > now) this.arm(p);
    for (const p of due) this.fire(p);
  }

  /** Move forward by `ms` (>= 0); timers reached fire at once. Returns the new time. */
  tick(ms: number): number {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new StreamsMockError(`tick(ms) needs a finite number of ms >= 0, got ${String(ms)}`);
    }
    if (ms > 0 && this.now() + ms > MAX_TIME) {
      throw new StreamsMockError(`tick(${ms}) would move the clock past 8.64e15 ms since the epoch (the largest Date)`);
    }
    this.offset += ms;
    this.settle();
    return this.now();
  }

  /** Jump to `ms` since the epoch (forward or back); timers reached fire at once. */
  setTime(ms: number): number {
    this.setOffsetFor(ms);
    this.settle();
    return this.now();
  }

  /** Pending timers (BLOCK deadlines, expiries). */
  countTimers(): number {
    return this.pending.size;
  }

  /** Cancel every timer (server shutdown). */
  cancelAll(): void {
    for (const p of [...this.pending]) {
      p.done = true;
      p.real?.cancel();
    }
    this.pending.clear();
  }
}
