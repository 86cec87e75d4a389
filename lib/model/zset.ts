/**
 * A Redis sorted set (t_zset.c): members (byte strings, one char per byte) with a double score,
 * kept in Redis's order — by score, then by member bytes (memcmp, then length; JS `<` on byte
 * strings) — with O(log n) insert, delete, rank and rank access.
 *
 * Layout as Redis's skiplist encoding: a map member → score (the `dict`) plus a skiplist with
 * spans (zslInsert / zslDelete / zslGetRank / zslGetElementByRank), whose levels come from a
 * fixed-seed xorshift generator (p = 1/4, at most 32 levels), so that a run is reproducible.
 *
 * `listpack` records the encoding Redis would have chosen (OBJECT ENCODING): a sorted set is a
 * listpack until it grows past `zset-max-listpack-entries` members or gets a member longer than
 * `zset-max-listpack-value` bytes; it never goes back (except when built whole: ZUNIONSTORE,
 * ZRANGESTORE, RESTORE). The command modules decide the conversions (they know the CONFIG); the
 * model only keeps the flag. One behaviour follows it: a listpack stores a score as text or
 * integer (zzlInsertAt: an integral score as an integer), so `-0` is stored as 0 and a listpack
 * sorted set never holds a negative zero (checked on redis-server 7.0.15 and the post-7.4 build:
 * `ZADD z -0 a` then `ZSCORE z a` is `0`, while a skiplist one answers `-0`).
 */
import { ChurnMap } from './churn-map';
import { SlotTable } from './slot-table';

const MAX_LEVEL = 32;

/**
 * A skiplist node. Its levels are one array, as zskiplistNode's `level[]` holds each level's
 * forward pointer next to its span: `lv[2i]` the next node at level i, `lv[2i + 1]` the span.
 * A walk at 1M members misses the CPU caches at every step; one array per node instead of a
 * forward and a span array saves a miss per step (ZRANK, ZADD, ZREM).
 */
interface Node {
  readonly member: string;
  readonly score: number;
  backward: Node | null;
  readonly lv: (Node | null | number)[];
}

function newNode(level: number, member: string, score: number): Node {
  const lv = new Array<Node | null | number>(2 * level);
  for (let i = 0; i < level; i++) {
    lv[2 * i] = null;
    lv[2 * i + 1] = 0;
  }
  return { member, score, backward: null, lv };
}

/** The next node of `x` at level `i`. */
function fwd(x: Node, i: number): Node | null {
  return x.lv[2 * i] as Node | null;
}

/** The span of `x`'s link at level `i`. */
function spanOf(x: Node, i: number): number {
  return x.lv[2 * i + 1] as number;
}

/** True when (score, member) `a` sorts before (s, m). */
function before(a: Node, s: number, m: string): boolean {
  return a.score < s || (a.score === s && a.member < m);
}

/** An ordered (score, member) index with spans: ranks and rank access in O(log n). */
class SkipList {
  private readonly header = newNode(MAX_LEVEL, '', 0);
  private tail: Node | null = null;
  private level = 1;
  length = 0;
  private seed = 0x2545f491;

  private randomLevel(): number {
    let level = 1;
    for (;;) {
      // xorshift32
      let x = this.seed;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.seed = x >>> 0;
      if ((this.seed & 0xffff) < 0x4000 && level < MAX_LEVEL) level++;
      else return level;
    }
  }

  insert(score: number, member: string): void {
    const update = new Array<Node>(MAX_LEVEL);
    const rank = new Array<number>(MAX_LEVEL);
    let x = this.header;
    for (let i = this.level - 1; i >= 0; i--) {
      rank[i] = i === this.level - 1 ? 0 : rank[i + 1];
      let next = fwd(x, i);
      while (next !== null && before(next, score, member)) {
        rank[i] += spanOf(x, i);
        x = next;
        next = fwd(x, i);
      }
      update[i] = x;
    }
    const level = this.randomLevel();
    if (level > this.level) {
      for (let i = this.level; i < level; i++) {
        rank[i] = 0;
        update[i] = this.header;
        update[i].lv[2 * i + 1] = this.length;
      }
      this.level = level;
    }
    const node = newNode(level, member, score);
    for (let i = 0; i < level; i++) {
      node.lv[2 * i] = fwd(update[i], i);
      update[i].lv[2 * i] = node;
      node.lv[2 * i + 1] = spanOf(update[i], i) - (rank[0] - rank[i]);
      update[i].lv[2 * i + 1] = rank[0] - rank[i] + 1;
    }
    for (let i = level; i < this.level; i++) update[i].lv[2 * i + 1] = spanOf(update[i], i) + 1;
    node.backward = update[0] === this.header ? null : update[0];
    if (fwd(node, 0) !== null) (node.lv[0] as Node).backward = node;
    else this.tail = node;
    this.length++;
  }

