/**
 * What the sorted-set commands share (t_zset.c): reading scores and ranges as Redis reads them,
 * printing scores as the emulated version prints them, finding and creating the sorted set of a
 * key, and shaping `[member, score]` replies.
 *
 * Scores (the text readers themselves: ./strtod.ts):
 * - `parseScoreArg` is getDoubleFromObject (ZADD scores, ZINCRBY's increment, WEIGHTS): C strtod
 *   over the whole text — decimal and hex floats, `inf`/`infinity` with a sign, no spaces, not
 *   `nan`, and not a text strtod overflows (`1e400`) or underflows (`1e-400`) with ERANGE;
 * - `parseScoreBound` is zslParseRange (`(` exclusive; leading spaces skipped, the empty text is 0,
 *   overflows are the infinities);
 * - `parseLexBound` is zslParseLexRangeItem (`-`, `+`, `(member`, `[member`).
 * Printing (`scoreText`): addReplyDouble — 7.0 `%.17g` (0.1 is `0.10000000000000001`), 7.2+
 * d2string with fpconv_dtoa (shortest round trip: `0.1`; integral values within ±2^62 as
 * integers); `inf`, `-inf`, `-0` (a skiplist keeps a negative zero; checked on both servers).
 */
import { ERR_WRONGTYPE, fail } from '../errors';
import { RedisZset, type ZsetEntry } from '../model/zset';
import { DEFAULT_COLLECTION_LIMITS, type CollectionLimits } from '../rdb/collection-limits';
import { d2string, formatG17 } from '../rdb/double-text';
import { DoubleReply, PairsReply, type Reply } from '../reply/reply';
import { RDB_FORMAT, predates, type RedisVersion } from '../version';
import { fastFloat, strtod } from './strtod';
import type { CommandContext, Db } from './types';

/** getDoubleFromObject / string2ld: not empty, no leading or trailing space, not nan. */
export function parseDouble(s: string): number | null {
  if (s === '' || /^\s|\s$/.test(s)) return null;
  const v = strtod(s);
  return v === null || Number.isNaN(v) ? null : v;
}

/** True when `version` reads doubles with fast_float (8.0+, redis #13546). */
function fastFloatVersion(version: RedisVersion): boolean {
  return !predates(version, '8.0');
}

/**
 * getDoubleFromObject (ZADD scores, ZINCRBY's increment, WEIGHTS) of `version`, null when not a
 * valid float. 7.x: C strtod over the whole text (decimal and hex floats, `inf`/`infinity`, no
 * spaces, not `nan`) refusing a text that overflows (`1e400`) or underflows (`1e-400`) with
 * ERANGE. 8.0+: fast_float (no hex floats; overflow and underflow accepted).
 */
export function parseScoreArg(s: string, version: RedisVersion = '7.0'): number | null {
  if (fastFloatVersion(version)) return fastFloat(s);
  const v = parseDouble(s);
  if (v === null) return null;
  const lower = s.toLowerCase();
  if (!Number.isFinite(v) && !/^[+-]?inf(inity)?$/.test(lower)) return null;
  if (v === 0) {
    const mantissa = lower.startsWith('0x', /^[+-]/.test(lower) ? 1 : 0) ? lower.replace(/^[+-]?0x/, '').split('p')[0] : lower.split('e')[0];
    if (/[1-9a-f]/.test(mantissa)) return null;
  }
  return v;
}

/**
 * zslParseRange's number: 7.x strtod — leading C spaces (isspace) skipped, the empty text is 0
 * (strtod converts nothing and stops at its end), spaces alone are not a float (strtod stops at
 * the first one), nor is nan; overflows are the infinities (ERANGE is not checked). 8.0+
 * fast_float: no leading space, no hex; the empty text is still 0.
 */
function parseRangeScore(s: string, version: RedisVersion): number | null {
  if (s === '') return 0;
  if (fastFloatVersion(version)) return fastFloat(s);
  const t = s.replace(/^[ \t\n\v\f\r]+/, '');
  if (t === '') return null;
  return parseDouble(t);
}

/** A score-range bound. */
export interface ScoreBound {
  readonly value: number;
  readonly exclusive: boolean;
}

