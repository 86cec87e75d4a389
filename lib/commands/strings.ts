/**
 * The string commands of t_string.c (7.0.15 and the post-7.4 tree 4f8cdc2a, checked on both
 * servers): GET, SET, SETNX, SETEX, PSETEX, GETEX, GETDEL, GETSET, MSET, MSETNX, MGET, APPEND,
 * STRLEN, SETRANGE, GETRANGE, SUBSTR, LCS. (INCR & co.: ./incr.ts; bit commands: ./bitops.ts.)
 *
 * Values are byte strings: lengths, offsets and ranges count bytes. Replies: bulk strings
 * (`null` = nil), integers, `OK`. Keyspace events as Redis sends them: `$` set / append /
 * setrange, `g` expire (SET/SETEX/PSETEX with a TTL, GETEX with one), `g` del (GETDEL, GETEX
 * with a past EXAT/PXAT), `g` persist (GETEX PERSIST), `n` new (a key created, db.c dbAdd) and
 * `m` keymiss (a read lookup of a missing key, db.c lookupKeyRead). INFO's dirty counter as
 * `server.dirty` counts them: one per write, MSET/MSETNX one per pair.
 *
 * Errors, in Redis's order: the options (`ERR syntax error`), the expire time (`ERR value is not
 * an integer or out of range`, then `ERR invalid expire time in '<cmd>' command` for a value
 * ≤ 0, seconds above LLONG_MAX/1000 or a sum with the time past LLONG_MAX), then WRONGTYPE.
 * Times are ms on the keyspace clock (`ctx.now`, Redis commandTimeSnapshot).
 */
import { StreamsMockError } from '../clock/clock';
import { ERR_NOT_INTEGER, ERR_SYNTAX, ERR_WRONGTYPE, errWrongArity, fail } from '../errors';
import { MapReply, OK, type Reply } from '../reply/reply';
import { appendedSds } from '../stats/object-size';
import { type RedisVersion, supports } from '../version';
import { INT64_MAX, int64OrFail, is, negativeRangeInverted, parseInt64, parseSmallInt } from './args';
import { MAX_JS_STRING, bitsAt, bytesOfStored, digestMatches, protoMaxBulkLen, storeString, stringForRead, stringForWrite, writableBitmap } from './string-value';
import type { CommandContext, CommandSpec, Db } from './types';
import { deletionName, propagationOf } from './propagate';

// parseExtendedStringArgumentsOrReply flags (t_string.c OBJ_*)
export const NX = 1;
export const XX = 2;
export const EX = 4;
export const PX = 8;
export const KEEPTTL = 16;
const GET = 32;
export const EXAT = 64;
export const PXAT = 128;
const PERSIST = 256;
// Redis 8.4's compare-and-set conditions (t_string.c OBJ_SET_IFEQ …): ./strings-conditional.ts
const IFEQ = 512;
const IFNE = 1024;
const IFDEQ = 2048;
const IFDNE = 4096;
const ANY_EXPIRE = EX | PX | EXAT | PXAT;
const ANY_IF = IFEQ | IFNE | IFDEQ | IFDNE;

/** The parsed options of SET (argv[3…]) or GETEX (argv[2…]). */
interface ExtendedArgs {
  flags: number;
  /** The expire argument (EX/PX/EXAT/PXAT), or undefined. */
  expire: string | undefined;
  /** The IFEQ/IFNE value or IFDEQ/IFDNE digest (8.4+), or undefined. */
  match?: string;
}

/**
 * t_string.c parseExtendedStringArgumentsOrReply: SET takes NX XX GET KEEPTTL EX PX EXAT PXAT,
 * GETEX takes PERSIST EX PX EXAT PXAT. An option that conflicts with one already given (NX after
 * XX, KEEPTTL after EX, EX after PX …), or lacks its value, is `ERR syntax error`; the same
 * option twice is accepted (the last expire value wins).
 */
