/**
 * MEMORY USAGE as object.c computes it (memoryCommand + objectComputeSize, 7.0 and the 4f8cdc2a
 * tree, whose formulas agree): the value's allocations, plus the key's sds and a dictEntry, each
 * allocation counted at the size the allocator hands out (`zmalloc_size`). The allocator follows
 * INFO's `mem_allocator` in the fake (lib/commands/server/info.ts): jemalloc 5.3 before 7.2, as
 * Debian's 7.0.15 is linked, and glibc malloc from 7.2, as the post-7.4 build here is.
 *
 * Exact (checked against 7.0.15; on glibc within a few malloc chunks, see below) for strings as the
 * SET family stores them (int, embstr, raw) and as APPEND grows them (`appendedSds`: sds.c's
 * greedy room, followed in the key's string mark), every listpack (hashes, sets, sorted sets,
 * 7.2+ lists), intsets, quicklists (node by node, as lib/model/list.ts shapes them) and streams
 * (memory-model.ts's streamBytes at the allocator's sizes). Approximate where Redis's own figure
 * depends on the hash seed, a coin or an allocation history not followed: hash tables (Redis
 * counts the buckets of both tables while rehashing and samples the first elements in hash
 * order; here the table an insert-only dict reaches and elements spread over insertion order),
 * skiplist nodes (a random level: drawn from a hash of the member), strings grown by SETRANGE,
 * SETBIT, BITFIELD or PFADD (counted as an exact-fit copy), and hashes with field TTLs
 * (listpackex). glibc's figures also depend on which free chunk malloc reuses (a 36-byte key sds
 * may get a 56-byte chunk, a realloc may keep a bigger one). 8.2 and later embed the key in the
 * value object (kvobj, `kvobjUsage`): one allocation of the robj, the expire time when the key has
 * one, a key-header byte and the key's sds, plus a string value's sds when the whole fits a 64-byte
 * cache line (object.c's embedding rule, assumed from Redis's newer string.tcl: `x234`/`y2345` is
 * 32 bytes, `y234561234567` 40, 48 with an expire time); no dictEntry.
 */
import { RedisHash } from '../model/hash';
import { RedisList } from '../model/list';
import { RedisSet } from '../model/set';
import { RedisZset } from '../model/zset';
import { Stream } from '../model/stream';
import { lpStringBytes } from '../model/stream-entries';
import { type SdsBlock, stringEncoding, type StringMark } from '../model/string-encoding';
import { d2string } from '../rdb/double-text';
import { predates, RDB_FORMAT, type RedisVersion, supports } from '../version';
import { keyBytes, streamBytes } from './memory-model';

/** A usable-size function: the bytes `zmalloc_size` reports for a request of `n` bytes. */
export type Usable = (n: number) => number;

/**
 * jemalloc 5.3 on x86-64 (LG_QUANTUM 4): 8, then multiples of 16 up to 128, then four size
 * classes per doubling (160, 192, 224, 256, 320 …), small and large alike.
 */
export function jemallocUsable(n: number): number {
  if (n <= 8) return 8;
  if (n <= 128) return Math.ceil(n / 16) * 16;
  const delta = 2 ** (Math.ceil(Math.log2(n)) - 3);
  return Math.ceil(n / delta) * delta;
}

/**
 * glibc malloc_usable_size: chunks of 16-byte multiples with an 8-byte header, at least 32 (24
 * usable); requests at or above the mmap threshold (128 KiB) get pages, less a 16-byte header.
 */
export function glibcUsable(n: number): number {
  const chunk = Math.max(32, Math.ceil((n + 8) / 16) * 16);
  if (n >= 128 * 1024) return Math.ceil((chunk + 8) / 4096) * 4096 - 16;
  return chunk - 8;
}

/** The allocator the fake reports for `version` (INFO mem_allocator). */
export function usableFor(version: RedisVersion): Usable {
  return predates(version, '7.2') ? jemallocUsable : glibcUsable;
}

/** sizeof(robj), sizeof(dictEntry), sizeof(dict) (7.0 and later), sizeof(quicklist), sizeof(quicklistNode). */
const ROBJ = 16;
const DICT_ENTRY = 24;
const DICT = 56;
const QUICKLIST = 40;
const QUICKLIST_NODE = 40;
/** sizeof(zset), sizeof(zskiplist). */
const ZSET = 16;
const ZSKIPLIST = 32;

