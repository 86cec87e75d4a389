/**
 * What the adapter adds around ioredis-mock's own commands (`runBuiltin`, used by methods,
 * pipelines/MULTI and Lua alike):
 * - they run on the keyspace clock: ioredis-mock computes TTLs (SET … EX/PX, SETEX, PSETEX,
 *   GETEX, EXPIRE …) from `Date.now()`, which is pointed at the keyspace clock for the
 *   synchronous duration of the command (not needed for the global clock, which is Date);
 * - Redis's arity check, then WRONGTYPE for a key of a type the command does not take (the
 *   table in ./key-types.ts; a stream key given to any command outside it, too), as in Redis,
 *   instead of letting ioredis-mock misread (or overwrite) the value;
 * - replies ioredis-mock gets wrong for keys of other types (TYPE/OBJECT ENCODING of a stream,
 *   MGET of a non-string);
 * - its errors as error replies (CommandError) with Redis's texts, or StreamsMockErrors
 *   (./builtin-errors.ts);
 * - sorted-set scores as Redis reads and prints them (./zset-scores.ts), and score ranges
 *   (ZRANGEBYSCORE, ZCOUNT, ZREMRANGEBYSCORE …) selected as Redis does (./zset-ranges.ts).
 */
import { parseInt64 } from '../../commands/args';
import { commandSpec } from '../../commands/command-data';
import { CommandError, ERR_WRONGTYPE } from '../../errors';
import type { Keyspace } from '../../keyspace/keyspace';
import { Stream } from '../../model/stream';
import { supports } from '../../version';
import { flattenArgs } from '../../bytes/index';
import { checkArgsAfterLookup, checkArgsBeforeLookup, hasArgChecks } from './builtin-args';
import { builtinError } from './builtin-errors';
import { missingSourceReply, redisTypeOf, typeRuleOf, wrongTypeKey } from './key-types';
import {
  INTEGER_COMMANDS,
  LONG_DOUBLE_COMMANDS,
  SCORE_RANGE_COMMANDS,
  SCORE_REPLY_COMMANDS,
  integersModule,
  longDoubleModule,
  zsetRangesModule,
  zsetScoresModule,
} from './builtin-fixes';
import { DESTINATION_FIRST_COMMANDS, OVERWRITING_COMMANDS, TYPE_AGNOSTIC_COMMANDS, storeKeyOfArg } from './keys';

/** `server.dirty` of the last built-in, when its writes do not tell it (see `takeExactDirty`). */
let exactDirty: number | undefined;

/**
 * The `server.dirty` increment of the built-in `runBuiltin` just ran, when the count of its writes
 * is not Redis's (ZADD / ZINCRBY count the members added or changed), else undefined; cleared.
 * Callers read it right after `runBuiltin` returns (the commands that set it answer at once).
 */
export function takeExactDirty(): number | undefined {
  const d = exactDirty;
  exactDirty = undefined;
  return d;
}

/** Run `fn` with `Date.now()` answering the keyspace time (for ioredis-mock's TTL arithmetic). */
export function withKeyspaceTime<T>(ks: Keyspace, fn: () => T): T {
  if (ks.clock.kind === 'global') return fn();
  const DateCtor = globalThis.Date;
  const original = DateCtor.now;
  DateCtor.now = () => ks.now();
  try {
    return fn();
  } finally {
    DateCtor.now = original;
  }
}


/** Lower-case command name without the `Buffer` suffix (memoised: called per command). */
const baseNames = new Map<string, string>();
function baseName(command: string): string {
  let name = baseNames.get(command);
  if (name === undefined) {
    name = command.replace(/Buffer$/, '').toLowerCase();
    baseNames.set(command, name);
  }
  return name;
}

/** @ioredis/commands' module, loaded for the first command with movable keys (the table above is its data). */
let commandsModule: typeof import('@ioredis/commands') | undefined;
function ioredisCommands(): typeof import('@ioredis/commands') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (commandsModule ??= require('@ioredis/commands') as typeof import('@ioredis/commands'));
}

function isPlainArg(a: unknown): boolean {
  return a === null || a === undefined || typeof a !== 'object' || Buffer.isBuffer(a);
}