function parseExtended(argv: string[], forSet: boolean, version?: RedisVersion): ExtendedArgs {
  let flags = 0;
  let expire: string | undefined;
  let match: string | undefined;
  // 8.4: IFEQ/IFNE/IFDEQ/IFDNE take a value and exclude NX, XX and one another (the docs' one-of)
  const conditional = forSet && version !== undefined && supports(version, 'conditionalSet');
  for (let j = forSet ? 3 : 2; j < argv.length; j++) {
    const opt = argv[j];
    const hasNext = j < argv.length - 1;
    if (forSet && is(opt, 'NX') && !(flags & (XX | ANY_IF))) flags |= NX;
    else if (forSet && is(opt, 'XX') && !(flags & (NX | ANY_IF))) flags |= XX;
    else if (conditional && hasNext && !(flags & (NX | XX | ANY_IF)) && conditionFlag(opt) !== 0) {
      flags |= conditionFlag(opt);
      match = argv[++j];
    }
    else if (forSet && is(opt, 'GET')) flags |= GET;
    else if (forSet && is(opt, 'KEEPTTL') && !(flags & (PERSIST | ANY_EXPIRE))) flags |= KEEPTTL;
    else if (!forSet && is(opt, 'PERSIST') && !(flags & (ANY_EXPIRE | KEEPTTL))) flags |= PERSIST;
    else if (is(opt, 'EX') && !(flags & (KEEPTTL | PERSIST | EXAT | PX | PXAT)) && hasNext) {
      flags |= EX;
      expire = argv[++j];
    } else if (is(opt, 'PX') && !(flags & (KEEPTTL | PERSIST | EX | EXAT | PXAT)) && hasNext) {
      flags |= PX;
      expire = argv[++j];
    } else if (is(opt, 'EXAT') && !(flags & (KEEPTTL | PERSIST | EX | PX | PXAT)) && hasNext) {
      flags |= EXAT;
      expire = argv[++j];
    } else if (is(opt, 'PXAT') && !(flags & (KEEPTTL | PERSIST | EX | EXAT | PX)) && hasNext) {
      flags |= PXAT;
      expire = argv[++j];
    } else fail(ERR_SYNTAX);
  }
  return { flags, expire, match };
}

/** The flag of an IFEQ/IFNE/IFDEQ/IFDNE token (any case), 0 for another token. */
function conditionFlag(opt: string): number {
  if (opt.length !== 4 && opt.length !== 5) return 0;
  if (is(opt, 'IFEQ')) return IFEQ;
  if (is(opt, 'IFNE')) return IFNE;
  if (is(opt, 'IFDEQ')) return IFDEQ;
  if (is(opt, 'IFDNE')) return IFDNE;
  return 0;
}

/**
 * Whether the SET condition holds for the current value `old` (undefined: missing key): IFEQ /
 * IFDEQ need the key and an equal value / digest; IFNE / IFDNE hold for a missing key. A digest
 * compared with a value must be 16 hex digits, any case (redis/redis#14502: `ERR must be exactly
 * 16 hexadecimal characters`; on a missing key it is not read, as Redis's string.tcl shows).
 */
function conditionHolds(flags: number, old: string | undefined, match: string): boolean {
  if (flags & IFEQ) return old !== undefined && old === match;
  if (flags & IFNE) return old === undefined || old !== match;
  if (old === undefined) return (flags & IFDNE) !== 0;
  const same = digestMatches(old, match);
  return flags & IFDEQ ? same : !same;
}

const SECONDS_LIMIT = 9223372036854775n; // LLONG_MAX / 1000

/**
 * t_string.c getExpireMillisecondsOrReply: the absolute expiry in ms of the expire argument
 * `arg` under `flags` (EX/EXAT in seconds, PX/PXAT in ms; EX/PX relative to `now`).
 * @throws `ERR value is not an integer or out of range`; `ERR invalid expire time in '<name>'
 *   command` for a value ≤ 0, seconds above LLONG_MAX/1000, or an absolute time past LLONG_MAX
 */
