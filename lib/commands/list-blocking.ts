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
 * ioredis-mock has no blocking list commands (its BRPOPLPUSH never waits): these modules work on
 * the whole-key access of `Db` (lists keep their TTL), so every front end has them, and they wait
 * on the keyspace's blocking queue like XREAD (a push to a key with waiters signals it, see
 * lib/keyspace/keyspace.ts). Each pop counts in INFO's dirty counter as Redis's
 * `listElementsRemoved` does (one per element removed). Errors: `ERR timeout is not a float or out of
 * range`, `ERR timeout is negative`, `ERR timeout is out of range`, `ERR syntax error` (LEFT/
 * RIGHT, BLMPOP options), `ERR numkeys should be greater than 0`, `ERR count should be greater
 * than 0`, WRONGTYPE. Source: t_list.c `blockingPopGenericCommand`, `blmoveGenericCommand`,
 * `lmpopGenericCommand`; timeout.c `getTimeoutFromObjectOrReply` (7.0.15 and 7.4/8.0 agree).
 */
import { StreamsMockError } from '../clock/clock';
import { ERR_NOT_INTEGER, ERR_SYNTAX, fail } from '../errors';
import { NIL_ARRAY, type Reply } from '../reply/reply';
import type { BlockRequest, CommandContext, CommandResult, CommandSpec, Db } from './types';

const LLONG_MAX = 9223372036854775807;

/** Seconds as a float → ms (ceil), as `getTimeoutFromObjectOrReply(…, UNIT_SECONDS)`. */
export function parseSecondsTimeout(arg: string, now: number): number {
  // string2ld: strtold over the whole string, no spaces, no NaN
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?inf(?:inity)?$/i.test(arg)) {
    fail('ERR timeout is not a float or out of range');
  }
  const seconds = /inf/i.test(arg) ? (arg.startsWith('-') ? -Infinity : Infinity) : Number(arg);
  const ms = seconds * 1000;
  if (ms > LLONG_MAX) fail('ERR timeout is out of range');
  const t = Math.ceil(ms);
  if (t < 0) fail('ERR timeout is negative');
  if (t > 0 && t > LLONG_MAX - now) fail('ERR timeout is out of range');
  return t;
}

function position(arg: string): 'left' | 'right' {
  const a = arg.toLowerCase();
  if (a === 'left' || a === 'right') return a;
  return fail(ERR_SYNTAX);
}

/** getRangeLongFromObjectOrReply(…, 1, LONG_MAX, msg). */
function positiveLong(arg: string, message: string): number {
  if (!/^-?\d+$/.test(arg)) fail(ERR_NOT_INTEGER);
  if (BigInt(arg) > 9223372036854775807n || BigInt(arg) < -9223372036854775808n) fail(ERR_NOT_INTEGER);
  const v = Number(arg);
  if (v < 1) fail(`ERR ${message}`);
  return v;
}

/** The list at `key` (a copy), undefined when missing; WRONGTYPE for another type. */
function getList(db: Db, key: string): string[] | undefined {
  if (!db.getValue) throw new StreamsMockError('blocking list commands need whole-key access (Db.getValue); this front end has none');
  const v = db.getValue(key);
  if (v === undefined) return undefined;
  if (v.type !== 'list') fail('WRONGTYPE Operation against a key holding the wrong kind of value');
  return [...v.value];
}

/** Store the list back, keeping the key's TTL; an empty list deletes the key. */
function setList(db: Db, key: string, list: string[]): void {
  if (list.length === 0) db.deleteKey?.(key);
  else db.setValue?.(key, { type: 'list', value: list }, db.expireAt?.(key));
}

interface PopPlan {
  readonly keys: string[];
  readonly timeoutMs: number;
  /** Try to serve now: a reply, or undefined when every key is missing or empty. */
  readonly attempt: (db: Db) => Reply | undefined;
  /** Reply when blocking is not allowed (MULTI/EXEC, scripts). */
  readonly denied: Reply;
}