  delete(score: number, member: string): boolean {
    const update = new Array<Node>(MAX_LEVEL);
    let x = this.header;
    for (let i = this.level - 1; i >= 0; i--) {
      let next = fwd(x, i);
      while (next !== null && before(next, score, member)) {
        x = next;
        next = fwd(x, i);
      }
      update[i] = x;
    }
    const node = fwd(x, 0);
    if (node === null || node.score !== score || node.member !== member) return false;
    for (let i = 0; i < this.level; i++) {
      if (fwd(update[i], i) === node) {
        update[i].lv[2 * i + 1] = spanOf(update[i], i) + spanOf(node, i) - 1;
        update[i].lv[2 * i] = fwd(node, i);
      } else {
        update[i].lv[2 * i + 1] = spanOf(update[i], i) - 1;
      }
    }
    if (fwd(node, 0) !== null) (node.lv[0] as Node).backward = node.backward;
    else this.tail = node.backward;
    while (this.level > 1 && fwd(this.header, this.level - 1) === null) this.level--;
    this.length--;
    return true;
  }

  /** 0-based rank of (score, member), which must be present. */
  rank(score: number, member: string): number {
    let x = this.header;
    let rank = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let next = fwd(x, i);
      while (next !== null && (before(next, score, member) || (next.score === score && next.member === member))) {
        rank += spanOf(x, i);
        x = next;
        next = fwd(x, i);
      }
      if (x !== this.header && x.member === member && x.score === score) return rank - 1;
    }
    return -1;
  }

  /** The node at 0-based `rank` (0 ≤ rank < length). */
  at(rank: number): Node | null {
    const target = rank + 1;
    let x = this.header;
    let traversed = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let next = fwd(x, i);
      while (next !== null && traversed + spanOf(x, i) <= target) {
        traversed += spanOf(x, i);
        x = next;
        next = fwd(x, i);
      }
      if (traversed === target) return x;
    }
    return null;
  }

  /**
   * How many nodes satisfy `isBefore`, which must hold for a prefix of the order (a range
   * bound): the greedy descent of zslFirstInRange / zslLastInRange, O(log n).
   */
  countWhile(isBefore: (score: number, member: string) => boolean): number {
    let x = this.header;
    let rank = 0;
    for (let i = this.level - 1; i >= 0; i--) {
      let next = fwd(x, i);
      while (next !== null && isBefore(next.score, next.member)) {
        rank += spanOf(x, i);
        x = next;
        next = fwd(x, i);
      }
    }
    return rank;
  }

  first(): Node | null {
    return fwd(this.header, 0);
  }

  last(): Node | null {
    return this.tail;
  }
}

/** One member and its score. */
export type ZsetEntry = readonly [member: string, score: number];

export class RedisZset {
  private readonly dict = new ChurnMap<number>(); // member → score (see ChurnMap: ZADD+ZREM of one member stays O(1))
  private readonly zsl = new SkipList();
  private lp = true;
  /**
   * ZSCAN's cursor space on the skiplist encoding: members in insertion slots (a rank would
   * shift when a member with a lower score comes or goes, skipping or repeating members), built
   * on the first ZSCAN of a skiplist (so only scanned sorted sets pay its memory) and kept by
   * ZADD/ZREM from then on (O(1) amortized, O(log n) for a removal).
   */
  private scanIndex: SlotTable | undefined;

  /** Redis's encoding: listpack (true) or skiplist (false). See the file comment. */
  get listpack(): boolean {
    return this.lp;
  }

  /**
   * Converting a skiplist to a listpack (zsetConvert → zzlInsertAt) stores each score anew: a
   * `-0` becomes 0 (redis-server 7.0.15 and the post-7.4 build: `ZADD s 0 m` then
   * `ZUNIONSTORE d 1 s WEIGHTS -1` and `ZSCORE d m` is `0`).
   */
  set listpack(value: boolean) {
    if (value && !this.lp) {
      const negativeZeros = [...this.dict.entries()].filter(([, s]) => Object.is(s, -0)).map(([m]) => m);
      for (const m of negativeZeros) {
        this.zsl.delete(-0, m);
        this.dict.set(m, 0);
        this.zsl.insert(0, m);
      }
    }
    this.lp = value;
  }

  get redisType(): 'zset' {
    return 'zset';
  }

  /** OBJECT ENCODING: `listpack` or `skiplist` (7.0 and later alike; checked on 7.0.15). */
  encoding(_config?: unknown, _version?: unknown): 'listpack' | 'skiplist' {
    return this.listpack ? 'listpack' : 'skiplist';
  }

