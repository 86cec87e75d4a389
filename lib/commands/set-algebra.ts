/**
 * Set algebra (t_set.c `sinterGenericCommand`, `sunionDiffGenericCommand`): SINTER, SINTERCARD,
 * SINTERSTORE, SUNION, SUNIONSTORE, SDIFF, SDIFFSTORE. A missing key is an empty set; every key
 * is type-checked (WRONGTYPE) before anything is computed or stored.
 *
 * Work as Redis does it: an intersection walks the smallest set and probes the others (sets
 * sorted by size, ties kept in argument order); SINTERCARD LIMIT stops at the limit; a
 * difference picks Redis's cheaper algorithm (probe every set per member of the first, or copy
 * the first and remove the others' members).
 *
 * Replies: SINTER, SUNION, SDIFF a set (RESP2 array); SINTERCARD and the STORE variants an
 * integer (the result's size). The STORE variants replace the destination (any type, TTL
 * dropped) with the result, or delete it when the result is empty. Result encodings as Redis
 * builds them: SINTERSTORE starts from the smallest input's kind (intset, else listpack) and
 * ends an intset when every member is an integer and the count allows; SUNIONSTORE/SDIFFSTORE
 * start from an intset and convert as members arrive.
 *
 * Keyspace events: `s` `sinterstore` / `sunionstore` / `sdiffstore` on the destination; `g`
 * `del` when an empty result deletes an existing destination.
 *
 * SINTERCARD numkeys key [key ...] [LIMIT limit] errors, in order: `ERR numkeys should be
 * greater than 0` (also for a non-integer), `ERR Number of keys can't be greater than number of
 * args`, `ERR syntax error`, `ERR LIMIT can't be negative` (also for a non-integer), WRONGTYPE.
 */
import { fail, ERR_SYNTAX } from '../errors';
import { RedisSet, isInt64Text } from '../model/set';
import { SetReply } from '../reply/reply';
import { is, parseInt64 } from './args';
import { dirty, readSet, setLimitsOf } from './set-common';
import type { CommandContext, CommandSpec, Reply } from './types';

const ERR_NUMKEYS = 'ERR numkeys should be greater than 0';
const ERR_NUMKEYS_TOO_MANY = "ERR Number of keys can't be greater than number of args";
const ERR_LIMIT_NEGATIVE = "ERR LIMIT can't be negative";

/** Store a non-empty result at `dst` (setKey), or delete `dst` for an empty one; reply: the size. */
function storeResult(ctx: CommandContext, dst: string, result: RedisSet | undefined, event: string): Reply {
  if (result !== undefined && result.size > 0) {
    const isNew = ctx.db.lookup(dst, true) === undefined;
    ctx.db.store(dst, result);
    if (isNew) ctx.db.notifyEvent('n', 'new', dst); // setKey → dbAdd
    ctx.db.notifyEvent('s', event, dst);
    dirty(ctx.db, 1);
    return result.size;
  }
  if (ctx.db.remove(dst)) {
    dirty(ctx.db, 1);
    ctx.db.touch(dst);
    ctx.db.notifyEvent('g', 'del', dst);
  }
  return 0;
}

/**
 * Intersection of the sets at `keys`: the members (SINTER), their count up to `limit` (0 = all,
 * SINTERCARD) or the size stored at `dst` (SINTERSTORE).
 */
function sinterGeneric(ctx: CommandContext, keys: readonly string[], dst: string | null, cardinalityOnly: boolean, limit: number): Reply {
  const sets: (RedisSet | undefined)[] = keys.map((k) => readSet(ctx, k));
  if (sets.some((s) => s === undefined)) {
    if (dst !== null) return storeResult(ctx, dst, undefined, 'sinterstore');
    return cardinalityOnly ? 0 : new SetReply([]);
  }
  const sorted = (sets as RedisSet[]).slice().sort((a, b) => a.size - b.size); // stable: ties in argument order
  const first = sorted[0];
  const limits = setLimitsOf(ctx);
  let result: RedisSet | undefined;
  if (dst !== null) {
    // 7.2+: an intset stays an intset; a listpack or hash table starts a listpack. 7.0: an intset.
    result = RedisSet.empty(!limits.listpack || first.encoding() === 'intset' ? 'intset' : 'listpack');
  }
  const out: string[] = [];
  let cardinality = 0;
  let onlyIntegers = true;
  for (const m of first.members()) {
    let j = 1;
    for (; j < sorted.length; j++) {
      if (sorted[j] === first) continue;
      if (!sorted[j].has(m)) break;
    }
    if (j < sorted.length) continue;
    if (cardinalityOnly) {
      cardinality++;
      if (limit && cardinality >= limit) break;
    } else if (result === undefined) {
      out.push(m);
    } else {
      if (onlyIntegers && !isInt64Text(m)) onlyIntegers = false;
      result.add(m, limits);
    }
  }
  if (cardinalityOnly) return cardinality;
  if (result === undefined) return new SetReply(out);
  if (result.size > 0 && onlyIntegers) result.maybeConvertToIntset(limits);
  return storeResult(ctx, dst as string, result, 'sinterstore');
}

