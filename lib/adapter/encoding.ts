/**
 * The boundary between ioredis values and the model's byte strings. Arguments (strings are
 * sent as UTF-8 by ioredis; Buffers as their bytes) become byte strings, one char per byte,
 * so names compare in byte order and any binary value round-trips. Replies go back as UTF-8
 * strings, or as Buffers for the `…Buffer` twins.
 */
import { newReplyError } from './reply-error';
import { installedIoredisAtLeast, installedIoredisMajor } from './command-table';
import { flattenArgs, isAscii, utf8Of } from '../bytes/index';
import {
  BigNumberReply,
  BooleanReply,
  DoubleReply,
  ErrorReply,
  MapReply,
  NIL_ARRAY,
  PairsReply,
  PushReply,
  type Reply,
  SetReply,
  SimpleString,
  VerbatimReply,
  flatPairs,
  formatDouble,
} from '../reply/reply';

/**
 * A number argument as the installed ioredis writes it: ioredis 6 spells an integer past 2^53
 * with all its digits (utils `toArg`: `BigInt(n).toString()`, so 1e23 is sent as
 * `99999999999999991611392`), ioredis 5 writes `String(n)` (`1e+23`).
 */
export function numberArg(n: number): string {
  return Number.isInteger(n) && !Number.isSafeInteger(n) && installedIoredisMajor() >= 6 ? BigInt(n).toString() : String(n);
}

