/**
 * ZPOPMIN / ZPOPMAX key [count] · ZMPOP numkeys key [key …] MIN|MAX [COUNT count]
 * BZPOPMIN / BZPOPMAX key [key …] timeout · BZMPOP timeout numkeys key [key …] MIN|MAX [COUNT count]
 *
 * As t_zset.c genericZpopCommand, zpopMinMaxCommand, zmpopGenericCommand and
 * blockingGenericZpopCommand run them:
 * - the first key (in argument order) that exists is popped from; a key of another type met on
 *   the way answers WRONGTYPE;
 * - ZPOPMIN/ZPOPMAX: count parsed by getPositiveLongFromObjectOrReply (`ERR value is out of
 *   range, must be positive`; more than one count `ERR syntax error`); without a count a flat
 *   `[member, score]`, with one `[member, score]` pairs (PairsReply: RESP2 flat, RESP3 nested);
 *   a missing key or a count of 0 answers an empty array;
 * - ZMPOP/BZMPOP: `ERR numkeys should be greater than 0`, `ERR syntax error` (MIN/MAX, options),
 *   `ERR count should be greater than 0`; reply `[key, [[member, score], …]]` (nested in RESP2
 *   too) or the nil array; BZMPOP reads its timeout after those checks;
 * - BZPOPMIN/BZPOPMAX: `[key, member, score]` or, on timeout, the nil array; timeout in seconds,
 *   a float (`ERR timeout is not a float or out of range`, `ERR timeout is negative`), 0 = for
 *   ever, on the keyspace clock. Inside MULTI/EXEC and scripts they never wait: the nil array.
 *   A waiting call is woken by a write that leaves a sorted set at one of its keys (ZADD,
 *   ZUNIONSTORE, RESTORE … from any client, script or EXEC) and re-run then;
 * - each popped member counts one change (dirty); event `zpopmin`/`zpopmax` once per call, then
 *   `del` when the key goes away.
 * Scores are doubles printed as the emulated version prints them.
 */
import { ERR_SYNTAX, fail } from '../errors';
import { NIL_ARRAY, PairsReply, type Reply } from '../reply/reply';
import { is, parseInt64 } from './args';
import { parseSecondsTimeout } from './list-blocking';
import { getZset, scoreReply } from './zset-common';
import type { BlockRequest, CommandContext, CommandResult, CommandSpec, Db } from './types';
import type { RedisVersion } from '../version';
import { propagationOf } from './propagate';
import type { ZsetEntry } from '../model/zset';

type Where = 'min' | 'max';

/** Pop up to `count` members from the sorted set at `key` (present and non-empty). */
function popFrom(db: Db, key: string, where: Where, count: number): ZsetEntry[] {
  const z = getZset(db, key);
  if (z === undefined) return [];
  const out: ZsetEntry[] = [];
  const n = Math.min(count, z.size);
  for (let i = 0; i < n; i++) {
    const e = (where === 'min' ? z.first() : z.last()) as ZsetEntry;
    z.delete(e[0]);
    out.push(e);
  }
  db.dirty?.(n);
  db.notifyEvent('z', where === 'min' ? 'zpopmin' : 'zpopmax', key);
  if (z.size === 0) {
    db.remove(key);
    db.notifyEvent('g', 'del', key);
  } else db.touch(key);
  return out;
}

/** ZMPOP, BZMPOP and BZPOPMIN/MAX propagate as ZPOPMIN/ZPOPMAX key [count]. */
function propagatePop(db: Db, key: string, where: Where, count?: number): void {
  const p = propagationOf(db);
  if (p === null) return;
  const name = where === 'min' ? 'ZPOPMIN' : 'ZPOPMAX';
  p.rewrite(count === undefined ? [name, key] : [name, key, String(count)]);
}

/** The first key holding a sorted set (WRONGTYPE for another type on the way), or undefined. */
function firstZsetKey(db: Db, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const z = getZset(db, key);
    if (z !== undefined && z.size > 0) return key;
  }
  return undefined;
}

/** getRangeLongFromObjectOrReply(…, 1, LONG_MAX, message). */
function positiveLong(arg: string, message: string): number {
  const v = parseInt64(arg);
  if (v === null || v < 1n) fail(`ERR ${message}`);
  return v > 1n << 53n ? 2 ** 53 : Number(v);
}

function pairs(entries: ZsetEntry[], version: RedisVersion): Reply[] {
  return entries.map(([m, s]) => [m, scoreReply(s, version)]);
}

function zpopMinMax(ctx: CommandContext, argv: string[], where: Where): Reply {
  if (argv.length > 3) fail(ERR_SYNTAX);
  let count = -1;
  if (argv.length === 3) {
    const v = parseInt64(argv[2]);
    if (v === null || v < 0n) fail('ERR value is out of range, must be positive');
    count = v > 1n << 53n ? 2 ** 53 : Number(v);
  }
  const key = argv[1];
  const z = getZset(ctx.db, key);
  if (z === undefined || count === 0) return [];
  const popped = popFrom(ctx.db, key, where, count === -1 ? 1 : count);
  if (count === -1) return [popped[0][0], scoreReply(popped[0][1], ctx.version)];
  return new PairsReply(popped.map(([m, s]) => [m, scoreReply(s, ctx.version)]));
}