export function expireAtMs(arg: string, flags: number, now: number, name: string): number {
  const seconds = (flags & (EX | EXAT)) !== 0;
  const relative = (flags & (EX | PX)) !== 0;
  const small = parseSmallInt(arg); // |v| < 10^15: no overflow possible below
  if (small !== null) {
    if (small <= 0) fail(`ERR invalid expire time in '${name}' command`);
    const ms = seconds ? small * 1000 : small;
    return relative ? ms + now : ms;
  }
  const v = parseInt64(arg);
  if (v === null) fail(ERR_NOT_INTEGER);
  if (v <= 0n || (seconds && v > SECONDS_LIMIT)) fail(`ERR invalid expire time in '${name}' command`);
  let ms = seconds ? v * 1000n : v;
  if (relative) ms += BigInt(now);
  if (ms > INT64_MAX) fail(`ERR invalid expire time in '${name}' command`); // Redis: the signed sum wraps below 0
  return Number(ms);
}

/** `expireAtMs` as a bigint, exact past 2^53 ms (the argument is valid: expireAtMs checked it). */
export function exactExpireAtMs(arg: string, flags: number, now: number): bigint {
  const v = parseInt64(arg) as bigint;
  const ms = (flags & (EX | EXAT)) !== 0 ? v * 1000n : v;
  return (flags & (EX | PX)) !== 0 ? ms + BigInt(now) : ms;
}

function get(ctx: CommandContext, argv: string[]): Reply {
  const v = ctx.db.lookup(argv[1]);
  if (typeof v === 'string') {
    ctx.db.keyHit();
    return v;
  }
  if (v === undefined) {
    ctx.db.keyMiss(argv[1]);
    return null;
  }
  ctx.db.keyHit();
  const s = bytesOfStored(v);
  if (s === undefined) fail(ERR_WRONGTYPE);
  return s;
}

/**
 * t_string.c setGenericCommand: the expire time is checked first, then GET reads the old value
 * (WRONGTYPE for another type), then NX/XX decide; the value replaces any type. Replies `OK`
 * (SETNX: 1) or, when NX/XX refuse, nil (SETNX: 0); with GET the old value (nil when missing).
 */
function setGeneric(
  ctx: CommandContext,
  name: string,
  key: string,
  value: string,
  flags: number,
  expire: string | undefined,
  okReply: Reply,
  abortReply: Reply,
  match?: string,
): Reply {
  const db = ctx.db;
  const at = expire === undefined ? undefined : expireAtMs(expire, flags, ctx.now, name);
  let old: string | undefined;
  let found: boolean;
  if (flags & GET) {
    old = stringForRead(db, key);
    found = old !== undefined;
  } else if (flags & ANY_IF) {
    old = stringForWrite(db, key); // the value compared: WRONGTYPE for another type
    found = old !== undefined;
  } else found = db.lookup(key) !== undefined;
  if ((flags & NX && found) || (flags & XX && !found)) return flags & GET ? (old ?? null) : abortReply;
  if (flags & ANY_IF && !conditionHolds(flags, old, match!)) return flags & GET ? (old ?? null) : abortReply;
  storeString(db, key, value, found, (flags & KEEPTTL) !== 0 || at !== undefined);
  db.dirty?.(1);
  db.notifyEvent('$', 'set', key);
  if (at !== undefined) {
    const exact = Number.isSafeInteger(at) ? undefined : exactExpireAtMs(expire!, flags, ctx.now);
    db.setTtlAt(key, at, exact);
    db.notifyEvent('g', 'expire', key);
    // propagated as SET key value PXAT ms (7.0: a PXAT option too; later ones keep it as sent)
    if (!(flags & PXAT) || !supports(ctx.version, 'setPxatAsSent')) propagationOf(ctx.db)?.rewrite(['SET', key, value, 'PXAT', String(exact ?? at)]);
  }
  return flags & GET ? (old ?? null) : okReply;
}

