/**
 * A whole RDB file (rdb.c rdbSaveRio): what a master sends a replica on a full resynchronisation.
 *
 *   "REDIS" + 4-digit RDB version | per non-empty database: SELECTDB n, RESIZEDB sizes, its keys
 *   ([EXPIRETIME_MS at] type key value) | EOF | CRC-64 of everything before (8 bytes LE)
 *
 * A key's type byte and value are those of its DUMP payload (createDumpPayload without its
 * version and CRC footer), so every type DUMP writes is written here the same way.
 */
import { crc64 } from './crc64';
import { RdbWriter } from './rdb-io';

const RDB_OPCODE_EXPIRETIME_MS = 252;
const RDB_OPCODE_RESIZEDB = 251;
const RDB_OPCODE_SELECTDB = 254;
const RDB_OPCODE_EOF = 255;

export interface RdbFileEntry {
  readonly key: string;
  /** The key's DUMP payload (type byte, value, 2-byte version, 8-byte CRC). */
  readonly payload: Uint8Array;
  /** Absolute expiry (ms since the epoch), or undefined. */
  readonly expireAt?: number;
}

export interface RdbFileDb {
  readonly index: number;
  readonly entries: readonly RdbFileEntry[];
}

/** The RDB file of `dbs` (empty databases are left out) in format `rdbVersion`. */
export function createRdbFile(dbs: readonly RdbFileDb[], rdbVersion: number): Uint8Array {
  const w = new RdbWriter({ compression: false });
  w.rawString(`REDIS${String(rdbVersion).padStart(4, '0')}`);
  for (const db of dbs) {
    if (db.entries.length === 0) continue;
    w.byte(RDB_OPCODE_SELECTDB);
    w.len(db.index);
    w.byte(RDB_OPCODE_RESIZEDB);
    w.len(db.entries.length);
    w.len(db.entries.filter((e) => e.expireAt !== undefined).length);
    for (const e of db.entries) {
      if (e.expireAt !== undefined) {
        w.byte(RDB_OPCODE_EXPIRETIME_MS);
        w.millisecondTime(e.expireAt);
      }
      w.byte(e.payload[0]);
      w.string(e.key);
      w.raw(e.payload.subarray(1, e.payload.length - 10));
    }
  }
  w.byte(RDB_OPCODE_EOF);
  const body = w.bytes();
  const out = new Uint8Array(body.length + 8);
  out.set(body);
  new DataView(out.buffer).setBigUint64(body.length, crc64(body), true);
  return out;
}
