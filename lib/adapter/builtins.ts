/**
 * What the adapter adds around ioredis-mock's own commands:
 * - they run on the keyspace clock: ioredis-mock computes TTLs (SET … EX/PX, SETEX, PSETEX,
 *   GETEX, EXPIRE …) from `Date.now()`, which is pointed at the keyspace clock for the
 *   synchronous duration of the command (not needed for the global clock, which is Date);
 * - a stream key given to a command of another type answers WRONGTYPE, as in Redis, instead of
 *   letting ioredis-mock misread (or overwrite) the stream.
 */
import { exists, getKeyIndexes } from '@ioredis/commands';
import { ReplyError } from 'redis-errors';
import { ERR_WRONGTYPE } from '../errors';
import type { Keyspace } from '../keyspace/keyspace';
import { Stream } from '../model/stream';
import { flattenArgs } from './encoding';
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
 * then WRONGTYPE when a non-stream command names a key that holds a stream.
 */
export function guardStreamKeys(ks: Keyspace, command: string, args: unknown[], prefix: string): void {
  const name = command.replace(/Buffer$/, '').toLowerCase();
  const flatArgs = flattenArgs(args);
  // Object arguments (hset(key, { … })) are expanded later by ioredis's argument transformers.
  const plain = flatArgs.every((a) => a === null || a === undefined || typeof a !== 'object' || Buffer.isBuffer(a));
  const arity = COMMAND_TABLE[name]?.arity;
  if (plain && arity !== undefined) {
    const argc = flatArgs.length + 1;
    if (arity >= 0 ? argc !== arity : argc < -arity) throw new ReplyError(`ERR wrong number of arguments for '${name}' command`);
  }
  if (TYPE_AGNOSTIC_COMMANDS.has(name) || !exists(name)) return;
  const flat = flatArgs.map((a) => (Buffer.isBuffer(a) ? a : String(a ?? '')));
  // SET … GET reads the old value (WRONGTYPE on a stream); plain SET overwrites any type.
  if (OVERWRITING_COMMANDS.has(name) && !(name === 'set' && flat.some((a) => String(a).toUpperCase() === 'GET'))) return;
  let indexes: number[];
  try {
    indexes = getKeyIndexes(name, flat as (string | Buffer)[]);
    if (DESTINATION_FIRST_COMMANDS.has(name)) indexes = indexes.slice(1);
    for (const i of indexes) {
      if (ks.store.getRaw(prefix + storeKeyOfArg(flat[i])) instanceof Stream) {
        throw new ReplyError(ERR_WRONGTYPE);
      }
    }
  } catch (err) {
    if (err instanceof ReplyError) throw err;
    // arguments ioredis's key table cannot parse: leave them to ioredis-mock
  }
}

/**
 * Replies ioredis-mock gets wrong for stream keys: TYPE and OBJECT ENCODING of a stream are
 * `stream`; MGET answers nil for a key of another type (ioredis-mock would hand back the stream
 * object). Applied to methods, pipelines and scripts alike.
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
    const streams = flat.map(isStream);
    if (streams.some(Boolean)) fix = (r) => (Array.isArray(r) ? r.map((v, i) => (streams[i] ? null : v)) : r);
  } else if (name === 'object' && String(args[0] ?? '').toUpperCase() === 'ENCODING' && args.length === 2 && isStream(args[1])) {
    fix = () => (buffers ? Buffer.from('stream') : 'stream');
  }
  if (!fix) return result;
  return result instanceof Promise ? result.then(fix) : fix(result);
}
