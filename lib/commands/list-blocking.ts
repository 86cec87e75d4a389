/**
 * BLPOP key [key ...] timeout · BRPOP key [key ...] timeout · BRPOPLPUSH source destination timeout
 * BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout
 * BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]
 *
 * The blocking list pops, as t_list.c runs them: the first key (in argument order) holding a
 * non-empty list is served at once — BLPOP/BRPOP `[key, element]`, BLMPOP `[key, [element, …]]`
 * (up to COUNT, default 1), BLMOVE/BRPOPLPUSH the moved element — otherwise the call waits until
 * a push makes one of its keys a non-empty list, or its timeout (seconds, a float; 0 = forever)
 * passes and it answers the nil array. Inside MULTI/EXEC and scripts (no blocking) BLPOP/BRPOP/
 * BLMPOP answer the nil array and BLMOVE/BRPOPLPUSH the nil bulk at once. A key of another type
 * answers WRONGTYPE when reached; a waiting call is not woken by a key becoming a stream or a
 * string (blocked.c serves only clients whose blocking type matches the key's new type).
 *
 * They work on the model's RedisList (lib/model/list.ts: a pop is O(1)) through the same helpers
 * as LPOP/LMPOP/LMOVE (./list-common.ts), and wait on the keyspace's blocking queue like XREAD (a
 * push that creates a key with waiters signals it: ./list-common.ts addList; a write at the end of
 * an EXEC or a script is served after it). Each pop counts in INFO's dirty counter as Redis's
 * `listElementsRemoved` does (one per element removed) and sends the events of LPOP/RPOP/LMPOP/
 * LMOVE (`lpop`/`rpop`, `lpush`/`rpush` on the destination, `del` when a list empties). Errors:
 * `ERR timeout is not a float or out of
 * range`, `ERR timeout is negative`, `ERR timeout is out of range`, `ERR syntax error` (LEFT/
 * RIGHT, BLMPOP options), `ERR numkeys should be greater than 0`, `ERR count should be greater
 * than 0` (BLMPOP checks numkeys, LEFT/RIGHT and COUNT before the timeout), WRONGTYPE. Source:
 * t_list.c `blockingPopGenericCommand`, `blmoveGenericCommand`, `lmpopGenericCommand`; timeout.c
 * `getTimeoutFromObjectOrReply` (7.0.15 and 7.4/8.0 agree).
 */
import { fail } from '../errors';
import type { ListEnd } from '../model/list';
import { redisTypeOf } from '../model/value-type';
import { strtod } from './strtod';
import { NIL_ARRAY, type Reply } from '../reply/reply';
import { getList, listElementsRemoved, listEnd, lmoveServe } from './list-common';
import { mpopServe, parseMpop } from './list';
import type { BlockRequest, CommandContext, CommandResult, CommandSpec, Db } from './types';
import { propagationOf } from './propagate';
import { DEFAULT_REDIS_VERSION, type RedisVersion, supports } from '../version';

const LLONG_MAX = 9223372036854775807;

/**
 * Seconds as a float → ms (ceil), as `getTimeoutFromObjectOrReply(…, UNIT_SECONDS)`: strtold over
 * the whole string (decimal, hexadecimal `0x1p3`, `inf`; no spaces, no NaN). From 7.2 a value
 * whose ms or deadline (now + ms) passes LLONG_MAX is "ERR timeout is out of range"; 7.0 (no such
 * check, FEATURE_SINCE.blockTimeoutOverflowCheck) casts ms above LLONG_MAX to a negative number
 * ("ERR timeout is negative") and lets an overflowing deadline wait forever (0 here) — both
 * checked on redis-server 7.0.15.
 */
export function parseSecondsTimeout(arg: string, now: number, version: RedisVersion = DEFAULT_REDIS_VERSION): number {
  const seconds = strtod(arg);
  if (seconds === null) fail('ERR timeout is not a float or out of range');
  const checked = supports(version, 'blockTimeoutOverflowCheck');
  const ms = seconds * 1000;
  if (ms > LLONG_MAX) fail(checked ? 'ERR timeout is out of range' : 'ERR timeout is negative');
  const t = Math.ceil(ms);
  if (t < 0) fail('ERR timeout is negative');
  if (t > 0 && t > LLONG_MAX - now) {
    if (checked) fail('ERR timeout is out of range');
    return 0;
  }
  return t;
}

