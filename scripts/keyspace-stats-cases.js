/**
 * The cases of the keyspace_hits / keyspace_misses differential (scripts/keyspace-stats-diff.js,
 * __tests__/differential/keyspace-hits-misses-real-server.test.ts): each a setup run before it
 * (after SETUP) and the commands measured together. `@` in an argument is the case's key prefix.
 * `block`: the commands run on a second connection and block; `cmds` then wake them.
 */
'use strict';

const SETUP = [
  ['SET', '@s', 'hello'], ['SET', '@n', '10'], ['RPUSH', '@l', 'c', 'a', 'b'], ['HSET', '@h', 'f1', 'v1', 'f2', 'v2'],
  ['SADD', '@set1', 'a', 'b'], ['SADD', '@set2', 'b', 'c'], ['ZADD', '@z', '1', 'a', '2', 'b'], ['ZADD', '@z2', '1', 'b'],
  ['XADD', '@x', '1-1', 'f', 'v'], ['XADD', '@x', '1-2', 'f', 'v'], ['XGROUP', 'CREATE', '@x', 'g', '0'],
  ['XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', '@x', '>'], ['PFADD', '@hll', 'a'],
  ['GEOADD', '@geo', '13.361389', '38.115556', 'p1', '15.087269', '37.502669', 'p2'], ['SETBIT', '@b', '3', '1'],
  ['SET', '@w_a', '3'], ['HSET', '@o_b', 'f', 'x'],
  // expired by the time the case runs (the runner waits EXPIRED_WAIT ms)
  ['SET', '@e', 'v', 'PX', '1'], ['RPUSH', '@e2', 'a'], ['PEXPIRE', '@e2', '1'],
];
const EXPIRED_WAIT = 5;
const KEYS = ['s', 'n', 'l', 'h', 'set1', 'set2', 'z', 'z2', 'x', 'hll', 'geo', 'b', 'w_a', 'o_b', 'm', 'm2', 'd', 'c', 'e', 'l2', 's3', 'e2'];