/**
 * SET key value [NX | XX | IFEQ v | IFNE v | IFDEQ digest | IFDNE digest] [GET]
 *   [EX seconds | PX ms | EXAT unix-seconds | PXAT unix-ms | KEEPTTL]
 * (the IF* conditions from 8.4; before, they are `ERR syntax error` like any unknown option).
 * A condition that fails answers nil, or with GET the old value (nil when missing), as NX/XX.
 */
function set(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  if (argv.length === 3) {
    // plain SET: no option to parse
    const db = ctx.db;
    const found = db.lookup(key) !== undefined;
    db.store(key, argv[2]);
    if (!found) db.notifyEvent('n', 'new', key);
    db.dirty?.(1);
    db.notifyEvent('$', 'set', key);
    return OK;
  }
  const { flags, expire, match } = parseExtended(argv, true, ctx.version);
  return setGeneric(ctx, 'set', key, argv[2], flags, expire, OK, null, match);
}

/** SETNX key value: 1 when set, 0 when the key exists. */
function setnx(ctx: CommandContext, argv: string[]): Reply {
  return setGeneric(ctx, 'setnx', argv[1], argv[2], NX, undefined, 1, 0);
}

/** SETEX key seconds value */
function setex(ctx: CommandContext, argv: string[]): Reply {
  return setGeneric(ctx, 'setex', argv[1], argv[3], EX, argv[2], OK, null);
}

/** PSETEX key milliseconds value */
function psetex(ctx: CommandContext, argv: string[]): Reply {
  return setGeneric(ctx, 'psetex', argv[1], argv[3], PX, argv[2], OK, null);
}

/**
 * GETEX key [EX seconds | PX ms | EXAT unix-seconds | PXAT unix-ms | PERSIST]: the value (nil
 * when missing), then the TTL change. Order (t_string.c getexCommand): options, lookup,
 * WRONGTYPE, expire time. An EXAT/PXAT at or before now deletes the key (`g` del).
 */
function getex(ctx: CommandContext, argv: string[]): Reply {
  const { flags, expire } = parseExtended(argv, false);
  const db = ctx.db;
  const key = argv[1];
  const value = stringForRead(db, key);
  if (value === undefined) return null;
  const at = expire === undefined ? undefined : expireAtMs(expire, flags, ctx.now, 'getex');
  // never propagated as sent: as DEL/UNLINK, PEXPIREAT or PERSIST, or not at all
  if (at !== undefined && flags & (EXAT | PXAT) && at <= ctx.now) {
    db.remove(key);
    db.notifyEvent('g', 'del', key);
    db.dirty?.(1);
    propagationOf(ctx.db)?.rewrite([deletionName(ctx, 'lazyfree-lazy-expire'), key]);
  } else if (at !== undefined) {
    const exact = Number.isSafeInteger(at) ? undefined : exactExpireAtMs(expire!, flags, ctx.now);
    db.setTtlAt(key, at, exact);
    db.touch(key);
    db.notifyEvent('g', 'expire', key);
    db.dirty?.(1);
    propagationOf(ctx.db)?.rewrite(['PEXPIREAT', key, String(exact ?? at)]);
  } else if (flags & PERSIST && db.persist(key)) {
    db.touch(key);
    db.notifyEvent('g', 'persist', key);
    db.dirty?.(1);
    propagationOf(ctx.db)?.rewrite(['PERSIST', key]);
  }
  return value;
}

/** GETDEL key: the value (nil when missing), and the key deleted. */
function getdel(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const value = stringForRead(db, argv[1]);
  if (value === undefined) return null;
  db.remove(argv[1]);
  db.notifyEvent('g', 'del', argv[1]);
  db.dirty?.(1);
  propagationOf(ctx.db)?.rewrite(['DEL', argv[1]]);
  return value;
}

