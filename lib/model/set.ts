/**
 * A Redis set (t_set.c) over byte-string members (one char per byte), with the encoding Redis
 * would have given it and the conversions it makes on the way:
 *
 * - `intset`: every member is a canonical signed 64-bit decimal (Redis `string2ll`) and there are
 *   at most `set-max-intset-entries` (capped at 2^30) of them; kept in ascending integer order
 *   (the order SMEMBERS/SSCAN answer), with the intset's element width (2, 4 or 8 bytes: it grows
 *   with the values added and never shrinks, as in intset.c — DUMP writes it);
 * - `listpack` (Redis 7.2+): up to `set-max-listpack-entries` members of at most
 *   `set-max-listpack-value` bytes, in insertion order (an intset converted to a listpack keeps
 *   its ascending order, then appends);
 * - `hashtable`: anything else. Redis iterates a dict in hash order, seeded per process (not
 *   reproducible); here the order is insertion order, and each member carries a slot number so
 *   that SSCAN cursors stay valid across changes and a random member is picked in O(1).
 *
 * Conversions follow t_set.c `setTypeCreate` (with SADD's size hint, 7.2+), `setTypeMaybeConvert`,
 * `setTypeAddAux`, `maybeConvertIntset` and `maybeConvertToIntset`; a set never converts back
 * except where Redis builds a new one (SINTERSTORE, SPOP's rebuild). The limits come with each
 * call (`SetLimits`): CONFIG SET applies to the next write, as in Redis.
 *
 * Pure: no clock, no randomness of its own (callers pass `rand(n)`, an integer in [0, n)).
 */
import { SlotTable } from './slot-table';

export type SetEncoding = 'intset' | 'listpack' | 'hashtable';

/** The CONFIG limits and release behaviour a write reads (server.set_max_* in t_set.c). */
export interface SetLimits {
  /** `set-max-intset-entries`. */
  readonly maxIntsetEntries: number;
  /** `set-max-listpack-entries`. */
  readonly maxListpackEntries: number;
  /** `set-max-listpack-value` (bytes). */
  readonly maxListpackValue: number;
  /** 7.2+: listpack-encoded sets exist (7.0: intset or hashtable only). */
  readonly listpack: boolean;
}

/** A random integer in [0, n) for 1 ≤ n. */
export type RandomBelow = (n: number) => number;

// ---------------------------------------------------------------------------------------------
// Canonical 64-bit integers as byte strings (no bigint on the usual path)

const INT64_MAX_TEXT = '9223372036854775807';
const INT64_MIN_TEXT = '-9223372036854775808';

/**
 * Redis `string2ll` as a test: a canonical signed 64-bit decimal ("0", or an optional '-' then
 * 1-9 then digits; no '+', no leading zero, no "-0", within int64).
 */
export function isInt64Text(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 20) return false;
  let i = 0;
  if (s.charCodeAt(0) === 45) {
    if (n === 1) return false;
    i = 1;
  }
  const c0 = s.charCodeAt(i);
  if (c0 === 48) return n === 1; // "0" only
  if (c0 < 49 || c0 > 57) return false;
  for (let k = i + 1; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  const digits = n - i;
  if (digits < 19) return true;
  if (digits > 19) return false;
  return i === 0 ? s <= INT64_MAX_TEXT : s <= INT64_MIN_TEXT;
}

/** Compare two canonical integer texts by value (negative, zero, positive). */
export function compareIntText(a: string, b: string): number {
  const na = a.charCodeAt(0) === 45;
  const nb = b.charCodeAt(0) === 45;
  if (na !== nb) return na ? -1 : 1;
  if (a.length !== b.length) return (a.length < b.length) !== na ? -1 : 1;
  if (a === b) return 0;
  return (a < b) !== na ? -1 : 1;
}

/** Bytes per element of an intset holding `v` (intset.c `_intsetValueEncoding`). */
function intsetWidthOf(v: string): 2 | 4 | 8 {
  if (compareIntText(v, '-32768') >= 0 && compareIntText(v, '32767') <= 0) return 2;
  if (compareIntText(v, '-2147483648') >= 0 && compareIntText(v, '2147483647') <= 0) return 4;
  return 8;
}

