/**
 * A hash (Redis OBJ_HASH, t_hash.c): byte-string fields → byte-string values, with the optional
 * per-field expiry of Redis 7.4 (hash field expiration, "HFE").
 *
 * Order: a small hash is a listpack in Redis, and HGETALL/HKEYS/HSCAN answer in listpack order:
 * insertion order, a new value replacing the old in place. Once a field has had a TTL the
 * listpack carries a TTL per field (OBJ_ENCODING_LISTPACK_EX): fields with a TTL come first,
 * by ascending expiry (a field inserted before the first one whose expiry is ≥ its own), the
 * others after them in insertion order; giving a field a TTL, removing it, or overwriting a field
 * that had one moves the field (t_hash.c listpackExAddInternal / listpackExUpdateExpiry). A
 * hash-table hash answers in dict order in Redis (seeded per process, not reproducible): here
 * it keeps insertion order.
 *
 * Encoding: listpack until the hash has more than `hash-max-listpack-entries` fields or a field
 * or value longer than `hash-max-listpack-value` bytes, then hashtable — never back (Redis
 * converts one way; RESTORE re-decides from the payload). The commands call `convertIfNeeded`
 * as Redis calls hashTypeTryConversion / hashTypeSet's checks. The names are "listpack" and
 * "hashtable" in 7.0 already (checked on redis-server 7.0.15).
 *
 * Fields are byte strings; `__proto__` is a field like any other (a Map, not an object).
 * This module is pure: it never reads the clock; callers pass `now` (ms since the epoch).
 */
import { ChurnMap } from './churn-map';
import { isPast } from './expiry-time';

/** One field of a hash. `expireAt` 0 = no TTL (Redis HASH_LP_NO_TTL); else absolute ms. */
export interface HashEntry {
  readonly field: string;
  value: string;
  expireAt: number;
  /** Position key of the insertion order (increasing): HSCAN cursors and HRANDFIELD use it. */
  id: number;
  /** Removed from the hash (kept in `order` until the next compaction). */
  removed: boolean;
}

/** The most fields a hash keeps its HGETALL list for between writes (RedisHash.pairs). */
const PAIRS_KEPT = 128;
/** A byte of 0x80 or more in a byte string (a character above U+007F). */
const HIGH_BYTE = /[^\x00-\x7f]/;

/** The encoding thresholds a write reads (CONFIG hash-max-listpack-entries / -value). */
export interface HashLimits {
  readonly hashMaxListpackEntries: number;
  readonly hashMaxListpackValue: number;
}

/** A min-heap of (expiry, entry) pairs with stale pairs skipped when popped. */
class ExpiryHeap {
  private at: number[] = [];
  private entries: HashEntry[] = [];

  get size(): number {
    return this.at.length;
  }

  push(expireAt: number, entry: HashEntry): void {
    this.at.push(expireAt);
    this.entries.push(entry);
    let i = this.at.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.at[p] <= this.at[i]) break;
      this.swap(i, p);
      i = p;
    }
  }

  /** The least pair, or undefined. */
  peek(): [number, HashEntry] | undefined {
    return this.at.length === 0 ? undefined : [this.at[0], this.entries[0]];
  }

  pop(): void {
    const last = this.at.length - 1;
    this.swap(0, last);
    this.at.pop();
    this.entries.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.at.length && this.at[l] < this.at[m]) m = l;
      if (r < this.at.length && this.at[r] < this.at[m]) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  clear(): void {
    this.at = [];
    this.entries = [];
  }

  private swap(a: number, b: number): void {
    const t = this.at[a];
    this.at[a] = this.at[b];
    this.at[b] = t;
    const e = this.entries[a];
    this.entries[a] = this.entries[b];
    this.entries[b] = e;
  }
}

export class RedisHash {
  /**
   * How many hashes (of every keyspace) had fields with a TTL last time they changed: a hint
   * that lets the key store skip the field-expiry check on every key access while no hash uses
   * field expiration (it may count hashes dropped since: then the check just runs).
   */
  static volatileHashes = 0;

