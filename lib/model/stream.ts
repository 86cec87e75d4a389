/**
 * A stream (Redis `stream` in stream.h): entries, last-generated ID, recorded first entry ID,
 * max deleted entry ID, entries-added counter and consumer groups.
 *
 * Glossary (Redis terms used throughout lib/model):
 * - entry: one ID + field/value list; ID: `ms-seq`, two unsigned 64-bit integers.
 * - consumer group: named cursor over the stream (last-delivered-id, entries-read) with a PEL.
 * - PEL (pending entries list): IDs delivered to a consumer of the group and not yet acknowledged.
 * - delivery count / delivery time: how often / when (unix ms) a pending entry was last delivered.
 * - idle time: now − delivery time (ms).
 * - lag: entries in the stream not yet delivered to the group (Redis 7.0+).
 * This module is pure: it never reads the clock; callers pass `now` in ms.
 */
import { ConsumerGroup } from './consumer-group';
import type { IdmpMap } from './idmp';
import { StreamEntries, StreamEntry } from './stream-entries';
import { MIN_ID, StreamId, compareIds, idOfNumbers, idParts, incrId, isZeroId, maxId, numericParts } from './stream-id';

/** Sentinel for "entries-read unknown" (Redis SCG_INVALID_ENTRIES_READ), shown as nil. */
export const ENTRIES_READ_UNKNOWN = -1n;

export type TrimStrategy = { kind: 'maxlen'; maxLen: bigint } | { kind: 'minid'; minId: StreamId };

export interface TrimOptions {
  strategy: TrimStrategy;
  /** `~`: remove whole nodes only. */
  approx: boolean;
  /** Work limit in entries for approximate trimming (0 = unlimited). */
  limit: number;
  /**
   * Redis 8.2 KEEPREF|DELREF|ACKED for XADD/XTRIM (default keepref). With delref/acked the trim
   * follows Redis's per-entry path (see `trimWithRefPolicy`).
   */
  policy?: RefPolicy;
}

/** How deleting an entry treats consumer-group references (Redis 8.2 KEEPREF|DELREF|ACKED). */
export type RefPolicy = 'keepref' | 'delref' | 'acked';

/** The last time converted by `msBigint` and its bigint (converting costs ~150 ns; XADDs in one ms share it). */
let lastNow = -1;
let lastNowMs = 0n;

/** `BigInt(max(0, floor(now)))`, remembered for consecutive calls with the same `now`. */
const INT64_MAX = (1n << 63n) - 1n;

function msBigint(now: number): bigint {
  if (now !== lastNow) {
    lastNowMs = BigInt(Math.max(0, Math.floor(now)));
    lastNow = now;
  }
  return lastNowMs;
}

export class Stream {
  entries = new StreamEntries();
  /** Last generated ID (survives deletion of that entry). */
  lastId: StreamId = MIN_ID;
  /** Recorded first entry ID (0-0 when empty). */
  firstId: StreamId = MIN_ID;
  /** Largest ID removed by XDEL-style deletion (not by trimming). */
  maxDeletedEntryId: StreamId = MIN_ID;
  /** Lifetime count of added entries. */
  entriesAdded = 0n;
  readonly groups = new Map<string, ConsumerGroup>();
  /** The IDMP map (Redis 8.6 idempotent XADD), made by the first XADD IDMP/IDMPAUTO or XCFGSET. */
  idmp: IdmpMap | null = null;

  get length(): number {
    return this.entries.length;
  }

  /**
   * The ID XADD `*` assigns at `now` (ms): `now-0` if now > lastId.ms, else lastId+1.
   * Returns null when lastId is the max ID ("exhausted the last possible ID").
   */
  nextAutoId(now: number): StreamId | null {
    const last = this.lastId;
    const nowMs = Math.max(0, Math.floor(now));
    if (nowMs <= Number.MAX_SAFE_INTEGER && numericParts(last)) {
      // both as numbers (the usual IDs): no bigint arithmetic
      if (nowMs > idParts.ms) return idOfNumbers(nowMs, 0);
      if (idParts.seq < Number.MAX_SAFE_INTEGER) return idOfNumbers(idParts.ms, idParts.seq + 1);
      return incrId(last);
    }
    const ms = msBigint(now);
    if (ms > last.ms) return { ms, seq: 0n };
    return incrId(last);
  }