/** Positions of the key arguments of `name` in `flat` (Redis's key specs), or [] when unknown. */
function keyIndexes(name: string, flat: readonly unknown[]): number[] {
  const spec = commandSpec(name);
  if (!spec || spec.keyStart <= 0) return [];
  if (!spec.flags.includes('movablekeys')) {
    const out: number[] = [];
    const last = spec.keyStop < 0 ? flat.length + spec.keyStop : spec.keyStop - 1;
    for (let i = spec.keyStart - 1; i <= last && i < flat.length; i += spec.step || 1) out.push(i);
    return out;
  }
  try {
    return ioredisCommands().getKeyIndexes(name, flat.map((a) => (Buffer.isBuffer(a) ? a : String(a ?? ''))));
  } catch {
    return []; // arguments the key table cannot parse: Redis rejects them (arity, syntax)
  }
}

const textOf = (a: unknown) => (Buffer.isBuffer(a) ? a.toString('latin1') : String(a ?? ''));

/**
 * Checks Redis makes before running any command, for ioredis-mock's own commands: the arity
 * of Redis's command table (ioredis-mock ignores extra or missing arguments of many commands),
 * Redis's argument checks before the key lookup (./builtin-args.ts), WRONGTYPE when a key
 * argument holds a type the command does not take (./key-types.ts; a stream for any command
 * outside that table), then the checks after the lookup. `flat` are the flattened arguments.
 * @returns the positions of the key arguments (for the clean-up after the command)
 */
function checkBuiltin(ks: Keyspace, name: string, flat: readonly unknown[]): number[] {
  let plain = true;
  for (let i = 0; i < flat.length; i++) if (!isPlainArg(flat[i])) plain = false;
  const lookup = (key: unknown) => ks.store.getRaw(storeKeyOfArg(key));
  if (!plain) {
    // hset(key, { … }), mset({ … }): ioredis's transformer expands them later; the key, if any, comes first
    const rule = typeRuleOf(name);
    const first = flat[0];
    const type = rule && (typeof first === 'string' || Buffer.isBuffer(first)) ? redisTypeOf(lookup(first)) : undefined;
    if (rule && type !== undefined && !rule.accepts.includes(type)) throw new CommandError(ERR_WRONGTYPE);
    return [];
  }
  const spec = commandSpec(name);
  if (spec) {
    const argc = flat.length + 1;
    if (spec.arity >= 0 ? argc !== spec.arity : argc < -spec.arity) throw new CommandError(`ERR wrong number of arguments for '${name}' command`);
  }
  const argChecks = hasArgChecks(name);
  const text = argChecks ? flat.map(textOf) : [];
  if (argChecks) checkArgsBeforeLookup(name, text);
  if (TYPE_AGNOSTIC_COMMANDS.has(name) || !spec) return [];
  const indexes = keyIndexes(name, flat);
  // SET … GET reads the old value (WRONGTYPE unless a string); plain SET overwrites any type.
  if (name === 'set') {
    for (let i = 2; i < flat.length; i++) {
      if (textOf(flat[i]).toUpperCase() === 'GET') {
        const type = redisTypeOf(lookup(flat[0]));
        if (type !== undefined && type !== 'string') throw new CommandError(ERR_WRONGTYPE);
        break;
      }
    }
    return indexes;
  }
  if (OVERWRITING_COMMANDS.has(name)) return indexes;
  if (typeRuleOf(name)) {
    if (wrongTypeKey(name, flat, indexes, lookup) !== undefined) throw new CommandError(ERR_WRONGTYPE);
    if (argChecks && flat.length > 0) checkArgsAfterLookup(name, text, lookup(flat[0]));
    return indexes;
  }
  const keys = DESTINATION_FIRST_COMMANDS.has(name) ? indexes.slice(1) : indexes;
  for (const i of keys) if (lookup(flat[i]) instanceof Stream) throw new CommandError(ERR_WRONGTYPE);
  return indexes;
}

/**
 * Replies ioredis-mock gets wrong for keys of other types: TYPE and OBJECT ENCODING of a stream
 * are `stream`; MGET answers nil for a key that holds no string (ioredis-mock would hand back
 * the list, hash or stream object). Applied to methods, pipelines and scripts alike.
 * `result` is the emulator's value or a promise of it.
 */
const REPLY_FIXES = new Set(['type', 'mget', 'object', 'zpopmin', 'zpopmax', 'hrandfield', 'srandmember', 'spop', ...SCORE_REPLY_COMMANDS]);