  private readonly map = new ChurnMap<HashEntry>(); // field → entry (see ChurnMap: HSET+HDEL of one field stays O(1))
  /** Every entry in order (HGETALL order), removed ones included until compaction. */
  private order: HashEntry[] = [];
  private holes = 0;
  private nextId = 1;
  /**
   * HSCAN visits ids below this: `nextId` when the last iteration started (cursor 0), so that
   * fields added during an iteration are not returned by it and a loop that adds a field per
   * field it sees ends (see lib/model/slot-table.ts). It only grows. 0 until a scan first runs.
   */
  private scanLimit = 0;
  /** Converted to a hash table (one way). */
  private big = false;
  /** A listpack that carries TTLs (LISTPACK_EX): kept once a TTL was set on it. */
  private withTtls = false;
  /** Fields that have a TTL now. */
  private volatile = 0;
  private readonly expiries = new ExpiryHeap();
  /** `pairs()` of the hash as it is now (no write since), or null; see PAIRS_KEPT. */
  private keptPairs: readonly string[] | null = null;
  /** Every byte of `keptPairs` is ASCII. */
  private keptAscii = false;

  get redisType(): 'hash' {
    return 'hash';
  }

  /** Number of fields (expired fields not yet removed included, as Redis hashTypeLength(o, 0)). */
  get size(): number {
    return this.map.size;
  }

  /** Number of fields that have a TTL. */
  get volatileCount(): number {
    return this.volatile;
  }

  /** True when encoded as a hash table (Redis OBJ_ENCODING_HT). */
  get isHashtable(): boolean {
    return this.big;
  }

  /**
   * OBJECT ENCODING: `listpack`, `listpackex` (a listpack once a field got a TTL: 7.4's
   * OBJ_ENCODING_LISTPACK_EX, checked on the post-7.4 build; it stays after HPERSIST) or
   * `hashtable`. The encoding is decided at each write from the thresholds of that time
   * (`convertIfNeeded`), as in Redis. TTLs exist only from 7.4 on, so 7.0 never sees listpackex.
   * The parameters (the server's CONFIG and the emulated version, as every model value takes
   * them) are not needed by hashes.
   */
  encoding(_config?: object, _version?: string): string {
    if (this.big) return 'hashtable';
    return this.withTtls ? 'listpackex' : 'listpack';
  }

  /** The entry of `field`, or undefined. */
  entry(field: string): HashEntry | undefined {
    return this.map.get(field);
  }

  /** The value of `field`, or undefined. */
  get(field: string): string | undefined {
    return this.map.get(field)?.value;
  }

  has(field: string): boolean {
    return this.map.has(field);
  }

  /**
   * Redis hashTypeTryConversion: before a write of `args` (fields and values, `newFields` pairs),
   * convert to a hash table when more pairs than `hash-max-listpack-entries` come or an argument
   * is longer than `hash-max-listpack-value`.
   */
  convertForArgs(limits: HashLimits, args: readonly string[], newFields: number): void {
    if (this.big) return;
    if (newFields > limits.hashMaxListpackEntries) {
      this.big = true;
      return;
    }
    for (const a of args) {
      if (a.length > limits.hashMaxListpackValue) {
        this.big = true;
        return;
      }
    }
  }

  /** After a write (hashTypeSet): convert when the listpack holds too many fields. */
  convertIfNeeded(limits: HashLimits): void {
    if (!this.big && this.map.size > limits.hashMaxListpackEntries) this.big = true;
  }

  /** Convert to a hash table now (RESTORE of a payload over the limits). */
  convertToHashtable(): void {
    this.big = true;
  }

  /**
   * Set `field` to `value`; true when the field is new. With `keepTtl` (HINCRBY, HINCRBYFLOAT:
   * HASH_SET_KEEP_TTL) an existing TTL stays; otherwise it is removed (and, in a listpack with
   * TTLs, the field moves to the end as Redis re-inserts it).
   */
  set(field: string, value: string, keepTtl = false): boolean {
    this.keptPairs = null;
    const e = this.map.get(field);
    if (e !== undefined) {
      e.value = value;
      if (!keepTtl && e.expireAt !== 0) this.persist(field);
      return false;
    }
    const entry: HashEntry = { field, value, expireAt: 0, id: this.nextId++, removed: false };
    this.map.set(field, entry);
    this.order.push(entry);
    return true;
  }

