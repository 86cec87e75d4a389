/**
 * The command registry, kept as data: every command as `{ name, arity, write }` with
 * Redis's arity convention, and the module that implements it. The adapter registers each entry
 * (and its `…Buffer` twin) from this table alone.
 *
 * A command module loads on the first use of its command (its `run`/`subcommands`), not when
 * the package is imported: a test file pays only for the commands it runs. The name, arity and
 * write flag written here must equal the module's own `specs` (a test checks that).
 */
import type { CommandSpec } from './types';
import { lazySpec } from './lazy-spec';

/** What every command module exports. */
export interface CommandModule {
  readonly specs: readonly CommandSpec[];
}

/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading: each module on first use */
const TABLE: [name: string, arity: number, write: boolean, load: () => CommandModule][] = [
  ['xadd', -5, true, () => require('./xadd')],
  ['xtrim', -4, true, () => require('./xtrim')],
  ['xdel', -3, true, () => require('./xdel')],
  ['xlen', 2, false, () => require('./xlen')],
  ['xrange', -4, false, () => require('./xrange')],
  ['xrevrange', -4, false, () => require('./xrange')],
  ['xsetid', -3, true, () => require('./xsetid')],
  ['xdelex', -5, true, () => require('./xdelex')],
  ['xgroup', -2, true, () => require('./xgroup')],
  ['xack', -4, true, () => require('./xack')],
  ['xackdel', -6, true, () => require('./xackdel')],
  ['xpending', -3, false, () => require('./xpending')],
  ['xinfo', -2, false, () => require('./xinfo')],
  ['xclaim', -6, true, () => require('./xclaim')],
  ['xautoclaim', -6, true, () => require('./xautoclaim')],
  ['xnack', -7, true, () => require('./xnack')],
  ['xread', -4, false, () => require('./xread')],
  ['xreadgroup', -7, true, () => require('./xreadgroup')],
  // keyspace commands ioredis-mock lacks (DUMP/RESTORE/COPY) or answers falsely (CONFIG)
  ['dump', 2, false, () => require('./dump')],
  ['restore', -4, true, () => require('./restore')],
  ['copy', -3, true, () => require('./copy')],
  ['config', -2, false, () => require('./config')],
  // lists (t_list.c) on the model's RedisList
  ['lpush', -3, true, () => require('./list')],
  ['rpush', -3, true, () => require('./list')],
  ['lpushx', -3, true, () => require('./list')],
  ['rpushx', -3, true, () => require('./list')],
  ['lpop', -2, true, () => require('./list')],
  ['rpop', -2, true, () => require('./list')],
  ['llen', 2, false, () => require('./list')],
  ['lindex', 3, false, () => require('./list')],
  ['lset', 4, true, () => require('./list')],
  ['lrange', 4, false, () => require('./list')],
  ['ltrim', 4, true, () => require('./list')],
  ['lrem', 4, true, () => require('./list')],
  ['linsert', 5, true, () => require('./list')],
  ['lpos', -3, false, () => require('./list')],
  ['lmove', 5, true, () => require('./list')],
  ['rpoplpush', 3, true, () => require('./list')],
  ['lmpop', -4, true, () => require('./list')],
  // the blocking list pops (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP)
  // generic key commands (db.c, expire.c, object.c)
  ['del', -2, true, () => require('./keys')],
  ['unlink', -2, true, () => require('./keys')],
  ['exists', -2, false, () => require('./keys')],
  ['touch', -2, false, () => require('./keys')],
  ['type', 2, false, () => require('./keys')],
  ['rename', 3, true, () => require('./keys')],
  ['renamenx', 3, true, () => require('./keys')],
  ['move', 3, true, () => require('./keys')],
  ['swapdb', 3, true, () => require('./keys')],
  ['keys', 2, false, () => require('./keys')],
  ['scan', -2, false, () => require('./keys')],
  ['randomkey', 1, false, () => require('./keys')],
  ['dbsize', 1, false, () => require('./keys')],
  ['expire', -3, true, () => require('./expire')],
  ['pexpire', -3, true, () => require('./expire')],
  ['expireat', -3, true, () => require('./expire')],
  ['pexpireat', -3, true, () => require('./expire')],
  ['ttl', 2, false, () => require('./expire')],
  ['pttl', 2, false, () => require('./expire')],
  ['expiretime', 2, false, () => require('./expire')],
  ['pexpiretime', 2, false, () => require('./expire')],
  ['persist', 2, true, () => require('./expire')],
  ['object', -2, false, () => require('./object')],
  // blocking list pops ioredis-mock lacks (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP)
  ['blpop', -3, true, () => require('./list-blocking')],
  ['brpop', -3, true, () => require('./list-blocking')],
  ['brpoplpush', 4, true, () => require('./list-blocking')],
  ['blmove', 6, true, () => require('./list-blocking')],
  ['blmpop', -5, true, () => require('./list-blocking')],
  // HyperLogLog (hyperloglog.c): Redis strings holding Redis's HLL bytes
  ['pfadd', -2, true, () => require('./hyperloglog')],
  ['pfcount', -2, false, () => require('./hyperloglog')],
  ['pfmerge', -2, true, () => require('./hyperloglog')],
  ['pfdebug', 3, true, () => require('./hyperloglog')],
  ['pfselftest', 1, false, () => require('./hyperloglog')],
  // a server without replicas or AOF: WAIT 0, WAITAOF [0, 0] (after their timeout when asked for more)
  ['wait', 3, false, () => require('./wait')],
  ['waitaof', 4, false, () => require('./wait')],
  // strings (t_string.c)
  ['get', 2, false, () => require('./strings')],
  ['set', -3, true, () => require('./strings')],
  ['setnx', 3, true, () => require('./strings')],
  ['setex', 4, true, () => require('./strings')],
  ['psetex', 4, true, () => require('./strings')],
  ['getex', -2, true, () => require('./strings')],
  ['getdel', 2, true, () => require('./strings')],
  ['getset', 3, true, () => require('./strings')],
  ['mget', -2, false, () => require('./strings')],
  ['mset', -3, true, () => require('./strings')],
  ['msetnx', -3, true, () => require('./strings')],
  ['append', 3, true, () => require('./strings')],
  ['strlen', 2, false, () => require('./strings')],
  ['setrange', 4, true, () => require('./strings')],
  ['getrange', 4, false, () => require('./strings')],
  ['substr', 4, false, () => require('./strings')],
  ['lcs', -3, false, () => require('./strings')],
  ['incr', 2, true, () => require('./incr')],
  ['decr', 2, true, () => require('./incr')],
  ['incrby', 3, true, () => require('./incr')],
  ['decrby', 3, true, () => require('./incr')],
  ['incrbyfloat', 3, true, () => require('./incr')],
  // bitmaps (bitops.c)
  ['setbit', 4, true, () => require('./bitops')],
  ['getbit', 3, false, () => require('./bitops')],
  ['bitcount', -2, false, () => require('./bitops')],
  ['bitpos', -3, false, () => require('./bitops')],
  ['bitop', -4, true, () => require('./bitops')],
  ['bitfield', -2, true, () => require('./bitops')],
  ['bitfield_ro', -2, false, () => require('./bitops')],
  // sets (t_set.c)
  ['sadd', -3, true, () => require('./sets')],
  ['srem', -3, true, () => require('./sets')],
  ['smove', 4, true, () => require('./sets')],
  ['sismember', 3, false, () => require('./sets')],
  ['smismember', -3, false, () => require('./sets')],
  ['scard', 2, false, () => require('./sets')],
  ['smembers', 2, false, () => require('./sets')],
  ['spop', -2, true, () => require('./sets')],
  ['srandmember', -2, false, () => require('./sets')],
  ['sscan', -3, false, () => require('./sets')],
  ['sinter', -2, false, () => require('./set-algebra')],
  ['sintercard', -3, false, () => require('./set-algebra')],
  ['sinterstore', -3, true, () => require('./set-algebra')],
  ['sunion', -2, false, () => require('./set-algebra')],
  ['sunionstore', -3, true, () => require('./set-algebra')],
  ['sdiff', -2, false, () => require('./set-algebra')],
  ['sdiffstore', -3, true, () => require('./set-algebra')],
  // sorted sets (t_zset.c)
  ['zadd', -4, true, () => require('./zadd')],
  ['zincrby', 4, true, () => require('./zadd')],
  ['zrem', -3, true, () => require('./zadd')],
  ['zcard', 2, false, () => require('./zset-read')],
  ['zscore', 3, false, () => require('./zset-read')],
  ['zmscore', -3, false, () => require('./zset-read')],
  ['zrank', -3, false, () => require('./zset-read')],
  ['zrevrank', -3, false, () => require('./zset-read')],
  ['zrandmember', -2, false, () => require('./zset-read')],
  ['zscan', -3, false, () => require('./zset-read')],
  ['zrange', -4, false, () => require('./zrange')],
  ['zrangestore', -5, true, () => require('./zrange')],
  ['zrevrange', -4, false, () => require('./zrange')],
  ['zrangebyscore', -4, false, () => require('./zrange')],
  ['zrevrangebyscore', -4, false, () => require('./zrange')],
  ['zrangebylex', -4, false, () => require('./zrange')],
  ['zrevrangebylex', -4, false, () => require('./zrange')],
  ['zremrangebyrank', 4, true, () => require('./zrange')],
  ['zremrangebyscore', 4, true, () => require('./zrange')],
  ['zremrangebylex', 4, true, () => require('./zrange')],
  ['zcount', 4, false, () => require('./zrange')],
  ['zlexcount', 4, false, () => require('./zrange')],
  ['zpopmin', -2, true, () => require('./zset-pop')],
  ['zpopmax', -2, true, () => require('./zset-pop')],
  ['zmpop', -4, true, () => require('./zset-pop')],
  ['bzpopmin', -3, true, () => require('./zset-pop')],
  ['bzpopmax', -3, true, () => require('./zset-pop')],
  ['bzmpop', -5, true, () => require('./zset-pop')],
  ['zunion', -3, false, () => require('./zset-ops')],
  ['zinter', -3, false, () => require('./zset-ops')],
  ['zdiff', -3, false, () => require('./zset-ops')],
  ['zintercard', -3, false, () => require('./zset-ops')],
  ['zunionstore', -4, true, () => require('./zset-ops')],
  ['zinterstore', -4, true, () => require('./zset-ops')],
  ['zdiffstore', -4, true, () => require('./zset-ops')],
  // hashes (t_hash.c): ./hash.ts, ./hash-random-scan.ts, field expiration (7.4) ./hash-expire.ts,
  // HGETDEL/HGETEX/HSETEX (8.0) ./hash-getset-ex.ts
  ['hset', -4, true, () => require('./hash')],
  ['hmset', -4, true, () => require('./hash')],
  ['hsetnx', 4, true, () => require('./hash')],
  ['hget', 3, false, () => require('./hash')],
  ['hmget', -3, false, () => require('./hash')],
  ['hgetall', 2, false, () => require('./hash')],
  ['hkeys', 2, false, () => require('./hash')],
  ['hvals', 2, false, () => require('./hash')],
  ['hdel', -3, true, () => require('./hash')],
  ['hlen', 2, false, () => require('./hash')],
  ['hexists', 3, false, () => require('./hash')],
  ['hstrlen', 3, false, () => require('./hash')],
  ['hincrby', 4, true, () => require('./hash')],
  ['hincrbyfloat', 4, true, () => require('./hash')],
  ['hrandfield', -2, false, () => require('./hash-random-scan')],
  ['hscan', -3, false, () => require('./hash-random-scan')],
  ['hexpire', -6, true, () => require('./hash-expire')],
  ['hpexpire', -6, true, () => require('./hash-expire')],
  ['hexpireat', -6, true, () => require('./hash-expire')],
  ['hpexpireat', -6, true, () => require('./hash-expire')],
  ['httl', -5, false, () => require('./hash-expire')],
  ['hpttl', -5, false, () => require('./hash-expire')],
  ['hexpiretime', -5, false, () => require('./hash-expire')],
  ['hpexpiretime', -5, false, () => require('./hash-expire')],
  ['hpersist', -5, true, () => require('./hash-expire')],
  ['hgetdel', -5, true, () => require('./hash-getset-ex')],
  ['hgetex', -5, true, () => require('./hash-getset-ex')],
  ['hsetex', -6, true, () => require('./hash-getset-ex')],
  // SORT / SORT_RO (sort.c) on lists, sets and sorted sets
  ['sort', -2, true, () => require('./sort')],
  ['sort_ro', -2, false, () => require('./sort')],
  // geo (geo.c) on the sorted-set model: the 52-bit geohash as the score
  ['geoadd', -5, true, () => require('./geo')],
  ['geopos', -2, false, () => require('./geo')],
  ['geodist', -4, false, () => require('./geo')],
  ['geohash', -2, false, () => require('./geo')],
  // MEMORY USAGE (approximate; ./memory.ts)
  ['memory', -2, false, () => require('./memory')],
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** All stream command specs by lower-case name. */
export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map(
  TABLE.map(([name, arity, write, load]) => [name, lazySpec<CommandSpec>({ name, arity, write }, load)] as const),
);

/** The modules behind the registry, loaded (for tests that compare the table with them). */
export function loadAllCommandModules(): CommandModule[] {
  return TABLE.map(([, , , load]) => load());
}

export type { CommandSpec, CommandContext, Reply, BlockRequest, Db } from './types';
