/**
 * Lists, sets, sorted sets and hashes in the RDB encoding: payloads recorded on redis-server
 * 7.0.15 and on the post-7.4 build for values built element by element, the score texts of
 * each release, and the loader's checks.
 */
import { d2string } from '../../lib/rdb/collections';
import type { KeyValue } from '../../lib/rdb/key-value';
import { createDumpPayload, loadDumpPayload } from '../../lib/rdb/payload';
import { RdbFormatError } from '../../lib/rdb/rdb-io';
import { crc64Bytes } from '../../lib/rdb/crc64';
import { cachedPower } from '../../lib/rdb/fpconv';
import { RDB_FORMAT } from '../../lib/version';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const dump = (v: KeyValue, version: '7.0' | '8.0') =>
  Buffer.from(createDumpPayload(v, RDB_FORMAT[version], { compression: true })).toString('latin1');

/** A payload around a hand-made body (valid footer). */
function payload(body: string, rdbVersion = 12): Uint8Array {
  const b = Buffer.concat([Buffer.from(body, 'latin1'), Buffer.from([rdbVersion, 0])]);
  return new Uint8Array(Buffer.concat([b, Buffer.from(crc64Bytes(b))]));
}

describe('collections DUMP like Redis (recorded payloads)', () => {
  it('a list is one listpack node (7.0: a quicklist of one node; 7.2+: a listpack)', () => {
    const v: KeyValue = { type: 'list', value: ['a', 'b', '12'] };
    expect(dump(v, '7.0')).toBe('\x12\x01\x02\x0f\x0f\x00\x00\x00\x03\x00\x81a\x02\x81b\x02\x0c\x01\xff\n\x00\x1d\xc97:\xed\xb70@');
    expect(dump(v, '8.0')).toBe('\x12\x01\x02\x0f\x0f\x00\x00\x00\x03\x00\x81a\x02\x81b\x02\x0c\x01\xff\x0c\x00\xd6\xbf\x03\xfa\x17\x9d\xae\t');
  });

  it('an all-integer set is an intset, sorted, in the smallest width holding every member', () => {
    const v: KeyValue = { type: 'set', value: ['1', '2', '300000'] };
    expect(dump(v, '7.0')).toBe('\x0b\x14\x04\x00\x00\x00\x03\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\xe0\x93\x04\x00\n\x00t/3HHlj9');
  });

  it('a small set of strings is a listpack in insertion order from 7.2 on (7.0: a hash table)', () => {
    const v: KeyValue = { type: 'set', value: ['b', 'a'] };
    expect(dump(v, '8.0')).toBe('\x14\r\r\x00\x00\x00\x02\x00\x81b\x02\x81a\x02\xff\x0c\x00F\xee\xd9\xf0\xec8\x8b\x83');
    expect(dump(v, '7.0').charCodeAt(0)).toBe(2);
  });

  it('a small sorted set is a listpack by score, scores as 7.0 (%.17g) or 7.2+ (fpconv) print them', () => {
    const v: KeyValue = { type: 'zset', value: [['a', 1.5], ['b', 0.1], ['c', 3]] };
    expect(dump(v, '7.0')).toBe(
      '\x11\xc3#,\r,\x00\x00\x00\x06\x00\x81b\x02\x930.10\xe0\x05\x00\x0f1\x14\x81a\x02\x831.5\x04\x81c\x02\x03\x01\xff\n\x00%r\xe0\x9fnT\xdc\x00',
    );
    expect(dump(v, '8.0')).toBe(
      '\x11\x1c\x1c\x00\x00\x00\x06\x00\x81b\x02\x830.1\x04\x81a\x02\x831.5\x04\x81c\x02\x03\x01\xff\x0c\x00h\xbc\x02\xa6S`\xf7C',
    );
  });

  it('a small hash is a listpack in field order', () => {
    const v: KeyValue = { type: 'hash', value: [['f', 'v'], ['n', '12']] };
    expect(dump(v, '7.0')).toBe('\x10\x12\x12\x00\x00\x00\x04\x00\x81f\x02\x81v\x02\x81n\x02\x0c\x01\xff\n\x00\x016\x94\x81\xd3[\x89t');
  });

  it('switches to skiplist / hash table / quicklist past the default limits', () => {
    const many = Array.from({ length: 600 }, (_, i) => `m${i}`);
    expect(dump({ type: 'zset', value: many.map((m, i) => [m, i] as const) }, '8.0').charCodeAt(0)).toBe(5);
    expect(dump({ type: 'hash', value: [['f', 'x'.repeat(65)]] }, '8.0').charCodeAt(0)).toBe(4);
    expect(dump({ type: 'set', value: many }, '8.0').charCodeAt(0)).toBe(2);
    const list = loadDumpPayload(
      createDumpPayload({ type: 'list', value: many.map((m) => m.repeat(20)) }, RDB_FORMAT['8.0'], { compression: true }),
      RDB_FORMAT['8.0'],
    ).value;
    expect(list).toEqual({ type: 'list', value: many.map((m) => m.repeat(20)) });
  });
});