function sinter(ctx: CommandContext, argv: string[]): Reply {
  return sinterGeneric(ctx, argv.slice(1), null, false, 0);
}

function sinterstore(ctx: CommandContext, argv: string[]): Reply {
  return sinterGeneric(ctx, argv.slice(2), argv[1], false, 0);
}

/** A long in [0, LONG_MAX] or `message` (getRangeLongFromObjectOrReply with a message). */
function positiveLongOr(s: string, message: string, min = 0n): bigint {
  const v = parseInt64(s);
  if (v === null || v < min) fail(message);
  return v;
}

function sintercard(ctx: CommandContext, argv: string[]): Reply {
  const numkeys = positiveLongOr(argv[1], ERR_NUMKEYS, 1n);
  if (numkeys > BigInt(argv.length - 2)) fail(ERR_NUMKEYS_TOO_MANY);
  const n = Number(numkeys);
  let limit = 0n;
  for (let j = 2 + n; j < argv.length; j++) {
    const more = argv.length - 1 - j;
    if (is(argv[j], 'LIMIT') && more) {
      limit = positiveLongOr(argv[++j], ERR_LIMIT_NEGATIVE);
    } else {
      fail(ERR_SYNTAX);
    }
  }
  const cap = limit > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(limit);
  return sinterGeneric(ctx, argv.slice(2, 2 + n), null, true, cap);
}

type Op = 'union' | 'diff';

/** Union or difference of the sets at `keys`: the members, or the size stored at `dst`. */
function sunionDiffGeneric(ctx: CommandContext, keys: readonly string[], dst: string | null, op: Op): Reply {
  const sets: (RedisSet | undefined)[] = [];
  let startAsTable = false;
  let sameSet = false;
  for (let j = 0; j < keys.length; j++) {
    const s = readSet(ctx, keys[j]);
    sets.push(s);
    if (s === undefined) continue;
    if (dst === null && s.encoding() !== 'intset') startAsTable = true;
    if (j > 0 && sets[0] === s) sameSet = true;
  }
  const limits = setLimitsOf(ctx);
  // 7.0 always starts from an intset (and converts as members arrive)
  const result = RedisSet.empty(startAsTable && limits.listpack ? 'hashtable' : 'intset');
  const first = sets[0];

  if (op === 'union') {
    for (const s of sets) if (s !== undefined) for (const m of s.members()) result.add(m, limits);
  } else if (first !== undefined && !sameSet) {
    let algoOne = 0;
    let algoTwo = 0;
    for (const s of sets) {
      if (s === undefined) continue;
      algoOne += first.size;
      algoTwo += s.size;
    }
    algoOne = Math.floor(algoOne / 2);
    if (algoOne <= algoTwo) {
      // algorithm 1: probe the others (largest first) for each member of the first
      const others = sets.slice(1).sort((a, b) => (b?.size ?? 0) - (a?.size ?? 0));
      for (const m of first.members()) {
        let found = false;
        for (const s of others) {
          if (s === undefined) continue;
          if (s === first || s.has(m)) {
            found = true;
            break;
          }
        }
        if (!found) result.add(m, limits);
      }
    } else {
      // algorithm 2: copy the first, remove the others' members
      for (const m of first.members()) result.add(m, limits);
      for (let j = 1; j < sets.length && result.size > 0; j++) {
        const s = sets[j];
        if (s === undefined) continue;
        for (const m of s.members()) result.remove(m);
      }
    }
  }

  if (dst === null) return new SetReply(result.members());
  return storeResult(ctx, dst, result, op === 'union' ? 'sunionstore' : 'sdiffstore');
}

export const specs: CommandSpec[] = [
  { name: 'sinter', arity: -2, write: false, run: sinter },
  { name: 'sintercard', arity: -3, write: false, run: sintercard },
  { name: 'sinterstore', arity: -3, write: true, run: sinterstore },
  { name: 'sunion', arity: -2, write: false, run: (ctx, argv) => sunionDiffGeneric(ctx, argv.slice(1), null, 'union') },
  { name: 'sunionstore', arity: -3, write: true, run: (ctx, argv) => sunionDiffGeneric(ctx, argv.slice(2), argv[1], 'union') },
  { name: 'sdiff', arity: -2, write: false, run: (ctx, argv) => sunionDiffGeneric(ctx, argv.slice(1), null, 'diff') },
  { name: 'sdiffstore', arity: -3, write: true, run: (ctx, argv) => sunionDiffGeneric(ctx, argv.slice(2), argv[1], 'diff') },
];