  /** Append an entry; the caller has checked id > lastId. */
  append(id: StreamId, fields: readonly string[]): void {
    this.entries.append(id, fields);
    if (this.entries.length === 1) this.firstId = id;
    this.lastId = id;
    const added = this.entriesAdded + 1n;
    this.entriesAdded = added <= INT64_MAX ? added : BigInt.asIntN(64, added); // Redis long long: wraps
  }

  /** XDEL one ID: true if a live entry was removed; updates max-deleted-entry-id and first ID. */
  deleteEntry(id: StreamId): boolean {
    if (!this.entries.delete(id)) return false;
    this.maxDeletedEntryId = maxId(this.maxDeletedEntryId, id);
    if (compareIds(id, this.firstId) === 0) this.firstId = this.entries.first()?.id ?? MIN_ID;
    if (this.entries.length === 0) this.firstId = MIN_ID;
    return true;
  }

  /**
   * Trim as Redis `streamTrim`: whole head nodes first; approximate trimming stops at the first
   * node that cannot go entirely or when the work limit would be exceeded; exact trimming then
   * removes single entries from that node. Returns the IDs removed, oldest first.
   */
  trim(opts: TrimOptions): StreamId[] {
    if (opts.policy === 'delref' || opts.policy === 'acked') return this.trimWithRefPolicy(opts);
    const removed: StreamId[] = [];
    const { strategy, approx, limit } = opts;
    for (;;) {
      if (strategy.kind === 'maxlen' && BigInt(this.length) <= strategy.maxLen) break;
      const head = this.entries.headNode();
      if (!head) break;
      if (limit && removed.length + head.live > limit) break;
      const removeNode =
        strategy.kind === 'maxlen'
          ? BigInt(this.length - head.live) >= strategy.maxLen
          : compareIds(head.lastId, strategy.minId) < 0;
      if (removeNode) {
        // element by element: a node may hold more IDs than a call takes arguments
        // (stream-node-max-entries 0 with stream-node-max-bytes 0: one node for the whole stream)
        for (const id of this.entries.removeHeadNode()) removed.push(id);
        continue;
      }
      if (approx) break;
      // Redis walks the node's entries in storage order, deleted ones included: MINID stops at
      // the first entry (live or not) at or above it.
      for (const e of this.entries.headSlots()) {
        if (strategy.kind === 'maxlen' ? BigInt(this.length) <= strategy.maxLen : compareIds(e.id, strategy.minId) >= 0) break;
        if (!e.live) continue;
        // Redis marks the entry deleted in place and keeps the node even if no live entry is left.
        this.entries.delete(e.id, true);
        removed.push(e.id);
      }
      break;
    }
    if (removed.length) this.firstId = this.entries.first()?.id ?? MIN_ID;
    return removed;
  }

