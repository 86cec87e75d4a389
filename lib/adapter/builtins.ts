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
 *   (./builtin-errors.ts).
 */
import { exists, getKeyIndexes } from '@ioredis/commands';
import { CommandError, ERR_WRONGTYPE } from '../errors';
import type { Keyspace } from '../keyspace/keyspace';
import { Stream } from '../model/stream';
import { supports } from '../version';
import { flattenArgs } from './encoding';
import { checkArgsAfterLookup, checkArgsBeforeLookup } from './builtin-args';
import { builtinError } from './builtin-errors';
import { missingSourceReply, redisTypeOf, typeRuleOf, wrongTypeKey } from './key-types';
import { DESTINATION_FIRST_COMMANDS, OVERWRITING_COMMANDS, TYPE_AGNOSTIC_COMMANDS, storeKeyOfArg } from './keys';

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

/** Redis's command table as ioredis ships it (arity per command). */
// eslint-disable-next-line @typescript-eslint/no-var-requires
const COMMAND_TABLE: Record<string, { arity: number } | undefined> = require('@ioredis/commands/built/commands.json');

/**
 * Checks Redis makes before running any command, for ioredis-mock's own commands: the arity
 * of Redis's command table (ioredis-mock ignores extra or missing arguments of many commands),
 * then WRONGTYPE when a key argument holds a type the command does not take.
 */
export function guardStreamKeys(ks: Keyspace, command: string, args: unknown[], prefix: string): void {
  const name = command.replace(/Buffer$/, '').toLowerCase();
  const flatArgs = flattenArgs(args);
  // Object arguments (hset(key, { … })) are expanded later by ioredis's argument transformers.
  const plain = flatArgs.every((a) => a === null || a === undefined || typeof a !== 'object' || Buffer.isBuffer(a));
  const arity = COMMAND_TABLE[name]?.arity;
  if (plain && arity !== undefined) {
    const argc = flatArgs.length + 1;
    if (arity >= 0 ? argc !== arity : argc < -arity) throw new CommandError(`ERR wrong number of arguments for '${name}' command`);
  }
  if (plain) checkArgsBeforeLookup(name, flatArgs.map((a) => (Buffer.isBuffer(a) ? a.toString('latin1') : String(a ?? ''))));
  if (TYPE_AGNOSTIC_COMMANDS.has(name) || !exists(name)) return;
  const lookup = (key: unknown) => ks.store.getRaw(prefix + storeKeyOfArg(key));
  if (!plain) {
    // hset(key, { … }), mset({ … }): the key, if any, comes first
    const rule = typeRuleOf(name);
    const first = flatArgs[0];
    const type = rule && (typeof first === 'string' || Buffer.isBuffer(first)) ? redisTypeOf(lookup(first)) : undefined;
    if (rule && type !== undefined && !rule.accepts.includes(type)) throw new CommandError(ERR_WRONGTYPE);
    return;
  }
  const flat = flatArgs.map((a) => (Buffer.isBuffer(a) ? a : String(a ?? '')));
  const text = flat.map((a) => (Buffer.isBuffer(a) ? a.toString('latin1') : a));
  // SET … GET reads the old value (WRONGTYPE unless a string); plain SET overwrites any type.
  if (name === 'set' && flat.slice(2).some((a) => String(a).toUpperCase() === 'GET')) {
    const type = redisTypeOf(lookup(flat[0]));
    if (type !== undefined && type !== 'string') throw new CommandError(ERR_WRONGTYPE);
    return;
  }
  if (OVERWRITING_COMMANDS.has(name)) return;
  if (typeRuleOf(name)) {
    if (wrongTypeKey(name, flat, lookup) !== undefined) throw new CommandError(ERR_WRONGTYPE);
    if (flat.length > 0) checkArgsAfterLookup(name, text, lookup(flat[0]));
    return;
  }
  let indexes: number[];
  try {
    indexes = getKeyIndexes(name, flat as (string | Buffer)[]);
    if (DESTINATION_FIRST_COMMANDS.has(name)) indexes = indexes.slice(1);
    for (const i of indexes) {
      if (ks.store.getRaw(prefix + storeKeyOfArg(flat[i])) instanceof Stream) {
        throw new CommandError(ERR_WRONGTYPE);
      }
    }
  } catch (err) {
    if (err instanceof CommandError) throw err;
    // arguments ioredis's key table cannot parse: leave them to ioredis-mock
  }
}

/**
 * Replies ioredis-mock gets wrong for keys of other types: TYPE and OBJECT ENCODING of a stream
 * are `stream`; MGET answers nil for a key that holds no string (ioredis-mock would hand back
 * the list, hash or stream object). Applied to methods, pipelines and scripts alike.
 * `result` is the emulator's value or a promise of it.
 */
