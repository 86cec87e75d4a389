/**
 * The list family against real servers: the same command sequences on a fresh engine connection
 * and on a real connection must answer the same RESP2 values and error texts, byte for byte
 * (binary elements included), OBJECT ENCODING and DUMP payloads too. `REDIS_URL`: redis-server
 * 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 4f8cdc2a build (emulated 8.0).
 * Skips with a message when a URL is unset.
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, cutArgs, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = '\xff\x00\xfe\r\n';
const big = (n: number, c = 'x') => c.repeat(n);

const SEQUENCES: string[][][] = [
  // pushes, pops and their count/nil edges
  [['LPUSH', 'l', 'a', 'b', BIN], ['RPUSH', 'l', '1', '-5', '9223372036854775807'], ['LRANGE', 'l', '0', '-1'], ['LPOP', 'l'], ['RPOP', 'l', '2'], ['LPOP', 'l', '0'], ['LPOP', 'l', '-1'], ['LPOP', 'l', 'x'], ['LPOP', 'l', '1', '2'], ['RPOP', 'l', '99'], ['LPOP', 'l'], ['LPOP', 'l', '3'], ['LPOP', 'l', '0'], ['EXISTS', 'l']],
  [['LPUSHX', 'l', 'a'], ['RPUSHX', 'l', 'a', 'b'], ['RPUSH', 'l', 'x'], ['LPUSHX', 'l', 'a', 'b'], ['RPUSHX', 'l', 'c'], ['LRANGE', 'l', '0', '-1'], ['LPUSH', 'l'], ['LLEN', 'l'], ['LLEN', 'nokey']],
  // index access
  [['LINDEX', 'l', 'x'], ['LSET', 'l', 'x', 'v'], ['RPUSH', 'l', 'a', 'b', 'c'], ['LINDEX', 'l', 'x'], ['LINDEX', 'l', '-1'], ['LINDEX', 'l', '3'], ['LINDEX', 'l', '-4'], ['LINDEX', 'l', '9223372036854775808'], ['LSET', 'l', '3', 'v'], ['LSET', 'l', '-3', BIN], ['LSET', 'l', 'x', 'v'], ['LRANGE', 'l', '0', '-1']],
  [['RPUSH', 'l', 'a', 'b', 'c', 'd', 'e'], ['LRANGE', 'l', '-100', '1'], ['LRANGE', 'l', '3', '100'], ['LRANGE', 'l', '4', '2'], ['LRANGE', 'l', 'x', '1'], ['LRANGE', 'l', '-9223372036854775808', '9223372036854775807'], ['LTRIM', 'l', '1', '-2'], ['LRANGE', 'l', '0', '-1'], ['LTRIM', 'l', '5', '6'], ['EXISTS', 'l'], ['LTRIM', 'l', '0', 'x'], ['LTRIM', 'nokey', '0', '1']],
  // LREM, LINSERT, LPOS
  [['RPUSH', 'l', 'a', 'b', 'a', 'c', 'a', 'a'], ['LREM', 'l', '-2', 'a'], ['LREM', 'l', '1', 'a'], ['LREM', 'l', '0', 'nope'], ['LREM', 'l', 'x', 'a'], ['LRANGE', 'l', '0', '-1'], ['LREM', 'l', '-9223372036854775808', 'a'], ['LRANGE', 'l', '0', '-1'], ['LREM', 'nokey', '0', 'a']],
  [['LINSERT', 'l', 'BEFORE', 'p', 'v'], ['LINSERT', 'l', 'MIDDLE', 'p', 'v'], ['RPUSH', 'l', 'a', 'b'], ['LINSERT', 'l', 'before', 'x', 'v'], ['LINSERT', 'l', 'AFTER', 'a', BIN], ['LINSERT', 'l', 'BEFORE', 'a', 'w'], ['LRANGE', 'l', '0', '-1']],
  [['LPOS', 'l', 'a'], ['LPOS', 'l', 'a', 'COUNT', '0'], ['RPUSH', 'l', 'a', 'b', 'c', 'a', 'b', 'a'], ['LPOS', 'l', 'a'], ['LPOS', 'l', 'a', 'RANK', '2'], ['LPOS', 'l', 'a', 'RANK', '-1'], ['LPOS', 'l', 'a', 'COUNT', '0'], ['LPOS', 'l', 'a', 'RANK', '-2', 'COUNT', '2'], ['LPOS', 'l', 'a', 'COUNT', '0', 'MAXLEN', '4'], ['LPOS', 'l', 'a', 'RANK', '4'], ['LPOS', 'l', 'a', 'RANK', '0'], ['LPOS', 'l', 'a', 'COUNT', '-1'], ['LPOS', 'l', 'a', 'COUNT', 'x'], ['LPOS', 'l', 'a', 'MAXLEN', 'x'], ['LPOS', 'l', 'a', 'RANK'], ['LPOS', 'l', 'a', 'FOO', '1'], ['LPOS', 'l', 'a', 'RANK', '-9223372036854775808'], ['LPOS', 'l', 'a', 'RANK', '-9223372036854775807']],
  // moves
  [['RPOPLPUSH', 'src', 'dst'], ['RPUSH', 'src', 'a', 'b', BIN], ['SET', 'str', 'v'], ['LMOVE', 'src', 'str', 'LEFT', 'LEFT'], ['LMOVE', 'str', 'src', 'LEFT', 'LEFT'], ['LMOVE', 'src', 'dst', 'LEFT', 'RIGHT'], ['RPOPLPUSH', 'src', 'src'], ['LMOVE', 'src', 'dst', 'left', 'left'], ['LMOVE', 'src', 'dst', 'UP', 'LEFT'], ['LRANGE', 'src', '0', '-1'], ['LRANGE', 'dst', '0', '-1']],
  [['LMPOP', '2', 'a', 'b', 'LEFT'], ['RPUSH', 'b', '1', '2', '3'], ['LMPOP', '2', 'a', 'b', 'RIGHT', 'COUNT', '2'], ['LMPOP', '2', 'a', 'b', 'LEFT', 'COUNT', '9'], ['LMPOP', '0', 'a', 'LEFT'], ['LMPOP', 'x', 'a', 'LEFT'], ['LMPOP', '3', 'a', 'LEFT'], ['LMPOP', '1', 'a', 'MIDDLE'], ['LMPOP', '1', 'a', 'LEFT', 'COUNT', '0'], ['LMPOP', '1', 'a', 'LEFT', 'COUNT', '1', 'COUNT', '1'], ['SET', 'a', 'v'], ['LMPOP', '1', 'a', 'LEFT']],
  // blocking pops answer at once when a list is there, and their argument errors
  [['RPUSH', 'l', 'a', 'b', 'c'], ['BLPOP', 'nokey', 'l', '0'], ['BRPOP', 'l', '0.5'], ['BLMPOP', '0', '1', 'l', 'LEFT', 'COUNT', '5'], ['BLMPOP', 'x', '0', 'l', 'LEFT'], ['BLMPOP', 'x', '1', 'l', 'LEFT'], ['BLPOP', 'l', '-1'], ['BLPOP', 'l', 'x'], ['BLPOP', 'l', '0x7FFFFFFFFFFFFF'], ['BLPOP', 'l', 'inf'], ['BLMOVE', 'l', 'd', 'UP', 'LEFT', '-1'], ['BLMOVE', 'l', 'd', 'LEFT', 'LEFT', '-1']],
  // WRONGTYPE
  [['SET', 's', 'v'], ['LPUSH', 's', 'a'], ['LPOP', 's'], ['LLEN', 's'], ['LINDEX', 's', 'x'], ['LSET', 's', 'x', 'y'], ['LRANGE', 's', 'x', '1'], ['LRANGE', 's', '0', '1'], ['LREM', 's', '0', 'a'], ['LINSERT', 's', 'foo', 'a', 'b'], ['LINSERT', 's', 'BEFORE', 'a', 'b'], ['LPOS', 's', 'a'], ['LPOS', 's', 'a', 'RANK', '0'], ['BLPOP', 's', '0']],
  // encodings: conversions both ways (a quicklist of two small nodes stays one), the limits of
  // every fill, DUMP
  [['CONFIG', 'SET', 'list-max-listpack-size', '4'], ['RPUSH', 'l', 'a', 'b', 'c', 'd'], ['OBJECT', 'ENCODING', 'l'], ['DUMP', 'l'], ['RPUSH', 'l', 'e'], ['OBJECT', 'ENCODING', 'l'], ['RPOP', 'l'], ['OBJECT', 'ENCODING', 'l'], ['RPOP', 'l', '2'], ['OBJECT', 'ENCODING', 'l'], ['LINSERT', 'l', 'AFTER', 'nope', 'x'], ['LSET', 'l', '0', 'xyz'], ['OBJECT', 'ENCODING', 'l'], ['LSET', 'l', '9', 'q'], ['OBJECT', 'ENCODING', 'l'], ['CONFIG', 'SET', 'list-max-listpack-size', '-2']],
  [['RPUSH', 'l', big(4000), big(4000), 'a'], ['OBJECT', 'ENCODING', 'l'], ['RPUSH', 'l', big(200)], ['OBJECT', 'ENCODING', 'l'], ['DUMP', 'l'], ['LPOP', 'l'], ['OBJECT', 'ENCODING', 'l'], ['LPOP', 'l'], ['OBJECT', 'ENCODING', 'l'], ['LTRIM', 'l', '0', '0'], ['OBJECT', 'ENCODING', 'l'], ['RPUSH', 'l', big(9000)], ['OBJECT', 'ENCODING', 'l'], ['LREM', 'l', '0', big(9000)], ['OBJECT', 'ENCODING', 'l']],
  [['CONFIG', 'SET', 'list-max-listpack-size', '0'], ['RPUSH', 'l', 'a'], ['OBJECT', 'ENCODING', 'l'], ['RPUSH', 'l', 'b'], ['OBJECT', 'ENCODING', 'l'], ['CONFIG', 'SET', 'list-max-listpack-size', '-6'], ['DEL', 'l'], ['RPUSH', 'l', big(60000)], ['OBJECT', 'ENCODING', 'l'], ['RPUSH', 'l', big(5536)], ['OBJECT', 'ENCODING', 'l'], ['CONFIG', 'SET', 'list-max-listpack-size', '-2']],
  // a queue drained from the head: Redis goes back to a listpack only once one node is left
  [['EVAL', "for i = 1, 3000 do redis.call('RPUSH', KEYS[1], 'item:' .. i) end", '1', 'q'], ['OBJECT', 'ENCODING', 'q'], ['EVAL', "for i = 1, 2900 do redis.call('LPOP', KEYS[1]) end", '1', 'q'], ['OBJECT', 'ENCODING', 'q'], ['LPOP', 'q', '40'], ['OBJECT', 'ENCODING', 'q'], ['LPOP', 'q', '30'], ['OBJECT', 'ENCODING', 'q'], ['RPOP', 'q', '10'], ['OBJECT', 'ENCODING', 'q'], ['LREM', 'q', '0', 'item:2990'], ['OBJECT', 'ENCODING', 'q']],
  [['CONFIG', 'SET', 'list-max-listpack-size', '4'], ['RPUSH', 'l', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], ['LINSERT', 'l', 'AFTER', 'b', 'x'], ['LINSERT', 'l', 'BEFORE', 'e', 'y'], ['LSET', 'l', '1', big(9000)], ['LTRIM', 'l', '0', '1'], ['OBJECT', 'ENCODING', 'l'], ['LPOP', 'l'], ['OBJECT', 'ENCODING', 'l'], ['LSET', 'l', '0', 'z'], ['OBJECT', 'ENCODING', 'l'], ['LRANGE', 'l', '0', '-1'], ['CONFIG', 'SET', 'list-max-listpack-size', '-2']],
  [['RPUSH', 'l', '127', '32767', '2147483647', '9223372036854775808', '0', '12', big(31), big(8191)], ['DUMP', 'l'], ['OBJECT', 'ENCODING', 'l'], ['TYPE', 'l'], ['RENAME', 'l', 'm'], ['LRANGE', 'm', '0', '2'], ['TYPE', 'm']],
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('list commands', ({ url, version }) => {
  let port = 48_900 + (version === '7.0' ? 0 : 50);
  it.each(sequenceRows(SEQUENCES, (a) => a.join(' ').slice(0, 40), 200))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 6); // a database of its own: other test files use the server too
    await real.call('CONFIG', 'SET', 'list-max-listpack-size', '-2');
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, seq, { plainReal: bytesNumbersReply, plainFake: bytesNumbersReply, label: cutArgs });
    } finally {
      await real.call('CONFIG', 'SET', 'list-max-listpack-size', '-2');
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