export function fixStreamReplies(ks: Keyspace, command: string, args: unknown[], result: unknown): unknown {
  const name = baseName(command);
  if (!REPLY_FIXES.has(name)) return result;
  const buffers = command.endsWith('Buffer');
  const isStream = (key: unknown) => ks.store.getRaw(storeKeyOfArg(key)) instanceof Stream;
  const modelValue = (key: unknown): { redisType: string; encoding?: (config: typeof ks.config, version: typeof ks.redisVersion) => string } | undefined => {
    const v = ks.store.getRaw(storeKeyOfArg(key)) as { redisType?: unknown } | undefined;
    return v && typeof v === 'object' && typeof v.redisType === 'string' ? (v as { redisType: string }) : undefined;
  };
  let fix: ((r: unknown) => unknown) | undefined;
  const flat = flattenArgs(args);
  if (name === 'type' && flat.length === 1 && isStream(flat[0])) {
    fix = () => (buffers ? Buffer.from('stream') : 'stream');
  } else if (name === 'mget') {
    const other = flat.map((key) => {
      const type = redisTypeOf(ks.store.getRaw(storeKeyOfArg(key)));
      return type !== undefined && type !== 'string';
    });
    if (other.some(Boolean)) fix = (r) => (Array.isArray(r) ? r.map((v, i) => (other[i] ? null : v)) : r);
  } else if (name === 'type' && flat.length === 1 && modelValue(flat[0]) !== undefined) {
    const type = modelValue(flat[0])!.redisType;
    fix = () => (buffers ? Buffer.from(type) : type);
  } else if (name === 'object' && String(flat[0] ?? '').toUpperCase() === 'ENCODING' && flat.length === 2 && typeof modelValue(flat[1])?.encoding === 'function') {
    // a value of the engine's model knows its encoding (lib/model, e.g. RedisHash)
    const encoding = modelValue(flat[1])!.encoding!(ks.config, ks.redisVersion);
    fix = () => (buffers ? Buffer.from(encoding) : encoding);
  } else if (name === 'object' && String(args[0] ?? '').toUpperCase() === 'ENCODING' && args.length === 2 && isStream(args[1])) {
    fix = () => (buffers ? Buffer.from('stream') : 'stream');
  } else if (
    name === 'object' && String(flat[0] ?? '').toUpperCase() === 'ENCODING' && flat.length === 2 &&
    !supports(ks.redisVersion, 'listpackLists') && redisTypeOf(ks.store.getRaw(storeKeyOfArg(flat[1]))) === 'list'
  ) {
    fix = () => (buffers ? Buffer.from('quicklist') : 'quicklist'); // 7.0: every list is a quicklist
  } else if (name === 'object' && String(flat[0] ?? '').toUpperCase() === 'HELP' && !supports(ks.redisVersion, 'helpPrintFooter')) {
    // 7.0's help ends with "Prints this help." (as XGROUP/XINFO HELP: FEATURE_SINCE.helpPrintFooter)
    fix = (r) => (Array.isArray(r) ? r.map((l) => (String(l) === '    Print this help.' ? (buffers ? Buffer.from('    Prints this help.') : '    Prints this help.') : l)) : r);
  } else if (name === 'zpopmin' || name === 'zpopmax') {
    // RESP2 scores are bulk strings; ioredis-mock hands back numbers
    fix = (r) => (Array.isArray(r) ? r.map((v) => (typeof v === 'number' ? (buffers ? Buffer.from(String(v)) : String(v)) : v)) : r);
  } else if ((name === 'hrandfield' || name === 'srandmember' || name === 'spop') && flat.length >= 2 && !ks.store.hasKey(storeKeyOfArg(flat[0]))) {
    fix = (r) => (r === null || r === undefined ? [] : r); // with a count, a missing key answers an empty array
  }
  if (SCORE_REPLY_COMMANDS.has(name)) {
    // scores as the version prints them, infinities `inf` / `-inf` (./zset-scores.ts)
    const first = fix;
    const stored = name === 'zscan' ? ks.store.getRaw(storeKeyOfArg(flat[0])) : undefined;
    fix = (r) => zsetScoresModule().fixScoreReply(name, flat, first ? first(r) : r, ks.redisVersion, stored, stored === undefined ? undefined : ks.config.collectionLimits);
  }
  if (!fix) return result;
  return result instanceof Promise ? result.then(fix) : fix(result);
}

/**
 * Run one of ioredis-mock's commands the way Redis would: `invoke(args)` calls the emulator
 * (an instance method, a pipeline emulator or the script table's function) and may return a
 * value or a promise. Arity and WRONGTYPE checks first, on the keyspace clock, replies fixed,
 * errors as CommandError/StreamsMockError — thrown for a synchronous failure, a rejection for
 * an asynchronous one.
 */
