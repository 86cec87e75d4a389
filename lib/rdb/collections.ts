/**
 * Lists, sets, sorted sets and hashes in the RDB encoding (rdb.c `rdbSaveObject` /
 * `rdbLoadObject`), with the encoding Redis would pick for the value.
 *
 * ioredis-mock keeps only the elements, not the history that decided Redis's encoding, so DUMP
 * assumes the value was built by adding elements one at a time (RPUSH, SADD, HSET, ZADD) under
 * the keyspace's limits (`list-max-listpack-size`, `set-max-intset-entries`,
 * `set-max-listpack-*`, `hash-max-listpack-*`, `zset-max-listpack-*`), which Redis reads at each
 * write. For such a history the payload is byte-identical to Redis's, except for hash-table
 * encoded sets and hashes, whose order is the dict's (seeded per process in Redis: not
 * reproducible); they are written in ioredis-mock's order. Deletions or batch sizes that made
 * Redis convert earlier (an encoding never converts back) are not visible here.
 *
 * - list (RDB_TYPE_LIST_QUICKLIST_2): 7.0 always a quicklist whose nodes fill while
 *   `node bytes + element + 8 <= 8192` (-2); 7.2+ a single listpack until it would pass the limit,
 *   then a quicklist; 7.4+ an element above the limit gets a plain node of its own.
 * - set: intset (all integers, up to set-max-intset-entries; sorted, smallest width), 7.2+
 *   listpack (insertion order, intset members first in ascending order when it came from an
 *   intset), else hash table.
 * - sorted set: listpack ordered by (score, member), scores as `d2string` text (7.0 `%.17g`,
 *   7.2+ fpconv_dtoa's Grisu2 digits: ./fpconv.ts), else skiplist written from the greatest
 *   element with binary doubles.
 * - hash: listpack in field order, else hash table.
 */
import { type CollectionLimits } from './collection-limits';
import { d2string } from './double-text';
import type { KeyValue } from './key-value';
import { ListpackWriter, LpValue, lpString, readListpack } from './listpack';
import { RdbFormatError, RdbReader, RdbWriter, byteString, string2ll } from './rdb-io';
import { readZiplist, readZipmap } from './ziplist';

export { type CollectionLimits, DEFAULT_COLLECTION_LIMITS } from './collection-limits';
export { d2string, formatG17 } from './double-text';

export const RDB_TYPE_LIST_QUICKLIST_2 = 18;
export const RDB_TYPE_SET = 2;
export const RDB_TYPE_SET_INTSET = 11;
export const RDB_TYPE_SET_LISTPACK = 20;
export const RDB_TYPE_ZSET = 3;
export const RDB_TYPE_ZSET_2 = 5;
export const RDB_TYPE_ZSET_LISTPACK = 17;
export const RDB_TYPE_HASH = 4;
export const RDB_TYPE_HASH_LISTPACK = 16;
/** 7.4 hash field expiration: a hash table with TTLs (rdb.c, RDB 12). */
export const RDB_TYPE_HASH_METADATA = 24;
/** The pre-7.0 encodings, loaded (and deeply validated) as Redis still does: ./ziplist.ts. */
export const RDB_TYPE_LIST = 1;
export const RDB_TYPE_HASH_ZIPMAP = 9;
export const RDB_TYPE_LIST_ZIPLIST = 10;
export const RDB_TYPE_ZSET_ZIPLIST = 12;
export const RDB_TYPE_HASH_ZIPLIST = 13;
export const RDB_TYPE_LIST_QUICKLIST = 14;
/** 7.4 release candidates' hashes with field TTLs: absolute TTLs, no least-expiry header. */
export const RDB_TYPE_HASH_METADATA_PRE_GA = 22;
export const RDB_TYPE_HASH_LISTPACK_EX_PRE_GA = 23;
/** 7.4 hash field expiration: a listpack of field, value, TTL triples (rdb.c, RDB 12). */
export const RDB_TYPE_HASH_LISTPACK_EX = 25;

/** What differs between releases in these encodings. */
export interface CollectionFlavor {
  /** 7.2+: small lists are one listpack (OBJ_ENCODING_LISTPACK); 7.0: always a quicklist. */
  readonly listListpack: boolean;
  /** 7.4+: an element above the node size limit gets a plain node (7.0–7.2: at 1 GiB). */
  readonly plainBySize: boolean;
  /** 7.2+: listpack-encoded sets. */
  readonly setListpack: boolean;
  /** Score text in a listpack sorted set: 7.0 `%.17g`, 7.2+ fpconv_dtoa (Grisu2). */
  readonly scoreText: 'g17' | 'fpconv';
}