/** GETSET key value: the old value (nil when missing); the new one stored without TTL. */
function getset(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const old = stringForRead(db, argv[1]);
  storeString(db, argv[1], argv[2], old !== undefined);
  db.notifyEvent('$', 'set', argv[1]);
  db.dirty?.(1);
  propagationOf(ctx.db)?.rewrite(['SET', argv[1], argv[2]]);
  return old ?? null;
}

/** MGET key [key …]: each value, nil for a missing key or one of another type. */
function mget(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const out = new Array<Reply>(argv.length - 1);
  let hits = 0;
  for (let j = 1; j < argv.length; j++) {
    const v = db.lookup(argv[j]);
    if (v === undefined) {
      db.keyMiss(argv[j]);
      out[j - 1] = null;
      continue;
    }
    hits++;
    out[j - 1] = typeof v === 'string' ? v : (bytesOfStored(v) ?? null);
  }
  if (hits !== 0) db.keyHit(hits);
  return out;
}

/**
 * MSET / MSETNX key value [key value …]: an odd count of arguments is the arity error. MSETNX
 * sets nothing and answers 0 when any key exists. Each key's TTL is dropped.
 */
function msetGeneric(ctx: CommandContext, argv: string[], nx: boolean): Reply {
  if (argv.length % 2 === 0) fail(errWrongArity(nx ? 'msetnx' : 'mset'));
  const db = ctx.db;
  if (nx) for (let j = 1; j < argv.length; j += 2) if (db.lookup(argv[j]) !== undefined) return 0;
  for (let j = 1; j < argv.length; j += 2) {
    storeString(db, argv[j], argv[j + 1], db.lookup(argv[j]) !== undefined);
    db.notifyEvent('$', 'set', argv[j]);
  }
  db.dirty?.((argv.length - 1) / 2);
  return nx ? 1 : OK;
}

/** checkStringLength: `ERR string exceeds maximum allowed size (proto-max-bulk-len)` past the limit. */
function checkStringLength(db: Db, size: number, append: number): void {
  const total = size + append;
  if (total > protoMaxBulkLen(db)) fail('ERR string exceeds maximum allowed size (proto-max-bulk-len)');
  if (total > MAX_JS_STRING) {
    throw new StreamsMockError(`a string of ${total} bytes is longer than JavaScript strings can be (${MAX_JS_STRING}); Redis would store it`);
  }
}

/** APPEND key value: the new length in bytes; creates the key when missing (TTL kept otherwise). */
function append(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  const old = stringForWrite(db, key);
  let total: number;
  if (old === undefined) {
    storeString(db, key, argv[2], false);
    total = argv[2].length;
  } else {
    checkStringLength(db, old.length, argv[2].length);
    const next = old + argv[2];
    // changed in place: raw (lib/model/string-encoding.ts), its sds grown greedily (MEMORY USAGE)
    db.store(key, next, true, appendedSds(old, db.stringMark?.(key), argv[2].length, ctx.version));
    total = next.length;
  }
  db.notifyEvent('$', 'append', key);
  db.dirty?.(1);
  return total;
}

/** STRLEN key: the length in bytes; 0 when missing. */
function strlen(ctx: CommandContext, argv: string[]): Reply {
  const v = bitsAt(ctx.db, argv[1], true); // a bitmap's length without reading it
  return v === undefined ? 0 : v.length;
}

/**
 * SETRANGE key offset value: overwrite from `offset` (bytes), padding with zero bytes; the new
 * length. An empty value changes nothing (answers the length, 0 for a missing key, which is not
 * created). Errors: `ERR value is not an integer or out of range`, `ERR offset is out of range`
 * (negative), WRONGTYPE, `ERR string exceeds maximum allowed size (proto-max-bulk-len)`.
 */
