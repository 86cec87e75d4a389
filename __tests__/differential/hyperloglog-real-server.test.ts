/**
 * The HyperLogLog commands against real servers: the same command sequences on a fresh engine
 * connection and on a real one (RESP2, replies as bytes) must answer the same values and error
 * texts — PFCOUNT estimates, and the key's bytes as GET and DUMP show them (sparse opcodes, dense
 * registers, the cached cardinality in the header) — and change INFO's
 * rdb_changes_since_last_save (server.dirty) by the same count. `REDIS_URL`: redis-server 7.0.15
 * (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 build (emulated 8.0). Elements include
 * non-UTF-8 bytes; corrupted and forged HyperLogLog strings are written with SET/SETRANGE/APPEND.
 * Skips with a message when a URL is unset.
 */
import { createConnection } from '../../lib/engine';
import { connectReal, describeOnRealServers, expectSameDirty, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = '\xff\xfe\x00\x80'; // not UTF-8

/** Deterministic elements: `n` strings from a linear congruential generator, some binary. */
function elements(n: number, seed: number): string[] {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(i % 7 === 0 ? String.fromCharCode(x & 0xff, (x >>> 8) & 0xff, 0x80 | (x >>> 16) & 0x7f) : `e${x}`);
  }
  return out;
}

/** A HyperLogLog header: magic, encoding, 3 unused bytes, the cached cardinality bytes. */
function header(encoding: number, card: number[]): string {
  return 'HYLL' + String.fromCharCode(encoding, 0, 0, 0, ...card);
}
const INVALID_CARD = [0, 0, 0, 0, 0, 0, 0, 0x80];
/** A dense HyperLogLog whose 16384 registers all hold `value` (6 bits, packed LSB first). */
function denseAll(value: number): string {
  const b = new Uint8Array(12288);
  for (let r = 0; r < 16384; r++) {
    const bit = r * 6;
    const v = value << (bit & 7);
    b[bit >> 3] |= v & 0xff;
    if ((bit & 7) > 2) b[(bit >> 3) + 1] |= v >> 8;
  }
  return header(0, INVALID_CARD) + Buffer.from(b).toString('latin1');
}
/** XZERO opcode for `n` zero registers (1 … 16384). */
const xzero = (n: number) => String.fromCharCode(0x40 | ((n - 1) >> 8), (n - 1) & 0xff);
/** VAL opcode: `len` (1 … 4) registers of `value` (1 … 32). */
const val = (value: number, len: number) => String.fromCharCode(0x80 | ((value - 1) << 2) | (len - 1));

