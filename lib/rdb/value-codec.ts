/**
 * Non-stream values in the RDB encoding (rdb.c `rdbSaveObject` / `rdbLoadObject`).
 *
 * Strings (RDB_TYPE_STRING): rdbSaveStringObject — an integer-looking value of at most 11 chars
 * that fits in 32 bits is integer-encoded, a longer one is LZF-compressed when `rdbcompression`
 * is on and that saves at least 4 bytes, else length + bytes. This equals what Redis writes for
 * its INT, EMBSTR and RAW encodings alike.
 *
 * Lists, sets, sorted sets and hashes: ./collections.ts. The pre-7.0 encodings (ziplists,
 * zipmaps: types 9, 10, 12, 13, 14) and 7.4's hashes with field TTLs (22–25) are not read: RESTORE
 * of them throws an `UnsupportedRdbType` naming the type (the command turns it into a
 * StreamsMockError).
 */
import { CollectionFlavor, CollectionLimits, decodeCollection, encodeCollection } from './collections';
import type { KeyValue } from './key-value';
import { RdbFormatError, RdbReader, RdbWriter } from './rdb-io';

export const RDB_TYPE_STRING = 0;

/** A type the fake cannot encode or decode (library limitation, not a Redis error). */
export class UnsupportedRdbType extends Error {
  constructor(readonly typeName: string, message: string) {
    super(message);
    this.name = 'UnsupportedRdbType';
  }
}

/** RDB types Redis loads that the fake does not read, with what they hold. */
const UNREAD_TYPES: Record<number, string> = {
  1: 'list (RDB_TYPE_LIST, before 3.2)',
  9: 'hash (zipmap, before 2.6)',
  10: 'list (ziplist, before 3.2)',
  12: 'zset (ziplist, before 7.0)',
  13: 'hash (ziplist, before 7.0)',
  14: 'list (quicklist of ziplists, before 7.0)',
  22: 'hash with field TTLs (7.4 RC)',
  23: 'hash with field TTLs (7.4 RC)',
  24: 'hash with field TTLs',
  25: 'hash with field TTLs',
};

/** Write a non-stream value; returns its RDB type byte. */
export function writeValue(w: RdbWriter, value: Exclude<KeyValue, { type: 'stream' }>, flavor: CollectionFlavor, limits: CollectionLimits): number {
  if (value.type === 'string') {
    w.string(value.value);
    return RDB_TYPE_STRING;
  }
  return encodeCollection(w, value, flavor, limits);
}

/** Read a non-stream value of RDB type `type`. */
export function readValue(r: RdbReader, type: number): KeyValue {
  if (type === RDB_TYPE_STRING) return { type: 'string', value: r.string() };
  const collection = decodeCollection(r, type);
  if (collection) return collection;
  const unread = UNREAD_TYPES[type];
  if (unread) throw new UnsupportedRdbType(unread, `RESTORE of a ${unread} payload is not emulated`);
  throw new RdbFormatError(`unknown RDB type ${type}`);
}