function setrange(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  const value = argv[3];
  const offset = longArg(argv[2]);
  if (offset < 0) fail('ERR offset is out of range');
  const old = bitsAt(db, key, false);
  if (old === undefined) {
    if (value.length === 0) return 0;
    checkStringLength(db, offset, value.length);
  } else {
    if (value.length === 0) return old.length;
    checkStringLength(db, offset, value.length);
  }
  // written in place (a bitmap: string-value.ts), zero bytes up to `offset`
  const bytes = writableBitmap(old, offset + value.length);
  bytes.write(value, offset, 'latin1');
  if (old === undefined) storeString(db, key, bytes, false, false, 'raw');
  else db.store(key, bytes, true, 'raw');
  db.notifyEvent('$', 'setrange', key);
  db.dirty?.(1);
  return Math.max(old?.length ?? 0, offset + value.length);
}

/** A signed 64-bit argument as a number (exact below 2^53; beyond, only compared with lengths). */
function longArg(arg: string): number {
  const small = parseSmallInt(arg);
  return small !== null ? small : Number(int64OrFail(arg));
}

/**
 * GETRANGE / SUBSTR key start end: the bytes from `start` to `end` inclusive (negative: from the
 * end); "" for a missing key. 8.0 (the post-7.4 tree, redis #12272): "" when the range ends
 * before the start of the string after the negative conversion; 7.x clamps such an `end` to 0
 * (`GETRANGE k 0 -100` answers the first byte).
 */
function getrange(ctx: CommandContext, argv: string[]): Reply {
  let start = longArg(argv[2]);
  let end = longArg(argv[3]);
  const s = bitsAt(ctx.db, argv[1], true); // a bitmap: only the range read
  if (s === undefined) return '';
  const len = s.length;
  if (supports(ctx.version, 'getrangeNegativeEndEmpty')) {
    if (start < 0) start += len;
    if (end < 0) end += len;
    if (len === 0 || start >= len || end < 0 || start > end) return '';
    if (start < 0) start = 0;
    if (end >= len) end = len - 1;
    return typeof s === 'string' ? s.slice(start, end + 1) : s.toString('latin1', start, end + 1);
  }
  if (negativeRangeInverted(start, end, argv[2], argv[3])) return '';
  if (start < 0) start += len;
  if (end < 0) end += len;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= len) end = len - 1;
  if (start > end || len === 0) return '';
  return typeof s === 'string' ? s.slice(start, end + 1) : s.toString('latin1', start, end + 1);
}

/**
 * LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]: the longest common subsequence of
 * the two strings (a missing key is ""), its length (LEN), or (IDX) a map of `matches` — ranges
 * `[[start1, end1], [start2, end2]]` (+ the length with WITHMATCHLEN), last match first, those
 * shorter than MINMATCHLEN left out — and `len`. Errors, in order: `ERR The specified keys must
 * contain string values`, `ERR syntax error`, `ERR value is not an integer or out of range`,
 * `ERR If you want both the length and indexes, please just use IDX.`, `ERR Insufficient memory,
 * transient memory for LCS exceeds proto-max-bulk-len` (when (len1+1)·(len2+1)·4 bytes exceed
 * it). The table is Redis's O(len1·len2) dynamic programme (t_string.c lcsCommand, 7.0+).
 */