  /** Remove `field`; true if it was there. */
  delete(field: string): boolean {
    const e = this.map.get(field);
    if (e === undefined) return false;
    this.keptPairs = null;
    this.map.delete(field);
    if (e.expireAt !== 0 && --this.volatile === 0) RedisHash.volatileHashes--;
    e.removed = true;
    this.holes++;
    if (this.holes > 32 && this.holes * 2 > this.order.length) this.compact();
    if (this.map.size === 0) {
      this.order = [];
      this.holes = 0;
      this.expiries.clear();
    }
    return true;
  }

  /** Absolute expiry of `field` in ms, 0 for none, undefined when the field is missing. */
  expireAtOf(field: string): number | undefined {
    return this.map.get(field)?.expireAt;
  }

  /**
   * Give an existing `field` the absolute expiry `at` (ms > 0). In a listpack the field moves
   * before the first field whose expiry is ≥ `at` or that has none (listpackExAddInternal).
   */
  setExpireAt(field: string, at: number): void {
    const e = this.map.get(field);
    if (e === undefined) return;
    if (e.expireAt === 0 && this.volatile++ === 0) RedisHash.volatileHashes++;
    e.expireAt = at;
    this.expiries.push(at, e);
    if (!this.big) {
      this.withTtls = true;
      this.reposition(e);
    }
  }

  /**
   * A field-expiry command reached this hash (hashTypeSetExInit): a listpack becomes a listpack
   * with TTLs (OBJECT ENCODING `listpackex`), even when no field gets one.
   */
  prepareTtls(): void {
    if (!this.big) this.withTtls = true;
  }

  /** Remove the TTL of `field`; true if it had one. In a listpack the field moves to the end. */
  persist(field: string): boolean {
    const e = this.map.get(field);
    if (e === undefined || e.expireAt === 0) return false;
    e.expireAt = 0;
    if (--this.volatile === 0) RedisHash.volatileHashes--;
    if (!this.big) this.reposition(e);
    return true;
  }

  /**
   * Remove every field whose expiry is < `now` (a field is kept during its deadline ms:
   * hashTypeIsExpired); their names in expiry order (in a listpack, its order: fields of one expiry time as they sit in it, as listpackExExpire walks it).
   */
  expireDue(now: number): string[] {
    if (this.volatile === 0) {
      if (this.expiries.size !== 0) this.expiries.clear();
      return [];
    }
    const due: HashEntry[] = [];
    for (;;) {
      const top = this.expiries.peek();
      if (top === undefined || !isPast(top[0], now)) break;
      this.expiries.pop();
      const [at, e] = top;
      if (e.removed || e.expireAt !== at) continue; // stale: deleted, persisted or re-timed
      due.push(e);
    }
    if (due.length > 1 && !this.big) {
      const pos = new Map(this.order.map((e, i) => [e, i] as const));
      due.sort((a, b) => pos.get(a)! - pos.get(b)!);
    }
    const out: string[] = [];
    for (const e of due) {
      out.push(e.field);
      this.delete(e.field);
    }
    return out;
  }

  /** The least field expiry (ms), or undefined when no field has a TTL. */
  nextExpiry(): number | undefined {
    if (this.volatile === 0) return undefined;
    for (;;) {
      const top = this.expiries.peek();
      if (top === undefined) return undefined;
      const [at, e] = top;
      if (!e.removed && e.expireAt === at) return at;
      this.expiries.pop();
    }
  }

  /**
   * Every field and its value in HGETALL order (field, value, field, …): a snapshot the caller
   * must not change. A hash of at most PAIRS_KEPT fields keeps it between writes and hands out
   * the same array until the next write (a write drops it, never changes it: a reply holding it
   * stays as it was), so that HGETALL of a hash read more often than written walks no entries.
   */
  pairs(): readonly string[] {
    const kept = this.keptPairs;
    if (kept !== null) return kept;
    const order = this.order;
    const out: string[] = [];
    for (let i = 0; i < order.length; i++) {
      const e = order[i];
      if (!e.removed) out.push(e.field, e.value);
    }
    if (out.length <= 2 * PAIRS_KEPT) {
      this.keptPairs = out;
      this.keptAscii = !HIGH_BYTE.test(out.join(''));
    }
    return out;
  }

