/**
 * The hash commands of every version (t_hash.c): HSET, HMSET, HSETNX, HGET, HMGET, HGETALL,
 * HKEYS, HVALS, HDEL, HLEN, HEXISTS, HSTRLEN, HINCRBY, HINCRBYFLOAT.
 *
 * Arguments are checked first, in Redis's order (HINCRBY's increment before the key's type),
 * then the hash is looked up (WRONGTYPE for another type; due fields expired: ./hash-common.ts).
 * Fields and values are byte strings. Writes signal the key (WATCH), send the `h` keyspace
 * event Redis sends (`hset` for HSET/HMSET/HSETNX, `hdel`, `hincrby`, `hincrbyfloat`; `del`
 * of class g when HDEL removes the last field) and count `dirty` as Redis does.
 */
import {
  ERR_HASH_NOT_FLOAT,
  ERR_NAN_OR_INF_INCR,
  ERR_NAN_OR_INF_RESULT,
  ERR_NOT_FLOAT,
  errWrongArity,
  fail,
} from '../errors';
import { addLongDouble, formatLongDoubleHuman, parseLongDouble, type LongDouble } from './long-double';
import { INT64_MAX, INT64_MIN, int64OrFail, parseInt64 } from './args';
import { MapReply, OK, type Reply } from '../reply/reply';
import { deleteEmptied, hashForWrite, hashLimits, hashWritten, lookupHash, readHash } from './hash-common';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec } from './types';

/** HSET key field value [field value …] → fields added; HMSET → OK (7.0+ alike). */
function hset(ctx: CommandContext, argv: string[]): Reply {
  if (argv.length % 2 === 1) fail(errWrongArity(argv[0].toLowerCase() === 'hmset' ? 'hmset' : 'hset'));
  const key = argv[1];
  const h = hashForWrite(ctx, key);
  const limits = hashLimits(ctx);
  h.convertForArgs(limits, argv.slice(2), (argv.length - 2) / 2);
  let created = 0;
  for (let i = 2; i < argv.length; i += 2) if (h.set(argv[i], argv[i + 1])) created++;
  h.convertIfNeeded(limits);
  hashWritten(ctx, key, 'hset', (argv.length - 2) / 2);
  // t_hash.c: argv[0][1] is 's' for HSET, 'm' for HMSET
  return argv[0][1] === 's' || argv[0][1] === 'S' ? created : OK;
}

/** HSETNX key field value → 1 when the field was set, 0 when it existed (nothing sent). */
function hsetnx(ctx: CommandContext, argv: string[]): Reply {
  const [, key, field, value] = argv;
  const existing = lookupHash(ctx, key);
  if (existing?.has(field)) return 0;
  const h = existing ?? hashForWrite(ctx, key);
  const limits = hashLimits(ctx);
  h.convertForArgs(limits, [field, value], 1);
  h.set(field, value);
  h.convertIfNeeded(limits);
  hashWritten(ctx, key, 'hset', 1);
  return 1;
}

/** HGET key field → the value, or nil. */
function hget(ctx: CommandContext, argv: string[]): Reply {
  return readHash(ctx, argv[1])?.get(argv[2]) ?? null;
}

/** HMGET key field [field …] → values or nils (a missing key is an empty hash). */
function hmget(ctx: CommandContext, argv: string[]): Reply {
  const h = readHash(ctx, argv[1]);
  const out: Reply[] = new Array(argv.length - 2);
  for (let i = 2; i < argv.length; i++) out[i - 2] = h?.get(argv[i]) ?? null;
  return out;
}

/** HGETALL key → map field → value (RESP2: flat array), in listpack order. */
function hgetall(ctx: CommandContext, argv: string[]): Reply {
  const h = readHash(ctx, argv[1]);
  if (h === undefined) return new MapReply([]);
  const items = h.pairs();
  return new MapReply(items, false, h.pairsAscii);
}

/** HKEYS key → the fields. */
function hkeys(ctx: CommandContext, argv: string[]): Reply {
  const h = readHash(ctx, argv[1]);
  const out: Reply[] = [];
  if (h) for (const e of h.entries()) out.push(e.field);
  return out;
}

/** HVALS key → the values. */
function hvals(ctx: CommandContext, argv: string[]): Reply {
  const h = readHash(ctx, argv[1]);
  const out: Reply[] = [];
  if (h) for (const e of h.entries()) out.push(e.value);
  return out;
}

/** HDEL key field [field …] → fields removed; the key goes with its last field. */
function hdel(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const h = lookupHash(ctx, key);
  if (h === undefined) return 0;
  let deleted = 0;
  for (let i = 2; i < argv.length; i++) {
    if (h.delete(argv[i])) {
      deleted++;
      if (h.size === 0) break;
    }
  }
  if (deleted > 0) {
    hashWritten(ctx, key, 'hdel', deleted);
    if (h.size === 0) deleteEmptied(ctx, key);
  }
  return deleted;
}

