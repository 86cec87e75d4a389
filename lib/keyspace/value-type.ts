/** The Redis type of a stored value: lib/model/value-type.ts (re-exported for the keyspace). */
export { type RedisType, type TypedValue, redisTypeOf } from '../model/value-type';