/**
 * The allocation of the skiplist node of `member`: ele, score and backward pointers and 16 bytes
 * per level (t_zset.c zslCreateNode). Redis draws the level at random (zslRandomLevel: each further
 * level with ZSKIPLIST_P 0.25, at most 32); here the coin is a hash of the member's bytes, so the
 * figure is one a server could answer (a sum of whole node sizes) and the same on every run.
 */
function skiplistNodeSize(member: string, usable: Usable): number {
  // FNV-1a of the member, then xorshift32 draws of 16 bits, as zslRandomLevel's random()&0xFFFF
  let x = 0x811c9dc5;
  for (let i = 0; i < member.length; i++) x = Math.imul(x ^ member.charCodeAt(i), 0x01000193);
  let level = 1;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    if (level >= 32 || (x & 0xffff) >= 0.25 * 0xffff) break;
    level++;
  }
  return usable(24 + 16 * level);
}
/** The skiplist header node: ZSKIPLIST_MAXLEVEL 32 levels. */
const ZSKIPLIST_HEADER = 24 + 32 * 16;
/** sizeof(intset) (encoding, length). */
const INTSET = 8;
/** A listpack's header (total bytes, element count) and end byte. */
const LP_OVERHEAD = 7;
/** MEMORY USAGE's default SAMPLES. */
export const DEFAULT_SAMPLES = 5;

/** sds.c sdsReqType's header size for a string of `len` bytes. */
function sdsHeader(len: number): number {
  if (len < 32) return 1;
  if (len < 256) return 3;
  if (len < 65536) return 5;
  if (len < 2 ** 32) return 9;
  return 17;
}

/** sdsZmallocSize of a fresh sds of `len` bytes (sdsnewlen: header, bytes, terminator). */
function sdsSize(len: number, usable: Usable): number {
  return sdsFresh(len, usable).block;
}

/** sds.c SDS_MAX_PREALLOC: greedy growth doubles the length below it, adds it above. */
const SDS_MAX_PREALLOC = 1024 * 1024;

/** sds.c sdsTypeMaxSize by header size: the most an sds of that type may hold. */
function sdsTypeMax(hdr: number): number {
  return hdr === 1 ? 31 : hdr === 3 ? 255 : hdr === 5 ? 65535 : hdr === 9 ? 2 ** 32 - 1 : Infinity;
}

/** An sds of header `hdr` allocated for `request` bytes: `sdsalloc` what the block holds (a type-5 header records none: its length). */
function sdsBlockOf(hdr: number, request: number, len: number, usable: Usable): SdsBlock {
  const block = usable(request);
  return { hdr, block, alloc: hdr === 1 ? len : Math.min(block - hdr - 1, sdsTypeMax(hdr)) };
}

/** sdsnewlen(`len`)'s allocation; an empty sds gets a type-8 header (made to be appended to). */
function sdsFresh(len: number, usable: Usable): SdsBlock {
  const hdr = len === 0 ? 3 : sdsHeader(len);
  return sdsBlockOf(hdr, hdr + len + 1, len, usable);
}

/**
 * sds.c sdsMakeRoomFor(s, addlen) (greedy) of an sds of `len` bytes allocated as `cur`: unchanged
 * when its spare room holds `addlen` more, else reallocated for twice the new length (plus 1 MB
 * past 1 MB), with the header that length needs (at least type 8).
 */
function sdsMakeRoomFor(cur: SdsBlock, len: number, addlen: number, usable: Usable): SdsBlock {
  if (cur.alloc - len >= addlen) return cur;
  const newlen = len + addlen < SDS_MAX_PREALLOC ? (len + addlen) * 2 : len + addlen + SDS_MAX_PREALLOC;
  const hdr = Math.max(3, sdsHeader(newlen));
  return sdsBlockOf(hdr, hdr + newlen + 1, newlen, usable);
}

/** Bulk arguments from this length on may be the query buffer itself (networking.c PROTO_MBULK_BIG_ARG). */
const PROTO_MBULK_BIG_ARG = 32 * 1024;

