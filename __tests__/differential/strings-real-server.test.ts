/**
 * The string and bitmap commands against real servers: the same command sequences on a fresh
 * engine connection and on a real one (RESP2, replies as bytes) must answer the same values and
 * error texts, and change INFO's rdb_changes_since_last_save (server.dirty) by the same count.
 * `REDIS_URL`: redis-server 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 build
 * (emulated 8.0). Values include non-UTF-8 bytes. Skips with a message when a URL is unset.
 */
import { createConnection } from '../../lib/engine';
import { connectReal, describeOnRealServers, expectSameDirty, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = '\xff\xfe\x00\x80'; // not UTF-8
const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';
/** DUMP of the string "123" on redis-server 7.0.15 (RDB 10: both servers restore it). */
const DUMP_123 = '\x00\xc0{\n\x00H\xe2S\xe1\x00zg\xb9';

const SEQUENCES: string[][][] = [
  // 8.4's conditional options and commands do not exist on either server (7.0 / 8.0 modes)
  [['SET', 'k', 'v'], ['SET', 'k', 'w', 'IFEQ', 'v'], ['SET', 'k', 'w', 'IFDNE', 'x', 'GET'], ['SET', 'k', 'w', 'NX', 'IFNE', 'v'], ['DELEX', 'k'], ['DELEX', 'k', 'IFEQ', 'v'],
    ['DIGEST', 'k'], ['MSETEX', '1', 'k', 'v', 'EX', '10'], ['GET', 'k'], ['TTL', 'k']],
  // SET options: conflicts, repeats, GET with NX/XX, KEEPTTL, expire errors
  [['SET', 'k', 'v', 'NX', 'XX'], ['SET', 'k', 'v', 'XX', 'NX'], ['SET', 'k', 'v', 'nx', 'nx'], ['SET', 'k', 'v', 'EX', '10', 'EX', '20'], ['TTL', 'k'],
    ['SET', 'k', 'v', 'KEEPTTL', 'EX', '1'], ['SET', 'k', 'v', 'EX', '1', 'KEEPTTL'], ['SET', 'k', 'v', 'PX', '1', 'EX', '1'], ['SET', 'k', 'v', 'EX'], ['SET', 'k', 'v', 'FOO'],
    ['SET', 'k', 'w', 'KEEPTTL'], ['TTL', 'k'], ['SET', 'k', 'x', 'GET'], ['SET', 'k', 'y', 'GET', 'NX'], ['SET', 'k2', 'y', 'GET', 'XX'], ['EXISTS', 'k2'], ['SET', 'k', 'z', 'get', 'get', 'XX'], ['GET', 'k'], ['TTL', 'k']],
  [['SET', 'k', 'v', 'EX', '0'], ['SET', 'k', 'v', 'EX', '-1'], ['SET', 'k', 'v', 'EX', '9223372036854775'], ['SET', 'k', 'v', 'EX', '9223372036854776'], ['SET', 'k', 'v', 'PX', MAX], ['SET', 'k', 'v', 'PXAT', MAX],
    ['SET', 'k', 'v', 'EX', '1.5'], ['SET', 'k', 'v', 'EX', 'x'], ['SET', 'k', 'v', 'EXAT', '0'], ['SETEX', 'k', '0', 'v'], ['SETEX', 'k', 'x', 'v'], ['PSETEX', 'k', '-5', 'v'], ['SETEX', 'k', '100', 'v'], ['TTL', 'k'], ['PSETEX', 'k', '100000', 'v'], ['TTL', 'k'],
    ['SET', 'old', 'v', 'EXAT', '1'], ['EXISTS', 'old']],
  [['RPUSH', 'l', 'a'], ['SET', 'l', 'v', 'GET'], ['GETSET', 'l', 'v'], ['GETDEL', 'l'], ['GETEX', 'l'], ['GET', 'l'], ['APPEND', 'l', 'x'], ['STRLEN', 'l'], ['SETRANGE', 'l', '0', 'x'], ['GETRANGE', 'l', '0', '1'], ['INCR', 'l'], ['INCRBYFLOAT', 'l', '1'],
    ['SET', 'l', 'v'], ['TYPE', 'l'], ['MGET', 'l', 'nokey']],
  [['SET', 'k', 'v'], ['GETEX', 'k', 'NX'], ['GETEX', 'k', 'PERSIST', 'EX', '10'], ['GETEX', 'k', 'EX', '10', 'PERSIST'], ['GETEX', 'k', 'EX', '-1'], ['GETEX', 'nokey', 'EX', '-1'], ['GETEX', 'k', 'EX', '100'], ['TTL', 'k'],
    ['GETEX', 'k', 'PERSIST'], ['TTL', 'k'], ['GETEX', 'k', 'PERSIST'], ['GETEX', 'k', 'PXAT', '1'], ['EXISTS', 'k'], ['GETDEL', 'k'], ['SET', 'k', 'v'], ['GETDEL', 'k'], ['GETDEL', 'k']],
  [['MSET', 'a', '1', 'b'], ['MSETNX', 'a', '1', 'b'], ['MSET', 'a', '1', 'b', '2', 'a', '3'], ['MGET', 'a', 'b', 'c'], ['MSETNX', 'a', '1', 'c', '2'], ['MSETNX', 'c', '1', 'c', '2'], ['GET', 'c'],
    ['SET', 'd', 'v', 'EX', '100'], ['MSET', 'd', 'w'], ['TTL', 'd'], ['GETSET', 'e', 'v'], ['SET', 'e', 'v', 'EX', '100'], ['GETSET', 'e', 'w'], ['TTL', 'e'], ['SETNX', 'e', 'x'], ['SETNX', 'f', 'x']],
  [['APPEND', 'b', BIN], ['APPEND', 'b', '\u00e9'], ['STRLEN', 'b'], ['GET', 'b'], ['SETRANGE', 'b', '8', BIN], ['GET', 'b'], ['SETRANGE', 'b', '1', ''], ['SETRANGE', 'n', '3', 'x'], ['GET', 'n'], ['SETRANGE', 'n2', '3', ''], ['EXISTS', 'n2'],
    ['SETRANGE', 'b', '-1', 'x'], ['SETRANGE', 'b', MAX, 'x'], ['SETRANGE', 'b', '536870911', 'xx'], ['SETRANGE', 'b', 'x', 'y'], ['SET', 't', 'v', 'EX', '100'], ['APPEND', 't', 'w'], ['SETRANGE', 't', '5', 'z'], ['TTL', 't'], ['GET', 't']],
  [['SET', 'r', 'hello'], ['GETRANGE', 'r', '0', '-100'], ['GETRANGE', 'r', '-100', '-99'], ['GETRANGE', 'r', '-1', '-5'], ['GETRANGE', 'r', '1', '3'], ['GETRANGE', 'r', '-3', '-1'], ['GETRANGE', 'r', '0', MAX], ['GETRANGE', 'r', MIN, MAX],
    ['GETRANGE', 'r', '5', '10'], ['GETRANGE', 'nokey', '0', '-1'], ['GETRANGE', 'r', 'x', '1'], ['SUBSTR', 'r', '1', '2'], ['SET', 'i', '1234'], ['GETRANGE', 'i', '1', '2'], ['SET', 'e', ''], ['GETRANGE', 'e', '0', '-1']],
  [['SET', 'a', 'ohmytext'], ['SET', 'b', 'mynewtext'], ['LCS', 'a', 'b'], ['LCS', 'a', 'b', 'LEN'], ['LCS', 'a', 'b', 'IDX'], ['LCS', 'a', 'b', 'IDX', 'WITHMATCHLEN'], ['LCS', 'a', 'b', 'IDX', 'MINMATCHLEN', '4', 'WITHMATCHLEN'],
    ['LCS', 'a', 'b', 'IDX', 'MINMATCHLEN', '-4'], ['LCS', 'a', 'b', 'MINMATCHLEN'], ['LCS', 'a', 'b', 'LEN', 'IDX'], ['LCS', 'a', 'nokey'], ['LCS', 'a', 'nokey', 'IDX'], ['RPUSH', 'l', 'x'], ['LCS', 'l', 'a', 'FOO'], ['SET', 'c', BIN + 'x'], ['LCS', 'c', 'b']],
  [['SET', 'n', '9007199254740993'], ['INCR', 'n'], ['INCRBY', 'n', '-3'], ['SET', 'n', MAX], ['INCR', 'n'], ['DECRBY', 'n', MIN], ['INCRBY', 'n', '01'], ['SET', 'n', ' 1'], ['INCR', 'n'], ['SET', 'n', '-0'], ['DECR', 'n'],
    ['SET', 'f', '10.5'], ['INCRBYFLOAT', 'f', '0.1'], ['INCRBYFLOAT', 'f', '5.0e3'], ['INCRBYFLOAT', 'f', 'inf'], ['INCRBYFLOAT', 'f', 'x'], ['INCRBYFLOAT', 'g', '0.1'], ['INCRBYFLOAT', 'g', '0.2'], ['GET', 'g'],
    ['SET', 't', '5', 'EX', '100'], ['INCR', 't'], ['INCRBYFLOAT', 't', '1.5'], ['TTL', 't']],
  [['SETBIT', 'b', '7', '1'], ['SETBIT', 'b', '7', '1'], ['SETBIT', 'b', '100', '0'], ['GET', 'b'], ['GETBIT', 'b', '100'], ['SETBIT', 'b', '4294967296', '1'], ['SETBIT', 'b', '0', '2'], ['SET', 's', 'foobar'],
    ['BITCOUNT', 's'], ['BITCOUNT', 's', '1', '1'], ['BITCOUNT', 's', '5', '30', 'BIT'], ['BITCOUNT', 's', '-1', '-2'], ['BITCOUNT', 's', '0'], ['BITCOUNT', 'nokey', 'a', 'b'], ['BITPOS', 'nokey', '1', 'a'],
    ['BITPOS', 's', '1', '2', '-1', 'BIT'], ['BITPOS', 's', '0', '0', '-1'], ['SET', 'ones', '\xff\xff'], ['BITPOS', 'ones', '0'], ['BITPOS', 'ones', '0', '0', '-1'], ['BITPOS', 's', '2']],
  [['SET', 'a', 'foobar'], ['SET', 'b', BIN], ['BITOP', 'AND', 'd', 'a', 'b'], ['GET', 'd'], ['BITOP', 'OR', 'd', 'a', 'b', 'nokey'], ['GET', 'd'], ['BITOP', 'XOR', 'd', 'a', 'b'], ['GET', 'd'], ['BITOP', 'NOT', 'd', 'b'], ['GET', 'd'],
    ['BITOP', 'NOT', 'd', 'a', 'b'], ['BITOP', 'NOPE', 'd', 'a'], ['BITOP', 'AND', 'd', 'x1', 'x2'], ['EXISTS', 'd'], ['RPUSH', 'l', 'x'], ['BITOP', 'AND', 'd', 'a', 'l']],
  [['BITFIELD', 'f', 'SET', 'i8', '0', '100', 'GET', 'i8', '0', 'INCRBY', 'i8', '0', '100', 'OVERFLOW', 'SAT', 'INCRBY', 'i8', '0', '100', 'OVERFLOW', 'FAIL', 'INCRBY', 'i8', '0', '100'],
    ['BITFIELD', 'f', 'SET', 'i64', '0', MIN, 'INCRBY', 'i64', '0', '-1', 'OVERFLOW', 'SAT', 'INCRBY', 'i64', '0', '-1'], ['BITFIELD', 'f', 'SET', 'u63', '0', '-1', 'GET', 'u63', '0', 'GET', 'i64', '0'],
    ['BITFIELD', 'f', 'SET', 'i8', '0', MIN, 'OVERFLOW', 'SAT', 'SET', 'i8', '8', MIN, 'SET', 'u8', '24', '-1'], ['BITFIELD', 'g', 'OVERFLOW', 'FAIL', 'SET', 'i8', '100', '1000'], ['STRLEN', 'g'],
    ['BITFIELD', 'f', 'GET', 'u64', '0'], ['BITFIELD', 'f', 'GET', 'i8', '#-1'], ['BITFIELD', 'f', 'OVERFLOW', 'x'], ['BITFIELD_RO', 'f', 'GET', 'u4', '#3'], ['BITFIELD_RO', 'f', 'SET', 'i8', '0', '1'], ['BITFIELD', 'nokey', 'GET', 'i8', '0']],
  // OBJECT ENCODING of a string changed in place: raw whatever its content; INCRBYFLOAT never int
  [['SET', 'a', '1'], ['APPEND', 'a', 'x'], ['OBJECT', 'ENCODING', 'a'], ['SET', 'b', '12'], ['APPEND', 'b', ''], ['OBJECT', 'ENCODING', 'b'], ['OBJECT', 'REFCOUNT', 'b'],
    ['APPEND', 'c', '5'], ['OBJECT', 'ENCODING', 'c'], ['SET', 'd', '1234'], ['SETRANGE', 'd', '0', '2'], ['OBJECT', 'ENCODING', 'd'], ['SET', 'd', '1234'], ['OBJECT', 'ENCODING', 'd'],
    ['SET', 'e', '1234'], ['SETRANGE', 'e', '0', ''], ['OBJECT', 'ENCODING', 'e'], ['SETRANGE', 'f', '2', 'x'], ['OBJECT', 'ENCODING', 'f'], ['SET', 'h', '1'], ['SETBIT', 'h', '0', '0'],
    ['OBJECT', 'ENCODING', 'h'], ['SETBIT', 'i', '3', '1'], ['OBJECT', 'ENCODING', 'i'], ['SET', 'j', '1.5'], ['INCRBYFLOAT', 'j', '1.5'], ['OBJECT', 'ENCODING', 'j'], ['OBJECT', 'REFCOUNT', 'j'],
    ['INCRBYFLOAT', 'j', '1e50'], ['OBJECT', 'ENCODING', 'j'], ['INCRBYFLOAT', 'k', '5'], ['OBJECT', 'ENCODING', 'k'], ['INCR', 'k'], ['OBJECT', 'ENCODING', 'k'],
    ['SET', 'g', '7'], ['APPEND', 'g', '7'], ['GETEX', 'g', 'PERSIST'], ['OBJECT', 'ENCODING', 'g'], ['GETSET', 'g', '77'], ['OBJECT', 'ENCODING', 'g']],
  // … kept by RENAME and COPY (whose copy of a shared integer is its own), decided by content again by RESTORE; BITOP, BITFIELD and HyperLogLog strings are raw
  [['SET', 'm', '12'], ['APPEND', 'm', '3'], ['RENAME', 'm', 'm2'], ['OBJECT', 'ENCODING', 'm2'], ['COPY', 'm2', 'm3'], ['OBJECT', 'ENCODING', 'm3'],
    ['RESTORE', 'm4', '0', DUMP_123], ['OBJECT', 'ENCODING', 'm4'], ['OBJECT', 'REFCOUNT', 'm4'], ['GET', 'm4'],
    ['SET', 'z', '5'], ['COPY', 'z', 'z2'], ['OBJECT', 'ENCODING', 'z2'], ['OBJECT', 'REFCOUNT', 'z2'], ['RENAME', 'z2', 'z3'], ['OBJECT', 'REFCOUNT', 'z3'], ['OBJECT', 'REFCOUNT', 'z'], ['SET', 's', 'foo'], ['BITOP', 'AND', 'd', 's', 's'], ['OBJECT', 'ENCODING', 'd'],
    ['SET', 'q', '1'], ['BITFIELD', 'q', 'GET', 'i8', '0'], ['OBJECT', 'ENCODING', 'q'], ['BITFIELD', 'q', 'OVERFLOW', 'FAIL', 'INCRBY', 'u2', '0', '100'], ['OBJECT', 'ENCODING', 'q'],
    ['BITFIELD', 'n', 'SET', 'u8', '0', '49'], ['OBJECT', 'ENCODING', 'n'], ['PFADD', 'p', 'a'], ['OBJECT', 'ENCODING', 'p'], ['COPY', 'p', 'p2'], ['PFCOUNT', 'p2'], ['OBJECT', 'ENCODING', 'p2']],
  // a bitmap SETBIT and BITFIELD change in place: copies, renames, dumps and the string commands see each state; no write when nothing changes
  [['SETBIT', 'bm', '1', '1'], ['SETBIT', 'bm', '100', '1'], ['SETBIT', 'bm', '9', '1'], ['GET', 'bm'], ['COPY', 'bm', 'bc'], ['SETBIT', 'bm', '2', '1'], ['GET', 'bc'], ['GET', 'bm'],
    ['DUMP', 'bm'], ['RENAME', 'bm', 'br'], ['SETBIT', 'br', '3', '1'], ['GETBIT', 'br', '3'], ['EXISTS', 'bm'], ['BITCOUNT', 'br'], ['BITCOUNT', 'br', '1', '-1', 'BIT'], ['BITPOS', 'br', '1', '1'],
    ['SETBIT', 'br', '3', '1'], ['BITFIELD', 'br', 'INCRBY', 'u8', '0', '1', 'GET', 'u16', '0'], ['BITFIELD', 'br', 'OVERFLOW', 'FAIL', 'INCRBY', 'u2', '0', '9'], ['APPEND', 'br', 'x'], ['STRLEN', 'br'],
    ['SETBIT', 'br', '200', '1'], ['SETRANGE', 'br', '1', 'zz'], ['GETRANGE', 'br', '0', '3'], ['SETBIT', 'br', '0', '1'], ['GET', 'br'], ['OBJECT', 'ENCODING', 'br'],
    ['SET', 'n', '12'], ['SETBIT', 'n', '6', '1'], ['GET', 'n'], ['INCR', 'n'], ['SETBIT', 'n', '6', '0'], ['GET', 'n'], ['BITFIELD', 'bf', 'SET', 'u8', '16', '255'], ['BITFIELD', 'bf', 'SET', 'u8', '0', '1'],
    ['GET', 'bf'], ['COPY', 'bf', 'bf2'], ['BITFIELD', 'bf', 'SET', 'u8', '8', '7'], ['BITFIELD_RO', 'bf', 'GET', 'u24', '0'], ['GET', 'bf2'], ['GET', 'bf'], ['BITOP', 'OR', 'bo', 'bf', 'bc'], ['GET', 'bo'],
    ['SETBIT', 'bo', '0', '1'], ['GET', 'bf'], ['GETDEL', 'bf'], ['SETBIT', 'bf', '7', '1'], ['GET', 'bf']],
  // SETRANGE writes in place too: a copy and a value read before keep theirs
  [['SET', 's', 'hello'], ['SETRANGE', 's', '1', 'EY'], ['COPY', 's', 's2'], ['GET', 's'], ['SETRANGE', 's', '10', 'x'], ['GET', 's2'], ['GET', 's'], ['SETBIT', 's', '0', '1'],
    ['SETRANGE', 's', '0', BIN], ['GET', 's'], ['STRLEN', 's'], ['APPEND', 's', 'z'], ['SETRANGE', 's', '0', 'a'], ['GET', 's'], ['OBJECT', 'ENCODING', 's'], ['RENAME', 's', 's3'],
    ['SETRANGE', 's3', '2', ''], ['SETRANGE', 's3', '20', 'end'], ['GETRANGE', 's3', '-5', '-1'], ['SET', 'n', '123'], ['SETRANGE', 'n', '3', '4'], ['INCR', 'n'], ['GET', 'n'], ['SETRANGE', 'm', '4', 'x'], ['GET', 'm']],
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('string and bitmap commands', ({ url, version }) => {
  let port = 48_700 + (version === '7.0' ? 0 : 100);
  it.each(sequenceRows(SEQUENCES))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 2, { stringNumbers: true });
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameDirty(real, fake, () => expectSameOutcomes(real, fake, seq));
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
