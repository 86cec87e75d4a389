/**
 * Non-stream values in the RDB encoding (rdb.c `rdbSaveObject` / `rdbLoadObject`).
 *
 * Strings (RDB_TYPE_STRING): rdbSaveStringObject — an integer-looking value of at most 11 chars
 * that fits in 32 bits is integer-encoded, a longer one is LZF-compressed when `rdbcompression`
 * is on and that saves at least 4 bytes, else length + bytes. This equals what Redis writes for
 * its INT, EMBSTR and RAW encodings alike.
 *
 * Lists, sets, sorted sets and hashes are not encoded yet: DUMP and RESTORE of them throw an
 * `UnsupportedRdbType` naming the type (the command turns it into a StreamsMockError).
 */
import type { KeyValue } from './key-value';
import type { RdbFormat } from './payload';
import { RdbFormatError, RdbReader, RdbWriter } from './rdb-io';

export const RDB_TYPE_STRING = 0;

/** A type the fake cannot encode or decode (library limitation, not a Redis error). */
export class UnsupportedRdbType extends Error {
  constructor(readonly typeName: string, message: string) {
    super(message);
    this.name = 'UnsupportedRdbType';
  }
}

/** RDB type bytes of the types Redis has, by name (for the unsupported-type message). */
const KNOWN_TYPES: Record<number, string> = {
  1: 'list',
  2: 'set',
  3: 'zset',
  4: 'hash',
  5: 'zset',
  9: 'hash',
  10: 'list',
  11: 'set',
  12: 'zset',
  13: 'hash',
  14: 'list',
  16: 'hash',
  17: 'zset',
  18: 'list',
  20: 'set',
  22: 'hash',
  23: 'hash',
  24: 'hash',
  25: 'hash',
};

function unsupported(type: string): UnsupportedRdbType {
  return new UnsupportedRdbType(
    type,
    `DUMP/RESTORE of a ${type} value is not emulated (only strings and streams have an RDB encoding here); COPY works for every type`,
  );
}

export function valueTypeByte(value: KeyValue, _format: RdbFormat): number {
  if (value.type === 'string') return RDB_TYPE_STRING;
  throw unsupported(value.type);
}

export function writeValue(w: RdbWriter, value: KeyValue, _format: RdbFormat): void {
  if (value.type === 'string') {
    w.string(value.value);
    return;
  }
  throw unsupported(value.type);
}

/** Read a non-stream value of RDB type `type`. */
export function readValue(r: RdbReader, type: number, _format: RdbFormat): KeyValue {
  if (type === RDB_TYPE_STRING) return { type: 'string', value: r.string() };
  const known = KNOWN_TYPES[type];
  if (known) throw unsupported(known);
  throw new RdbFormatError(`unknown RDB type ${type}`);
}
