/**
 * A stream's IDMP map (idempotent message processing, Redis 8.6): per producer ID (pid), the
 * idempotent IDs (iids) of its recent XADDs, each with the ID of the entry it added, oldest first.
 *
 * Sources: redis.io XADD / XCFGSET / "Idempotent message processing" (8.6) and Redis's own
 * tests/unit/type/stream.tcl of a tree with IDMP (the iid set of a producer is bounded by
 * `maxSize`, the oldest evicted first; an iid older than `duration` seconds is forgotten; XCFGSET
 * with a changed value clears every producer; `iids-added` / `iids-duplicates` are lifetime
 * counters; Redis 8.6.2's release notes name the server cron that expires iids). Unconfirmed (no
 * 8.6+ server or source here): an iid's age is taken from the millisecond part of its entry's ID
 * (the only time Redis's RDB stores for it); expired iids are dropped when their producer adds or
 * looks up an iid and before XINFO STREAM reports (as if the cron had just run), and a producer
 * left without iids is dropped with them.
 *
 * Byte strings throughout (pids and iids may hold any bytes).
 */
import type { StreamId } from './stream-id';

/** Redis 8.6 defaults and bounds (XCFGSET, CONFIG stream-idmp-duration / stream-idmp-maxsize). */
export const IDMP_DURATION_DEFAULT = 100;
export const IDMP_DURATION_MAX = 86_400;
export const IDMP_MAXSIZE_DEFAULT = 100;
export const IDMP_MAXSIZE_MAX = 10_000;

export class IdmpMap {
  /** Seconds an iid is remembered (IDMP-DURATION, 1–86400). */
  duration: number;
  /** Most recent iids remembered per producer (IDMP-MAXSIZE, 1–10000). */
  maxSize: number;
  /** pid → (iid → entry ID), each inner map in insertion order (oldest first). */
  readonly producers = new Map<string, Map<string, StreamId>>();
  /** Lifetime count of iids added (XINFO STREAM `iids-added`). */
  iidsAdded = 0n;
  /** Lifetime count of duplicates refused (XINFO STREAM `iids-duplicates`). */
  iidsDuplicates = 0n;
  /** iids held over every producer (XINFO STREAM `iids-tracked`). */
  tracked = 0;

  constructor(duration: number, maxSize: number) {
    this.duration = duration;
    this.maxSize = maxSize;
  }

  /**
   * The entry ID recorded for `pid`/`iid`, or null; iids of `pid` older than `duration` at
   * `now` (ms) are forgotten first.
   */
  lookup(pid: string, iid: string, now: number): StreamId | null {
    const iids = this.producers.get(pid);
    if (iids === undefined) return null;
    this.expire(pid, iids, now);
    return iids.get(iid) ?? null;
  }

  /** Record `iid` of `pid` as having added entry `id`; the producer's oldest beyond `maxSize` go. */
  record(pid: string, iid: string, id: StreamId): void {
    let iids = this.producers.get(pid);
    if (iids === undefined) {
      iids = new Map();
      this.producers.set(pid, iids);
    }
    iids.set(iid, id);
    this.tracked++;
    while (iids.size > this.maxSize) {
      iids.delete(iids.keys().next().value as string);
      this.tracked--;
    }
    this.iidsAdded++;
  }

  /** XCFGSET: new settings; a changed value forgets every producer (the counters stay). */
  configure(duration: number, maxSize: number): void {
    if (duration === this.duration && maxSize === this.maxSize) return;
    this.duration = duration;
    this.maxSize = maxSize;
    this.producers.clear();
    this.tracked = 0;
  }

  /** Deep copy (COPY). */
  clone(): IdmpMap {
    const c = new IdmpMap(this.duration, this.maxSize);
    for (const [pid, iids] of this.producers) c.producers.set(pid, new Map(iids));
    c.iidsAdded = this.iidsAdded;
    c.iidsDuplicates = this.iidsDuplicates;
    c.tracked = this.tracked;
    return c;
  }

  /** Forget every iid older than `duration` at `now` (ms), as Redis's cron does. */
  expireAll(now: number): void {
    for (const [pid, iids] of this.producers) this.expire(pid, iids, now);
  }

  private expire(pid: string, iids: Map<string, StreamId>, now: number): void {
    const horizon = now - this.duration * 1000;
    for (const [iid, id] of iids) {
      // oldest first: stop at the first one still young enough
      if (Number(id.ms) > horizon) break;
      iids.delete(iid);
      this.tracked--;
    }
    if (iids.size === 0) this.producers.delete(pid);
  }
}