const COMMON: string[][][] = [
  // creation, the cache written by PFCOUNT, binary elements, the empty element, DUMP of the bytes
  [['PFADD', 'h'], ['GET', 'h'], ['PFCOUNT', 'h'], ['PFADD', 'h', 'a', 'b', 'c'], ['GET', 'h'], ['PFCOUNT', 'h'], ['GET', 'h'], ['PFCOUNT', 'h'], ['PFADD', 'h', 'a', 'b', 'c'], ['GET', 'h'],
    ['PFADD', 'h', '', BIN, '\u00e9'], ['GET', 'h'], ['PFCOUNT', 'h'], ['DUMP', 'h'], ['STRLEN', 'h'], ['TYPE', 'h'], ['PFDEBUG', 'DECODE', 'h'], ['PFDEBUG', 'encoding', 'h']],
  // many elements in one call and in several: the sparse opcodes, then PFCOUNT
  [['PFADD', 's', ...elements(300, 1)], ['GET', 's'], ['PFCOUNT', 's'], ['PFADD', 's', ...elements(200, 2)], ['GET', 's'], ['PFCOUNT', 's'], ['PFDEBUG', 'ENCODING', 's'],
    ['PFADD', 's', ...elements(300, 1)], ['PFCOUNT', 's']],
  // promotion to dense at hll-sparse-max-bytes 3000, the dense bytes, PFCOUNT and DUMP of them
  [['PFADD', 'd', ...elements(1200, 3)], ['STRLEN', 'd'], ['PFDEBUG', 'ENCODING', 'd'], ['PFADD', 'd', ...elements(1200, 4)], ['STRLEN', 'd'], ['PFDEBUG', 'ENCODING', 'd'], ['GET', 'd'],
    ['PFCOUNT', 'd'], ['GET', 'd'], ['DUMP', 'd'], ['PFADD', 'd', ...elements(5000, 5)], ['PFCOUNT', 'd'], ['PFDEBUG', 'TODENSE', 'd'], ['PFDEBUG', 'DECODE', 'd']],
  // PFCOUNT of several keys (nothing written), PFMERGE (dest as a source, missing sources, dense source)
  [['PFADD', 'a', ...elements(100, 6)], ['PFADD', 'b', ...elements(100, 7)], ['PFADD', 'c', ...elements(3000, 8)], ['PFCOUNT', 'a', 'b'], ['GET', 'a'], ['PFCOUNT', 'a', 'b', 'c', 'nokey'],
    ['PFMERGE', 'm', 'a', 'b', 'nokey'], ['GET', 'm'], ['PFCOUNT', 'm'], ['PFMERGE', 'm', 'c'], ['PFDEBUG', 'ENCODING', 'm'], ['GET', 'm'], ['PFCOUNT', 'm'], ['PFMERGE', 'a', 'b'], ['GET', 'a'],
    ['PFMERGE', 'empty'], ['GET', 'empty'], ['PFMERGE', 'empty2', 'nokey1', 'nokey2'], ['GET', 'empty2'], ['PFCOUNT', 'nokey'], ['PFCOUNT', 'nokey', 'nokey2']],
  // the TTL stays through PFADD, PFCOUNT and PFMERGE (in-place changes)
  [['PFADD', 't', 'x'], ['EXPIRE', 't', '100'], ['PFADD', 't', 'y'], ['TTL', 't'], ['PFCOUNT', 't'], ['TTL', 't'], ['PFMERGE', 't', 'nokey'], ['TTL', 't'], ['PFDEBUG', 'TODENSE', 't'], ['TTL', 't']],
  // hll-sparse-max-bytes: a small limit promotes early, a limit below the current length too
  [['CONFIG', 'SET', 'hll-sparse-max-bytes', '40'], ['PFADD', 'p', 'a', 'b', 'c', 'd'], ['STRLEN', 'p'], ['PFDEBUG', 'ENCODING', 'p'], ['PFADD', 'p', ...elements(20, 9)], ['PFDEBUG', 'ENCODING', 'p'],
    ['STRLEN', 'p'], ['PFCOUNT', 'p'], ['CONFIG', 'SET', 'hll-sparse-max-bytes', '3000'], ['PFADD', 'q', ...elements(50, 10)], ['CONFIG', 'SET', 'hll-sparse-max-bytes', '30'], ['PFADD', 'q', ...elements(3, 11)],
    ['PFDEBUG', 'ENCODING', 'q'], ['CONFIG', 'SET', 'hll-sparse-max-bytes', '1kb'], ['CONFIG', 'GET', 'hll-sparse-max-bytes'], ['CONFIG', 'SET', 'hll-sparse-max-bytes', '-1'], ['CONFIG', 'SET', 'hll-sparse-max-bytes', '3000']],
  // type errors, invalid HyperLogLog strings, arity
  [['RPUSH', 'l', 'x'], ['PFADD', 'l', 'x'], ['PFCOUNT', 'l'], ['PFCOUNT', 'nokey', 'l'], ['PFMERGE', 'l', 'nokey'], ['PFMERGE', 'nokey', 'l'], ['PFDEBUG', 'GETREG', 'l'], ['EXISTS', 'nokey'],
    ['SET', 's', 'bar'], ['PFADD', 's', 'x'], ['PFCOUNT', 's'], ['PFMERGE', 'x', 's'], ['EXISTS', 'x'], ['SET', 's', '123'], ['PFCOUNT', 's'], ['SET', 's', 'HYLL'], ['PFCOUNT', 's'],
    ['SET', 's', header(2, INVALID_CARD) + xzero(16384)], ['PFCOUNT', 's'], ['SET', 's', header(0, INVALID_CARD) + xzero(16384)], ['PFCOUNT', 's'], ['PFDEBUG', 'ENCODING', 'nokey'], ['PFDEBUG', 'NOPE', 'nokey'],
    ['PFADD', 'h', 'a'], ['PFDEBUG', 'NOPE', 'h'], ['PFDEBUG', 'getreg', 'h', 'x'], ['PFADD'], ['PFCOUNT'], ['PFMERGE'], ['PFSELFTEST', 'x']],
  // the corruptions of Redis's suite: extra bytes at the tail, broken magic, bad encoding, dense of the wrong length
  [['PFADD', 'h', 'a', 'b', 'c'], ['APPEND', 'h', 'hello'], ['PFCOUNT', 'h'], ['PFCOUNT', 'h', 'nokey'], ['PFMERGE', 'm', 'h'], ['EXISTS', 'm'], ['PFADD', 'h', 'zzz'], ['GET', 'h'],
    ['DEL', 'h'], ['PFADD', 'h', 'a', 'b', 'c'], ['SETRANGE', 'h', '0', '0123'], ['PFCOUNT', 'h'], ['DEL', 'h'], ['PFADD', 'h', 'a', 'b', 'c'], ['SETRANGE', 'h', '4', 'x'], ['PFCOUNT', 'h'],
    ['DEL', 'h'], ['PFADD', 'h', 'a', 'b', 'c'], ['SETRANGE', 'h', '4', '\x00'], ['PFCOUNT', 'h']],
  // forged strings: a valid cached cardinality is answered as stored; registers too short
  [['SET', 'f', header(1, [0x39, 0x30, 0, 0, 0, 0, 0, 0]) + xzero(16384)], ['PFCOUNT', 'f'], ['PFCOUNT', 'f', 'nokey'], ['GET', 'f'],
    ['SET', 'f', header(1, [1, 2, 3, 4, 5, 6, 7, 0x7f]) + xzero(16384)], ['PFCOUNT', 'f'],
    ['SET', 'f', header(1, INVALID_CARD) + xzero(16000)], ['PFCOUNT', 'f'], ['PFCOUNT', 'f', 'nokey'], ['PFADD', 'f', ...elements(50, 12)], ['GET', 'f'], ['PFDEBUG', 'TODENSE', 'f'],
    ['SET', 'f', header(1, INVALID_CARD) + xzero(100) + val(3, 2) + xzero(16282)], ['PFCOUNT', 'f'], ['PFDEBUG', 'DECODE', 'f'], ['PFADD', 'f', ...elements(30, 13)], ['PFDEBUG', 'DECODE', 'f'],
    ['SET', 'f', header(1, INVALID_CARD) + String.fromCharCode(0, 0) + xzero(16382)], ['PFADD', 'f', ...elements(5, 14)], ['GET', 'f'], ['PFCOUNT', 'f']],
  // forged dense strings: register values above the sparse maximum (32) and the estimator's extremes
  [['SET', 'x', denseAll(40)], ['PFCOUNT', 'x'], ['PFADD', 'sp', 'a'], ['PFMERGE', 'sp', 'x'], ['PFDEBUG', 'ENCODING', 'sp'], ['PFCOUNT', 'sp'], ['GET', 'sp'],
    ['SET', 'x', denseAll(51)], ['PFCOUNT', 'x'], ['SET', 'x', denseAll(1)], ['PFCOUNT', 'x'], ['SET', 'x', denseAll(63)], ['PFCOUNT', 'x'], ['GET', 'x'], ['PFCOUNT', 'x', 'nokey'],
    ['PFADD', 'x', 'a'], ['SET', 'x', denseAll(32)], ['PFCOUNT', 'x'], ['PFMERGE', 'sp2', 'x'], ['PFDEBUG', 'ENCODING', 'sp2']],
  // VAL opcodes after the 16384 registers: refused since the CVE-2025-32023 fix (Debian's 7.0.15),
  // accepted by PFCOUNT of several keys, PFMERGE and GETREG on the post-7.4 build (emulated 8.0)
  [['SET', 'v', header(1, INVALID_CARD) + xzero(16384) + val(5, 1)], ['PFCOUNT', 'v'], ['PFCOUNT', 'v', 'nokey'], ['PFMERGE', 'm', 'v'], ['GET', 'm'], ['PFADD', 'v', ...elements(40, 15)],
    ['PFDEBUG', 'GETREG', 'v'], ['GET', 'v']],
];

/** A reply for the test title and failure output: long byte strings shortened. */
function short(argv: readonly string[]): string {
  return argv.map((a) => (a.length > 12 ? `${a.slice(0, 8)}…(${a.length})` : a)).join(' ');
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('HyperLogLog commands', ({ url, version }) => {
  let port = 48_900 + (version === '7.0' ? 0 : 100);
  it.each(sequenceRows(COMMON, short))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 1, { stringNumbers: true });
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameDirty(real, fake, () => expectSameOutcomes(real, fake, seq, { label: short }));
    } finally {
      await real.call('CONFIG', 'SET', 'hll-sparse-max-bytes', '3000');
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
