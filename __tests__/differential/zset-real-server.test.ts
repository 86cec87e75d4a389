/**
 * The sorted-set commands against real servers: the same command sequences on a fresh engine
 * connection and on a real connection (RESP2) answer the same values and error texts, byte for
 * byte (members and keys with bytes that are not UTF-8 included). `REDIS_URL`: redis-server
 * 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 build (emulated 8.0). Each
 * sequence starts from an empty db 13. Skips with a message when the URLs are not set.
 */
import { createConnection } from '../../lib/engine';
import { connectReal, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = 'm\xff\x00\xfe';
const SEQUENCES: string[][][] = [
  // scores as each version prints them; -0 in a listpack and in a skiplist
  [['ZADD', 'z', '0.1', 'a', '-0', 'b', '1e300', 'c', 'inf', 'd', '-inf', 'e', '0x10', 'f'], ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'], ['ZSCORE', 'z', 'b'], ['ZSCAN', 'z', '0'], ['OBJECT', 'ENCODING', 'z']],
  [['CONFIG', 'SET', 'zset-max-listpack-entries', '1'], ['ZADD', 'z', '-0', 'a', '0.1', 'b'], ['ZSCORE', 'z', 'a'], ['OBJECT', 'ENCODING', 'z'], ['ZINCRBY', 'z', '-0.0', 'c'], ['ZSCAN', 'z', '0', 'MATCH', 'c'], ['ZSCAN', 'z', '0', 'MATCH', 'b'], ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'], ['CONFIG', 'SET', 'zset-max-listpack-entries', '128']],
  [['ZADD', 'y', '-0', 'a'], ['ZADD', 'y', '-0', 'b'], ['ZADD', 'x', '-0', 'a', '1', 'b'], ['ZINCRBY', 'r', '-0', 'a'], ['ZRANGE', 'y', '0', '-1', 'WITHSCORES'], ['ZRANGE', 'x', '0', '-1', 'WITHSCORES'], ['ZSCORE', 'r', 'a']],
  // numbers as each version reads them (7.x strtod, 8.0 fast_float)
  [['ZADD', 'z', '1e400', 'a'], ['ZADD', 'z', '1e-400', 'b'], ['ZADD', 'z', '0x10', 'c'], ['ZADD', 'z', ' 1', 'd'], ['ZADD', 'z', '-.5e-3', 'e', '5.', 'f', '+.5', 'g', 'infinity', 'h', '-INF', 'i'], ['ZADD', 'z', 'nan', 'j'], ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'], ['ZCOUNT', 'z', ' 1', '+inf'], ['ZCOUNT', 'z', '', '(0x10'], ['ZCOUNT', 'z', '(', '1e400']],
  // LIMIT with a negative offset, listpack and skiplist; ZRANDMEMBER of every member
  [['ZADD', 'l', '1', 'a', '2', 'b', '3', 'c', '4', 'd', '5', 'e'], ['CONFIG', 'SET', 'zset-max-listpack-entries', '0'], ['ZADD', 's', '1', 'a', '2', 'b', '3', 'c', '4', 'd', '5', 'e'], ['OBJECT', 'ENCODING', 's'], ['ZRANGEBYSCORE', 'l', '-inf', '+inf', 'LIMIT', '-1', '2'], ['ZRANGEBYSCORE', 's', '-inf', '+inf', 'LIMIT', '-1', '2'], ['ZRANGEBYSCORE', 's', '-inf', '+inf', 'LIMIT', '-3', '10'], ['ZREVRANGEBYSCORE', 's', '+inf', '-inf', 'LIMIT', '-3', '2'], ['ZRANGEBYSCORE', 's', '-inf', '+inf', 'LIMIT', '-10', '2'], ['ZRANGEBYSCORE', 's', '(1', '3', 'LIMIT', '-1', '2'], ['ZREVRANGEBYSCORE', 's', '4', '2', 'LIMIT', '1', '5'], ['ZRANGE', 's', '-', '+', 'BYLEX', 'LIMIT', '-1', '2'], ['ZRANDMEMBER', 'l', '9', 'WITHSCORES'], ['ZRANDMEMBER', 's', '9']],
  // ZADD options and their errors
  [['ZADD', 'z', 'NX', 'XX', '1', 'a'], ['ZADD', 'z', 'GT', 'LT', '1', 'a'], ['ZADD', 'z', 'INCR', '1', 'a', '2', 'b'], ['ZADD', 'z', '1'], ['ZADD', 'z', 'x', 'a'], ['ZADD', 'z', '1e400', 'a'], ['ZADD', 'z', 'XX', '1', 'a'], ['EXISTS', 'z']],
  [['ZADD', 'z', '5', 'a'], ['ZADD', 'z', 'GT', 'CH', '3', 'a', '1', 'b'], ['ZADD', 'z', 'LT', 'INCR', '1', 'a'], ['ZADD', 'z', 'NX', 'INCR', '1', 'a'], ['ZADD', 'z', 'INCR', '-inf', 'a'], ['ZINCRBY', 'z', '+inf', 'a'], ['ZRANGE', 'z', '0', '-1', 'WITHSCORES']],
  // ranges
  [['ZADD', 'z', '1', 'a', '2', 'b', '3', 'c', '4', BIN, '5', 'e'], ['ZRANGE', 'z', '(1', '4', 'BYSCORE', 'LIMIT', '1', '2', 'WITHSCORES'], ['ZRANGE', 'z', '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', '0', '3'], ['ZRANGEBYSCORE', 'z', '-inf', '+inf', 'LIMIT', '-1', '2'], ['ZREVRANGEBYSCORE', 'z', '(5', ' 2'], ['ZRANGE', 'z', '-2', '100'], ['ZREVRANGE', 'z', '0', '1', 'WITHSCORES'], ['ZCOUNT', 'z', '(1', '(4'], ['ZRANGE', 'z', '0', '1', 'LIMIT', '0', '1'], ['ZRANGE', 'z', '-', '+', 'BYLEX', 'WITHSCORES'], ['ZRANGEBYSCORE', 'z', '0', '1', 'REV'], ['ZRANGEBYSCORE', 'z', 'x', '1'], ['ZRANGEBYLEX', 'z', 'a', '+']],
  [['ZADD', 'l', '0', 'a', '0', 'b', '0', 'c', '0', BIN, '0', '\xff'], ['ZRANGEBYLEX', 'l', '(a', '+'], ['ZREVRANGEBYLEX', 'l', '[c', '-', 'LIMIT', '1', '2'], ['ZLEXCOUNT', 'l', '[b', '(\xff'], ['ZRANGE', 'l', '[m', '+', 'BYLEX'], ['ZREMRANGEBYLEX', 'l', '-', '[b'], ['ZRANGE', 'l', '0', '-1']],
  [['ZADD', 'z', '1', 'a', '2', 'b', '3', 'c'], ['ZRANGESTORE', 'd', 'z', '1', '2', 'BYSCORE'], ['ZRANGE', 'd', '0', '-1', 'WITHSCORES'], ['ZRANGESTORE', 'd', 'z', '5', '9', 'BYSCORE'], ['EXISTS', 'd'], ['ZRANGESTORE', 'd', 'z', '0', '1', 'WITHSCORES'], ['ZREMRANGEBYSCORE', 'z', '(1', '+inf'], ['ZREMRANGEBYRANK', 'z', '0', '-1'], ['EXISTS', 'z'], ['ZREMRANGEBYRANK', 'z', 'x', '1']],
  // reads
  [['ZADD', 'z', '1', 'a', '2', BIN], ['ZRANK', 'z', BIN], ['ZREVRANK', 'z', BIN], ['ZRANK', 'z', 'x'], ['ZMSCORE', 'z', 'a', 'x', BIN], ['ZMSCORE', 'nokey', 'a'], ['ZCARD', 'z'], ['ZSCORE', 'z', 'x'], ['SET', 's', 'v'], ['ZCARD', 's'], ['ZSCORE', 's', 'a']],
  [['ZADD', 'z', '1', 'a', '2', 'b', '3', 'c'], ['ZRANDMEMBER', 'z', '5', 'WITHSCORES'], ['ZRANDMEMBER', 'z', '0'], ['ZRANDMEMBER', 'nokey', '3'], ['ZRANDMEMBER', 'nokey'], ['ZRANDMEMBER', 'z', '-9223372036854775808'], ['ZRANDMEMBER', 'z', '-9223372036854770000', 'WITHSCORES'], ['ZRANDMEMBER', 'z', '1', 'x'], ['ZRANDMEMBER', 'z', 'x']],
  [['ZSCAN', 'z', 'x'], ['ZSCAN', 'nokey', '0', 'COUNT', '0'], ['ZADD', 'z', '1', 'a', '2', 'b'], ['ZSCAN', 'z', '0', 'MATCH', 'b*'], ['ZSCAN', 'z', '0', 'COUNT', '0'], ['ZSCAN', 'z', '0', 'NOVALUES'], ['ZSCAN', 'z', '0', 'TYPE', 'zset']],
  // pops
  [['ZADD', 'z', '1', 'a', '2', 'b', '3', 'c'], ['ZPOPMIN', 'z'], ['ZPOPMAX', 'z', '0'], ['ZPOPMAX', 'z', '-1'], ['ZPOPMAX', 'z', '1', '2'], ['ZMPOP', '2', 'nokey', 'z', 'MAX', 'COUNT', '5'], ['EXISTS', 'z'], ['ZMPOP', '1', 'z', 'MIN'], ['ZMPOP', '0', 'z', 'MIN'], ['ZMPOP', '1', 'z', 'MIN', 'COUNT', '0'], ['ZPOPMIN', 'nokey', '3']],
  [['MULTI'], ['BZPOPMIN', 'nokey', '0'], ['BZMPOP', '0', '1', 'nokey', 'MIN'], ['EXEC'], ['BZPOPMIN', 'z', '-1'], ['BZPOPMIN', 'z', 'x'], ['BZMPOP', 'x', '0', 'z', 'MIN'], ['ZADD', 'z', '1', 'a'], ['BZPOPMAX', 'z', '0'], ['SET', 's', 'v'], ['BZPOPMIN', 's', '0']],
  // lex ranges over members of mixed scores: a listpack walks linearly (zzlFirstInLexRange / zzlLastInLexRange), the bounds are not monotone
  [['ZADD', 'z', '0', '', '0', 'e', '1', 'b', '2', 'a', '2', 'c'], ['ZREVRANGEBYLEX', 'z', '[a', '['], ['ZRANGEBYLEX', 'z', '[b', '+'], ['ZRANGEBYLEX', 'z', '-', '(c'], ['ZRANGE', 'z', '[c', '[a', 'BYLEX', 'REV', 'LIMIT', '1', '2'],
    ['ZRANGEBYLEX', 'z', '[a', '[e', 'LIMIT', '2', '-1'], ['ZREVRANGEBYLEX', 'z', '+', '[b', 'LIMIT', '0', '2'], ['ZRANGEBYLEX', 'z', '(', '+', 'LIMIT', '-1', '3'], ['ZLEXCOUNT', 'z', '[b', '+'], ['ZLEXCOUNT', 'z', '(a', '[d'], ['ZLEXCOUNT', 'z', '+', '-'],
    ['ZRANGESTORE', 'd', 'z', '[b', '+', 'BYLEX'], ['ZRANGE', 'd', '0', '-1', 'WITHSCORES'], ['ZREMRANGEBYLEX', 'z', '[b', '[d'], ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'], ['ZREMRANGEBYLEX', 'z', '(', '+'], ['ZRANGE', 'z', '0', '-1', 'WITHSCORES']],
  // ZDIFF / ZDIFFSTORE edges: -0 and long members, sets as sorted sets, argument errors in order, the destination as a source, encodings
  [['ZADD', 'a', '-0', 'm', '1', 'n', '2', 'x'.repeat(70)], ['ZADD', 'b', '1', 'n'], ['SADD', 's', 'm', 'q'], ['SET', 'str', 'v'],
    ['ZDIFF', '1', 'a', 'WITHSCORES'], ['ZDIFF', '2', 'a', 'b', 'WITHSCORES'], ['ZDIFF', '2', 'a', 'a'], ['ZDIFF', '2', 'nokey', 'str'], ['ZDIFF', '2', 'str', 'nokey'], ['ZDIFF', '2', 's', 'b', 'WITHSCORES'], ['ZDIFF', '2', 'a', 's', 'WITHSCORES'],
    ['ZDIFF', '0', 'a'], ['ZDIFF', '-1', 'a'], ['ZDIFF', '3', 'a', 'b'], ['ZDIFF', '1', 'a', 'withscores', 'withscores'], ['ZDIFF', '1', 'a', 'AGGREGATE', 'SUM'], ['ZDIFF', '9999999999999', 'a'], ['ZDIFF', '2', 'a'],
    ['ZDIFFSTORE', 'd', '2', 'a', 'b'], ['OBJECT', 'ENCODING', 'd'], ['ZRANGE', 'd', '0', '-1', 'WITHSCORES'], ['ZDIFFSTORE', 'd', '1', 'a', 'WITHSCORES'], ['ZDIFFSTORE', 'a', '2', 'a', 'b'], ['ZRANGE', 'a', '0', '-1', 'WITHSCORES'], ['OBJECT', 'ENCODING', 'a'],
    ['ZDIFFSTORE', 'd', '2', 'b', 'b'], ['EXISTS', 'd'], ['ZDIFFSTORE', 'str', '1', 'nokey'], ['EXISTS', 'str'], ['CONFIG', 'SET', 'zset-max-listpack-entries', '1'], ['ZADD', 'k', '-0', 'p', '3', 'q'], ['ZDIFF', '1', 'k', 'WITHSCORES'], ['ZDIFFSTORE', 'd', '1', 'k'], ['OBJECT', 'ENCODING', 'd'], ['ZRANGE', 'd', '0', '-1', 'WITHSCORES'],
    ['ZDIFFSTORE', 'd', '2', 'k', 's'], ['OBJECT', 'ENCODING', 'd'], ['ZADD', 'one', '-0', 'z'], ['ZDIFFSTORE', 'd', '1', 'one'], ['OBJECT', 'ENCODING', 'd'], ['ZSCORE', 'd', 'z'], ['CONFIG', 'SET', 'zset-max-listpack-entries', '128']],
  // set operations
  [['ZADD', 'a', '1', 'x', '2', 'y'], ['ZADD', 'b', '10', 'y', '20', 'z'], ['SADD', 's', 'y', 'w'], ['ZUNION', '3', 'a', 'b', 's', 'WITHSCORES'], ['ZINTER', '2', 'a', 'b', 'WEIGHTS', '2', '1', 'AGGREGATE', 'MAX', 'WITHSCORES'], ['ZINTER', '2', 'a', 's', 'WITHSCORES'], ['ZDIFF', '2', 'a', 's', 'WITHSCORES'], ['ZINTERCARD', '2', 'a', 'b', 'LIMIT', '1'], ['ZUNIONSTORE', 'd', '2', 'a', 'b', 'AGGREGATE', 'MIN'], ['ZRANGE', 'd', '0', '-1', 'WITHSCORES'], ['ZINTERSTORE', 'd', '2', 'a', 'nokey'], ['EXISTS', 'd'], ['ZDIFFSTORE', 'd', '1', 'b'], ['ZRANGE', 'd', '0', '-1']],
  [['ZADD', 'a', 'inf', 'x'], ['ZADD', 'b', '-inf', 'x'], ['ZUNION', '2', 'a', 'b', 'WITHSCORES'], ['ZUNION', '2', 'a', 'b', 'WEIGHTS', '0', '1', 'WITHSCORES'], ['ZUNION', '0', 'a'], ['ZUNIONSTORE', 'd', '3', 'a', 'b'], ['SET', 'str', 'v'], ['ZUNION', '2', 'a', 'str', 'WEIGHTS', 'x'], ['ZUNION', '1', 'a', 'WEIGHTS', 'x'], ['ZINTERCARD', '1', 'a', 'LIMIT', '-1'], ['ZDIFF', '1', 'a', 'WEIGHTS', '1'], ['ZINTER', '1', 'a', 'AGGREGATE', 'avg']],
];

const plainReal = (v: unknown): unknown => {
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (Array.isArray(v)) return v.map(plainReal);
  return v;
};

const plainFake = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plainFake);
  return v;
};

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('sorted-set commands', ({ url, version }) => {
  let port = 48_300 + (version === '7.0' ? 0 : 100);
  it.each(sequenceRows(SEQUENCES))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 3);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, seq, { plainReal, plainFake });
    } finally {
      await real.call('CONFIG', 'SET', 'zset-max-listpack-entries', '128');
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