interface PopPlan {
  readonly keys: string[];
  readonly timeoutMs: number;
  /**
   * Try to serve now: a reply, or undefined when every key is missing or empty. `woken`: the
   * call blocked before (7.0 counts no change for a woken BLPOP/BRPOP/BLMOVE).
   */
  readonly attempt: (db: Db, woken: boolean) => Reply | undefined;
  /** Reply when blocking is not allowed (MULTI/EXEC, scripts). */
  readonly denied: Reply;
}

function popPlan(ctx: CommandContext, argv: readonly string[]): PopPlan {
  const name = argv[0].toLowerCase();
  const blockedPopDirty = supports(ctx.version, 'blockedPopDirty');
  if (name === 'blpop' || name === 'brpop') {
    const keys = argv.slice(1, -1);
    const timeoutMs = parseSecondsTimeout(argv[argv.length - 1], ctx.now, ctx.version);
    const where: ListEnd = name === 'blpop' ? 'left' : 'right';
    return {
      keys,
      timeoutMs,
      denied: NIL_ARRAY,
      attempt: (db, woken) => {
        for (const key of keys) {
          const list = getList(db, key);
          if (list === undefined || list.length === 0) continue;
          const value = list.pop(where) as string;
          listElementsRemoved(db, key, where, list, 1, !woken || blockedPopDirty);
          // propagated as [LR]POP key (7.0 propagates a woken pop that counted no change all the same)
          const p = propagationOf(db);
          if (p !== null) {
            p.rewrite([where === 'left' ? 'LPOP' : 'RPOP', key]);
            p.force();
          }
          return [key, value];
        }
        return undefined;
      },
    };
  }
  if (name === 'blmpop') {
    const { keys, where, count } = parseMpop(argv, 2);
    const timeoutMs = parseSecondsTimeout(argv[1], ctx.now, ctx.version);
    return { keys, timeoutMs, denied: NIL_ARRAY, attempt: (db) => mpopServe(db, keys, where, count) };
  }
  // BRPOPLPUSH source destination timeout / BLMOVE source destination from to timeout
  const source = argv[1];
  const destination = argv[2];
  let from: ListEnd = 'right';
  let to: ListEnd = 'left';
  let timeoutArg = argv[3];
  if (name === 'blmove') {
    from = listEnd(argv[3]);
    to = listEnd(argv[4]);
    timeoutArg = argv[5];
  }
  const timeoutMs = parseSecondsTimeout(timeoutArg, ctx.now, ctx.version);
  return {
    keys: [source],
    timeoutMs,
    denied: null,
    attempt: (db, woken) => {
      const list = getList(db, source);
      if (list === undefined || list.length === 0) return undefined;
      const value = lmoveServe(db, source, list, destination, from, to, !woken || blockedPopDirty);
      // propagated as LMOVE / RPOPLPUSH (7.0 names the ends `left`/`right` for a woken call)
      const p = propagationOf(db);
      if (p !== null) {
        const woken70 = woken && !blockedPopDirty;
        p.rewrite(name === 'blmove' ? ['LMOVE', source, destination, woken70 ? from : argv[3], woken70 ? to : argv[4]] : ['RPOPLPUSH', source, destination]);
        p.force();
      }
      return value;
    },
  };
}

/** True when `key` holds a list now. */
function holdsList(db: Db, key: string): boolean {
  const v = db.lookup(key);
  return redisTypeOf(v) === 'list';
}

/**
 * Run a blocking list pop: the reply, or a BlockRequest the blocking machinery re-runs when one
 * of its keys is signalled — a signalled key that does not hold a list leaves the call waiting.
 */
export function runListPop(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const plan = popPlan(ctx, argv);
  const served = plan.attempt(ctx.db, false);
  if (served !== undefined) return served;
  if (!ctx.isRetry && !ctx.canBlock) return plan.denied;
  const request: BlockRequest = {
    kind: 'block',
    keys: [...new Set(plan.keys)],
    timeoutMs: plan.timeoutMs,
    wakeAt: null,
    retry: (retryCtx, signalledKey) => {
      if (signalledKey !== undefined && !holdsList(retryCtx.db, signalledKey)) return request;
      return plan.attempt(retryCtx.db, true) ?? request;
    },
  };
  return request;
}

const run = (ctx: CommandContext, argv: string[]) => runListPop(ctx, argv);

export const specs: CommandSpec[] = [
  { name: 'blpop', arity: -3, write: true, run },
  { name: 'brpop', arity: -3, write: true, run },
  { name: 'brpoplpush', arity: 4, write: true, run },
  { name: 'blmove', arity: 6, write: true, run },
  { name: 'blmpop', arity: -5, write: true, run },
];