describe('d2string (sorted-set scores in listpacks)', () => {
  it.each<[number, string, string]>([
    [3, '3', '3'],
    [-0, '-0', '-0'],
    [1.5, '1.5', '1.5'],
    [0.1, '0.10000000000000001', '0.1'],
    [1e21, '1e+21', '1e+21'],
    [1e-7, '9.9999999999999995e-08', '1e-7'],
    [123456.789, '123456.789', '123456.789'],
    [2 ** 62, '4611686018427387904', '4611686018427387904'],
    [9223372036854775807, '9.2233720368547758e+18', '9223372036854776000'],
    [Infinity, 'inf', 'inf'],
    // Grisu2 gives one digit more than the shortest form here; %.17g rounds the tie to even
    [2964595561.100878, '2964595561.1008778', '2.9645955611008778e+9'],
    [2.259829548433712e-11, '2.2598295484337118e-11', '2.2598295484337118e-11'],
    [-171041.5906596727, '-171041.59065967271', '-1.7104159065967271e+5'],
    [43256180864.65028, '43256180864.650284', '43256180864.650284'],
    [-964171874802559.625, '-964171874802559.62', '-964171874802559.6'],
  ])('%p → 7.0 %p, 7.2+ fpconv %p (checked on 7.0.15 and the 7.4+ build)', (x, g17, fpconv) => {
    expect(d2string(x, 'g17')).toBe(g17);
    expect(d2string(x, 'fpconv')).toBe(fpconv);
  });
});

describe('fpconv cached powers of ten', () => {
  it('equal fpconv_powers.h (first, 10^20, last)', () => {
    expect(cachedPower(-348)).toEqual({ frac: 18054884314459144840n, exp: -1220 });
    expect(cachedPower(20)).toEqual({ frac: 12500000000000000000n, exp: 3 });
    expect(cachedPower(340)).toEqual({ frac: 12648080533535911531n, exp: 1066 });
  });
});

describe('collections RESTORE', () => {
  it('reads every encoding back (round trips)', () => {
    const values: KeyValue[] = [
      { type: 'list', value: ['a', '1', 'x'.repeat(9000)] },
      { type: 'set', value: ['1', '-70000', '5'] },
      { type: 'set', value: ['a', 'b'] },
      { type: 'zset', value: [['a', -1.25], ['b', 1e300]] },
      { type: 'hash', value: [['f', '1'], ['g', 'x'.repeat(100)]] },
    ];
    for (const v of values) {
      for (const version of ['7.0', '8.0'] as const) {
        const back = loadDumpPayload(createDumpPayload(v, RDB_FORMAT[version], { compression: true }), RDB_FORMAT[version]).value;
        if (v.type === 'set' && back.type === 'set') expect([...back.value].sort()).toEqual([...v.value].sort());
        else expect(back).toEqual(v);
      }
    }
  });

  it('refuses empty collections, duplicates and a broken intset', () => {
    expect(() => loadDumpPayload(payload('\x02\x00'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError);
    expect(() => loadDumpPayload(payload('\x02\x02\x01a\x01a'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError);
    expect(() => loadDumpPayload(payload('\x0b\x0c\x02\x00\x00\x00\x02\x00\x00\x00\x02\x00\x01\x00'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError);
    expect(() => loadDumpPayload(payload('\x05\x01\x01a\x00\x00\x00\x00\x00\x00\xf8\x7f'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError); // NaN score
  });

  it('refuses a pre-7.0 hash ziplist that is an empty string and a truncated hash with field TTLs as bad data', () => {
    // the old encodings load (__tests__/rdb/restore-loads-old-encodings-and-refuses-malformed-ones.test.ts)
    expect(() => loadDumpPayload(payload('\x0d\x00'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError);
    // type 25 (RDB_TYPE_HASH_LISTPACK_EX) is read since the hash family owns field TTLs
    // (__tests__/rdb/hash-field-ttls.test.ts); this one stops after its type byte
    expect(() => loadDumpPayload(payload('\x19\x00'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError);
    expect(() => loadDumpPayload(payload('\x3f\x00'), RDB_FORMAT['8.0'])).toThrow(RdbFormatError);
    expect(bytes('x')).toHaveLength(1);
  });
});
