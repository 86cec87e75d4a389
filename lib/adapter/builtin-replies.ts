/**
 * ioredis-mock's own commands as the project's ioredis delivers them.
 *
 * ioredis-mock answers every built-in in ioredis 5's RESP2 shapes (its private ioredis 5 applies
 * the `hgetall` transformer). Real ioredis 6 differs for a known set of built-ins, found from
 * Redis's reply schemas (src/commands/*.json: maps, doubles, `[member, score]` pairs) for every
 * command ioredis-mock implements, and checked against real ioredis 6.0.0
 * (__tests__/ioredis-replies/recorded.json):
 * - maps — HGETALL, CONFIG GET: an object with `replyMapping: 'resp3'`;
 * - doubles — ZSCORE, ZINCRBY, ZMSCORE, ZADD … INCR: numbers with 'resp3' (strings with
 *   stringNumbers);
 * - pairs — ZRANGE / ZRANGEBYSCORE / ZREVRANGE / ZREVRANGEBYSCORE / ZDIFF … WITHSCORES,
 *   ZPOPMIN / ZPOPMAX with a count, HRANDFIELD … WITHVALUES: `[member, score]` pairs with
 *   'resp3' (numbers) and with `call('ZRANGE', …)` under protocol 3 (ioredis flattens them only
 *   for the lowercase name), flat otherwise. Which replies are pairs is the engine's typing
 *   (`builtinPairsReply`, lib/engine/builtin-replies.ts; `PairsReply` in lib/reply), shared
 *   with EXEC, scripts and the other front ends.
 * `call('HGETALL', …)` answers the flat array (ioredis's hgetall transformer is keyed by the
 * lowercase name) on ioredis 5 and 6 alike.
 *
 * The fix lifts ioredis-mock's value to the typed reply Redis sends and encodes it for the
 * client (./ioredis-reply.ts). ioredis-mock's score quirks are normalised on the way: ZPOPMIN /
 * ZPOPMAX scores and ZADD INCR come back as numbers from ioredis-mock, as strings from Redis.
 */
import { DoubleReply, MapReply, type Reply } from '../reply/reply';
import { BUILTIN_PAIRS_COMMANDS, builtinPairsKind, builtinPairsReply } from '../engine/builtin-replies';
import { flattenArgs, integerAsRead, toByteString } from './encoding';
import { replyEncoderFor, type IoredisReplyContext, replyContextOf } from './ioredis-reply';
import { installedIoredisMajor } from './command-table';
import { CONN } from './lifecycle';

/** Every built-in whose reply may need reshaping (the rest pass through untouched). */
const LIFTED = new Set([...BUILTIN_PAIRS_COMMANDS, 'hgetall', 'config', 'zscore', 'zincrby', 'zadd', 'zmscore']);

function bytes(v: unknown): string {
  return toByteString(typeof v === 'number' ? String(v) : v);
}

function double(v: unknown): Reply {
  if (v === null || v === undefined) return null;
  const text = Buffer.isBuffer(v) ? v.toString() : String(v);
  return new DoubleReply(Number(text === 'inf' ? Infinity : text === '-inf' ? -Infinity : text), text);
}

/**
 * The typed reply Redis sends for a built-in whose ioredis-mock value (RESP2 shapes, strings or
 * Buffers) needs converting, or undefined when ioredis-mock's value is right for every client.
 * `lower`: the lowercase command name; `args`: its arguments.
 */