// The limits: ./collection-limits.ts (read by CONFIG and the sorted-set replies too)

// Doubles as text: ./double-text.ts (also used for sorted-set replies, without the RDB codec)

// ---------------------------------------------------------------------------------------------
// Encoding

/** The RDB type byte and writer of a collection value. */
export function encodeCollection(
  w: RdbWriter,
  value: Exclude<KeyValue, { type: 'stream' } | { type: 'string' }>,
  flavor: CollectionFlavor,
  limits: CollectionLimits,
): number {
  switch (value.type) {
    case 'list':
      return encodeList(w, value.value, flavor, limits);
    case 'set':
      if (value.encoding !== undefined) return encodeSetAs(w, value.value, value.encoding, value.intsetWidth ?? 2, flavor);
      return encodeSet(w, value.value, flavor, limits);
    case 'zset':
      return encodeZset(w, value.value, flavor, limits, value.listpack);
    case 'hash':
      return encodeHash(w, value.value, limits, value.fieldExpiries, value.listpack, value.listpackEx);
  }
}

/** quicklist `optimization_level` for a negative fill. */
function negFillLimit(fill: number): number {
  const levels = [4096, 8192, 16384, 32768, 65536];
  return levels[Math.min(-fill - 1, levels.length - 1)];
}

/** quicklist `quicklistNodeExceedsLimit` (7.2+). */
function exceedsLimit(fill: number, size: number, count: number): boolean {
  if (fill < 0) return size > negFillLimit(fill);
  if (size > 8192) return true; // SIZE_SAFETY_LIMIT
  return count > (fill === 0 ? 1 : fill);
}

interface QlNode {
  plain: boolean;
  items: string[];
  /** listpack bytes (node->sz) */
  sz: number;
}

function listpackOf(items: readonly string[]): Uint8Array {
  const lp = new ListpackWriter();
  for (const s of items) lp.string(s);
  return lp.finish();
}

/** listpack bytes after appending `s` to a listpack of `sz` bytes. */
function lpBytesAfter(sz: number, s: string): number {
  const lp = new ListpackWriter();
  lp.string(s);
  return sz + lp.finish().length - 7;
}

function encodeList(w: RdbWriter, items: readonly string[], flavor: CollectionFlavor, limits: CollectionLimits): number {
  const fill = limits.listMaxListpackSize;
  const nodes: QlNode[] = [];
  let listpackEncoded = flavor.listListpack; // 7.2+: starts as a plain listpack object
  const large = (len: number) => (flavor.plainBySize ? (fill < 0 ? len > negFillLimit(fill) : len > 8192) : len >= 1 << 30);
  for (const s of items) {
    if (listpackEncoded) {
      const node = nodes[0] ?? { plain: false, items: [], sz: 7 };
      // listTypeTryConvertListpack: convert before the push that would pass the limit
      if (exceedsLimit(fill, node.sz + s.length, node.items.length + 1)) {
        listpackEncoded = false;
      } else {
        node.items.push(s);
        node.sz = lpBytesAfter(node.sz, s);
        nodes[0] = node;
        continue;
      }
    }
    const tail = nodes[nodes.length - 1];
    if (large(s.length)) {
      nodes.push({ plain: true, items: [s], sz: s.length });
      continue;
    }
    let allow = false;
    if (tail && !tail.plain) {
      const newSz = tail.sz + s.length + 8; // SIZE_ESTIMATE_OVERHEAD
      if (flavor.listListpack) allow = !exceedsLimit(fill, newSz, tail.items.length + 1);
      else if (fill < 0 && -fill - 1 < 5 && newSz <= negFillLimit(fill)) allow = true;
      else allow = newSz <= 8192 && tail.items.length < fill;
    }
    if (allow) {
      tail.items.push(s);
      tail.sz = lpBytesAfter(tail.sz, s);
    } else {
      nodes.push({ plain: false, items: [s], sz: lpBytesAfter(7, s) });
    }
  }
  w.len(nodes.length);
  for (const node of nodes) {
    w.len(node.plain ? 1 : 2);
    if (node.plain) w.string(node.items[0]);
    else w.bytesString(listpackOf(node.items));
  }
  return RDB_TYPE_LIST_QUICKLIST_2;
}