  /** Number of members (ZCARD). */
  get size(): number {
    return this.dict.size;
  }

  /** The score of `member`, or undefined. */
  score(member: string): number | undefined {
    return this.dict.get(member);
  }

  has(member: string): boolean {
    return this.dict.has(member);
  }

  /**
   * Add `member` or change its score (`score` must not be NaN); an equal score (0 and -0 are
   * equal) changes nothing. A listpack stores `-0` as 0. Returns true when the member is new.
   */
  set(member: string, score: number): boolean {
    if (this.listpack && score === 0) score = 0; // -0 → 0
    const old = this.dict.get(member);
    if (old !== undefined) {
      if (old === score) return false; // Redis: `score != curscore` (0 and -0 are equal)
      this.zsl.delete(old, member);
    }
    this.dict.set(member, score);
    this.zsl.insert(score, member);
    if (old === undefined && this.scanIndex !== undefined) this.scanIndex.add(member);
    return old === undefined;
  }

  /** Remove `member`; true if it was there. */
  delete(member: string): boolean {
    const old = this.dict.get(member);
    if (old === undefined) return false;
    this.dict.delete(member);
    this.zsl.delete(old, member);
    this.scanIndex?.delete(member);
    return true;
  }

  /** 0-based rank of `member` (REV: from the highest), or undefined when absent. */
  rank(member: string, reverse = false): number | undefined {
    const score = this.dict.get(member);
    if (score === undefined) return undefined;
    const r = this.zsl.rank(score, member);
    return reverse ? this.dict.size - 1 - r : r;
  }

  /** The entry at 0-based `rank` in ascending order, or undefined. */
  at(rank: number): ZsetEntry | undefined {
    if (rank < 0 || rank >= this.dict.size) return undefined;
    const n = this.zsl.at(rank);
    return n ? [n.member, n.score] : undefined;
  }

  /**
   * The entries of ascending ranks `from` … `to` (inclusive, 0 ≤ from ≤ to < size), in
   * ascending order, or descending when `reverse` (then from `to` down to `from`).
   */
  *range(from: number, to: number, reverse = false): Generator<ZsetEntry> {
    if (from > to || from < 0 || to >= this.dict.size) return;
    let n = this.zsl.at(reverse ? to : from);
    for (let left = to - from + 1; left > 0 && n !== null; left--) {
      yield [n.member, n.score];
      n = reverse ? n.backward : fwd(n, 0);
    }
  }

  /**
   * How many members sort before a range bound: `isBefore(score, member)` must be true for a
   * prefix of the order and false after it. O(log n).
   */
  countBefore(isBefore: (score: number, member: string) => boolean): number {
    return this.zsl.countWhile(isBefore);
  }

  /** The lowest entry, or undefined. */
  first(): ZsetEntry | undefined {
    const n = this.zsl.first();
    return n ? [n.member, n.score] : undefined;
  }

  /** The highest entry, or undefined. */
  last(): ZsetEntry | undefined {
    const n = this.zsl.last();
    return n ? [n.member, n.score] : undefined;
  }

  /** Every entry in ascending order. */
  entries(): Generator<ZsetEntry> {
    return this.range(0, this.dict.size - 1);
  }

  /**
   * One ZSCAN step over the members (skiplist encoding): up to `count` members with their
   * scores from `cursor` (0 = the start), and the next cursor (0 = done). Every member present
   * for the whole iteration is returned exactly once, whatever scores come and go; members
   * added during the iteration are not returned by it (lib/model/slot-table.ts), so a loop that
   * adds a member per member it sees ends.
   */
  scan(cursor: number, count: number): { next: number; entries: ZsetEntry[] } {
    let index = this.scanIndex;
    if (index === undefined) {
      index = this.scanIndex = new SlotTable();
      for (const m of this.dict.keys()) index.add(m);
    }
    const page = index.scan(cursor, count);
    return { next: page.next, entries: page.members.map((m) => [m, this.dict.get(m)!] as const) };
  }

  /** Members and scores in insertion (dict) order. */
  dictEntries(): IterableIterator<[string, number]> {
    return this.dict.entries();
  }

  /** Byte length of the longest member (O(n)). */
  maxMemberLength(): number {
    let max = 0;
    for (const [m] of this.dict.entries()) if (m.length > max) max = m.length;
    return max;
  }

  /** An independent copy with the same encoding (t_zset.c zsetDup). */
  clone(): RedisZset {
    const copy = new RedisZset();
    copy.listpack = this.listpack;
    for (const [m, s] of this.entries()) copy.set(m, s);
    return copy;
  }
}