function popPlan(ctx: CommandContext, argv: readonly string[]): PopPlan {
  const name = argv[0].toLowerCase();
  if (name === 'blpop' || name === 'brpop') {
    const keys = argv.slice(1, -1);
    const timeoutMs = parseSecondsTimeout(argv[argv.length - 1], ctx.now);
    const left = name === 'blpop';
    return {
      keys,
      timeoutMs,
      denied: NIL_ARRAY,
      attempt: (db) => {
        for (const key of keys) {
          const list = getList(db, key);
          if (!list || list.length === 0) continue;
          const value = (left ? list.shift() : list.pop()) as string;
          setList(db, key, list);
          db.dirty?.(1);
          return [key, value];
        }
        return undefined;
      },
    };
  }
  if (name === 'blmpop') {
    const timeoutMs = parseSecondsTimeout(argv[1], ctx.now);
    const numkeys = positiveLong(argv[2], 'numkeys should be greater than 0');
    const whereIdx = 3 + numkeys;
    if (whereIdx >= argv.length) fail(ERR_SYNTAX);
    const where = position(argv[whereIdx]);
    let count = -1;
    for (let j = whereIdx + 1; j < argv.length; j++) {
      const more = argv.length - 1 - j;
      if (count === -1 && argv[j].toLowerCase() === 'count' && more > 0) {
        count = positiveLong(argv[++j], 'count should be greater than 0');
      } else fail(ERR_SYNTAX);
    }
    if (count === -1) count = 1;
    const keys = argv.slice(3, whereIdx);
    return {
      keys,
      timeoutMs,
      denied: NIL_ARRAY,
      attempt: (db) => {
        for (const key of keys) {
          const list = getList(db, key);
          if (!list || list.length === 0) continue;
          const n = Math.min(count, list.length);
          const taken = where === 'left' ? list.splice(0, n) : list.splice(list.length - n, n).reverse();
          setList(db, key, list);
          db.dirty?.(n);
          return [key, taken];
        }
        return undefined;
      },
    };
  }
  // BRPOPLPUSH source destination timeout / BLMOVE source destination from to timeout
  const source = argv[1];
  const destination = argv[2];
  let from: 'left' | 'right' = 'right';
  let to: 'left' | 'right' = 'left';
  let timeoutArg = argv[3];
  if (name === 'blmove') {
    from = position(argv[3]);
    to = position(argv[4]);
    timeoutArg = argv[5];
  }
  const timeoutMs = parseSecondsTimeout(timeoutArg, ctx.now);
  return {
    keys: [source],
    timeoutMs,
    denied: null,
    attempt: (db) => {
      const list = getList(db, source);
      if (!list || list.length === 0) return undefined;
      // WRONGTYPE for the destination before anything moves (lmoveGenericCommand)
      const dest = source === destination ? list : getList(db, destination) ?? [];
      const value = (from === 'left' ? list.shift() : list.pop()) as string;
      if (to === 'left') dest.unshift(value);
      else dest.push(value);
      if (source !== destination) setList(db, destination, dest);
      setList(db, source, list);
      db.dirty?.(1);
      return value;
    },
  };
}

/** True when `key` holds a list now. */
function holdsList(db: Db, key: string): boolean {
  return db.getValue?.(key)?.type === 'list';
}

/**
 * Run a blocking list pop: the reply, or a BlockRequest the blocking machinery re-runs when one
 * of its keys is signalled — a signalled key that does not hold a list leaves the call waiting.
 */
export function runListPop(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const plan = popPlan(ctx, argv);
  const served = plan.attempt(ctx.db);
  if (served !== undefined) return served;
  if (!ctx.isRetry && !ctx.canBlock) return plan.denied;
  const request: BlockRequest = {
    kind: 'block',
    keys: [...new Set(plan.keys)],
    timeoutMs: plan.timeoutMs,
    wakeAt: null,
    retry: (retryCtx, signalledKey) => {
      if (signalledKey !== undefined && !holdsList(retryCtx.db, signalledKey)) return request;
      return plan.attempt(retryCtx.db) ?? request;
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
