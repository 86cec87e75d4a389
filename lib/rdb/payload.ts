/**
 * DUMP payloads (cluster.c `createDumpPayload` / `verifyDumpPayload`, rdb.c `rdbLoadObjectType`):
 *
 *   type byte | value | RDB version (2 bytes LE) | CRC-64 of everything before (8 bytes LE)
 *
 * Pure: no keyspace, no clock. The command modules DUMP and RESTORE wrap it.
 */
import { CollectionFlavor, CollectionLimits, DEFAULT_COLLECTION_LIMITS } from './collections';
import { crc64 } from './crc64';
import type { KeyValue } from './key-value';
import { RdbFormatError, RdbReader, RdbWriter } from './rdb-io';
import { readStream, writeStream } from './stream-codec';
import { readValue, writeValue } from './value-codec';

/** What a Redis version writes and accepts. */
export interface RdbFormat {
  /** RDB_VERSION of the server. */
  readonly rdbVersion: number;
  /** The stream type byte it writes (19, 21, 26 or 27); stream types up to it load. */
  readonly streamType: number;
  /** How lists, sets and sorted sets are encoded in this release. */
  readonly collections: CollectionFlavor;
}

export interface DumpOptions {
  /** `rdbcompression` (default yes). */
  compression: boolean;
  /** The `*-max-listpack-*` / `set-max-intset-entries` limits (default: Redis's defaults). */
  limits?: CollectionLimits;
}

/** The DUMP payload of a value. */
export function createDumpPayload(value: KeyValue, format: RdbFormat, options: DumpOptions): Uint8Array {
  const w = new RdbWriter({ compression: options.compression });
  if (value.type === 'stream') {
    w.byte(format.streamType);
    writeStream(w, value.value, format.streamType);
  } else {
    const inner = new RdbWriter({ compression: options.compression });
    w.byte(writeValue(inner, value, format.collections, options.limits ?? DEFAULT_COLLECTION_LIMITS));
    w.raw(inner.bytes());
  }
  w.byte(format.rdbVersion & 0xff);
  w.byte((format.rdbVersion >> 8) & 0xff);
  const body = w.bytes();
  const crc = crc64(body);
  const out = new Uint8Array(body.length + 8);
  out.set(body);
  new DataView(out.buffer).setBigUint64(body.length, crc, true);
  return out;
}

/**
 * `verifyDumpPayload`: at least 10 bytes, an RDB version not above the server's, and a matching
 * CRC-64 (a zero CRC is not special). False means "ERR DUMP payload version or checksum are wrong".
 */
export function verifyDumpPayload(payload: Uint8Array, format: RdbFormat): boolean {
  if (payload.length < 10) return false;
  const footer = payload.length - 10;
  const rdbver = payload[footer] | (payload[footer + 1] << 8);
  if (rdbver > format.rdbVersion) return false;
  const expected = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getBigUint64(footer + 2, true);
  return crc64(payload, 0n, 0, payload.length - 8) === expected;
}

/** A loaded payload: the value (a stream with its IDMP map). */
export interface LoadedValue {
  value: KeyValue;
}

/**
 * Load a verified payload as `rdbLoadObjectType` + `rdbLoadObject` do (reading may run into the
 * footer, as Redis's buffer reader allows; trailing bytes are ignored).
 * @throws RdbFormatError when Redis would answer "ERR Bad data format"
 */
export function loadDumpPayload(payload: Uint8Array, format: RdbFormat): LoadedValue {
  const r = new RdbReader(payload);
  const type = r.byte();
  if (type === 15 || type === 19 || type === 21 || type === 26 || type === 27) {
    if (type > format.streamType) throw new RdbFormatError(`stream type ${type} unknown to this version`);
    return { value: { type: 'stream', value: readStream(r, type).stream } };
  }
  // the hash types with field TTLs (22, 23: 7.4 release candidates; 24, 25) came with RDB 12 (7.4):
  // unknown to older servers ("Unknown RDB encoding type" → "ERR Bad data format", checked on 7.0.15)
  if (type >= 22 && type <= 25 && format.rdbVersion < 12) throw new RdbFormatError(`RDB type ${type} unknown to this version`);
  return { value: readValue(r, type) };
}