/** A score-range bound as zslParseRange of `version` reads it: `(` makes it exclusive. null: not a float. */
export function parseScoreBound(s: string, version: RedisVersion = '7.0'): ScoreBound | null {
  const exclusive = s.startsWith('(');
  // zslParseRange reads the argument as a C string: the number ends at a NUL byte
  // ("1\0x" is 1, "\0x" is the empty text: 0), on 7.0.15 and the post-7.4 build
  const nul = s.indexOf('\0');
  const text = nul === -1 ? s : s.slice(0, nul);
  const value = parseRangeScore(exclusive ? text.slice(1) : text, version);
  return value === null ? null : { value, exclusive };
}

/** A lex-range bound: `-` (before everything), `+` (after everything) or a member. */
export type LexBound = { readonly kind: '-' | '+' } | { readonly kind: 'member'; readonly member: string; readonly exclusive: boolean };

/** zslParseLexRangeItem: null when the text is none of `-`, `+`, `(member`, `[member`. */
export function parseLexBound(s: string): LexBound | null {
  if (s === '-' || s === '+') return { kind: s };
  if (s.startsWith('(') || s.startsWith('[')) return { kind: 'member', member: s.slice(1), exclusive: s[0] === '(' };
  return null;
}

export const ERR_NOT_VALID_FLOAT = 'ERR value is not a valid float';
export const ERR_MIN_MAX_NOT_FLOAT = 'ERR min or max is not a float';
export const ERR_MIN_MAX_NOT_LEX = 'ERR min or max not valid string range item';
export const ERR_NAN_SCORE = 'ERR resulting score is not a number (NaN)';

/** A score argument (getDoubleFromObjectOrReply) as `version` reads it, or `message`. */
export function scoreOrFail(s: string, version: RedisVersion, message = ERR_NOT_VALID_FLOAT): number {
  const v = parseScoreArg(s, version);
  if (v === null) fail(message);
  return v;
}

/** The ascending ranks [start, end) of the members within a score range (empty when end ≤ start). */
export function scoreRangeRanks(z: RedisZset, min: ScoreBound, max: ScoreBound): [number, number] {
  const start = z.countBefore(min.exclusive ? (s) => s <= min.value : (s) => s < min.value);
  const end = z.countBefore(max.exclusive ? (s) => s < max.value : (s) => s <= max.value);
  return [start, end];
}

/** zslLexValueGteMin. */
function lexGteMin(m: string, b: LexBound): boolean {
  if (b.kind !== 'member') return b.kind === '-';
  return b.exclusive ? m > b.member : m >= b.member;
}

/** zslLexValueLteMax. */
function lexLteMax(m: string, b: LexBound): boolean {
  if (b.kind !== 'member') return b.kind === '+';
  return b.exclusive ? m < b.member : m <= b.member;
}

/**
 * The ascending ranks [start, end) of the members within a lex range (meant for members of equal
 * scores, as Redis documents; empty when end ≤ start).
 */
export function lexRangeRanks(z: RedisZset, min: LexBound, max: LexBound): [number, number] {
  const start = z.countBefore((_, m) => !lexGteMin(m, min));
  const end = z.countBefore((_, m) => lexLteMax(m, max));
  return [start, end];
}