/** HLEN key → number of fields. */
function hlen(ctx: CommandContext, argv: string[]): Reply {
  return readHash(ctx, argv[1])?.size ?? 0;
}

/** HEXISTS key field → 1 or 0. */
function hexists(ctx: CommandContext, argv: string[]): Reply {
  return readHash(ctx, argv[1])?.has(argv[2]) ? 1 : 0;
}

/** HSTRLEN key field → the value's length in bytes (0 for a missing field or key). */
function hstrlen(ctx: CommandContext, argv: string[]): Reply {
  return readHash(ctx, argv[1])?.get(argv[2])?.length ?? 0;
}

/**
 * HINCRBY key field increment → the new value, exact in signed 64 bits. Errors in order: the
 * increment not an integer, WRONGTYPE, "hash value is not an integer", "increment or decrement
 * would overflow" (nothing changed). A field's TTL is kept (HASH_SET_KEEP_TTL).
 */
function hincrby(ctx: CommandContext, argv: string[]): Reply {
  const [, key, field, incrText] = argv;
  const incr = int64OrFail(incrText);
  const h = hashForWrite(ctx, key);
  const old = h.get(field);
  let value = 0n;
  if (old !== undefined) {
    const v = parseInt64(old);
    if (v === null) fail('ERR hash value is not an integer');
    value = v;
  }
  const sum = value + incr;
  if (sum < INT64_MIN || sum > INT64_MAX) {
    if (h.size === 0) ctx.db.remove(key); // created for nothing: Redis never keeps an empty hash
    fail('ERR increment or decrement would overflow');
  }
  const text = sum.toString();
  const limits = hashLimits(ctx);
  h.convertForArgs(limits, [field, text], 1); // hashTypeSet's length check
  h.set(field, text, true);
  h.convertIfNeeded(limits);
  hashWritten(ctx, key, 'hincrby', 1);
  return sum >= -9007199254740991n && sum <= 9007199254740991n ? Number(sum) : sum;
}

const ZERO: LongDouble = { neg: false, m: 0n, e: 0 };

/**
 * HINCRBYFLOAT key field increment → the new value as Redis prints a long double
 * (ld2string LD_STR_HUMAN, ./long-double.ts). Errors in order: "value is not a
 * valid float", "value is NaN or Infinity", WRONGTYPE, "hash value is not a float", "increment
 * would produce NaN or Infinity" (nothing changed). A field's TTL is kept.
 */
function hincrbyfloat(ctx: CommandContext, argv: string[]): Reply {
  const [, key, field, incrText] = argv;
  const incr = parseLongDouble(incrText);
  if (incr === null) fail(ERR_NOT_FLOAT);
  if ('inf' in incr) fail(ERR_NAN_OR_INF_INCR);
  const h = hashForWrite(ctx, key);
  const old = h.get(field);
  let value: LongDouble = ZERO;
  if (old !== undefined) {
    const v = parseLongDouble(old);
    if (v === null) fail(ERR_HASH_NOT_FLOAT);
    value = v;
  }
  const sum = addLongDouble(value, incr);
  if (sum === null || 'inf' in sum) {
    if (h.size === 0) ctx.db.remove(key);
    fail(ERR_NAN_OR_INF_RESULT);
  }
  const text = formatLongDoubleHuman(sum);
  const limits = hashLimits(ctx);
  h.convertForArgs(limits, [field, text], 1);
  h.set(field, text, true);
  h.convertIfNeeded(limits);
  hashWritten(ctx, key, 'hincrbyfloat', 1);
  propagationOf(ctx.db)?.rewrite(['HSET', key, field, text]);
  return text;
}

export const specs: CommandSpec[] = [
  { name: 'hset', arity: -4, write: true, run: hset },
  { name: 'hmset', arity: -4, write: true, run: hset },
  { name: 'hsetnx', arity: 4, write: true, run: hsetnx },
  { name: 'hget', arity: 3, write: false, run: hget },
  { name: 'hmget', arity: -3, write: false, run: hmget },
  { name: 'hgetall', arity: 2, write: false, run: hgetall },
  { name: 'hkeys', arity: 2, write: false, run: hkeys },
  { name: 'hvals', arity: 2, write: false, run: hvals },
  { name: 'hdel', arity: -3, write: true, run: hdel },
  { name: 'hlen', arity: 2, write: false, run: hlen },
  { name: 'hexists', arity: 3, write: false, run: hexists },
  { name: 'hstrlen', arity: 3, write: false, run: hstrlen },
  { name: 'hincrby', arity: 4, write: true, run: hincrby },
  { name: 'hincrbyfloat', arity: 4, write: true, run: hincrbyfloat },
];