function lcs(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const rawA = db.lookup(argv[1]);
  if (rawA === undefined) db.keyMiss(argv[1]);
  else db.keyHit();
  const rawB = db.lookup(argv[2]);
  if (rawB === undefined) db.keyMiss(argv[2]);
  else db.keyHit();
  const a = rawA === undefined ? '' : bytesOfStored(rawA);
  const b = rawB === undefined ? '' : bytesOfStored(rawB);
  if (a === undefined || b === undefined) fail('ERR The specified keys must contain string values');
  let getlen = false;
  let getidx = false;
  let withmatchlen = false;
  let minmatchlen = 0;
  for (let j = 3; j < argv.length; j++) {
    const opt = argv[j];
    const moreargs = argv.length - 1 - j;
    if (is(opt, 'IDX')) getidx = true;
    else if (is(opt, 'LEN')) getlen = true;
    else if (is(opt, 'WITHMATCHLEN')) withmatchlen = true;
    else if (is(opt, 'MINMATCHLEN') && moreargs > 0) {
      const v = longArg(argv[++j]);
      minmatchlen = v < 0 ? 0 : v;
    } else fail(ERR_SYNTAX);
  }
  if (getlen && getidx) fail('ERR If you want both the length and indexes, please just use IDX.');
  const alen = a.length;
  const blen = b.length;
  const cells = (alen + 1) * (blen + 1);
  if (cells * 4 > protoMaxBulkLen(db)) fail('ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len');
  const w = blen + 1;
  const table = new Uint32Array(cells);
  for (let i = 1; i <= alen; i++) {
    const ai = a.charCodeAt(i - 1);
    const row = i * w;
    const prev = row - w;
    for (let j = 1; j <= blen; j++) {
      if (ai === b.charCodeAt(j - 1)) table[row + j] = table[prev + j - 1] + 1;
      else {
        const up = table[prev + j];
        const left = table[row + j - 1];
        table[row + j] = up > left ? up : left;
      }
    }
  }
  const total = table[alen * w + blen];
  if (getlen) return total;
  // walk back from the end, collecting the LCS and (IDX) the ranges, as lcsCommand does
  const result = new Array<string>(total);
  let idx = total;
  const matches: Reply[] = [];
  let aStart = alen; // alen: no range open
  let aEnd = 0;
  let bStart = 0;
  let bEnd = 0;
  let i = alen;
  let j = blen;
  while (i > 0 && j > 0) {
    let emit = false;
    if (a.charCodeAt(i - 1) === b.charCodeAt(j - 1)) {
      result[idx - 1] = a[i - 1];
      if (aStart === alen) {
        aStart = i - 1;
        aEnd = i - 1;
        bStart = j - 1;
        bEnd = j - 1;
      } else if (aStart === i && bStart === j) {
        aStart--;
        bStart--;
      } else emit = true;
      if (aStart === 0 || bStart === 0) emit = true;
      idx--;
      i--;
      j--;
    } else {
      if (table[(i - 1) * w + j] > table[i * w + j - 1]) i--;
      else j--;
      if (aStart !== alen) emit = true;
    }
    if (emit) {
      const matchLen = aEnd - aStart + 1;
      if (getidx && (minmatchlen === 0 || matchLen >= minmatchlen)) {
        const m: Reply[] = [[aStart, aEnd], [bStart, bEnd]];
        if (withmatchlen) m.push(matchLen);
        matches.push(m);
      }
      aStart = alen;
    }
  }
  if (getidx) return new MapReply(['matches', matches, 'len', total]);
  return result.join('');
}

export const specs: CommandSpec[] = [
  { name: 'get', arity: 2, write: false, run: get },
  { name: 'set', arity: -3, write: true, run: set },
  { name: 'setnx', arity: 3, write: true, run: setnx },
  { name: 'setex', arity: 4, write: true, run: setex },
  { name: 'psetex', arity: 4, write: true, run: psetex },
  { name: 'getex', arity: -2, write: true, run: getex },
  { name: 'getdel', arity: 2, write: true, run: getdel },
  { name: 'getset', arity: 3, write: true, run: getset },
  { name: 'mget', arity: -2, write: false, run: mget },
  { name: 'mset', arity: -3, write: true, run: (ctx, argv) => msetGeneric(ctx, argv, false) },
  { name: 'msetnx', arity: -3, write: true, run: (ctx, argv) => msetGeneric(ctx, argv, true) },
  { name: 'append', arity: 3, write: true, run: append },
  { name: 'strlen', arity: 2, write: false, run: strlen },
  { name: 'setrange', arity: 4, write: true, run: setrange },
  { name: 'getrange', arity: 4, write: false, run: getrange },
  { name: 'substr', arity: 4, write: false, run: getrange },
  { name: 'lcs', arity: -3, write: false, run: lcs },
];