function intsetBlob(values: bigint[], minWidth = 2): Uint8Array {
  let width = minWidth;
  for (const v of values) {
    if (v < -2147483648n || v > 2147483647n) width = 8;
    else if ((v < -32768n || v > 32767n) && width < 4) width = 4;
  }
  const b = new Uint8Array(8 + width * values.length);
  const view = new DataView(b.buffer);
  view.setUint32(0, width, true);
  view.setUint32(4, values.length, true);
  values.forEach((v, i) => {
    const at = 8 + i * width;
    if (width === 2) view.setInt16(at, Number(v), true);
    else if (width === 4) view.setInt32(at, Number(v), true);
    else view.setBigInt64(at, v, true);
  });
  return b;
}

/**
 * A set in the encoding it has (an engine set: lib/model/set.ts): an intset keeps its element
 * width (intset.c never narrows it after removals), a listpack its order; a hash table is the
 * plain member list (a listpack too before 7.2, which has no listpack sets).
 */
function encodeSetAs(w: RdbWriter, members: readonly string[], encoding: 'intset' | 'listpack' | 'hashtable', width: number, flavor: CollectionFlavor): number {
  if (encoding === 'intset') {
    const ints = members.map((m) => BigInt(m)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    w.bytesString(intsetBlob(ints, width));
    return RDB_TYPE_SET_INTSET;
  }
  if (encoding === 'listpack' && flavor.setListpack) {
    w.bytesString(listpackOf(members));
    return RDB_TYPE_SET_LISTPACK;
  }
  w.len(members.length);
  for (const m of members) w.string(m);
  return RDB_TYPE_SET;
}

function encodeSet(w: RdbWriter, members: readonly string[], flavor: CollectionFlavor, limits: CollectionLimits): number {
  type Enc = 'intset' | 'listpack' | 'ht';
  let enc: Enc | null = null;
  let ints: bigint[] = [];
  let lp: string[] = [];
  const maxIntset = Math.min(limits.setMaxIntsetEntries, 1 << 30);
  for (const m of members) {
    const v = string2ll(m);
    if (enc === null) {
      // setTypeCreate with a size hint of 1
      enc = v !== null && 1 <= maxIntset ? 'intset' : flavor.setListpack && 1 <= limits.setMaxListpackEntries ? 'listpack' : 'ht';
    }
    if (enc === 'intset') {
      if (v !== null) {
        ints.push(v);
        if (ints.length > maxIntset) enc = 'ht';
        continue;
      }
      const sorted = ints.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const maxLen = Math.max(0, ...sorted.map((x) => x.toString().length));
      if (flavor.setListpack && ints.length < limits.setMaxListpackEntries && m.length <= limits.setMaxListpackValue && maxLen <= limits.setMaxListpackValue) {
        enc = 'listpack';
        lp = sorted.map((x) => x.toString());
        lp.push(m);
      } else {
        enc = 'ht';
      }
      continue;
    }
    if (enc === 'listpack') {
      if (lp.length < limits.setMaxListpackEntries && m.length <= limits.setMaxListpackValue) lp.push(m);
      else enc = 'ht';
    }
  }
  if (enc === 'intset') {
    ints = ints.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    w.bytesString(intsetBlob(ints));
    return RDB_TYPE_SET_INTSET;
  }
  if (enc === 'listpack') {
    w.bytesString(listpackOf(lp));
    return RDB_TYPE_SET_LISTPACK;
  }
  w.len(members.length);
  for (const m of members) w.string(m);
  return RDB_TYPE_SET;
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function encodeZset(
  w: RdbWriter,
  entries: readonly (readonly [string, number])[],
  flavor: CollectionFlavor,
  limits: CollectionLimits,
  encodedAsListpack?: boolean,
): number {
  const sorted = entries.slice().sort((x, y) => (x[1] !== y[1] ? (x[1] < y[1] ? -1 : 1) : compareBytes(x[0], y[0])));
  const listpack =
    encodedAsListpack ?? (sorted.length <= limits.zsetMaxListpackEntries && sorted.every(([m]) => m.length <= limits.zsetMaxListpackValue));
  if (listpack) {
    const lp = new ListpackWriter();
    for (const [m, score] of sorted) {
      lp.string(m);
      lp.string(d2string(score, flavor.scoreText));
    }
    w.bytesString(lp.finish());
    return RDB_TYPE_ZSET_LISTPACK;
  }
  w.len(sorted.length);
  const dbl = new Uint8Array(8);
  const view = new DataView(dbl.buffer);
  for (let i = sorted.length - 1; i >= 0; i--) {
    w.string(sorted[i][0]);
    view.setFloat64(0, sorted[i][1], true);
    w.raw(dbl);
  }
  return RDB_TYPE_ZSET_2;
}

function encodeHash(
  w: RdbWriter,
  pairs: readonly (readonly [string, string])[],
  limits: CollectionLimits,
  expiries?: ReadonlyMap<string, number>,
  encodedAsListpack?: boolean,
  listpackEx?: boolean,
): number {
  const listpack =
    encodedAsListpack ??
    (pairs.length <= limits.hashMaxListpackEntries &&
      pairs.every(([f, v]) => f.length <= limits.hashMaxListpackValue && v.length <= limits.hashMaxListpackValue));
  const withTtls = expiries !== undefined && expiries.size > 0;
  // a listpackex hash is type 25 even when no field has a TTL now (rdbSaveObjectType by encoding)
  if (withTtls || (listpack && listpackEx)) {
    // 7.4 field TTLs (rdb.c rdbSaveObject): the least expiry first, then a listpack of
    // field, value, absolute expiry (0 = none) triples, or a hash table of [TTL relative to the
    // least expiry + 1, 0 = none][field][value]
    let min = Infinity;
    if (expiries !== undefined) for (const at of expiries.values()) if (at < min) min = at;
    w.millisecondTime(min === Infinity ? 0 : min); // no TTL: 0 (rdbSaveObject, EB_EXPIRE_TIME_INVALID)
    if (listpack) {
      const lp = new ListpackWriter();
      for (const [f, v] of pairs) {
        lp.string(f);
        lp.string(v);
        lp.int(expiries?.get(f) ?? 0);
      }
      w.bytesString(lp.finish());
      return RDB_TYPE_HASH_LISTPACK_EX;
    }
    w.len(pairs.length);
    for (const [f, v] of pairs) {
      const at = expiries?.get(f);
      w.len(at === undefined ? 0 : at - min + 1);
      w.string(f);
      w.string(v);
    }
    return RDB_TYPE_HASH_METADATA;
  }
  if (listpack) {
    const lp = new ListpackWriter();
    for (const [f, v] of pairs) {
      lp.string(f);
      lp.string(v);
    }
    w.bytesString(lp.finish());
    return RDB_TYPE_HASH_LISTPACK;
  }
  w.len(pairs.length);
  for (const [f, v] of pairs) {
    w.string(f);
    w.string(v);
  }
  return RDB_TYPE_HASH;
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** ebuckets.h EB_EXPIRE_TIME_MAX: the latest expiry time a hash field may carry (2^48 − 1 ms). */
const EB_EXPIRE_TIME_MAX = 0xffffffffffffn;

/** strtod of a score as Redis's `zzlGetScore` / `rdbLoadDoubleValue` read it. */
function parseScore(s: string): number {
  if (s === 'inf' || s === '+inf') return Infinity;
  if (s === '-inf') return -Infinity;
  if (s === 'nan') return NaN;
  const v = Number(s);
  if (s.trim() === '' || Number.isNaN(v)) throw new RdbFormatError('bad score');
  return v;
}

function nonEmptyListpack(bytes: Uint8Array): LpValue[] {
  const items = readListpack(bytes);
  if (items.length === 0) throw new RdbFormatError('Empty listpack');
  return items;
}

function parseIntset(b: Uint8Array): { members: string[]; width: 2 | 4 | 8 } {
  if (b.length < 8) throw new RdbFormatError('intset too short');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const width = view.getUint32(0, true);
  const n = view.getUint32(4, true);
  if ((width !== 2 && width !== 4 && width !== 8) || b.length !== 8 + width * n || n === 0) {
    throw new RdbFormatError('Intset integrity check failed');
  }
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const at = 8 + i * width;
    const v = width === 2 ? BigInt(view.getInt16(at, true)) : width === 4 ? BigInt(view.getInt32(at, true)) : view.getBigInt64(at, true);
    if (i > 0 && v <= out[i - 1]) throw new RdbFormatError('Intset integrity check failed');
    out.push(v);
  }
  return { members: out.map((v) => v.toString()), width: width as 2 | 4 | 8 };
}

function noDuplicates(values: readonly string[], what: string): void {
  if (new Set(values).size !== values.length) throw new RdbFormatError(`Duplicate ${what}`);
}

/** Read a list, set, sorted set or hash of RDB type `type`; undefined for another type. */
export function decodeCollection(r: RdbReader, type: number): KeyValue | undefined {
  switch (type) {
    case RDB_TYPE_LIST_QUICKLIST_2: {
      const nodes = r.count('quicklist nodes');
      const items: string[] = [];
      for (let i = 0; i < nodes; i++) {
        const container = r.len();
        if (container !== 1n && container !== 2n) throw new RdbFormatError('Quicklist integrity check failed');
        const data = r.stringBytes();
        if (container === 1n) items.push(byteString(data));
        else for (const v of readListpack(data)) items.push(lpString(v)); // empty listpacks are skipped
      }
      if (items.length === 0) throw new RdbFormatError('Empty list');
      return { type: 'list', value: items };
    }
    case RDB_TYPE_SET: {
      const n = r.count('set size');
      if (n === 0) throw new RdbFormatError('Empty set');
      const members: string[] = [];
      for (let i = 0; i < n; i++) members.push(r.string());
      noDuplicates(members, 'set members');
      return { type: 'set', value: members };
    }
    case RDB_TYPE_SET_INTSET: {
      const { members, width } = parseIntset(r.stringBytes());
      return { type: 'set', value: members, encoding: 'intset', intsetWidth: width };
    }
    case RDB_TYPE_SET_LISTPACK: {
      const members = nonEmptyListpack(r.stringBytes()).map(lpString);
      noDuplicates(members, 'set members');
      return { type: 'set', value: members, encoding: 'listpack' };
    }
    case RDB_TYPE_ZSET:
    case RDB_TYPE_ZSET_2: {
      const n = r.count('zset size');
      if (n === 0) throw new RdbFormatError('Empty zset');
      const entries: [string, number][] = [];
      for (let i = 0; i < n; i++) {
        const member = r.string();
        let score: number;
        if (type === RDB_TYPE_ZSET_2) {
          const b = r.raw(8);
          score = new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
        } else {
          const len = r.byte();
          score = len === 255 ? -Infinity : len === 254 ? Infinity : len === 253 ? NaN : parseScore(byteString(r.raw(len)));
        }
        if (Number.isNaN(score)) throw new RdbFormatError('Zset with NAN score detected');
        entries.push([member, score]);
      }
      noDuplicates(entries.map(([m]) => m), 'zset members');
      entries.reverse();
      return { type: 'zset', value: entries };
    }
    case RDB_TYPE_ZSET_LISTPACK: {
      const items = nonEmptyListpack(r.stringBytes());
      if (items.length % 2) throw new RdbFormatError('Zset listpack integrity check failed');
      const entries: [string, number][] = [];
      for (let i = 0; i < items.length; i += 2) entries.push([lpString(items[i]), parseScore(lpString(items[i + 1]))]);
      noDuplicates(entries.map(([m]) => m), 'zset members');
      return { type: 'zset', value: entries };
    }
    case RDB_TYPE_HASH: {
      const n = r.count('hash size');
      if (n === 0) throw new RdbFormatError('Empty hash');
      const pairs: [string, string][] = [];
      for (let i = 0; i < n; i++) pairs.push([r.string(), r.string()]);
      noDuplicates(pairs.map(([f]) => f), 'hash fields');
      return { type: 'hash', value: pairs };
    }
    case RDB_TYPE_HASH_LISTPACK: {
      const items = nonEmptyListpack(r.stringBytes());
      if (items.length % 2) throw new RdbFormatError('Hash listpack integrity check failed');
      const pairs: [string, string][] = [];
      for (let i = 0; i < items.length; i += 2) pairs.push([lpString(items[i]), lpString(items[i + 1])]);
      noDuplicates(pairs.map(([f]) => f), 'hash fields');
      return { type: 'hash', value: pairs };
    }
    case RDB_TYPE_HASH_METADATA:
    case RDB_TYPE_HASH_METADATA_PRE_GA: {
      // PRE_GA: no least-expiry header, each TTL absolute (expireAt = ttl)
      const preGa = type === RDB_TYPE_HASH_METADATA_PRE_GA;
      const min = preGa ? 1n : r.millisecondTime();
      const n = r.count('hash size');
      if (n === 0) throw new RdbFormatError('Empty hash');
      const pairs: [string, string][] = [];
      const expiries = new Map<string, number>();
      for (let i = 0; i < n; i++) {
        const ttl = r.len();
        // expireAt = ttl + minExpire - 1 in uint64_t; above EB_EXPIRE_TIME_MAX: "invalid expireAt time"
        const at = ttl === 0n ? 0n : BigInt.asUintN(64, ttl + min - 1n);
        if (at > EB_EXPIRE_TIME_MAX) throw new RdbFormatError('invalid expireAt time');
        const f = r.string();
        pairs.push([f, r.string()]);
        if (at !== 0n) expiries.set(f, Number(at));
      }
      noDuplicates(pairs.map(([f]) => f), 'hash fields');
      return { type: 'hash', value: pairs, fieldExpiries: expiries };
    }
    case RDB_TYPE_HASH_LISTPACK_EX:
    case RDB_TYPE_HASH_LISTPACK_EX_PRE_GA: {
      if (type === RDB_TYPE_HASH_LISTPACK_EX) r.millisecondTime(); // the least expiry, recomputed from the fields
      const items = nonEmptyListpack(r.stringBytes());
      if (items.length % 3) throw new RdbFormatError('Hash listpack integrity check failed');
      const pairs: [string, string][] = [];
      const expiries = new Map<string, number>();
      // rdb.c _lpEntryValidation for the TTL of each triple: an integer entry, 0 …
      // EB_EXPIRE_TIME_MAX, and ordered — a field with a TTL follows fields with TTLs only, at
      // no earlier time (the fields without TTL come last)
      let last = -1n;
      for (let i = 0; i < items.length; i += 3) {
        const f = lpString(items[i]);
        pairs.push([f, lpString(items[i + 1])]);
        const ttl = items[i + 2];
        if (typeof ttl === 'string') throw new RdbFormatError('Hash listpack integrity check failed');
        const at = BigInt(ttl);
        if (at < 0n || at > EB_EXPIRE_TIME_MAX) throw new RdbFormatError('Hash listpack integrity check failed');
        if (at !== 0n && (last === 0n || at < last)) throw new RdbFormatError('Hash listpack integrity check failed');
        last = at;
        if (at !== 0n) expiries.set(f, Number(at));
      }
      noDuplicates(pairs.map(([f]) => f), 'hash fields');
      return { type: 'hash', value: pairs, fieldExpiries: expiries, listpackEx: true };
    }
    case RDB_TYPE_LIST: {
      const n = r.count('list size');
      if (n === 0) throw new RdbFormatError('Empty list');
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(r.string());
      return { type: 'list', value: items };
    }
    case RDB_TYPE_LIST_QUICKLIST: {
      const nodes = r.count('quicklist nodes');
      if (nodes === 0) throw new RdbFormatError('Empty list');
      const items: string[] = [];
      for (let i = 0; i < nodes; i++) {
        const data = r.stringBytes();
        if (data.length === 0) throw new RdbFormatError('Empty quicklist node');
        for (const v of readZiplist(data)) items.push(v); // empty ziplists are skipped
      }
      if (items.length === 0) throw new RdbFormatError('Empty list');
      return { type: 'list', value: items };
    }
    case RDB_TYPE_LIST_ZIPLIST: {
      const items = readZiplist(r.stringBytes());
      if (items.length === 0) throw new RdbFormatError('Empty list');
      return { type: 'list', value: items };
    }
    case RDB_TYPE_HASH_ZIPMAP:
      return { type: 'hash', value: readZipmap(r.stringBytes()) };
    case RDB_TYPE_ZSET_ZIPLIST:
    case RDB_TYPE_HASH_ZIPLIST: {
      // ziplistPairsConvertAndValidateIntegrity: no duplicate field/member, an even count
      const items = readZiplist(r.stringBytes());
      if (items.length % 2) throw new RdbFormatError('Ziplist pairs integrity check failed');
      const keys = items.filter((_, i) => i % 2 === 0);
      noDuplicates(keys, type === RDB_TYPE_HASH_ZIPLIST ? 'hash fields' : 'zset members');
      if (items.length === 0) throw new RdbFormatError(type === RDB_TYPE_HASH_ZIPLIST ? 'Empty hash' : 'Empty zset');
      if (type === RDB_TYPE_HASH_ZIPLIST) return { type: 'hash', value: keys.map((f, i) => [f, items[2 * i + 1]] as [string, string]) };
      return { type: 'zset', value: keys.map((m, i) => [m, parseScore(items[2 * i + 1])] as [string, number]) };
    }
    default:
      return undefined;
  }
}