/** Index of `v` in the ascending `items`, or -(insertion point) - 1. */
function searchInts(items: readonly string[], v: string): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareIntText(items[mid], v);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

// ---------------------------------------------------------------------------------------------

export class RedisSet {
  private enc: SetEncoding;
  /** intset: ascending canonical integers; listpack: members in order. */
  private list: string[] = [];
  private table: SlotTable | undefined;
  private width: 2 | 4 | 8 = 2;

  private constructor(enc: SetEncoding) {
    this.enc = enc;
    if (enc === 'hashtable') this.table = new SlotTable();
  }

  get redisType(): 'set' {
    return 'set';
  }

  /** An empty set of `encoding` (createIntsetObject / createSetListpackObject / createSetObject). */
  static empty(encoding: SetEncoding): RedisSet {
    return new RedisSet(encoding);
  }

  /**
   * t_set.c `setTypeCreate(value, size_hint)`: the empty set that can hold `first`: an intset when
   * it is an integer and `sizeHint` ≤ set-max-intset-entries, else (7.2+) a listpack when
   * `sizeHint` ≤ set-max-listpack-entries, else a hash table. 7.0 has no size hint: intset or
   * hash table by `first` alone.
   */
  static create(first: string, sizeHint: number, limits: SetLimits): RedisSet {
    if (!limits.listpack) return new RedisSet(isInt64Text(first) ? 'intset' : 'hashtable');
    if (isInt64Text(first) && sizeHint <= limits.maxIntsetEntries) return new RedisSet('intset');
    if (sizeHint <= limits.maxListpackEntries) return new RedisSet('listpack');
    return new RedisSet('hashtable');
  }

  /**
   * A set of `members` in `encoding` (DUMP/RESTORE/COPY, lib/keyspace/key-values.ts). As rdb.c
   * `rdbLoadObject` loads a payload: an intset blob keeps its width and becomes a hash table
   * above set-max-intset-entries; a listpack becomes a hash table above
   * set-max-listpack-entries; a plain member list (RDB_TYPE_SET: `encoding` undefined) is
   * rebuilt member by member — intset while the members are integers and their count allows,
   * then a listpack (7.2+) while it fits, else a hash table. `hashtable` (COPY of an engine set,
   * t_set.c `setTypeDup`) stays a hash table.
   */
  static fromRdb(members: readonly string[], encoding: SetEncoding | undefined, limits: SetLimits, intsetWidth?: 2 | 4 | 8): RedisSet {
    const maxIntset = Math.min(limits.maxIntsetEntries, 1 << 30);
    if (encoding === 'intset') {
      const s = new RedisSet('intset');
      s.list = members.slice().sort(compareIntText);
      s.width = intsetWidth ?? s.list.reduce<2 | 4 | 8>((w, v) => Math.max(w, intsetWidthOf(v)) as 2 | 4 | 8, 2);
      if (s.list.length > limits.maxIntsetEntries) s.convert('hashtable');
      return s;
    }
    if (encoding === 'listpack') {
      const s = new RedisSet('listpack');
      s.list = members.slice();
      if (s.list.length > limits.maxListpackEntries) s.convert('hashtable');
      return s;
    }
    if (encoding === 'hashtable') {
      const s = new RedisSet('hashtable');
      for (const m of members) (s.table as SlotTable).add(m);
      return s;
    }
    const s = new RedisSet(members.length > maxIntset ? 'hashtable' : 'intset');
    let maxLen = 0;
    for (const m of members) {
      if (m.length > maxLen) maxLen = m.length;
      if (s.enc === 'intset') {
        if (isInt64Text(m)) {
          s.intsetInsert(m);
          continue;
        }
        if (limits.listpack && s.list.length < limits.maxListpackEntries && maxLen <= limits.maxListpackValue) s.convert('listpack');
        else s.convert('hashtable');
      }
      if (s.enc === 'listpack') {
        if (s.list.length < limits.maxListpackEntries && m.length <= limits.maxListpackValue) {
          s.list.push(m);
          continue;
        }
        s.convert('hashtable');
      }
      (s.table as SlotTable).add(m);
    }
    return s;
  }