const c = (...cmds) => ({ cmds });
const CASES = [
  // strings
  c(['GET', '@s']), c(['GET', '@m']), c(['GET', '@l']), c(['MGET', '@s', '@m', '@n', '@l']), c(['STRLEN', '@s']), c(['STRLEN', '@m']),
  c(['GETRANGE', '@s', '0', '1']), c(['GETRANGE', '@m', '0', '1']), c(['SUBSTR', '@s', '0', '1']), c(['GETEX', '@s', 'EX', '100']),
  c(['GETEX', '@m', 'EX', '100']), c(['GETEX', '@s']), c(['GETEX', '@s', 'PERSIST']), c(['GETDEL', '@s']), c(['GETDEL', '@m']),
  c(['GETSET', '@s', 'x']), c(['GETSET', '@m', 'x']), c(['SET', '@s', 'x', 'GET']), c(['SET', '@m', 'x', 'GET']), c(['SET', '@s', 'x']),
  c(['SET', '@s', 'x', 'NX']), c(['SET', '@s', 'x', 'XX']), c(['SET', '@s', 'x', 'KEEPTTL']), c(['SETNX', '@s', 'x']), c(['SETNX', '@m', 'x']),
  c(['SETRANGE', '@s', '1', 'x']), c(['SETRANGE', '@m', '1', 'x']), c(['APPEND', '@s', 'x']), c(['APPEND', '@m', 'x']), c(['INCR', '@n']),
  c(['INCR', '@m']), c(['INCRBY', '@n', '2']), c(['DECR', '@n']), c(['DECRBY', '@m', '2']), c(['INCRBYFLOAT', '@n', '1.5']),
  c(['MSET', '@s', '1', '@m', '2']), c(['MSETNX', '@m', '1', '@m2', '2']), c(['MSETNX', '@s', '1', '@m2', '2']), c(['SETEX', '@s', '10', 'x']),
  c(['PSETEX', '@m', '1000', 'x']), c(['LCS', '@s', '@n']), c(['LCS', '@s', '@m']), c(['LCS', '@m', '@m2']),
  // keys
  c(['EXISTS', '@s', '@m', '@s', '@l']), c(['TYPE', '@s']), c(['TYPE', '@m']), c(['TTL', '@s']), c(['TTL', '@m']), c(['PTTL', '@s']),
  c(['EXPIRETIME', '@s']), c(['PEXPIRETIME', '@m']), c(['OBJECT', 'ENCODING', '@s']), c(['OBJECT', 'ENCODING', '@m']),
  c(['OBJECT', 'IDLETIME', '@s']), c(['OBJECT', 'REFCOUNT', '@m']), c(['OBJECT', 'FREQ', '@s']), c(['DUMP', '@s']), c(['DUMP', '@m']),
  c(['RANDOMKEY']), c(['SCAN', '0', 'MATCH', '@*']), c(['KEYS', '@*']), c(['DBSIZE']), c(['TOUCH', '@s', '@m']), c(['UNLINK', '@s', '@m']),
  c(['DEL', '@s', '@m']), c(['RENAME', '@s', '@s3']), c(['RENAME', '@m', '@s3']), c(['RENAMENX', '@s', '@n']), c(['COPY', '@s', '@c']),
  c(['COPY', '@m', '@c']), c(['COPY', '@s', '@n']), c(['COPY', '@s', '@n', 'REPLACE']), c(['EXPIRE', '@s', '100']), c(['EXPIRE', '@m', '100']),
  c(['PEXPIRE', '@s', '100000', 'NX']), c(['EXPIREAT', '@s', '99999999999']), c(['PERSIST', '@s']), c(['PERSIST', '@m']),
  c(['SORT', '@l', 'ALPHA']), c(['SORT', '@m']), c(['SORT', '@l', 'ALPHA', 'STORE', '@d']), c(['SORT', '@m', 'STORE', '@d']),
  c(['SORT_RO', '@l', 'ALPHA']), c(['SORT_RO', '@m']), c(['SORT', '@l', 'BY', '@w_*', 'GET', '@o_*->f', 'GET', '#']),
  c(['SORT', '@l', 'BY', 'nosort', 'GET', '@w_*']), c(['SORT', '@l', 'ALPHA', 'LIMIT', '0', '1', 'GET', '@o_*->f']),
  c(['MEMORY', 'USAGE', '@s']), c(['MEMORY', 'USAGE', '@m']), c(['WATCH', '@s', '@m'], ['UNWATCH']),
  // expired keys
  c(['GET', '@e']), c(['TTL', '@e']), c(['EXISTS', '@e']), c(['TYPE', '@e']), c(['OBJECT', 'ENCODING', '@e']), c(['SET', '@e', 'x']),
  c(['INCR', '@e']), c(['LLEN', '@e2']), c(['HGET', '@e2', 'f']), c(['DUMP', '@e']),
  // hashes
  c(['HGET', '@h', 'f1']), c(['HGET', '@h', 'nf']), c(['HGET', '@m', 'f']), c(['HGET', '@s', 'f']), c(['HMGET', '@h', 'f1', 'nf']),
  c(['HMGET', '@m', 'f1']), c(['HGETALL', '@h']), c(['HGETALL', '@m']), c(['HKEYS', '@h']), c(['HVALS', '@m']), c(['HLEN', '@h']),
  c(['HEXISTS', '@h', 'f1']), c(['HEXISTS', '@m', 'f1']), c(['HSTRLEN', '@h', 'f1']), c(['HRANDFIELD', '@h']), c(['HRANDFIELD', '@m', '2']),
  c(['HSCAN', '@h', '0']), c(['HSCAN', '@m', '0']), c(['HSET', '@h', 'f3', 'v']), c(['HSET', '@m', 'f3', 'v']), c(['HSETNX', '@h', 'f1', 'v']),
  c(['HDEL', '@h', 'f1']), c(['HDEL', '@m', 'f1']), c(['HINCRBY', '@h', 'f9', '1']), c(['HINCRBYFLOAT', '@m', 'f', '1']),
  c(['HMSET', '@h', 'a', 'b']),
  c(['HEXPIRE', '@h', '100', 'FIELDS', '1', 'f1']), c(['HEXPIRE', '@m', '100', 'FIELDS', '1', 'f1']), c(['HTTL', '@h', 'FIELDS', '1', 'f1']),
  c(['HTTL', '@m', 'FIELDS', '1', 'f1']), c(['HPEXPIRETIME', '@h', 'FIELDS', '1', 'f1']), c(['HPERSIST', '@h', 'FIELDS', '1', 'f1']),
  c(['HPERSIST', '@m', 'FIELDS', '1', 'f1']), c(['HGETEX', '@h', 'EX', '100', 'FIELDS', '1', 'f1']), c(['HGETEX', '@m', 'FIELDS', '1', 'f1']),
  c(['HGETDEL', '@h', 'FIELDS', '1', 'f1']), c(['HGETDEL', '@m', 'FIELDS', '1', 'f1']), c(['HSETEX', '@h', 'EX', '100', 'FIELDS', '1', 'f1', 'v']),
  c(['HSETEX', '@m', 'FXX', 'FIELDS', '1', 'f1', 'v']),
  // lists
  c(['LLEN', '@l']), c(['LLEN', '@m']), c(['LRANGE', '@l', '0', '-1']), c(['LRANGE', '@m', '0', '-1']), c(['LINDEX', '@l', '0']),
  c(['LINDEX', '@m', '0']), c(['LPOS', '@l', 'a']), c(['LPOS', '@m', 'a']), c(['LPUSH', '@l', 'x']), c(['LPUSH', '@m', 'x']),
  c(['RPUSHX', '@m', 'x']), c(['LPUSHX', '@l', 'x']), c(['LPOP', '@l']), c(['RPOP', '@m']), c(['LPOP', '@l', '2']), c(['LSET', '@l', '0', 'x']),
  c(['LINSERT', '@l', 'BEFORE', 'a', 'x']), c(['LINSERT', '@m', 'BEFORE', 'a', 'x']), c(['LREM', '@l', '0', 'a']), c(['LTRIM', '@l', '0', '1']),
  c(['RPOPLPUSH', '@l', '@l2']), c(['RPOPLPUSH', '@m', '@l2']), c(['LMOVE', '@l', '@l', 'LEFT', 'RIGHT']), c(['LMPOP', '2', '@m', '@l', 'LEFT']),
  c(['LMPOP', '1', '@m', 'LEFT']), c(['BLPOP', '@m', '@l', '1']), c(['BLPOP', '@m', '0.01']), c(['BRPOP', '@l', '1']),
  c(['BRPOPLPUSH', '@l', '@l2', '1']), c(['BLMOVE', '@m', '@l2', 'LEFT', 'LEFT', '0.01']), c(['BLMPOP', '1', '2', '@m', '@l', 'LEFT']),
  // sets
  c(['SISMEMBER', '@set1', 'a']), c(['SISMEMBER', '@m', 'a']), c(['SMISMEMBER', '@set1', 'a', 'z']), c(['SCARD', '@set1']), c(['SCARD', '@m']),
  c(['SMEMBERS', '@set1']), c(['SMEMBERS', '@m']), c(['SRANDMEMBER', '@set1']), c(['SRANDMEMBER', '@m', '2']), c(['SPOP', '@set1']),
  c(['SPOP', '@m']), c(['SSCAN', '@set1', '0']), c(['SINTER', '@set1', '@set2', '@m']), c(['SINTER', '@m', '@set1']), c(['SINTERCARD', '2', '@set1', '@set2']),
  c(['SUNION', '@set1', '@m', '@set2']), c(['SDIFF', '@set1', '@m', '@set2']), c(['SDIFF', '@m', '@set1']), c(['SINTERSTORE', '@d', '@set1', '@set2']),
  c(['SUNIONSTORE', '@d', '@set1', '@m']), c(['SDIFFSTORE', '@d', '@m', '@set1']), c(['SMOVE', '@set1', '@set2', 'a']), c(['SMOVE', '@m', '@set2', 'a']),
  c(['SADD', '@set1', 'z']), c(['SREM', '@set1', 'a']), c(['SREM', '@m', 'a']),
  // sorted sets
  c(['ZSCORE', '@z', 'a']), c(['ZSCORE', '@m', 'a']), c(['ZMSCORE', '@z', 'a', 'q']), c(['ZCARD', '@z']), c(['ZCARD', '@m']), c(['ZCOUNT', '@z', '0', '5']),
  c(['ZLEXCOUNT', '@z', '-', '+']), c(['ZRANGE', '@z', '0', '-1']), c(['ZRANGE', '@m', '0', '-1']), c(['ZRANGEBYSCORE', '@z', '0', '5']),
  c(['ZREVRANGE', '@z', '0', '-1']), c(['ZRANGEBYLEX', '@m', '-', '+']), c(['ZRANK', '@z', 'a']), c(['ZREVRANK', '@m', 'a']),
  c(['ZRANGESTORE', '@d', '@z', '0', '-1']), c(['ZRANGESTORE', '@d', '@m', '0', '-1']), c(['ZRANDMEMBER', '@z']), c(['ZSCAN', '@z', '0']),
  c(['ZADD', '@z', '3', 'c']), c(['ZADD', '@m', '3', 'c']), c(['ZINCRBY', '@z', '1', 'a']), c(['ZREM', '@z', 'a']), c(['ZPOPMIN', '@z']),
  c(['ZPOPMAX', '@m']), c(['ZMPOP', '2', '@m', '@z', 'MIN']), c(['BZPOPMIN', '@m', '@z', '1']), c(['BZMPOP', '1', '2', '@m', '@z', 'MAX']),
  c(['ZUNION', '2', '@z', '@m']), c(['ZINTER', '2', '@z', '@z2']), c(['ZDIFF', '2', '@z', '@m']), c(['ZDIFF', '2', '@m', '@z']),
  c(['ZUNIONSTORE', '@d', '2', '@z', '@m']), c(['ZINTERSTORE', '@d', '2', '@z', '@z2']), c(['ZDIFFSTORE', '@d', '2', '@z', '@z2']),
  c(['ZINTERCARD', '2', '@z', '@z2']), c(['ZINTERCARD', '2', '@m', '@z2']), c(['ZREMRANGEBYSCORE', '@z', '0', '1']), c(['ZUNION', '2', '@z', '@set1']),
  // streams
  c(['XLEN', '@x']), c(['XLEN', '@m']), c(['XRANGE', '@x', '-', '+']), c(['XRANGE', '@m', '-', '+']), c(['XREVRANGE', '@x', '+', '-']),
  c(['XREAD', 'STREAMS', '@x', '@m', '0', '0']), c(['XREAD', 'STREAMS', '@x', '0']), c(['XREAD', 'STREAMS', '@x', '$']),
  c(['XREAD', 'COUNT', '1', 'STREAMS', '@m', '$']), c(['XREAD', 'BLOCK', '10', 'STREAMS', '@m', '$']), c(['XREAD', 'BLOCK', '10', 'STREAMS', '@x', '0']),
  c(['XREAD', 'BLOCK', '10', 'STREAMS', '@x', '$']),
  c(['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', '@x', '>']), c(['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', '@x', '0']),
  c(['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', '@m', '>']), c(['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '10', 'STREAMS', '@x', '>']),
  c(['XINFO', 'STREAM', '@x']), c(['XINFO', 'STREAM', '@m']), c(['XINFO', 'STREAM', '@x', 'FULL']), c(['XINFO', 'GROUPS', '@x']),
  c(['XINFO', 'CONSUMERS', '@x', 'g']), c(['XPENDING', '@x', 'g']), c(['XPENDING', '@x', 'g', '-', '+', '10']), c(['XPENDING', '@m', 'g']),
  c(['XCLAIM', '@x', 'g', 'c2', '0', '1-1']), c(['XAUTOCLAIM', '@x', 'g', 'c2', '0', '0']), c(['XACK', '@x', 'g', '1-1']), c(['XACK', '@m', 'g', '1-1']),
  c(['XADD', '@x', '*', 'f', 'v']), c(['XADD', '@m', '*', 'f', 'v']), c(['XADD', '@m', 'NOMKSTREAM', '*', 'f', 'v']), c(['XDEL', '@x', '1-1']),
  c(['XTRIM', '@x', 'MAXLEN', '1']), c(['XSETID', '@x', '5-5']), c(['XGROUP', 'CREATE', '@x', 'g2', '0']), c(['XGROUP', 'CREATE', '@m', 'g2', '0', 'MKSTREAM']),
  c(['XGROUP', 'DESTROY', '@x', 'g']), c(['XGROUP', 'CREATECONSUMER', '@x', 'g', 'c9']), c(['XGROUP', 'SETID', '@x', 'g', '0']),
  c(['XGROUP', 'DELCONSUMER', '@x', 'g', 'c']),
  // bitmaps
  c(['GETBIT', '@b', '3']), c(['GETBIT', '@m', '3']), c(['BITCOUNT', '@b']), c(['BITCOUNT', '@m']), c(['BITPOS', '@b', '1']),
  c(['BITFIELD', '@b', 'GET', 'u8', '0']), c(['BITFIELD', '@m', 'GET', 'u8', '0']), c(['BITFIELD', '@b', 'SET', 'u8', '0', '1']),
  c(['BITFIELD_RO', '@b', 'GET', 'u8', '0']), c(['BITOP', 'AND', '@d', '@b', '@m']), c(['BITOP', 'NOT', '@d', '@b']), c(['SETBIT', '@b', '1', '1']),
  c(['SETBIT', '@m', '1', '1']),
  // HyperLogLog
  c(['PFCOUNT', '@hll']), c(['PFCOUNT', '@hll', '@m']), c(['PFCOUNT', '@m']), c(['PFADD', '@hll', 'b']), c(['PFADD', '@m', 'b']),
  c(['PFMERGE', '@d', '@hll', '@m']), c(['PFMERGE', '@hll', '@m']),
  // geo
  c(['GEOPOS', '@geo', 'p1']), c(['GEOPOS', '@m', 'p1']), c(['GEODIST', '@geo', 'p1', 'p2']), c(['GEOHASH', '@geo', 'p1']),
  c(['GEOSEARCH', '@geo', 'FROMMEMBER', 'p1', 'BYRADIUS', '500', 'km']), c(['GEOSEARCH', '@m', 'FROMLONLAT', '15', '37', 'BYRADIUS', '500', 'km']),
  c(['GEORADIUS', '@geo', '15', '37', '500', 'km']), c(['GEORADIUS_RO', '@m', '15', '37', '500', 'km']),
  c(['GEORADIUSBYMEMBER', '@geo', 'p1', '500', 'km', 'STORE', '@d']), c(['GEOSEARCHSTORE', '@d', '@geo', 'FROMMEMBER', 'p1', 'BYRADIUS', '500', 'km']),
  c(['GEOADD', '@geo', '15', '37', 'p3']),
  // scripts, transactions
  c(['EVAL', "return redis.call('GET', KEYS[1])", '1', '@s']), c(['EVAL', "return redis.pcall('HGET', KEYS[1], 'f')", '1', '@m']),
  c(['EVAL', "redis.call('MGET', KEYS[1], KEYS[2]); return redis.call('EXISTS', KEYS[1])", '2', '@s', '@m']),
  c(['EVAL_RO', "return redis.call('LLEN', KEYS[1])", '1', '@l']), c(['EVAL', "return redis.call('SET', KEYS[1], 'x', 'GET')", '1', '@s']),
  c(['MULTI'], ['GET', '@s'], ['GET', '@m'], ['LLEN', '@l'], ['EXEC']), c(['MULTI'], ['XLEN', '@x'], ['TYPE', '@m'], ['EXEC']),
  c(['MULTI'], ['GET', '@s'], ['BADCMD'], ['EXEC']), c(['WATCH', '@s'], ['MULTI'], ['GET', '@s'], ['EXEC']),
  // blocked, then served by a write of this connection
  { block: ['BLPOP', '@m', '2'], cmds: [['RPUSH', '@m', 'a']] }, { block: ['BLPOP', '@m2', '@m', '2'], cmds: [['RPUSH', '@m', 'a']] },
  { block: ['BLMOVE', '@m', '@l2', 'LEFT', 'LEFT', '2'], cmds: [['RPUSH', '@m', 'a']] },
  { block: ['BZPOPMIN', '@m', '2'], cmds: [['ZADD', '@m', '1', 'a']] }, { block: ['BLMPOP', '2', '2', '@m2', '@m', 'LEFT'], cmds: [['RPUSH', '@m', 'a']] },
  { block: ['XREAD', 'BLOCK', '2000', 'STREAMS', '@m', '$'], cmds: [['XADD', '@m', '*', 'f', 'v']] },
  { block: ['XREAD', 'BLOCK', '2000', 'STREAMS', '@m2', '@m', '$', '$'], cmds: [['XADD', '@m', '*', 'f', 'v']] },
  { block: ['XREAD', 'BLOCK', '2000', 'STREAMS', '@x', '$'], cmds: [['XADD', '@x', '*', 'f', 'v']] },
  { block: ['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '2000', 'STREAMS', '@x', '>'], cmds: [['XADD', '@x', '*', 'f', 'v']] },
  { block: ['BLPOP', '@m', '2'], cmds: [['SET', '@m', 'x']] },
  { pre: [['XGROUP', 'CREATE', '@m', 'g', '$', 'MKSTREAM']], block: ['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '2000', 'STREAMS', '@m', '>'], cmds: [['XADD', '@m', '*', 'f', 'v']] },
  { pre: [['XGROUP', 'CREATE', '@m', 'g', '$', 'MKSTREAM']], block: ['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '2000', 'STREAMS', '@m', '>'], cmds: [['DEL', '@m']] },
  { pre: [['XGROUP', 'CREATE', '@m', 'g', '$', 'MKSTREAM']], block: ['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '2000', 'STREAMS', '@m', '0'], cmds: [['XADD', '@m', '*', 'f', 'v']] },
  // two readers of one group: the first served, the second re-run (7.2+) and blocked again until its timeout
  {
    pre: [['XGROUP', 'CREATE', '@m', 'g', '$', 'MKSTREAM']],
    block: [['XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', '300', 'STREAMS', '@m', '>'], ['XREADGROUP', 'GROUP', 'g', 'c2', 'BLOCK', '300', 'STREAMS', '@m', '>']],
    cmds: [['XADD', '@m', '*', 'f', 'v']],
  },
  { block: [['XREAD', 'BLOCK', '300', 'STREAMS', '@m', '$'], ['XREAD', 'BLOCK', '300', 'STREAMS', '@m', '$']], cmds: [['XADD', '@m', '*', 'f', 'v']] },
  { block: ['XREAD', 'BLOCK', '2000', 'STREAMS', '@x', '$'], cmds: [['DEL', '@x']] },
  { block: ['BLPOP', '@m', '@m2', '2'], cmds: [['MULTI'], ['RPUSH', '@m2', 'a'], ['RPUSH', '@m', 'b'], ['EXEC']] },
  // WRONGTYPE: the key was found (a hit), then the type check failed
  c(['LLEN', '@s']), c(['SCARD', '@s']), c(['ZCARD', '@s']), c(['XLEN', '@s']), c(['XRANGE', '@s', '-', '+']), c(['XREAD', 'STREAMS', '@s', '0']),
  c(['XINFO', 'STREAM', '@s']), c(['XPENDING', '@s', 'g']), c(['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', '@s', '>']), c(['GETBIT', '@l', '0']),
  c(['PFCOUNT', '@s']), c(['SORT', '@s']), c(['STRLEN', '@h']), c(['SINTER', '@set1', '@s', '@set2']), c(['ZUNION', '2', '@z', '@s']),
  c(['BITOP', 'AND', '@d', '@b', '@l']), c(['LCS', '@l', '@s']), c(['GEOPOS', '@s', 'p1']), c(['HGETALL', '@l']), c(['SMEMBERS', '@z']),
  c(['ZRANGE', '@set1', '0', '-1']), c(['SUNIONSTORE', '@d', '@z', '@set1']), c(['ZINTERSTORE', '@d', '2', '@z', '@l']), c(['GETEX', '@l']),
  c(['GETDEL', '@h']), c(['XACK', '@s', 'g', '1-1']), c(['XCLAIM', '@s', 'g', 'c', '0', '1-1']), c(['XAUTOCLAIM', '@s', 'g', 'c', '0', '0']),
  // more reads of missing keys
  c(['HKEYS', '@m']), c(['HLEN', '@m']), c(['HSTRLEN', '@m', 'f']), c(['SSCAN', '@m', '0']), c(['SMISMEMBER', '@m', 'a']), c(['ZSCAN', '@m', '0']),
  c(['ZRANDMEMBER', '@m']), c(['ZMSCORE', '@m', 'a']), c(['ZCOUNT', '@m', '0', '1']), c(['ZLEXCOUNT', '@m', '-', '+']), c(['BITPOS', '@m', '1']),
  c(['BITFIELD_RO', '@m', 'GET', 'u8', '0']), c(['GEODIST', '@m', 'a', 'b']), c(['GEOHASH', '@m', 'a']), c(['GEORADIUS', '@m', '15', '37', '5', 'km']),
  c(['GEOSEARCHSTORE', '@d', '@m', 'FROMLONLAT', '15', '37', 'BYRADIUS', '5', 'km']), c(['XINFO', 'GROUPS', '@m']), c(['XINFO', 'CONSUMERS', '@m', 'g']),
  c(['XCLAIM', '@m', 'g', 'c', '0', '1-1']), c(['XAUTOCLAIM', '@m', 'g', 'c', '0', '0']), c(['XREVRANGE', '@m', '+', '-']), c(['EXPIRETIME', '@m']),
  c(['PTTL', '@m']), c(['OBJECT', 'IDLETIME', '@m']), c(['OBJECT', 'FREQ', '@m']), c(['TOUCH', '@m', '@m2']), c(['EXISTS', '@m']),
  c(['SINTERCARD', '2', '@m', '@set1']), c(['SINTERCARD', '2', '@set1', '@m']), c(['ZINTER', '2', '@m', '@z']), c(['SUNION', '@m', '@m2']),
  c(['SORT', '@l', 'BY', '@nothing_*']), c(['SORT_RO', '@l', 'ALPHA', 'GET', '#', 'GET', '@w_*']),
  c(['EVAL', "return redis.call('XRANGE', KEYS[1], '-', '+')", '1', '@x']), c(['EVAL', "return redis.call('XREAD', 'STREAMS', KEYS[1], KEYS[2], '0', '0')", '2', '@x', '@m']),
  c(['EVAL', "return redis.call('TYPE', KEYS[1])", '1', '@m']), c(['MULTI'], ['XREAD', 'BLOCK', '100', 'STREAMS', '@x', '$'], ['BLPOP', '@m', '1'], ['EXEC']),
  c(['MULTI'], ['SUNION', '@set1', '@m'], ['OBJECT', 'ENCODING', '@m'], ['EXEC']),
];

module.exports = { SETUP, KEYS, CASES, EXPIRED_WAIT };
