/**
 * Keys as the ioredis-mock emulator bridge sees them: store keys of key arguments, and which of
 * ioredis-mock's commands take a key of any type, overwrite one, or write a destination first.
 * The store holds keys as byte strings (lib/bytes): an argument given as a JS string is its UTF-8
 * bytes, a Buffer its bytes.
 */
import { bytesOf } from '../../bytes/index';

/** The store key of a key argument given as a byte string (one char per byte). */
export function storeKeyOfBytes(key: string): string {
  return key;
}

/** The store key of a key argument as an emulator receives it (string, Buffer or number). */
export function storeKeyOfArg(arg: unknown): string {
  return bytesOf(arg);
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