  /** OBJECT ENCODING: `intset`, `listpack` (7.2+) or `hashtable`. */
  encoding(): SetEncoding {
    return this.enc;
  }

  /** Bytes per element of the intset (2, 4 or 8); meaningful while the encoding is intset. */
  get intsetWidth(): 2 | 4 | 8 {
    return this.width;
  }

  /** SCARD. */
  get size(): number {
    return this.enc === 'hashtable' ? (this.table as SlotTable).size : this.list.length;
  }

  /** SISMEMBER (intset: binary search; listpack: linear, as lpFind; hash table: O(1)). */
  has(m: string): boolean {
    switch (this.enc) {
      case 'intset':
        return isInt64Text(m) && searchInts(this.list, m) >= 0;
      case 'listpack':
        return this.list.indexOf(m) >= 0;
      default:
        return (this.table as SlotTable).has(m);
    }
  }

  /** The members in iteration order (setTypeNext): ascending for an intset, else insertion order. */
  members(): string[] {
    return this.enc === 'hashtable' ? (this.table as SlotTable).members() : this.list.slice();
  }

  /**
   * t_set.c `setTypeMaybeConvert` (SADD on an existing set, 7.2+): a listpack or intset becomes a
   * hash table when `sizeHint` (the number of members given) passes its limit.
   */
  maybeConvert(sizeHint: number, limits: SetLimits): void {
    if (
      (this.enc === 'listpack' && sizeHint > limits.maxListpackEntries) ||
      (this.enc === 'intset' && sizeHint > limits.maxIntsetEntries)
    ) {
      this.convert('hashtable');
    }
  }

  /** t_set.c `setTypeAddAux`: add `m`; true if it was not a member. Converts as Redis does. */
  add(m: string, limits: SetLimits): boolean {
    if (this.enc === 'hashtable') return (this.table as SlotTable).add(m);
    if (this.enc === 'listpack') {
      if (this.list.indexOf(m) >= 0) return false;
      if (this.list.length < limits.maxListpackEntries && m.length <= limits.maxListpackValue) {
        this.list.push(m);
      } else {
        this.convert('hashtable');
        (this.table as SlotTable).add(m);
      }
      return true;
    }
    // intset
    if (isInt64Text(m)) {
      if (!this.intsetInsert(m)) return false;
      if (this.list.length > Math.min(limits.maxIntsetEntries, 1 << 30)) this.convert('hashtable');
      return true;
    }
    const n = this.list.length;
    let maxElementLength = 0;
    if (n !== 0) maxElementLength = Math.max(this.list[0].length, this.list[n - 1].length); // sdigits10 of min/max
    if (limits.listpack && n < limits.maxListpackEntries && m.length <= limits.maxListpackValue && maxElementLength <= limits.maxListpackValue) {
      this.convert('listpack');
      this.list.push(m);
    } else {
      this.convert('hashtable');
      (this.table as SlotTable).add(m);
    }
    return true;
  }

  /** Insert a canonical integer into the intset; false if present. Grows the width as needed. */
  private intsetInsert(v: string): boolean {
    const at = searchInts(this.list, v);
    if (at >= 0) return false;
    const w = intsetWidthOf(v);
    if (w > this.width) this.width = w;
    const pos = -at - 1;
    if (pos === this.list.length) this.list.push(v);
    else this.list.splice(pos, 0, v);
    return true;
  }

