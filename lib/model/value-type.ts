/**
 * The Redis type of a stored value. The engine's own value classes (lib/model: hash, list, set,
 * sorted set, stream) name their type with a `redisType` property; a string is a byte string
 * (a JS string, one char per byte). Until every family is the engine's, values written by
 * ioredis-mock's emulators keep its shapes: string → string/Buffer/number, list → Array,
 * set → Set, zset → Map, hash → plain object.
 */
import { Stream } from './stream';

export type RedisType = 'string' | 'list' | 'set' | 'zset' | 'hash' | 'stream';

/** A value class of the engine's model that knows its Redis type. */
export interface TypedValue {
  readonly redisType: RedisType;
}

/** The Redis type of a stored value (undefined: no key). */
export function redisTypeOf(value: unknown): RedisType | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'object') {
    const own = (value as Partial<TypedValue>).redisType;
    if (own !== undefined) return own;
    if (value instanceof Stream) return 'stream';
    if (Buffer.isBuffer(value)) return 'string';
    if (Array.isArray(value)) return 'list';
    if (value instanceof Set) return 'set';
    if (value instanceof Map) return 'zset';
    return 'hash';
  }
  return 'string'; // a number stored by an emulator
}
