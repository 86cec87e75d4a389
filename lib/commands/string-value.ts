/**
 * String values as the string commands (./strings.ts, ./incr.ts, ./bitops.ts) read them from the
 * keyspace. A Redis string is stored as a byte string (one char per byte); values written by
 * ioredis-mock's emulators before the string family became the engine's may still be a Buffer
 * (its bytes) or a number (its decimal text). Anything else is another Redis type: WRONGTYPE.
 */
import { ERR_WRONGTYPE, fail } from '../errors';
import type { Db } from './types';
import type { StringMark } from '../model/string-encoding';

/** The byte string of a stored value that is a Redis string, or undefined for any other type. */
export function bytesOfStored(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  return undefined;
}

/**
 * The string at `key` as Redis's lookupKeyWrite + checkType see it: undefined when the key is
 * missing; throws WRONGTYPE when it holds another type. No keyspace event.
 */
export function stringForWrite(db: Db, key: string): string | undefined {
  const v = db.lookup(key);
  if (typeof v === 'string' || v === undefined) return v;
  const s = bytesOfStored(v);
  if (s === undefined) fail(ERR_WRONGTYPE);
  return s;
}

/**
 * The string at `key` as Redis's lookupKeyRead + checkType see it (GET, STRLEN, GETRANGE …):
 * undefined when the key is missing, after the `keymiss` event (class `m`, db.c
 * lookupKeyReadWithFlags, 6.0+); throws WRONGTYPE when it holds another type.
 */
export function stringForRead(db: Db, key: string): string | undefined {
  const v = db.lookup(key);
  if (typeof v === 'string') return v;
  if (v === undefined) {
    db.notifyEvent('m', 'keymiss', key);
    return undefined;
  }
  const s = bytesOfStored(v);
  if (s === undefined) fail(ERR_WRONGTYPE);
  return s;
}

/**
 * Store the string `value` (a byte string, or a bitmap of the bit commands: lib/commands/bitops.ts)
 * at `key` as Redis's setKey / dbAdd: the `new` event (class `n`,
 * db.c dbAdd, 7.0+) when the key was missing (`existed` false); the TTL is dropped unless
 * `keepTtl`.
 */
export function storeString(db: Db, key: string, value: string | Buffer, existed: boolean, keepTtl = false, mark?: StringMark): void {
  db.store(key, value, keepTtl, mark);
  if (!existed) db.notifyEvent('n', 'new', key);
}

/** V8's longest string (2^29 − 24 chars on 64-bit): a byte string of the fake cannot be longer. */
export const MAX_JS_STRING = 536870888;

/** The server's proto-max-bulk-len (CONFIG; default 512 MB). */
export function protoMaxBulkLen(db: Db): number {
  const v = db.config?.get('proto-max-bulk-len');
  return v === undefined ? 536870912 : Number(v);
}