export function liftBuiltinReply(lower: string, args: unknown[], value: unknown): Reply | undefined {
  if (!LIFTED.has(lower)) return undefined;
  // [member, score] pairs and kin: the engine's typing (lib/engine/builtin-replies.ts)
  if (BUILTIN_PAIRS_COMMANDS.has(lower)) return builtinPairsReply(lower, flattenArgs(args), value);
  const words = flattenArgs(args).map((a) => (Buffer.isBuffer(a) ? a.toString() : String(a)).toUpperCase());
  switch (lower) {
    case 'hgetall': {
      if (Array.isArray(value)) return new MapReply(value.map(bytes));
      if (value && typeof value === 'object') return new MapReply(Object.entries(value).flatMap(([k, v]) => [bytes(k), bytes(v)]));
      return undefined;
    }
    case 'config':
      return words[0] === 'GET' && Array.isArray(value) ? new MapReply(value.map(bytes)) : undefined;
    case 'zscore':
    case 'zincrby':
      return double(value);
    case 'zadd':
      return words.includes('INCR') ? double(value) : undefined;
    case 'zmscore':
      return Array.isArray(value) ? value.map(double) : undefined;
    default:
      return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * ioredis-mock's reply values as ioredis types them: bulk and status strings of a `…Buffer`
 * method as Buffers (ioredis-mock aliases some Buffer twins to the string versions, e.g.
 * `incrbyfloatBuffer`), integers as strings with `stringNumbers` (ioredis-mock ignores it).
 * Only plain data (strings, numbers, arrays, plain objects) is touched.
 */
function normalise(v: unknown, buffers: boolean, stringNumbers: boolean): unknown {
  if (typeof v === 'string') return buffers ? Buffer.from(v) : v;
  if (typeof v === 'number') return stringNumbers && Number.isInteger(v) ? String(v) : v;
  if (Array.isArray(v)) return v.map((x) => normalise(x, buffers, stringNumbers));
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = normalise(x, buffers, stringNumbers);
    return out;
  }
  return v;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** The protocol the client's engine connection currently speaks (HELLO may have changed it). */
export function wireProtocolOf(redis: any): 2 | 3 | undefined {
  return redis?.[CONN]?.protocol;
}

/**
 * ioredis-mock's `value` for method `method` (e.g. `zrange`, `zscoreBuffer`) of client `redis`,
 * as the installed ioredis would deliver it to that client. `commandName`: the name ioredis's
 * Command would carry (the lowercase name for methods and pipelines; as written for `call()`).
 * `value` may be a promise.
 */
export function mendBuiltinReply(redis: any, method: string, args: unknown[], value: unknown, commandName?: string): unknown {
  const lower = method.replace(/Buffer$/, '').toLowerCase();
  const buffers = method.endsWith('Buffer');
  const stringNumbers = Boolean(redis?.options?.stringNumbers);
  // an exact 64-bit integer (INCR & co., ./integers.ts): as ioredis reads an integer reply
  if (typeof value === 'bigint') return stringNumbers ? String(value) : integerAsRead(value);
  if (!buffers && !stringNumbers && !LIFTED.has(lower)) return value;
  const mend = (raw: unknown) => {
    const v = buffers || stringNumbers ? normalise(raw, buffers, stringNumbers) : raw;
    const typed = liftBuiltinReply(lower, args, v);
    return typed === undefined ? v : replyEncoderFor(redis?.options, buffers, commandName ?? lower, wireProtocolOf(redis))(typed);
  };
  return value instanceof Promise ? value.then(mend) : mend(value);
}

/**
 * A built-in's reply for `call(name, …)` when `name` is not the lowercase name: ioredis looks its
 * reply transformers up by the exact name, so `call('HGETALL')` skips the hgetall transformer
 * (the flat array) and, on ioredis 6 protocol 3, `call('ZRANGE', …, 'WITHSCORES')` keeps the
 * pairs. `value` is what the lowercase method answered.
 */
export function asCalledByName(redis: any, lower: string, name: string, args: unknown[], value: unknown, buffers = false): unknown {
  if (name === lower) return value;
  const ctx: IoredisReplyContext = { ...replyContextOf(installedIoredisMajor(), redis?.options), buffers: false, commandName: name };
  const protocol = wireProtocolOf(redis) ?? ctx.protocol;
  if (lower === 'hgetall' && value && typeof value === 'object' && !Array.isArray(value) && !(ctx.replyMapping === 'resp3' && protocol === 3)) {
    return Object.entries(value).flatMap(([k, v]) => [buffers ? Buffer.from(k) : k, v]);
  }
  const paired = BUILTIN_PAIRS_COMMANDS.has(lower) && builtinPairsKind(lower, flattenArgs(args)) !== undefined;
  if (paired && ctx.ioredis === 6 && ctx.protocol === 3 && ctx.replyMapping === 'legacy' && protocol === 3 && Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i + 1 < value.length; i += 2) out.push([value[i], value[i + 1]]);
    return out;
  }
  return value;
}