export function fixStreamReplies(ks: Keyspace, command: string, args: unknown[], prefix: string, result: unknown): unknown {
  const name = command.replace(/Buffer$/, '').toLowerCase();
  const buffers = command.endsWith('Buffer');
  const isStream = (key: unknown) => ks.store.getRaw(prefix + storeKeyOfArg(key)) instanceof Stream;
  let fix: ((r: unknown) => unknown) | undefined;
  const flat = flattenArgs(args);
  if (name === 'type' && flat.length === 1 && isStream(flat[0])) {
    fix = () => (buffers ? Buffer.from('stream') : 'stream');
  } else if (name === 'mget') {
    const other = flat.map((key) => {
      const type = redisTypeOf(ks.store.getRaw(prefix + storeKeyOfArg(key)));
      return type !== undefined && type !== 'string';
    });
    if (other.some(Boolean)) fix = (r) => (Array.isArray(r) ? r.map((v, i) => (other[i] ? null : v)) : r);
  } else if (name === 'object' && String(args[0] ?? '').toUpperCase() === 'ENCODING' && args.length === 2 && isStream(args[1])) {
    fix = () => (buffers ? Buffer.from('stream') : 'stream');
  } else if (name === 'object' && String(flat[0] ?? '').toUpperCase() === 'HELP' && !supports(ks.redisVersion, 'helpPrintFooter')) {
    // 7.0's help ends with "Prints this help." (as XGROUP/XINFO HELP: FEATURE_SINCE.helpPrintFooter)
    fix = (r) => (Array.isArray(r) ? r.map((l) => (String(l) === '    Print this help.' ? (buffers ? Buffer.from('    Prints this help.') : '    Prints this help.') : l)) : r);
  } else if (name === 'zpopmin' || name === 'zpopmax') {
    // RESP2 scores are bulk strings; ioredis-mock hands back numbers
    fix = (r) => (Array.isArray(r) ? r.map((v) => (typeof v === 'number' ? (buffers ? Buffer.from(String(v)) : String(v)) : v)) : r);
  } else if ((name === 'hrandfield' || name === 'srandmember' || name === 'spop') && flat.length >= 2 && !ks.store.hasKey(prefix + storeKeyOfArg(flat[0]))) {
    fix = (r) => (r === null || r === undefined ? [] : r); // with a count, a missing key answers an empty array
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
export function runBuiltin(ks: Keyspace, command: string, args: unknown[], prefix: string, invoke: (args: unknown[]) => unknown): unknown {
  let out: unknown;
  try {
    out = withKeyspaceTime(ks, () => {
      guardStreamKeys(ks, command, args, prefix);
      const name = command.replace(/Buffer$/, '').toLowerCase();
      const early = missingSourceReply(name, flattenArgs(args), (key) => ks.store.getRaw(prefix + storeKeyOfArg(key)));
      if (early) return early.reply;
      const restoreTtl = keepTtl(ks, name, args, prefix);
      try {
        return fixStreamReplies(ks, command, args, prefix, invoke(args));
      } finally {
        restoreTtl?.();
        dropEmptyAggregates(ks, command, args, prefix);
      }
    });
  } catch (err) {
    throw builtinError(err, command);
  }
  if (out instanceof Promise) return out.catch((err: unknown) => Promise.reject(builtinError(err, command)));
  return out;
}

/**
 * SET … KEEPTTL keeps the key's TTL (ioredis-mock drops it): returns what puts it back after
 * the command, or undefined.
 */
function keepTtl(ks: Keyspace, name: string, args: unknown[], prefix: string): (() => void) | undefined {
  if (name !== 'set') return undefined;
  const flat = flattenArgs(args);
  if (!flat.slice(2).some((a) => String(Buffer.isBuffer(a) ? a.toString('latin1') : a).toUpperCase() === 'KEEPTTL')) return undefined;
  const key = prefix + storeKeyOfArg(flat[0]);
  const at = ks.store.expiryOf(key);
  if (at === undefined) return undefined;
  return () => {
    if (ks.store.hasKey(key) && ks.store.expiryOf(key) === undefined) ks.store.expires.set(key, at);
  };
}

/** Delete the key arguments of a command that it left as empty lists, sets, zsets or hashes. */
function dropEmptyAggregates(ks: Keyspace, command: string, args: unknown[], prefix: string): void {
  const name = command.replace(/Buffer$/, '').toLowerCase();
  if (!typeRuleOf(name)) return;
  const flat = flattenArgs(args);
  if (!flat.every((a) => a === null || a === undefined || typeof a !== 'object' || Buffer.isBuffer(a))) {
    if (flat.length > 0) ks.store.dropIfEmptyAggregate(prefix + storeKeyOfArg(flat[0]));
    return;
  }
  let indexes: number[];
  try {
    indexes = getKeyIndexes(name, flat.map((a) => (Buffer.isBuffer(a) ? a : String(a ?? ''))));
  } catch {
    return;
  }
  for (const i of indexes) ks.store.dropIfEmptyAggregate(prefix + storeKeyOfArg(flat[i]));
}