  /** t_set.c `setTypeRemoveAux`: remove `m`; true if it was a member. The key goes when empty (caller). */
  remove(m: string): boolean {
    switch (this.enc) {
      case 'intset': {
        if (!isInt64Text(m)) return false;
        const at = searchInts(this.list, m);
        if (at < 0) return false;
        this.list.splice(at, 1);
        return true;
      }
      case 'listpack': {
        const at = this.list.indexOf(m);
        if (at < 0) return false;
        this.list.splice(at, 1);
        return true;
      }
      default:
        return (this.table as SlotTable).delete(m);
    }
  }

  /** t_set.c `setTypeRandomElement`: a member chosen uniformly (the set must not be empty). */
  random(rand: RandomBelow): string {
    if (this.enc === 'hashtable') return (this.table as SlotTable).random(rand);
    return this.list[rand(this.list.length)];
  }

  /** t_set.c `setTypePopRandom`: remove and return a random member (the set must not be empty). */
  popRandom(rand: RandomBelow): string {
    if (this.enc === 'hashtable') {
      const m = (this.table as SlotTable).random(rand);
      (this.table as SlotTable).delete(m);
      return m;
    }
    const i = rand(this.list.length);
    const m = this.list[i];
    this.list.splice(i, 1);
    return m;
  }

  /**
   * `count` distinct members of a listpack or intset chosen uniformly, in set order (listpack.c
   * `lpNextRandom`'s selection sampling), as indexes; 0 ≤ count ≤ size.
   */
  sampleIndexes(count: number, rand: RandomBelow): number[] {
    const n = this.list.length;
    const out: number[] = [];
    for (let i = 0; i < n && out.length < count; i++) {
      // select i with probability (needed / left)
      if (rand(n - i) < count - out.length) out.push(i);
    }
    return out;
  }

  /** The listpack/intset member at `index` (iteration order). */
  at(index: number): string {
    return this.list[index];
  }

  /** Remove the listpack/intset members at ascending `indexes` (lpBatchDelete). */
  removeIndexes(indexes: readonly number[]): void {
    if (indexes.length === 0) return;
    const drop = new Set(indexes);
    this.list = this.list.filter((_, i) => !drop.has(i));
  }

  /** Take over the contents of `other` (Redis `dbReplaceValue` with SPOP's rebuilt set). */
  adopt(other: RedisSet): void {
    this.enc = other.enc;
    this.list = other.list;
    this.table = other.table;
    this.width = other.width;
  }

  /** t_set.c `setTypeConvert`: change the encoding, keeping the iteration order. */
  convert(to: SetEncoding): void {
    if (to === this.enc) return;
    if (to === 'hashtable') {
      const t = new SlotTable();
      for (const m of this.members()) t.add(m);
      this.table = t;
      this.list = [];
    } else if (to === 'listpack') {
      this.list = this.members();
      this.table = undefined;
    } else {
      const ints = this.members().sort(compareIntText);
      this.table = undefined;
      this.list = [];
      this.width = 2;
      for (const v of ints) {
        const w = intsetWidthOf(v);
        if (w > this.width) this.width = w;
      }
      this.list = ints;
    }
    this.enc = to;
  }

  /**
   * t_set.c `maybeConvertToIntset` (SINTERSTORE of integers only): a listpack or hash table of
   * integers becomes an intset when its size allows.
   */
  maybeConvertToIntset(limits: SetLimits): void {
    if (this.enc === 'intset') return;
    if (this.size > Math.min(limits.maxIntsetEntries, 1 << 30)) return;
    this.convert('intset');
  }

  /** t_set.c `setTypeDup` (COPY): same encoding, same members, same intset width. */
  clone(): RedisSet {
    const s = new RedisSet(this.enc);
    s.width = this.width;
    if (this.enc === 'hashtable') for (const m of (this.table as SlotTable).members()) (s.table as SlotTable).add(m);
    else s.list = this.list.slice();
    return s;
  }

  /**
   * SSCAN over a hash table: up to `count` members from `cursor` (0 = start) and the next cursor
   * (0 = done). A member present for the whole iteration is returned exactly once.
   */
  scanTable(cursor: number, count: number): { next: number; members: string[] } {
    return (this.table as SlotTable).scan(cursor, count);
  }
}