/** sdscmplex over lex bounds: `-` is below and `+` above every member. */
function lexBoundCmp(a: LexBound, b: LexBound): number {
  if (a.kind === b.kind && a.kind !== 'member') return 0;
  if (a.kind === '-' || b.kind === '+') return -1;
  if (a.kind === '+' || b.kind === '-') return 1;
  const [x, y] = [(a as { member: string }).member, (b as { member: string }).member];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * zzlIsInLexRange and zslIsInLexRange (the same test on a listpack and a skiplist): the range is
 * not empty (`-` and `+` count as exclusive), the last member (highest score) is ≥ min and the
 * first ≤ max. Over members of mixed scores this answers "empty" for a range that holds members
 * in between, as Redis does: ZRANGE BYLEX, ZRANGEBYLEX, ZREVRANGEBYLEX, ZRANGESTORE BYLEX and
 * ZLEXCOUNT ask it first on either encoding (ZREMRANGEBYLEX does not).
 */
export function lexRangeReachable(z: RedisZset, min: LexBound, max: LexBound): boolean {
  const cmp = lexBoundCmp(min, max);
  const exclusive = (b: LexBound) => b.kind !== 'member' || b.exclusive;
  if (cmp > 0 || (cmp === 0 && (exclusive(min) || exclusive(max)))) return false;
  const last = z.last();
  if (last === undefined || !lexGteMin(last[0], min)) return false;
  const first = z.first();
  return first !== undefined && lexLteMax(first[0], max);
}

/**
 * A listpack's walk of a lex range (zzlFirstInLexRange / zzlLastInLexRange, then the loops of
 * ZRANGEBYLEX, ZLEXCOUNT, ZREMRANGEBYLEX): from the start, the first member ≥ min (it must also
 * be ≤ max), then members while they are ≤ max; reversed, from the end the first member ≤ max
 * (also ≥ min), then members while ≥ min. Over members of mixed scores the bounds are not
 * monotone in the order, and this linear walk is what Redis answers for a listpack (a
 * skiplist's answer depends on its random levels). Returns the ascending ranks walked, in walk
 * order, after skipping `offset` (a negative offset skips everything) and taking `limit`
 * (negative: all).
 */
export function listpackLexWalk(z: RedisZset, min: LexBound, max: LexBound, reverse: boolean, offset = 0, limit = -1): number[] {
  if (!lexRangeReachable(z, min, max)) return [];
  const n = z.size;
  let i = -1;
  if (!reverse) {
    let k = 0;
    for (const [m] of z.entries()) {
      if (lexGteMin(m, min)) {
        if (lexLteMax(m, max)) i = k;
        break;
      }
      k++;
    }
  } else {
    let k = n - 1;
    for (const [m] of z.range(0, n - 1, true)) {
      if (lexLteMax(m, max)) {
        if (lexGteMin(m, min)) i = k;
        break;
      }
      k--;
    }
  }
  if (i < 0 || offset < 0) return [];
  i = reverse ? i - offset : i + offset;
  const out: number[] = [];
  const step = reverse ? -1 : 1;
  for (let left = limit; i >= 0 && i < n && left !== 0; left--, i += step) {
    const m = z.at(i)![0];
    if (reverse ? !lexGteMin(m, min) : !lexLteMax(m, max)) break;
    out.push(i);
  }
  return out;
}

/** A score as `version`'s addReplyDouble writes it (see the file comment). */
export function scoreText(n: number, version: RedisVersion): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Number.isNaN(n)) return 'nan';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  return RDB_FORMAT[version].collections.scoreText === 'g17' ? formatG17(n) : d2string(n, 'fpconv');
}

/** A score as a double reply (RESP3 `,`; RESP2 bulk string), text as the version prints it. */
export function scoreReply(n: number, version: RedisVersion): DoubleReply {
  return new DoubleReply(n, scoreText(n, version));
}

/**
 * ZSCAN's score text: a listpack's stored text (d2string of the version), a skiplist's
 * `%.17Lg` (ld2string LD_STR_AUTO) in every version.
 */
export function scanScoreText(n: number, version: RedisVersion, listpack: boolean): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  return listpack ? d2string(n, RDB_FORMAT[version].collections.scoreText) : formatG17(n);
}

/**
 * Entries as a reply: members alone, or with WITHSCORES `[member, score]` pairs (RESP3 nested,
 * RESP2 flat: PairsReply).
 */
export function entriesReply(entries: Iterable<ZsetEntry>, withScores: boolean, version: RedisVersion): Reply {
  if (!withScores) {
    const out: Reply[] = [];
    for (const [m] of entries) out.push(m);
    return out;
  }
  const pairs: [Reply, Reply][] = [];
  for (const [m, s] of entries) pairs.push([m, scoreReply(s, version)]);
  return new PairsReply(pairs);
}

/** The limits of CONFIG (zset-max-listpack-entries / -value), or Redis's defaults. */
export function limitsOf(db: Db): CollectionLimits {
  return db.config?.collectionLimits ?? DEFAULT_COLLECTION_LIMITS;
}