  /**
   * Redis 8.2 `streamTrim` with DELREF or ACKED: nodes are never dropped wholesale and `~` does
   * not stop at the first node that cannot go entirely. Walking from the head, each node that
   * is entirely within the limit ("eligible") has its entries removed one by one (DELREF: after
   * removing them from every group PEL; ACKED: skipping, not stopping at, entries some group
   * still needs) and the walk continues; the first non-eligible node is trimmed entry by entry up
   * to the MAXLEN/MINID limit, then the walk stops. The work limit (`limit`, live entries) is
   * checked before each node. Checked against t_stream.c `streamTrim` (redis unstable, 8.x).
   */
  private trimWithRefPolicy(opts: TrimOptions): StreamId[] {
    const removed: StreamId[] = [];
    const { strategy, limit } = opts;
    const acked = opts.policy === 'acked';
    let n = 0;
    for (;;) {
      if (strategy.kind === 'maxlen' && BigInt(this.length) <= strategy.maxLen) break;
      const node = this.entries.nodeInfo(n);
      if (!node) break;
      if (limit && removed.length + node.live > limit) break;
      const eligible =
        strategy.kind === 'maxlen'
          ? BigInt(this.length - node.live) >= strategy.maxLen
          : compareIds(node.lastId, strategy.minId) < 0;
      if (node.live === 0) {
        // A node left without live entries by an exact KEEPREF MINID trim (see StreamEntries
        // `delete`). Assumed, not checked on a server: an eligible one is freed, like a node whose
        // last entry this walk removes.
        if (!eligible) break;
        this.entries.removeNode(n);
        continue;
      }
      let removedHere = 0;
      for (const id of this.entries.liveIdsInNode(n)) {
        const stop =
          strategy.kind === 'maxlen' ? BigInt(this.length) <= strategy.maxLen : compareIds(id, strategy.minId) >= 0;
        if (stop) break;
        if (acked) {
          if (!this.isAckedByAllGroups(id)) continue;
        } else {
          this.removeReferences(id);
        }
        this.entries.delete(id);
        removed.push(id);
        removedHere++;
      }
      if (!eligible) break;
      // A node whose live entries all went is freed by StreamEntries; otherwise move past it.
      if (removedHere < node.live) n++;
    }
    if (removed.length) this.firstId = this.entries.first()?.id ?? MIN_ID;
    return removed;
  }

  /** True if some consumer group has `id` in its PEL. O(groups × log PEL). */
  isReferenced(id: StreamId): boolean {
    for (const g of this.groups.values()) if (g.pel.has(id)) return true;
    return false;
  }

  /**
   * Redis 8.2 ACKED test (`!streamEntryIsReferenced`): no group still needs `id`, i.e. every
   * group's last-delivered-id is >= id and no group has it pending. True when there are no groups.
   */
  isAckedByAllGroups(id: StreamId): boolean {
    for (const g of this.groups.values()) if (compareIds(g.lastId, id) < 0) return false;
    return !this.isReferenced(id);
  }

  /** Redis 8.2 DELREF: remove `id` from every group PEL (and its owner's PEL); returns how many. */
  removeReferences(id: StreamId): number {
    let n = 0;
    for (const g of this.groups.values()) {
      const pe = g.pel.get(id);
      if (pe) {
        g.removePending(pe);
        n++;
      }
    }
    return n;
  }

  /**
   * Redis `streamRangeHasTombstones(s, start, NULL)`: a deleted entry may lie at or after `start`.
   * `ignoreBeforeFirst`: Redis 7.x also answers no when max-deleted-entry-id is before the first
   * entry (a check redis #13338 removed in 8.0).
   */
  hasTombstonesFrom(start: StreamId, ignoreBeforeFirst = false): boolean {
    if (this.length === 0 || isZeroId(this.maxDeletedEntryId)) return false;
    if (ignoreBeforeFirst && compareIds(this.firstId, this.maxDeletedEntryId) > 0) return false;
    return compareIds(start, this.maxDeletedEntryId) <= 0;
  }

  /**
   * Redis `streamEstimateDistanceFromFirstEverEntry`: the entries-read value a group positioned
   * at `id` would have, or -1n when it cannot be known.
   */
  estimateEntriesRead(id: StreamId): bigint {
    if (this.entriesAdded === 0n) return 0n;
    if (this.length === 0 && compareIds(id, this.lastId) <= 0) return this.entriesAdded;
    const cmpLast = compareIds(id, this.lastId);
    if (cmpLast === 0) return this.entriesAdded;
    if (cmpLast > 0) return ENTRIES_READ_UNKNOWN;
    if (isZeroId(this.maxDeletedEntryId) || compareIds(this.maxDeletedEntryId, this.firstId) < 0) {
      const cmpFirst = compareIds(id, this.firstId);
      if (cmpFirst < 0) return BigInt.asIntN(64, this.entriesAdded - BigInt(this.length));
      if (cmpFirst === 0) return BigInt.asIntN(64, this.entriesAdded - BigInt(this.length) + 1n);
    }
    return ENTRIES_READ_UNKNOWN;
  }