/** One argument as ioredis would send it, as a byte string. */
export function toByteString(arg: unknown): string {
  if (typeof arg === 'string') return isAscii(arg) ? arg : Buffer.from(arg, 'utf8').toString('latin1');
  if (typeof arg === 'number') return numberArg(arg); // digits, sign, '.', 'e', Infinity/NaN: ASCII
  if (Buffer.isBuffer(arg)) return arg.toString('latin1');
  // anything else is written as its String(), a Uint8Array that is not a Buffer too ('65,66'),
  // as ioredis 5 and 6 send it (checked against redis-server 7.0.15)
  const s = arg === null || arg === undefined ? '' : String(arg);
  return isAscii(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

export { flattenArgs };

/** A byte string as a UTF-8 decoded JS string (what ioredis returns by default). */
export const decodeBytes = utf8Of;

export interface ReplyEncoding {
  /** `…Buffer` twin: strings become Buffers. */
  buffers: boolean;
  /** ioredis `stringNumbers`: integers become strings. */
  stringNumbers: boolean;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An integer reply as the installed ioredis reads it (no `stringNumbers`). Both parsers add the
 * digits up in doubles, so past 2^53 the number is not always Number(text), and they differ:
 * ioredis 6's decoder computes `n * 10 + byte - 48`, ioredis 5's redis-parser `n * 10 +
 * (byte - 48)` (9223372036854775806 reads 9223372036854776000 and 9223372036854778000).
 */
export function integerAsRead(v: number | bigint): number {
  if (typeof v === 'number') return v;
  if (v <= SAFE && v >= -SAFE) return Number(v);
  const digits = (v < 0n ? -v : v).toString();
  let n = 0;
  // ioredis 6.1's decoder subtracts '0' first too (its fix of 6.0's one-digit-early rounding)
  if (installedIoredisMajor() === 5 || installedIoredisAtLeast(6, 1)) for (let i = 0; i < digits.length; i++) n = n * 10 + (digits.charCodeAt(i) - 48);
  else for (let i = 0; i < digits.length; i++) n = n * 10 + digits.charCodeAt(i) - 48;
  return v < 0n ? -n : n;
}

/** The place values ioredis 6's decoder gives the first 17 fraction digits (later ones are dropped). */
const FRACTION_PLACES = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17];

/**
 * A RESP3 double's text (`,<text>\r\n`) as ioredis 6 reads it into a number (`replyMapping:
 * 'resp3'` without `stringNumbers`). Its decoder does not round the decimal correctly: it adds the
 * digits up in doubles — the integer part as `n * 10 + byte - 48`, then each of the first 17
 * fraction digits as `n += digit * 1e-k` (the rest ignored), applies the sign, and scales by
 * `10 ** exponent` — so `0.10000000000000001` reads 0.10000000000000002, `1e23`
 * 1.0000000000000003e+23, `4.9e-324` 0. Special values: text starting `n` is NaN, `inf` after an
 * optional sign ±Infinity; any other byte is taken for a digit (`-nan` reads -6752).
 */
export function doubleAsRead(text: string): number {
  // ioredis 6.1 reads the text with Number() (decoder.js parseDouble): exact, `inf`/`+inf`/`-inf`/`nan` by name
  if (installedIoredisAtLeast(6, 1)) return text === 'inf' || text === '+inf' ? Infinity : text === '-inf' ? -Infinity : text === 'nan' ? NaN : Number(text);
  const len = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  if (c === 110 /* n */) return NaN;
  const negative = c === 45; /* - */
  if (negative || c === 43 /* + */) c = text.charCodeAt(++i);
  if (c === 105 /* i */) return negative ? -Infinity : Infinity;
  let n = 0;
  for (; i < len; i++) {
    c = text.charCodeAt(i);
    if (c === 46 /* . */ || c === 69 /* E */ || c === 101 /* e */) break;
    n = n * 10 + c - 48;
  }
  if (c === 46 && i < len) {
    let place = 0;
    for (i++; i < len; i++) {
      c = text.charCodeAt(i);
      if (c === 69 || c === 101) break;
      if (place < FRACTION_PLACES.length) n += (c - 48) * FRACTION_PLACES[place++];
    }
  }
  if (i >= len) return negative ? -n : n;
  // the exponent (i is at the E): the signed mantissa times 10 ** exponent
  let exponent = 0;
  c = text.charCodeAt(++i);
  const negativeExponent = c === 45;
  if (negativeExponent || c === 43) i++;
  for (; i < len; i++) exponent = exponent * 10 + text.charCodeAt(i) - 48;
  return (negative ? -n : n) * 10 ** (negativeExponent ? -exponent : exponent);
}

/**
 * Encode a typed reply as ioredis delivers it over RESP2: strings (simple, bulk, verbatim,
 * doubles) as UTF-8 strings or Buffers, integers as numbers (64-bit ones as ioredis parses them),
 * both nils as null, maps flattened (XREAD's as `[key, entries]` pairs), sets as arrays, pairs
 * flattened (ZRANGE … WITHSCORES: member, score, …), error replies inside arrays as ReplyErrors.
 */
export function encodeReply(reply: Reply, enc: ReplyEncoding): unknown {
  if (reply === null) return null;
  if (typeof reply === 'string') return enc.buffers ? Buffer.from(reply, 'latin1') : decodeBytes(reply);
  if (typeof reply === 'number' || typeof reply === 'bigint') return enc.stringNumbers ? String(reply) : integerAsRead(reply);
  if (Array.isArray(reply)) return reply.map((r) => encodeReply(r, enc));
  if (reply instanceof SimpleString) return encodeReply(reply.value, enc);
  if (reply instanceof MapReply) {
    if (!reply.resp2Pairs) return reply.items.map((r) => encodeReply(r, enc));
    const out: unknown[] = [];
    for (let i = 0; i < reply.items.length; i += 2) out.push([encodeReply(reply.items[i], enc), encodeReply(reply.items[i + 1], enc)]);
    return out;
  }
  if (reply instanceof SetReply || reply instanceof PushReply) return reply.items.map((r) => encodeReply(r, enc));
  if (reply instanceof PairsReply) return flatPairs(reply).map((r) => encodeReply(r, enc));
  if (reply === NIL_ARRAY) return null;
  if (reply instanceof DoubleReply) return encodeReply(reply.text ?? formatDouble(reply.value), enc);
  if (reply instanceof VerbatimReply) return encodeReply(reply.text, enc);
  if (reply instanceof BooleanReply) return reply.value ? 1 : 0;
  if (reply instanceof BigNumberReply) return encodeReply(reply.text, enc);
  if (reply instanceof ErrorReply) return newReplyError(decodeBytes(reply.message));
  return reply;
}