/** A sorted set written by ioredis-mock's emulators (GEOADD …): Map member → { score, value }. */
function fromEmulatorMap(value: Map<unknown, unknown>, limits: CollectionLimits): RedisZset {
  const z = new RedisZset();
  z.listpack = false;
  for (const entry of value.values()) {
    const { score, value: member } = entry as { score: unknown; value: unknown };
    const bytes = Buffer.isBuffer(member) ? member.toString('latin1') : Buffer.from(String(member), 'utf8').toString('latin1');
    z.set(bytes, Number(score));
  }
  z.listpack = z.size <= limits.zsetMaxListpackEntries && z.maxMemberLength() <= limits.zsetMaxListpackValue;
  return z;
}

/**
 * getZset for a read command (lookupKeyRead): a missing key counts a keyspace miss and sends
 * `keymiss` (class m), a key found a hit (WRONGTYPE too).
 */
export function readZset(db: Db, key: string): RedisZset | undefined {
  const v = db.lookup(key);
  if (v === undefined || v === null) {
    db.keyMiss(key);
    return undefined;
  }
  db.keyHit();
  return v instanceof RedisZset ? v : getZset(db, key);
}

/**
 * The sorted set at `key` (after lazy expiry), undefined when the key is missing; throws
 * WRONGTYPE for another type. A sorted set in ioredis-mock's shape (written by an emulated
 * command such as GEOADD) is converted to the model in place, keeping the TTL.
 */
export function getZset(db: Db, key: string): RedisZset | undefined {
  const v = db.lookup(key);
  if (v === undefined || v === null) return undefined;
  if (v instanceof RedisZset) return v;
  if (v instanceof Map) {
    const z = fromEmulatorMap(v, limitsOf(db));
    db.store(key, z, true);
    return z;
  }
  return fail(ERR_WRONGTYPE);
}

/**
 * A new sorted set for `sizeHint` members, the first of `firstLength` bytes (t_zset.c
 * zsetTypeCreate, 7.2+: a skiplist at once when the hint passes zset-max-listpack-entries or
 * the first member zset-max-listpack-value). 7.0 ignores the size hint: it starts as a listpack
 * unless zset-max-listpack-entries is 0 or the first member is too long, and converts when the
 * second member goes past the limit — so a `-0` scored first is stored as 0 (checked on
 * redis-server 7.0.15: with zset-max-listpack-entries 1, `ZADD z -0 a 0.1 b` then `ZSCORE z a`
 * is `0`; the post-7.4 build answers `-0`).
 */
export function createZset(ctx: CommandContext, sizeHint: number, firstLength: number): RedisZset {
  const limits = limitsOf(ctx.db);
  const z = new RedisZset();
  const hint = predates(ctx.version, '7.2') ? Math.min(sizeHint, 1) : sizeHint;
  z.listpack = hint <= limits.zsetMaxListpackEntries && firstLength <= limits.zsetMaxListpackValue;
  return z;
}

/**
 * Add or update `member` as zsetAdd does with a listpack's limits: a new member that would make
 * the listpack too long (count or member length) converts it to a skiplist first.
 */
export function zsetSet(z: RedisZset, member: string, score: number, limits: CollectionLimits): boolean {
  if (z.listpack && !z.has(member) && (z.size + 1 > limits.zsetMaxListpackEntries || member.length > limits.zsetMaxListpackValue)) {
    z.listpack = false;
  }
  return z.set(member, score);
}

/**
 * zsetConvertToListpackIfNeeded for a sorted set built whole (ZUNIONSTORE & co., RESTORE): a
 * listpack when it fits the limits, else a skiplist.
 */
export function fitEncoding(z: RedisZset, limits: CollectionLimits): void {
  z.listpack = z.size <= limits.zsetMaxListpackEntries && z.maxMemberLength() <= limits.zsetMaxListpackValue;
}

/** Clamp a 64-bit argument (bigint) into a JS number range that keeps comparisons with sizes exact. */
export function clampLong(v: bigint): number {
  const LIMIT = 1n << 53n;
  return Number(v > LIMIT ? LIMIT : v < -LIMIT ? -LIMIT : v);
}
