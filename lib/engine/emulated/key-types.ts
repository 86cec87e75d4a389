/**
 * Redis types of the values ioredis-mock stores, and which types each of its commands accepts:
 * the one table behind WRONGTYPE for every built-in. Redis answers
 * `WRONGTYPE Operation against a key holding the wrong kind of value` when a command meets a
 * key of another type; ioredis-mock instead answers texts of its own ("Key k does not contain a
 * list"), TypeErrors ("set2.has is not a function") or silently misreads the value (HGET on a
 * string, GET on a hash). The adapter checks the table before running a built-in.
 *
 * Value shapes (ioredis-mock's): string → string/Buffer, list → Array, set → Set,
 * zset → Map, hash → plain object, stream → the model's Stream.
 */
import { type RedisType, redisTypeOf } from '../../keyspace/value-type';

export { type RedisType, redisTypeOf };

interface TypeRule {
  /** Types every key argument may have (when the key exists). */
  accepts: readonly RedisType[];
  /** The first key is a destination the command overwrites whatever its type. */
  destinationFirst?: boolean;
}

const rules = new Map<string, TypeRule>();
const add = (accepts: readonly RedisType[], names: string, destinationFirst = false) => {
  for (const name of names.trim().split(/\s+/)) rules.set(name, { accepts, destinationFirst });
};

add(['string'], `append decr decrby get getbit getdel getex getrange getset incr incrby incrbyfloat
  setbit setrange strlen substr bitcount bitpos bitfield bitfield_ro lcs`);
add(['string'], 'bitop', true);
add(['list'], `blmove blmpop blpop brpop brpoplpush lindex linsert llen lmove lmpop lpop lpos lpush lpushx
  lrange lrem lset ltrim rpop rpoplpush rpush rpushx`);
add(['hash'], `hdel hexists hget hgetall hincrby hincrbyfloat hkeys hlen hmget hmset hrandfield hscan hset
  hsetnx hstrlen hvals hexpire hpexpire hexpireat hpexpireat httl hpttl hexpiretime hpexpiretime hpersist`);
add(['set'], `sadd scard sdiff sinter sintercard sismember smembers smismember smove spop srandmember srem
  sscan sunion`);
add(['set'], 'sdiffstore sinterstore sunionstore', true);
add(['zset'], `zadd zcard zcount zincrby zlexcount zmscore zpopmax zpopmin zrandmember zrange zrangebylex
  zrangebyscore zrank zrem zremrangebylex zremrangebyrank zremrangebyscore zrevrange zrevrangebylex
  zrevrangebyscore zrevrank zscan zscore bzpopmin bzpopmax zmpop bzmpop geoadd geodist geohash geopos
  georadius_ro georadiusbymember_ro geosearch`);
add(['zset'], 'zrangestore georadius georadiusbymember geosearchstore', true);
// Aggregations read sets as sorted sets (score 1).
add(['zset', 'set'], 'zdiff zinter zunion zintercard');
add(['zset', 'set'], 'zdiffstore zinterstore zunionstore', true);

/** Commands that answer for a missing source key before checking the destination (t_set.c, t_list.c). */
const SOURCE_FIRST = new Set(['smove', 'rpoplpush', 'lmove', 'brpoplpush', 'blmove']);

/** The type rule of a built-in, if it works on keys of one kind. */
export function typeRuleOf(command: string): TypeRule | undefined {
  return rules.get(command);
}

/**
 * The first key argument of `command` (at `indexes` of `args`) whose existing value has a type
 * the command does not accept (`lookup` gives the stored value of a key argument), or undefined.
 */
export function wrongTypeKey(command: string, args: readonly unknown[], indexes: readonly number[], lookup: (key: unknown) => unknown): unknown {
  const rule = rules.get(command);
  if (!rule) return undefined;
  let keys = rule.destinationFirst ? indexes.slice(1) : indexes;
  // These answer 0/nil for a missing source before they look at the destination's type.
  if (SOURCE_FIRST.has(command) && keys.length > 0 && lookup(args[keys[0]]) === undefined) keys = [];
  for (const i of keys) {
    const type = redisTypeOf(lookup(args[i]));
    if (type !== undefined && !rule.accepts.includes(type)) return args[i];
  }
  return undefined;
}

/**
 * The reply Redis gives at once for a missing source key of SMOVE (0) or RPOPLPUSH/LMOVE (nil),
 * before anything else (ioredis-mock checks the destination first); undefined otherwise.
 */
export function missingSourceReply(command: string, args: readonly unknown[], lookup: (key: unknown) => unknown): { reply: unknown } | undefined {
  if (!['smove', 'rpoplpush', 'lmove'].includes(command) || args.length < 2) return undefined;
  if (lookup(args[0]) !== undefined) return undefined;
  return { reply: command === 'smove' ? 0 : null };
}
