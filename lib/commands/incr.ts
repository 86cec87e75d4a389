/**
 * INCR, DECR, INCRBY, DECRBY and INCRBYFLOAT (t_string.c incrDecrCommand, incrbyfloatCommand;
 * 7.0.15 and the post-7.4 tree agree).
 *
 * INCR & co. are exact signed 64-bit arithmetic: the stored value must be a canonical decimal
 * util.c string2ll reads whole (no spaces, no `+`, no leading zero; a missing key is 0), else
 * `ERR value is not an integer or out of range`; a sum past the 64-bit range is `ERR increment or
 * decrement would overflow` and changes nothing. INCRBY/DECRBY check their argument before the
 * key (`ERR value is not an integer or out of range`; DECRBY -9223372036854775808 is `ERR
 * decrement would overflow`). Reply: the new value (a bigint beyond 2^53).
 *
 * INCRBYFLOAT adds in x86-64 long double (./long-double.ts): the stored value then the increment
 * are read by strtold (`ERR value is not a valid float`, after the WRONGTYPE check), a NaN or
 * infinite sum is `ERR increment would produce NaN or Infinity`; the sum is stored and answered
 * (a bulk string) as `%.17Lf` without trailing zeros.
 *
 * The key's TTL is kept. Events: `$` incrby / incrbyfloat, `n` new when the key was missing.
 * One dirty change per call.
 */
import { ERR_NAN_OR_INF_RESULT, ERR_NOT_FLOAT, ERR_NOT_INTEGER, fail } from '../errors';
import type { Reply } from '../reply/reply';
import { INT64_MAX, INT64_MIN, int64OrFail, parseInt64, parseSmallInt } from './args';
import { type LongDouble, addLongDouble, formatLongDoubleHuman, parseLongDouble } from './long-double';
import { storeString, stringForWrite } from './string-value';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec } from './types';

const ERR_OVERFLOW = 'ERR increment or decrement would overflow';

/** `incr` added to the integer at `key` (number when both are below 2^53 in magnitude, else bigint). */
function incrDecr(ctx: CommandContext, key: string, incr: number | bigint): Reply {
  const db = ctx.db;
  const old = stringForWrite(db, key);
  let next: number | bigint;
  const small = old === undefined ? 0 : parseSmallInt(old);
  if (small !== null && typeof incr === 'number') {
    next = small + incr; // both below 10^15: exact
  } else {
    const value = old === undefined ? 0n : parseInt64(old);
    if (value === null) fail(ERR_NOT_INTEGER);
    const sum = value + BigInt(incr);
    if (sum < INT64_MIN || sum > INT64_MAX) fail(ERR_OVERFLOW);
    next = sum >= -9007199254740991n && sum <= 9007199254740991n ? Number(sum) : sum;
  }
  storeString(db, key, String(next), old !== undefined, true);
  db.notifyEvent('$', 'incrby', key);
  db.dirty?.(1);
  return next;
}

/** An INCRBY/DECRBY argument: a number below 10^15 in magnitude, else a bigint. */
function incrementArg(arg: string): number | bigint {
  return parseSmallInt(arg) ?? int64OrFail(arg);
}

function decrby(ctx: CommandContext, argv: string[]): Reply {
  const incr = incrementArg(argv[2]);
  if (incr === INT64_MIN) fail('ERR decrement would overflow');
  return incrDecr(ctx, argv[1], typeof incr === 'number' ? -incr : -incr);
}

const ZERO: LongDouble = { neg: false, m: 0n, e: 0 };

/** INCRBYFLOAT key increment */
function incrbyfloat(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  const old = stringForWrite(db, key);
  const value = old === undefined ? ZERO : parseLongDouble(old);
  if (value === null) fail(ERR_NOT_FLOAT);
  const incr = parseLongDouble(argv[2]);
  if (incr === null) fail(ERR_NOT_FLOAT);
  const sum = addLongDouble(value, incr);
  if (sum === null || 'inf' in sum) fail(ERR_NAN_OR_INF_RESULT);
  const text = formatLongDoubleHuman(sum);
  storeString(db, key, text, old !== undefined, true, 'float'); // createStringObjectFromLongDouble: never int
  db.notifyEvent('$', 'incrbyfloat', key);
  db.dirty?.(1);
  // propagated as SET: float rounding may differ on the replica
  propagationOf(ctx.db)?.rewrite(['SET', key, text, 'KEEPTTL']);
  return text;
}

export const specs: CommandSpec[] = [
  { name: 'incr', arity: 2, write: true, run: (ctx, argv) => incrDecr(ctx, argv[1], 1) },
  { name: 'decr', arity: 2, write: true, run: (ctx, argv) => incrDecr(ctx, argv[1], -1) },
  { name: 'incrby', arity: 3, write: true, run: (ctx, argv) => incrDecr(ctx, argv[1], incrementArg(argv[2])) },
  { name: 'decrby', arity: 3, write: true, run: decrby },
  { name: 'incrbyfloat', arity: 3, write: true, run: incrbyfloat },
];
