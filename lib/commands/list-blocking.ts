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
 * These commands live outside ioredis-mock (which has no blocking list commands) and work on
 * any list store through `ListAccess`, so every front end can offer them; their waiting uses
 * the keyspace's blocking queue like XREAD. Errors: `ERR timeout is not a float or out of
 * range`, `ERR timeout is negative`, `ERR timeout is out of range`, `ERR syntax error` (LEFT/
 * RIGHT, BLMPOP options), `ERR numkeys should be greater than 0`, `ERR count should be greater
 * than 0`, WRONGTYPE. Source: t_list.c `blockingPopGenericCommand`, `blmoveGenericCommand`,
 * `lmpopGenericCommand`; timeout.c `getTimeoutFromObjectOrReply` (7.0.15 and 7.4/8.0 agree).
 */
import { ERR_NOT_INTEGER, ERR_SYNTAX, fail } from '../errors';
import { NIL_ARRAY, type Reply } from '../reply/reply';
import type { BlockRequest, CommandResult } from './types';

/** Key access to lists (elements as byte strings, head first). */
export interface ListAccess {
  /** The list at `key`; undefined when the key is missing; throws WRONGTYPE for another type. */
  get(key: string): string[] | undefined;
  /** Store the list at `key` (an empty list deletes the key). Marks the key modified. */
  set(key: string, elements: string[]): void;
}

export interface ListPopContext {
  readonly lists: ListAccess;
  /** False inside MULTI/EXEC and scripts. */
  readonly canBlock: boolean;
  /** Command time in ms (for the out-of-range timeout check). */
  readonly now: number;
}

/** Names of the commands this module runs (lower case) and their Redis arity. */
export const LIST_BLOCKING_COMMANDS: Readonly<Record<string, number>> = {
  blpop: -3,
  brpop: -3,
  brpoplpush: 4,
  blmove: 6,
  blmpop: -5,
};

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
  const v = Number(arg);
  if (!Number.isSafeInteger(v) && BigInt(arg) > 9223372036854775807n) fail(ERR_NOT_INTEGER);
  if (v < 1) fail(`ERR ${message}`);
  return v;
}

interface PopPlan {
  readonly keys: string[];
  readonly timeoutMs: number;
  /** Try to serve now: a reply, or undefined when every key is missing or empty. */
  readonly attempt: () => Reply | undefined;
  /** Reply when blocking is not allowed. */
  readonly denied: Reply;
}

function popPlan(ctx: ListPopContext, argv: readonly string[]): PopPlan {
  const name = argv[0].toLowerCase();
  const { lists } = ctx;
  if (name === 'blpop' || name === 'brpop') {
    const keys = argv.slice(1, -1);
    const timeoutMs = parseSecondsTimeout(argv[argv.length - 1], ctx.now);
    const left = name === 'blpop';
    return {
      keys,
      timeoutMs,
      denied: NIL_ARRAY,
      attempt: () => {
        for (const key of keys) {
          const list = lists.get(key);
          if (!list || list.length === 0) continue;
          const value = (left ? list.shift() : list.pop()) as string;
          lists.set(key, list);
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
      attempt: () => {
        for (const key of keys) {
          const list = lists.get(key);
          if (!list || list.length === 0) continue;
          const n = Math.min(count, list.length);
          const taken = where === 'left' ? list.splice(0, n) : list.splice(list.length - n, n).reverse();
          lists.set(key, list);
          return [key, taken];
        }
        return undefined;
      },
    };
  }
  // BRPOPLPUSH / BLMOVE
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
    attempt: () => {
      const list = lists.get(source);
      if (!list || list.length === 0) return undefined;
      const dest = source === destination ? list : lists.get(destination) ?? []; // WRONGTYPE before popping
      const value = (from === 'left' ? list.shift() : list.pop()) as string;
      if (to === 'left') dest.unshift(value);
      else dest.push(value);
      if (source !== destination) lists.set(destination, dest);
      lists.set(source, list);
      return value;
    },
  };
}

/**
 * Run a blocking list pop. Returns the reply, or a BlockRequest to wait on (the caller's
 * blocking machinery re-runs `retry` when one of its keys is signalled). `isList(key)` tells the
 * retry whether a signalled key now holds a list (other types leave the call waiting).
 */
export function runListPop(ctx: ListPopContext, argv: readonly string[], isList: (key: string) => boolean): CommandResult {
  const plan = popPlan(ctx, argv);
  const served = plan.attempt();
  if (served !== undefined) return served;
  if (!ctx.canBlock) return plan.denied;
  const request: BlockRequest = {
    kind: 'block',
    keys: [...new Set(plan.keys)],
    timeoutMs: plan.timeoutMs,
    wakeAt: null,
    retry: (_retryCtx, signalledKey) => {
      if (signalledKey !== undefined && !isList(signalledKey)) return request;
      return plan.attempt() ?? request;
    },
  };
  return request;
}