interface PopPlan {
  readonly keys: string[];
  readonly timeoutMs: number;
  readonly attempt: (ctx: CommandContext) => Reply | undefined;
}

/** ZMPOP / BZMPOP arguments from `numkeysIdx` on. */
function parseMpop(argv: string[], numkeysIdx: number): { keys: string[]; where: Where; count: number } {
  const numkeys = positiveLong(argv[numkeysIdx], 'numkeys should be greater than 0');
  const whereIdx = numkeysIdx + numkeys + 1;
  if (whereIdx >= argv.length) fail(ERR_SYNTAX);
  let where: Where;
  if (is(argv[whereIdx], 'MIN')) where = 'min';
  else if (is(argv[whereIdx], 'MAX')) where = 'max';
  else fail(ERR_SYNTAX);
  let count = -1;
  for (let j = whereIdx + 1; j < argv.length; j++) {
    const more = argv.length - 1 - j;
    if (count === -1 && is(argv[j], 'COUNT') && more > 0) count = positiveLong(argv[++j], 'count should be greater than 0');
    else fail(ERR_SYNTAX);
  }
  return { keys: argv.slice(numkeysIdx + 1, whereIdx), where, count: count === -1 ? 1 : count };
}

function zmpop(ctx: CommandContext, argv: string[]): Reply {
  const { keys, where, count } = parseMpop(argv, 1);
  const key = firstZsetKey(ctx.db, keys);
  if (key === undefined) return NIL_ARRAY;
  const popped = popFrom(ctx.db, key, where, count);
  propagatePop(ctx.db, key, where, popped.length);
  return [key, pairs(popped, ctx.version)];
}

function blockingPlan(ctx: CommandContext, argv: string[]): PopPlan {
  const name = argv[0].toLowerCase();
  if (name === 'bzmpop') {
    const { keys, where, count } = parseMpop(argv, 2);
    const timeoutMs = parseSecondsTimeout(argv[1], ctx.now, ctx.version);
    return {
      keys,
      timeoutMs,
      attempt: (c) => {
        const key = firstZsetKey(c.db, keys);
        if (key === undefined) return undefined;
        const popped = popFrom(c.db, key, where, count);
        propagatePop(c.db, key, where, popped.length);
        return [key, pairs(popped, c.version)];
      },
    };
  }
  const where: Where = name === 'bzpopmin' ? 'min' : 'max';
  const keys = argv.slice(1, -1);
  const timeoutMs = parseSecondsTimeout(argv[argv.length - 1], ctx.now, ctx.version);
  return {
    keys,
    timeoutMs,
    attempt: (c) => {
      const key = firstZsetKey(c.db, keys);
      if (key === undefined) return undefined;
      const [[m, s]] = popFrom(c.db, key, where, 1);
      propagatePop(c.db, key, where);
      return [key, m, scoreReply(s, c.version)];
    },
  };
}

/**
 * BZPOPMIN / BZPOPMAX / BZMPOP: the reply, or a BlockRequest the blocking machinery re-runs when
 * one of its keys is signalled (a signalled key that holds no sorted set leaves it waiting).
 */
function runBlockingPop(ctx: CommandContext, argv: string[]): CommandResult {
  const plan = blockingPlan(ctx, argv);
  const served = plan.attempt(ctx);
  if (served !== undefined) return served;
  if (!ctx.isRetry && !ctx.canBlock) return NIL_ARRAY;
  const request: BlockRequest = {
    kind: 'block',
    keys: [...new Set(plan.keys)],
    timeoutMs: plan.timeoutMs,
    wakeAt: null,
    retry: (retryCtx, signalledKey) => {
      if (signalledKey !== undefined && getZsetOrNone(retryCtx.db, signalledKey) === undefined) return request;
      return plan.attempt(retryCtx) ?? request;
    },
  };
  return request;
}

/** The sorted set at `key`, undefined for a missing key or another type (no WRONGTYPE). */
function getZsetOrNone(db: Db, key: string): unknown {
  try {
    return getZset(db, key);
  } catch {
    return undefined;
  }
}

export const specs: CommandSpec[] = [
  { name: 'zpopmin', arity: -2, write: true, run: (ctx, argv) => zpopMinMax(ctx, argv, 'min') },
  { name: 'zpopmax', arity: -2, write: true, run: (ctx, argv) => zpopMinMax(ctx, argv, 'max') },
  { name: 'zmpop', arity: -4, write: true, run: zmpop },
  { name: 'bzpopmin', arity: -3, write: true, run: runBlockingPop },
  { name: 'bzpopmax', arity: -3, write: true, run: runBlockingPop },
  { name: 'bzmpop', arity: -5, write: true, run: runBlockingPop },
];