  /**
   * Update a group's entries-read and last-delivered-id for an entry delivered through `>`.
   * `tombstonesFrom`: where the "no tombstone ahead" test starts — `'entry'` (Redis 7.x: at the
   * delivered entry) or `'lastId'` (Redis 8.0+, redis #13338: at the group's last-delivered-id).
   */
  advanceGroup(group: ConsumerGroup, id: StreamId, tombstonesFrom: 'entry' | 'lastId' | 'lastIdNotBehindFirst' = 'entry'): void {
    if (compareIds(id, group.lastId) <= 0) return;
    const from = tombstonesFrom === 'entry' ? id : group.lastId;
    // 'lastIdNotBehindFirst' (redis #13958): a group whose last-delivered-id a trim left behind
    // the first entry has its entries-read estimated again, not counted on
    const behindFirst = tombstonesFrom === 'lastIdNotBehindFirst' && compareIds(group.lastId, this.firstId) < 0;
    // long long counters as Redis keeps them: past 2^63 - 1 (XSETID ENTRIESADDED) they wrap; any
    // nonzero entries-added, a wrapped negative one too, lets the estimate run
    if (group.entriesRead !== ENTRIES_READ_UNKNOWN && !behindFirst && !this.hasTombstonesFrom(from))
      group.entriesRead = BigInt.asIntN(64, group.entriesRead + 1n);
    else if (this.entriesAdded !== 0n) group.entriesRead = this.estimateEntriesRead(id);
    group.lastId = id;
  }

  /**
   * The group's lag (Redis `streamReplyWithCGLag`), or null when unknown. `emptyStreamRules`:
   * 8.0+ (redis #13473) answers 0 for an emptied stream and the length for a group behind the
   * first entry; `ignoreTombstonesBeforeFirst`: 7.x's tombstone test (see `hasTombstonesFrom`).
   */
  lag(
    group: ConsumerGroup,
    rules: { emptyStreamRules: boolean; ignoreTombstonesBeforeFirst?: boolean } = { emptyStreamRules: true },
  ): bigint | null {
    if (this.entriesAdded === 0n) return 0n;
    if (rules.emptyStreamRules) {
      if (this.length === 0) return 0n;
      if (compareIds(group.lastId, this.firstId) < 0 && compareIds(this.maxDeletedEntryId, this.firstId) < 0)
        return BigInt(this.length);
    }
    if (group.entriesRead !== ENTRIES_READ_UNKNOWN && !this.hasTombstonesFrom(group.lastId, rules.ignoreTombstonesBeforeFirst))
      return BigInt.asIntN(64, this.entriesAdded - group.entriesRead); // long long subtraction: wraps
    const estimate = this.estimateEntriesRead(group.lastId);
    return estimate === ENTRIES_READ_UNKNOWN ? null : BigInt.asIntN(64, this.entriesAdded - estimate);
  }

  /** Groups in byte-wise name order. */
  sortedGroups(): ConsumerGroup[] {
    return [...this.groups.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Live entries with start <= id <= end, ascending, at most `count` (0 = all). */
  range(start: StreamId, end: StreamId, count = 0): StreamEntry[] {
    const out: StreamEntry[] = [];
    for (const e of this.entries.range(start, end)) {
      out.push(e);
      if (count && out.length >= count) break;
    }
    return out;
  }

  /** Deep copy: entries, counters, groups, PELs, consumers and the IDMP map (COPY, DUMP/RESTORE). */
  clone(): Stream {
    const s = new Stream();
    s.entries = this.entries.clone();
    s.lastId = this.lastId;
    s.firstId = this.firstId;
    s.maxDeletedEntryId = this.maxDeletedEntryId;
    s.entriesAdded = this.entriesAdded;
    for (const [name, g] of this.groups) s.groups.set(name, g.clone());
    s.idmp = this.idmp?.clone() ?? null;
    return s;
  }
}