export function runBuiltin(ks: Keyspace, command: string, args: unknown[], invoke: (args: unknown[]) => unknown): unknown {
  const name = baseName(command);
  exactDirty = undefined;
  let out: unknown;
  try {
    out = withKeyspaceTime(ks, () => {
      const flat = flattenArgs(args);
      const indexes = checkBuiltin(ks, name, flat);
      const early = missingSourceReply(name, flat, (key) => ks.store.getRaw(storeKeyOfArg(key))) ?? zeroCountReply(name, flat);
      if (early) return early.reply;
      // INCR/DECR/INCRBY/DECRBY/HINCRBY: exact 64-bit arithmetic, not ioredis-mock's (./integers.ts)
      if (INTEGER_COMMANDS.has(name)) return integersModule().runIntegerCommand(ks, name, flat);
      // INCRBYFLOAT / HINCRBYFLOAT: the sum in long double, stored as %.17Lf text (./long-double.ts)
      if (LONG_DOUBLE_COMMANDS.has(name)) return longDoubleModule().incrByFloat(ks.store, storeKeyOfArg(flat[0]), name as 'incrbyfloat' | 'hincrbyfloat', flat);
      const restoreTtl = name === 'set' ? keepTtl(ks, flat) : undefined;
      // ZADD / ZINCRBY: scores as strtod reads them, ZADD … INCR's reply, NaN refused (./zset-scores.ts)
      const plan = name === 'zadd' || name === 'zincrby' ? zsetScoresModule().zsetScorePlan(name, flat, ks.store.getRaw(storeKeyOfArg(flat[0])), ks.redisVersion) : undefined;
      if (plan?.skip) {
        exactDirty = 0;
        return plan.reply;
      }
      try {
        // score ranges selected as Redis does (ioredis-mock parses the bounds with parseInt: ./zset-ranges.ts)
        const ranged = name.charCodeAt(0) === 0x7a /* z */ && SCORE_RANGE_COMMANDS.has(name) ? zsetRangesModule().scoreRangeReply(ks.store, name, flat, command.endsWith('Buffer')) : undefined;
        if (ranged) return fixStreamReplies(ks, command, args, ranged.reply);
        const value = invoke(plan ? plan.args : args);
        if (plan) exactDirty = plan.dirty; // ZADD/ZINCRBY: Redis counts members, not writes
        return fixStreamReplies(ks, command, args, plan && 'reply' in plan ? plan.reply : value);
      } finally {
        restoreTtl?.();
        // Redis never keeps an empty list, set, sorted set or hash; ioredis-mock does
        if (typeRuleOf(name)) {
          if (indexes.length === 0 && flat.length > 0) ks.store.dropIfEmptyAggregate(storeKeyOfArg(flat[0]));
          for (const i of indexes) ks.store.dropIfEmptyAggregate(storeKeyOfArg(flat[i]));
        }
      }
    });
  } catch (err) {
    throw builtinError(err, command);
  }
  if (out instanceof Promise) return out.catch((err: unknown) => Promise.reject(builtinError(err, command)));
  return out;
}

/**
 * ZPOPMIN / ZPOPMAX key 0 answer an empty array and pop nothing (t_zset.c genericZpopCommand,
 * after the type check); ioredis-mock reads a count of 0 as no count at all and empties the set.
 */
function zeroCountReply(name: string, flat: readonly unknown[]): { reply: unknown } | undefined {
  if ((name === 'zpopmin' || name === 'zpopmax') && flat.length === 2 && parseInt64(textOf(flat[1])) === 0n) return { reply: [] };
  return undefined;
}

/**
 * SET … KEEPTTL keeps the key's TTL (ioredis-mock drops it): returns what puts it back after
 * the command, or undefined.
 */
function keepTtl(ks: Keyspace, flat: readonly unknown[]): (() => void) | undefined {
  let keep = false;
  for (let i = 2; i < flat.length; i++) if (textOf(flat[i]).toUpperCase() === 'KEEPTTL') keep = true;
  if (!keep) return undefined;
  const key = storeKeyOfArg(flat[0]);
  const at = ks.store.expiryOf(key);
  if (at === undefined) return undefined;
  return () => {
    if (ks.store.hasKey(key) && ks.store.expiryOf(key) === undefined) ks.store.setExpiry(key, at);
  };
}
