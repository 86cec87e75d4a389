/**
 * Non-stream values in the RDB encoding (rdb.c `rdbSaveObject` / `rdbLoadObject`).
 *
 * Strings (RDB_TYPE_STRING): rdbSaveStringObject — an integer-looking value of at most 11 chars
 * that fits in 32 bits is integer-encoded, a longer one is LZF-compressed when `rdbcompression`
 * is on and that saves at least 4 bytes, else length + bytes. This equals what Redis writes for
 * its INT, EMBSTR and RAW encodings alike.
 *
 * Lists, sets, sorted sets and hashes: ./collections.ts, in every encoding Redis loads — the
 * pre-7.0 ones too (plain lists, zipmaps, ziplists, quicklists of ziplists: types 1, 9, 10, 12,
 * 13, 14, validated deeply as Redis always does for them: ./ziplist.ts) and the hashes with
 * field TTLs (22–25). Anything malformed is an RdbFormatError ("ERR Bad data format"); no
 * payload makes a library error.
 */
import { CollectionFlavor, CollectionLimits, decodeCollection, encodeCollection } from './collections';
import type { KeyValue } from './key-value';
import { RdbFormatError, RdbReader, RdbWriter } from './rdb-io';

export const RDB_TYPE_STRING = 0;

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
  throw new RdbFormatError(`unknown RDB type ${type}`);
}
