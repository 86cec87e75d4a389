/** Argument parsing shared by the command modules; errors are Redis's exact texts. */
import {
  ERR_INVALID_END_ID,
  ERR_INVALID_START_ID,
  ERR_INVALID_STREAM_ID,
  ERR_NOT_INTEGER,
  ERR_TIMEOUT_NEGATIVE,
  ERR_TIMEOUT_NOT_INTEGER,
  ERR_TIMEOUT_OUT_OF_RANGE,
  fail,
} from '../errors';
import { StreamId, UINT64_MAX, decrId, incrId, parseStreamId } from '../model/stream-id';

/**
 * `items.slice(from, to)` by a loop: V8's slice builtin costs ~35 ns on the short argument
 * arrays of every command, a loop a third of it.
 */
export function copyArgs<T>(items: readonly T[], from: number, to: number = items.length): T[] {
  const n = to > from ? to - from : 0;
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = items[from + i];
  return out;
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
export { INT64_MAX, INT64_MIN };

/**
 * The canonical decimals of at most 15 characters (below 2^53: "0", or no leading zero; "-0" is
 * not canonical) as a number, else null — `parseInt64`'s fast path, without the bigint.
 */
export function parseSmallInt(s: string): number | null {
  const n = s.length;
  if (n === 0 || n > 15) return null;
  const neg = s.charCodeAt(0) === 45;
  let i = neg ? 1 : 0;
  const first = s.charCodeAt(i);
  const canonicalStart = (first >= 49 && first <= 57) || (first === 48 && n === 1); // 1-9, or "0" alone
  if (i >= n || !canonicalStart) return null;
  let v = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    v = v * 10 + d;
  }
  return neg ? -v : v;
}

/** Redis `string2ll`: canonical signed 64-bit decimal ("+1", "-0", "01", " 1" rejected). */
export function parseInt64(s: string): bigint | null {
  const small = parseSmallInt(s);
  if (small !== null) return BigInt(small);
  if (!/^(0|-?[1-9][0-9]{0,19})$/.test(s)) return null;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? null : v;
}

/** Parse an int64 or throw `message` (default: "value is not an integer or out of range"). */
export function int64OrFail(s: string, message = ERR_NOT_INTEGER): bigint {
  const v = parseInt64(s);
  if (v === null) fail(message);
  return v;
}

/**
 * Redis's `start < 0 && end < 0 && start > end` test of two int64 indexes (GETRANGE, BITCOUNT)
 * given as numbers that may have lost precision: near -2^63 two different indexes are one double,
 * so equal numbers are compared again exactly from their texts (`startArg`, `endArg`, valid int64s).
 */
export function negativeRangeInverted(start: number, end: number, startArg: string, endArg: string): boolean {
  if (start >= 0 || end >= 0) return false;
  return start > end || (start === end && start < -Number.MAX_SAFE_INTEGER && BigInt(startArg) > BigInt(endArg));
}

/**
 * Case-insensitive token comparison (Redis `strcasecmp`) with an upper-case ASCII `word`: only
 * `a`–`z` match their capitals, byte by byte (no allocation: this runs for every option word).
 * As strcasecmp reads C strings, a token ends at its first NUL byte: `XX\0junk` is `XX` (both
 * real servers: `SET k v "XX\0"` is SET … XX).
 */
export function is(token: string | undefined, word: string): boolean {
  if (token === undefined) return false;
  if (token.length !== word.length && !(token.length > word.length && token.charCodeAt(word.length) === 0)) return false;
  for (let i = 0; i < word.length; i++) {
    const c = token.charCodeAt(i);
    const w = word.charCodeAt(i);
    if (c !== w && !(c >= 97 && c <= 122 && c - 32 === w)) return false;
  }
  return true;
}

const STRICT = { strict: true, missingSeq: 0n } as const;
const NON_STRICT = { strict: false, missingSeq: 0n } as const;

/**
 * The common ID argument shapes, `ms` and `ms-seq` with parts of at most 15 digits (below
 * 2^53), parsed without intermediate objects; null for anything else (then `parseStreamId`,
 * which gives these the same result, decides).
 */
function plainId(s: string, missingSeq: bigint): StreamId | null {
  const n = s.length;
  if (n === 0 || n > 31) return null;
  let ms = 0;
  let i = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    ms = ms * 10 + d;
  }
  if (i === 0 || i > 15) return null;
  if (i === n) return { ms: BigInt(ms), seq: missingSeq };
  if (s.charCodeAt(i) !== 45) return null; // '-'
  const from = ++i;
  let seq = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    seq = seq * 10 + d;
  }
  if (i === from || i - from > 15) return null;
  return { ms: BigInt(ms), seq: BigInt(seq) };
}

/** Strict stream ID (`-`/`+` rejected) or the invalid-ID error. */
export function strictIdOrFail(s: string, missingSeq = 0n): StreamId {
  const quick = plainId(s, missingSeq);
  if (quick !== null) return quick;
  const p = parseStreamId(s, missingSeq === 0n ? STRICT : { strict: true, missingSeq });
  if (!p || p.kind !== 'id') fail(ERR_INVALID_STREAM_ID);
  return p.id;
}

/** Non-strict ID (`-` = 0-0, `+` = max) or the invalid-ID error. */
export function nonStrictIdOrFail(s: string, missingSeq = 0n): StreamId {
  const p = parseStreamId(s, missingSeq === 0n ? NON_STRICT : { strict: false, missingSeq });
  if (!p || p.kind !== 'id') fail(ERR_INVALID_STREAM_ID);
  return p.id;
}

/**
 * A range bound as XRANGE/XPENDING/XAUTOCLAIM take it (`streamParseIntervalIDOrReply`):
 * `-`, `+`, `ms` (seq 0 for a start, 2^64-1 for an end), `ms-seq`, or `(id` exclusive (6.2+).
 * Exclusive bounds are moved inward; moving past the ends gives "invalid start/end ID".
 */
export function rangeBoundOrFail(s: string, which: 'start' | 'end'): StreamId {
  const missingSeq = which === 'start' ? 0n : UINT64_MAX;
  if (s.length > 1 && s[0] === '(') {
    const p = parseStreamId(s.slice(1), { strict: true, missingSeq });
    if (!p || p.kind !== 'id') fail(ERR_INVALID_STREAM_ID);
    const moved = which === 'start' ? incrId(p.id) : decrId(p.id);
    if (!moved) fail(which === 'start' ? ERR_INVALID_START_ID : ERR_INVALID_END_ID);
    return moved;
  }
  return nonStrictIdOrFail(s, missingSeq);
}

/**
 * BLOCK argument (Redis `getTimeoutFromObjectOrReply`, unit ms): returns the timeout in ms
 * (0 = forever). Errors: not an integer, negative, or now+timeout overflows.
 */
export function blockTimeoutOrFail(s: string, now: number): number {
  const v = parseInt64(s);
  if (v === null) fail(ERR_TIMEOUT_NOT_INTEGER);
  if (v < 0n) fail(ERR_TIMEOUT_NEGATIVE);
  if (v > 0n && v + BigInt(Math.floor(now)) > INT64_MAX) fail(ERR_TIMEOUT_OUT_OF_RANGE);
  return Number(v);
}
