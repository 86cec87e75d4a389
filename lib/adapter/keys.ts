/**
 * Keys at the ioredis boundary.
 *
 * - `keyPrefix` is applied exactly as ioredis applies it (`Command._iterateKeys`): only to the
 *   arguments that the installed ioredis's `@ioredis/commands` reports as keys for that command
 *   (./command-table.ts). XADD, XREADGROUP STREAMS keys, XAUTOCLAIM … are prefixed by every
 *   ioredis; XGROUP and XINFO (keys behind a subcommand) and XACKDEL only by ioredis 6; XNACK
 *   and XDELEX by ioredis 5.11 and 6 but not by ioredis releases whose table lacks them.
 *   Replies and error texts then carry the full key, as from a real server.
 * - Keys are stored the way ioredis-mock stores them (JS strings; Buffers decoded as UTF-8),
 *   so DEL, EXISTS, KEYS, RENAME … of ioredis-mock see the same keys as the stream commands.
 */
import { commandTable } from './command-table';
import { decodeBytes } from './encoding';

/** The store key of a key argument given as a byte string (one char per byte). */
export function storeKeyOfBytes(key: string): string {
  return decodeBytes(key);
}

/** The store key of a key argument as ioredis-mock receives it (string, Buffer or number). */
export function storeKeyOfArg(arg: unknown): string {
  if (Buffer.isBuffer(arg)) return arg.toString();
  return arg === null || arg === undefined ? '' : String(arg);
}

/** Prefix the key arguments of `name` like ioredis does for a client with `keyPrefix`. */
export function applyKeyPrefix(name: string, args: unknown[], prefix: string | Buffer | undefined): unknown[] {
  if (!prefix) return args;
  const table = commandTable();
  if (!table.exists(name)) return args;
  const asArgs = args.map((a) => (Buffer.isBuffer(a) ? a : typeof a === 'string' ? a : String(a ?? '')));
  let indexes: number[];
  try {
    indexes = table.keyIndexes(name, asArgs as (string | Buffer)[]);
  } catch {
    return args; // malformed arguments: Redis will reject them; ioredis sends them unprefixed
  }
  // only the keys change; every other argument stays as given (a number is written as the
  // client writes numbers: ioredis 6 spells an integer past 2^53 with all its digits)
  const out = args.slice();
  for (const i of indexes) {
    const key = asArgs[i];
    if (Buffer.isBuffer(key)) out[i] = Buffer.concat([Buffer.isBuffer(prefix) ? prefix : Buffer.from(prefix), key]);
    else if (Buffer.isBuffer(prefix)) out[i] = Buffer.concat([prefix, Buffer.from(String(key))]);
    else out[i] = prefix + key;
  }
  return out;
}

/**
 * Commands that work on a key of any type (they never answer WRONGTYPE). Every other
 * ioredis-mock command given a stream key answers WRONGTYPE, as Redis does, instead of
 * misreading the stream.
 */
export const TYPE_AGNOSTIC_COMMANDS = new Set([
  'del', 'unlink', 'exists', 'type', 'rename', 'renamenx', 'expire', 'pexpire', 'expireat', 'pexpireat',
  'expiretime', 'pexpiretime', 'ttl', 'pttl', 'persist', 'touch', 'object', 'dump', 'restore', 'copy',
  'move', 'watch', 'unwatch', 'keys', 'scan', 'randomkey', 'dbsize', 'flushall', 'flushdb', 'publish',
  'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe', 'echo', 'ping',
  'time', 'info', 'multi', 'exec', 'discard', 'eval', 'evalsha', 'evalBuffer', 'script', 'client', 'config',
  'select', 'swapdb', 'quit', 'connect', 'disconnect', 'lastsave', 'save', 'bgsave', 'command', 'role',
  'mget', // answers nil for keys of other types
]);

/** Commands that overwrite a key of any type (SET without GET, MSET, SETEX …). */
export const OVERWRITING_COMMANDS = new Set(['set', 'mset', 'msetnx', 'setex', 'psetex', 'setnx']);

/** Commands whose first key is a destination that is overwritten whatever its type. */
export const DESTINATION_FIRST_COMMANDS = new Set([
  'sunionstore', 'sinterstore', 'sdiffstore', 'zunionstore', 'zinterstore', 'zdiffstore', 'zrangestore',
  'bitop', 'georadius', 'georadiusbymember', 'geosearchstore',
]);
