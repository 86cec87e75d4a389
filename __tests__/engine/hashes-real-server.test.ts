/**
 * The hash commands against real servers: the same command sequences on a fresh engine
 * connection and on a real connection must answer the same RESP2 values and error texts, byte
 * for byte (arguments and replies are byte strings: binary fields and values included).
 * `REDIS_URL`: redis-server 7.0.15 (emulated 7.0: no field expiration, no NOVALUES);
 * `REDIS_UNSTABLE_URL`: the post-7.4 build (emulated 8.0). Skips with a message otherwise.
 * Random replies (HRANDFIELD) are compared by shape only.
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = '\xff\x00\xfe';
/** An absolute time far in the future (ms), so TTL replies do not depend on elapsed time. */
const AT = '4102444800000';

const SEQUENCES: string[][][] = [
  // HSET / HMSET / HSETNX / HGET / HMGET / HGETALL order, __proto__ a field like any other
  [['HSET', 'h', 'a', '1', 'b', '2'], ['HSET', 'h', 'a', '3', 'c', '4'], ['HGETALL', 'h'], ['HMSET', 'h', 'x', 'y'], ['HSET', 'h', '__proto__', 'v', 'f', 'v'], ['HKEYS', 'h'], ['HVALS', 'h'], ['HLEN', 'h']],
  [['HSET', 'h'], ['HSET', 'h', 'a'], ['HSET', 'h', 'a', '1', 'b'], ['HMSET', 'h', 'a'], ['HSETNX', 'h', 'a', '1'], ['HSETNX', 'h', 'a', '2'], ['HGET', 'h', 'a'], ['HGET', 'h', 'zz'], ['HGET', 'nokey', 'a'], ['HMGET', 'h', 'a', 'zz', 'a'], ['HMGET', 'nokey', 'a']],
  [['HSET', BIN, BIN, BIN, '', 'empty'], ['HGET', BIN, BIN], ['HSTRLEN', BIN, BIN], ['HSTRLEN', BIN, ''], ['HEXISTS', BIN, ''], ['HGETALL', BIN], ['HDEL', BIN, BIN, 'nope'], ['HDEL', BIN, ''], ['EXISTS', BIN]],
  // HDEL, HLEN, HEXISTS, HSTRLEN, WRONGTYPE
  [['SET', 's', 'x'], ['HSET', 's', 'a', '1'], ['HGET', 's', 'a'], ['HMGET', 's', 'a'], ['HGETALL', 's'], ['HDEL', 's', 'a'], ['HLEN', 's'], ['HSTRLEN', 's', 'a'], ['HINCRBY', 's', 'a', '1'], ['HINCRBY', 's', 'a', 'x'], ['HRANDFIELD', 's'], ['HSCAN', 's', '0'], ['HSCAN', 's', 'x']],
  [['HDEL', 'nokey', 'a'], ['HLEN', 'nokey'], ['HEXISTS', 'nokey', 'a'], ['HSTRLEN', 'nokey', 'a'], ['HGETALL', 'nokey'], ['HKEYS', 'nokey'], ['HVALS', 'nokey']],
  // HINCRBY: exact 64-bit, errors in order, TTL kept
  [['HINCRBY', 'h', 'n', '9223372036854775806'], ['HINCRBY', 'h', 'n', '1'], ['HINCRBY', 'h', 'n', '1'], ['HGET', 'h', 'n'], ['HINCRBY', 'h', 'n', '-9223372036854775808'], ['HINCRBY', 'h', 'm', '-9223372036854775808'], ['HINCRBY', 'h', 'm', '-1'], ['HINCRBY', 'h', 'x', '9223372036854775808'], ['HINCRBY', 'h', 'x', '01'], ['HSET', 'h', 's', 'abc', 'sp', ' 1'], ['HINCRBY', 'h', 's', '1'], ['HINCRBY', 'h', 'sp', '1']],
  // HINCRBYFLOAT: long double sums and texts
  [['HINCRBYFLOAT', 'h', 'f', '0.1'], ['HINCRBYFLOAT', 'h', 'f', '0.2'], ['HINCRBYFLOAT', 'h', 'f', '1e308'], ['HINCRBYFLOAT', 'h', 'g', '1e400'], ['HINCRBYFLOAT', 'h', 'g', 'inf'], ['HINCRBYFLOAT', 'h', 'g', 'nan'], ['HINCRBYFLOAT', 'h', 'g', 'abc'], ['HINCRBYFLOAT', 'h', 'g', ''], ['HSET', 'h', 's', 'x'], ['HINCRBYFLOAT', 'h', 's', '1'], ['HINCRBYFLOAT', 'h', 'i', '5'], ['HINCRBYFLOAT', 'h', 'i', '-5.0'], ['HGET', 'h', 'i']],
  // HRANDFIELD argument checks (replies of a deterministic size)
  [['HSET', 'h', 'a', '1', 'b', '2'], ['HRANDFIELD', 'h', 'x'], ['HRANDFIELD', 'h', '1', 'withvalue'], ['HRANDFIELD', 'h', '1', 'withvalues', 'x'], ['HRANDFIELD', 'nokey', '5', 'x'], ['HRANDFIELD', 'nokey', '5'], ['HRANDFIELD', 'nokey'], ['HRANDFIELD', 'h', '0'], ['HRANDFIELD', 'h', '5'], ['HRANDFIELD', 'h', '5', 'WITHVALUES'], ['HRANDFIELD', 'h', '-9223372036854775808'], ['HRANDFIELD', 'h', '-9223372036854775807', 'withvalues'], ['HRANDFIELD', 'h', '4611686018427387904', 'withvalues'], ['HRANDFIELD', 'h', '9223372036854775808']],
  // HSCAN: cursor and options
  [['HSET', 'h', 'a', '1', 'b', '2', 'ab', '3'], ['HSCAN', 'h', '0'], ['HSCAN', 'h', '0', 'MATCH', 'a*'], ['HSCAN', 'h', '0', 'COUNT', '1'], ['HSCAN', 'h', '0', 'COUNT', '0'], ['HSCAN', 'h', '0', 'COUNT', 'x'], ['HSCAN', 'h', '0', 'MATCH'], ['HSCAN', 'h', '0', 'FOO', '1'], ['HSCAN', 'h', 'x'], ['HSCAN', 'h', '18446744073709551616'], ['HSCAN', 'nokey', '0', 'FOO'], ['HSCAN', 'h', '0', 'NOVALUES']],
  // encodings: thresholds, one-way conversion
  [['CONFIG', 'SET', 'hash-max-listpack-entries', '2'], ['HSET', 'h', 'a', '1', 'b', '2'], ['OBJECT', 'ENCODING', 'h'], ['HSET', 'h', 'c', '3'], ['OBJECT', 'ENCODING', 'h'], ['HDEL', 'h', 'c', 'b'], ['OBJECT', 'ENCODING', 'h'], ['HSET', 'h2', 'a', '1', 'b', '2', 'c', '3'], ['OBJECT', 'ENCODING', 'h2'], ['CONFIG', 'SET', 'hash-max-listpack-entries', '512'], ['CONFIG', 'SET', 'hash-max-listpack-value', '3'], ['HSET', 'h3', 'a', '1234'], ['OBJECT', 'ENCODING', 'h3'], ['HSETNX', 'h4', 'abcd', '1'], ['OBJECT', 'ENCODING', 'h4'], ['HINCRBYFLOAT', 'h5', 'a', '1.5'], ['OBJECT', 'ENCODING', 'h5'], ['HINCRBYFLOAT', 'h5', 'a', '0.25'], ['OBJECT', 'ENCODING', 'h5'], ['CONFIG', 'SET', 'hash-max-listpack-value', '64'], ['TYPE', 'h5']],
  // field expiration (7.4): argument errors and replies
  [['HSET', 'h', 'a', '1', 'b', '2', 'c', '3'], ['HPEXPIRE', 'h', '100', 'FIELDS', 'x', 'a'], ['HPEXPIRE', 'h', '100', 'FIELDS', '0', 'a'], ['HPEXPIRE', 'h', '100', 'FIELDS', '2', 'a'], ['HTTL', 'h', 'FIELDS', 'x', 'a'], ['HPERSIST', 'h', 'FIELDS', '0', 'a'], ['HTTL', 'h', 'fieldz', '1', 'a'], ['HPEXPIRE', 'h', '100', 'yy', 'FIELDS', '1', 'a'], ['HPEXPIRE', 'h', 'x', 'FIELDS', '1', 'a'], ['HPEXPIRE', 'h', '-1', 'FIELDS', '1', 'a'], ['HEXPIRE', 'h', '70368744177664', 'FIELDS', '1', 'a'], ['HPEXPIREAT', 'h', '70368744177664', 'FIELDS', '1', 'a'], ['HEXPIRE', 'nokey', '10', 'FIELDS', '2', 'a', 'b'], ['HTTL', 'nokey', 'FIELDS', '1', 'a'], ['HPERSIST', 'nokey', 'FIELDS', '1', 'a']],
  [['HSET', 'h', 'a', '1', 'b', '2', 'c', '3'], ['OBJECT', 'ENCODING', 'h'], ['HPEXPIREAT', 'h', AT, 'FIELDS', '2', 'b', 'zz'], ['OBJECT', 'ENCODING', 'h'], ['HGETALL', 'h'], ['HPEXPIREAT', 'h', '4102444700000', 'XX', 'FIELDS', '2', 'a', 'b'], ['HPEXPIREAT', 'h', '4102444900000', 'GT', 'FIELDS', '2', 'a', 'b'], ['HPEXPIREAT', 'h', '4102444600000', 'LT', 'FIELDS', '2', 'c', 'b'], ['HPEXPIREAT', 'h', '4102444600000', 'NX', 'FIELDS', '2', 'c', 'a'], ['HGETALL', 'h'], ['HPEXPIRETIME', 'h', 'FIELDS', '3', 'a', 'b', 'c'], ['HEXPIRETIME', 'h', 'FIELDS', '3', 'a', 'b', 'zz'], ['HPERSIST', 'h', 'FIELDS', '3', 'b', 'a', 'zz'], ['HGETALL', 'h'], ['OBJECT', 'ENCODING', 'h'], ['HSET', 'h', 'c', 'new'], ['HPEXPIRETIME', 'h', 'FIELDS', '1', 'c'], ['HGETALL', 'h']],
  [['HSET', 'h', 'a', '1', 'b', '2'], ['HPEXPIREAT', 'h', AT, 'FIELDS', '1', 'a'], ['HINCRBY', 'h', 'a', '5'], ['HPEXPIRETIME', 'h', 'FIELDS', '1', 'a'], ['HPEXPIRE', 'h', '0', 'FIELDS', '2', 'a', 'a'], ['HGETALL', 'h'], ['HEXPIREAT', 'h', '1', 'FIELDS', '1', 'b'], ['EXISTS', 'h']],
];

/** HRANDFIELD's random picks: compared by shape (count of elements). */
function shape(argv: readonly string[], v: unknown): unknown {
  if (argv[0] === 'HRANDFIELD' && Array.isArray(v)) return { length: v.length };
  if (argv[0] === 'HRANDFIELD' && typeof v === 'string') return 'a field';
  return v;
}

/** Integers of a reply as their decimal digits (what ioredis gives with stringNumbers). */
function digits(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return v.map(digits);
  return v;
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('hash commands', ({ url, version }) => {
  let port = 48_900 + (version === '7.0' ? 0 : 50);
  // integers as their digits on both sides (the real client reads them with stringNumbers: ioredis 5
  // and 6 parse integers past 2^53 differently)
  const plainReal = (v: unknown, argv: readonly string[]) => shape(argv, bytesNumbersReply(v));
  const plainFake = (v: unknown, argv: readonly string[]) => shape(argv, bytesNumbersReply(digits(v)));
  it.each(sequenceRows(SEQUENCES))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 5, { stringNumbers: true }); // a database of its own: other test files use the server too
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, seq, { plainReal, plainFake });
    } finally {
      await real.call('CONFIG', 'SET', 'hash-max-listpack-entries', '512', 'hash-max-listpack-value', '64');
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