/**
 * APPEND of `addlen` bytes to the string `old` (t_string.c appendCommand): the sds it ends in. A
 * string not raw is first copied into a raw one of its length (dbUnshareStringValue); a raw one
 * grows its own sds: known from an earlier APPEND (its mark), else as SET stored it (sdsnewlen,
 * then object.c trimStringObjectIfNeeded: more than a tenth spare is given back — in 7.0 for
 * every raw value, from 7.2 for values of 32 KB or more), else as sdsnewlen made it. Then
 * sdscatlen makes room greedily.
 */
export function appendedSds(old: string, mark: StringMark | undefined, addlen: number, version: RedisVersion): SdsBlock {
  const usable = usableFor(version);
  const len = old.length;
  let cur = typeof mark === 'object' ? mark : sdsFresh(len, usable);
  if (mark === undefined && stringEncoding(old) === 'raw' && cur.alloc - len > Math.floor(len / 10) && (predates(version, '7.2') || len >= PROTO_MBULK_BIG_ARG)) {
    cur = { hdr: cur.hdr, block: cur.block, alloc: len };
  }
  return sdsMakeRoomFor(cur, len, addlen, usable);
}

/** The power of two a dict of `size` elements reaches by inserts (DICT_HT_INITIAL_SIZE 4). */
function dictBuckets(size: number): number {
  let b = 4;
  while (b < size) b *= 2;
  return b;
}

/** `count` × the average of the sampled sizes (object.c: `(double)elesize/samples*count`, truncated). */
function extrapolate(sampled: number, samples: number, count: number): number {
  return samples === 0 ? 0 : Math.floor((sampled / samples) * count);
}

/** What MEMORY USAGE needs of the server: the version and its string marks. */
export interface UsageContext {
  readonly version: RedisVersion;
  /** How the key's string was last written (lib/model/string-encoding.ts), if it is a string. */
  readonly mark?: StringMark;
  /** The key has a TTL (8.2+: its expire time is in the kvobj). */
  readonly volatile?: boolean;
}

/** Bytes of a listpack of the byte strings `items` (each entry as listpack.c encodes it). */
function listpackOf(items: Iterable<string>): number {
  let bytes = LP_OVERHEAD;
  for (const s of items) bytes += lpStringBytes(s);
  return bytes;
}

function* hashItems(h: RedisHash, ttls: boolean): Generator<string> {
  for (const e of h.entries()) {
    yield e.field;
    yield e.value;
    if (ttls) yield String(e.expireAt);
  }
}

function* zsetItems(z: RedisZset, version: RedisVersion): Generator<string> {
  const style = RDB_FORMAT[version].collections.scoreText;
  for (const [member, score] of z.entries()) {
    yield member;
    yield d2string(score, style);
  }
}

/** object.c objectComputeSize for a string value. */
function stringSize(s: string, ctx: UsageContext, usable: Usable): number {
  if (typeof ctx.mark === 'object') return ROBJ + ctx.mark.block;
  const enc = stringEncoding(s, ctx.mark);
  if (enc === 'int') return ROBJ;
  if (enc === 'embstr') return usable(ROBJ + 3 + s.length + 1);
  return ROBJ + sdsSize(s.length, usable);
}

