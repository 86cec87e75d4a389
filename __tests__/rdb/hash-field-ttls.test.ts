/**
 * DUMP/RESTORE of hashes with field TTLs (Redis 7.4 RDB types 24 and 25, rdb.c rdbSaveObject /
 * rdbLoadObject). The listpack bytes below are the body of `DUMP hd` on the post-7.4 build after
 * `HSET hd a 1 b 2 c 3` + `HPEXPIREAT hd 4102444800000 FIELDS 1 b`.
 */
import { RdbReader, RdbWriter } from '../../lib/rdb/rdb-io';
import { readValue, writeValue } from '../../lib/rdb/value-codec';
import { DEFAULT_COLLECTION_LIMITS } from '../../lib/rdb/collection-limits';
import { RDB_FORMAT } from '../../lib/version';
import type { KeyValue } from '../../lib/rdb/key-value';

const FLAVOR = RDB_FORMAT['8.0'].collections;
const BUILD_BODY = Buffer.from(
  '00d8c32cbb0300002424000000090081620202' + '01f400d8c32cbb030000' + '0981610201010001816302030100' + '01ff',
  'hex',
);

function roundTrip(v: KeyValue, limits = DEFAULT_COLLECTION_LIMITS): { type: number; bytes: Uint8Array; back: KeyValue } {
  const w = new RdbWriter({ compression: false });
  const type = writeValue(w, v as Exclude<KeyValue, { type: 'stream' }>, FLAVOR, limits);
  const bytes = w.bytes();
  return { type, bytes, back: readValue(new RdbReader(bytes), type) };
}

describe('hash field TTLs in DUMP payloads (7.4 RDB types)', () => {
  const hash: KeyValue = {
    type: 'hash',
    value: [['b', '2'], ['a', '1'], ['c', '3']],
    fieldExpiries: new Map([['b', 4102444800000]]),
  };

  it('writes a small hash as RDB_TYPE_HASH_LISTPACK_EX, byte for byte as redis-server does', () => {
    const { type, bytes, back } = roundTrip(hash);
    expect(type).toBe(25);
    expect(Buffer.from(bytes).toString('hex')).toBe(BUILD_BODY.toString('hex'));
    // read back as a listpack with TTLs (type 25 loads as OBJ_ENCODING_LISTPACK_EX)
    expect(back).toEqual({ ...hash, listpackEx: true });
  });

  it('writes a big hash as RDB_TYPE_HASH_METADATA with TTLs relative to the least one', () => {
    const { type, back } = roundTrip(hash, { ...DEFAULT_COLLECTION_LIMITS, hashMaxListpackEntries: 1 });
    expect(type).toBe(24);
    expect(back).toEqual(hash);
  });

  it('keeps the plain hash types when no field has a TTL', () => {
    expect(roundTrip({ type: 'hash', value: [['a', '1']] }).type).toBe(16);
    expect(roundTrip({ type: 'hash', value: [['a', '1']], fieldExpiries: new Map() }).type).toBe(16);
  });
});