  /**
   * True when the hash's fields and values are all ASCII bytes, as far as the last `pairs()`
   * found while nothing was written since (false when it does not know).
   */
  get pairsAscii(): boolean {
    return this.keptPairs !== null && this.keptAscii;
  }

  /**
   * Up to `k` entries spread evenly over HGETALL order (MEMORY USAGE's sample: Redis takes the
   * first entries of its hash-seeded order, in effect a random sample); every entry when `k` is
   * at least the size. O(k) but for removed entries not yet compacted.
   */
  sample(k: number): HashEntry[] {
    const order = this.order;
    const out: HashEntry[] = [];
    if (k >= this.size) {
      for (const e of order) if (!e.removed) out.push(e);
      return out;
    }
    let j = 0;
    for (let i = 0; i < k; i++) {
      j = Math.max(j, Math.floor((i * order.length) / k));
      while (j < order.length && order[j].removed) j++;
      if (j >= order.length) break;
      out.push(order[j++]);
    }
    return out;
  }

  /** The entries in HGETALL order. */
  *entries(): IterableIterator<HashEntry> {
    for (const e of this.order) if (!e.removed) yield e;
  }

  /** A uniformly random entry (the hash must not be empty). */
  randomEntry(): HashEntry {
    for (;;) {
      const e = this.order[Math.floor(Math.random() * this.order.length)];
      if (!e.removed) return e;
    }
  }

  /**
   * Up to about `count` entries from cursor position `cursor` (0 = start), in order; the next
   * cursor, 0 when done. Entries present during a whole scan are returned at least once;
   * entries added after the scan started (cursor 0) are not returned by it.
   */
  scan(cursor: number, count: number): { next: number; entries: HashEntry[] } {
    if (cursor === 0 || this.scanLimit === 0) this.scanLimit = this.nextId;
    const limit = this.scanLimit;
    const out: HashEntry[] = [];
    // first position whose id ≥ cursor (ids increase along `order`)
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order[mid].id < cursor) lo = mid + 1;
      else hi = mid;
    }
    let i = lo;
    const order = this.order;
    for (; i < order.length && order[i].id < limit && out.length < count; i++) {
      const e = order[i];
      if (!e.removed) out.push(e);
    }
    return { next: i < order.length && order[i].id < limit ? order[i].id : 0, entries: out };
  }

  /** An independent copy (COPY), encoding and TTLs included. */
  clone(): RedisHash {
    const h = new RedisHash();
    for (const e of this.entries()) {
      h.set(e.field, e.value);
      if (e.expireAt !== 0) h.setExpireAt(e.field, e.expireAt);
    }
    h.big = this.big;
    h.withTtls = this.withTtls;
    if (!this.big) {
      // the copy's order is the original's (setExpireAt moved fields as the original did)
      h.rebuildOrder([...this.entries()].map((e) => h.map.get(e.field)!));
    }
    return h;
  }

  /** Move `e` to where the listpack (with TTLs) keeps it; O(n) on a small listpack, as Redis. */
  private reposition(e: HashEntry): void {
    const rest = [...this.entries()].filter((x) => x !== e);
    let at = rest.length;
    if (e.expireAt !== 0) {
      at = rest.findIndex((x) => x.expireAt === 0 || x.expireAt >= e.expireAt);
      if (at < 0) at = rest.length;
    }
    rest.splice(at, 0, e);
    this.rebuildOrder(rest);
  }

  /** Make `entries` the order, with fresh increasing ids. */
  private rebuildOrder(entries: HashEntry[]): void {
    this.keptPairs = null;
    for (const x of entries) x.id = this.nextId++;
    this.order = entries;
    this.holes = 0;
  }

  private compact(): void {
    this.order = this.order.filter((e) => !e.removed);
    this.holes = 0;
  }
}

/** A hash of `pairs` (RESTORE, COPY, a value written by an older front end), in their order. */
export function hashOfPairs(pairs: Iterable<readonly [string, string]>, limits?: HashLimits): RedisHash {
  const h = new RedisHash();
  for (const [f, v] of pairs) h.set(f, v);
  if (limits) {
    for (const e of h.entries()) {
      if (e.field.length > limits.hashMaxListpackValue || e.value.length > limits.hashMaxListpackValue) {
        h.convertToHashtable();
        break;
      }
    }
    h.convertIfNeeded(limits);
  }
  return h;
}