/** object.c objectComputeSize (`samples` >= 1; SAMPLES 0 is passed as Infinity). */
function valueSize(value: unknown, samples: number, ctx: UsageContext, usable: Usable): number | undefined {
  if (typeof value === 'string') return stringSize(value, ctx, usable);
  // a bitmap held as bytes (SETBIT, BITFIELD …: raw)
  if (Buffer.isBuffer(value)) return ROBJ + sdsSize(value.length, usable);
  if (value instanceof RedisList) {
    if (!value.isQuicklist) {
      const lp = usable(value.listpackBytes);
      return predates(ctx.version, '7.2') ? ROBJ + QUICKLIST + QUICKLIST_NODE + lp : ROBJ + lp;
    }
    const nodes = value.quicklistNodes;
    let sampled = 0;
    let n = 0;
    for (; n < nodes && n < samples; n++) sampled += QUICKLIST_NODE + usable(value.nodeBytes(n));
    return ROBJ + QUICKLIST + extrapolate(sampled, n, nodes);
  }
  if (value instanceof RedisSet) {
    const enc = value.encoding();
    const size = value.size;
    if (enc === 'intset') {
      return ROBJ + usable(INTSET + value.intsetWidth * size);
    }
    if (enc === 'listpack') return ROBJ + usable(listpackOf(value.members()));
    const first = samples >= size ? value.members() : value.scanTable(0, samples).members.slice(0, samples);
    let sampled = 0;
    for (const m of first) sampled += DICT_ENTRY + sdsSize(m.length, usable);
    return ROBJ + DICT + 8 * dictBuckets(size) + extrapolate(sampled, first.length, size);
  }
  if (value instanceof RedisZset) {
    const size = value.size;
    if (value.listpack) return ROBJ + usable(listpackOf(zsetItems(value, ctx.version)));
    let sampled = 0;
    let n = 0;
    for (let i = 0; i < size && n < samples; i++, n++) {
      const member = value.at(i)?.[0] ?? '';
      sampled += sdsSize(member.length, usable) + DICT_ENTRY + skiplistNodeSize(member, usable);
    }
    return ROBJ + ZSET + ZSKIPLIST + DICT + 8 * dictBuckets(size) + usable(ZSKIPLIST_HEADER) + extrapolate(sampled, n, size);
  }
  if (value instanceof RedisHash) {
    const enc = value.encoding();
    if (enc === 'listpack') return ROBJ + usable(listpackOf(hashItems(value, false)));
    // listpackEx: its struct (expiry metadata, key, listpack pointer) and the listpack of triples
    if (enc === 'listpackex') return ROBJ + usable(32) + usable(listpackOf(hashItems(value, true)));
    const size = value.size;
    const sample = value.sample(samples);
    let sampled = 0;
    for (const e of sample) sampled += sdsSize(e.field.length, usable) + sdsSize(e.value.length, usable) + DICT_ENTRY;
    return ROBJ + DICT + 8 * dictBuckets(size) + extrapolate(sampled, sample.length, size);
  }
  return undefined;
}

/**
 * MEMORY USAGE `key` of `value` with SAMPLES `samples` (0: every element): bytes as object.c
 * figures them on the emulated version's allocator (see the module comment for what is exact).
 * Values this model does not cover (streams, HyperLogLogs and other engine buffers) keep
 * memory-model.ts's estimate.
 */
export function memoryUsage(key: string, value: unknown, samples: number, ctx: UsageContext): number {
  const usable = usableFor(ctx.version);
  const take = samples <= 0 ? Infinity : samples;
  const size = value instanceof Stream ? streamBytes(value, take, usable, ctx.version) : valueSize(value, take, ctx, usable);
  if (size === undefined) return keyBytes(key, value, samples);
  if (supports(ctx.version, 'kvobjMemory')) return kvobjUsage(key, value, size, ctx, usable);
  return size + sdsSize(key.length, usable) + DICT_ENTRY;
}

/** The sds header of an embedded key (sdsReqType: type 5 below 32 bytes, then 8, 16, 32). */
function embeddedKeyHeader(len: number): number {
  if (len < 32) return 1;
  if (len < 256) return 3;
  if (len < 65536) return 5;
  return 9;
}

/** A cache line: an 8.2+ string value is embedded with its key when the kvobj fits one. */
const CACHE_LINE = 64;

/**
 * MEMORY USAGE in 8.2 and later (kvobj): the value object carries the key (a key-header byte, the
 * key's sds and its terminator) and, for a volatile key, the expire time, in one allocation; a
 * short string (embstr as 8.0 encodes it) joins it when the whole fits a cache line. `size` is
 * the 8.0 figure of the value (its robj and allocations), whose robj the kvobj replaces.
 */
function kvobjUsage(key: string, value: unknown, size: number, ctx: UsageContext, usable: Usable): number {
  const head = ROBJ + (ctx.volatile ? 8 : 0) + 1 + embeddedKeyHeader(key.length) + key.length + 1;
  if (typeof value === 'string' && typeof ctx.mark !== 'object' && stringEncoding(value, ctx.mark) === 'embstr') {
    const embedded = head + 3 + value.length + 1;
    if (embedded <= CACHE_LINE) return usable(embedded);
    return usable(head) + sdsSize(value.length, usable);
  }
  return usable(head) + size - ROBJ;
}
