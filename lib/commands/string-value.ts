/**
 * String values as the string commands (./strings.ts, ./incr.ts, ./bitops.ts) read them from the
 * keyspace. A Redis string is stored as a byte string (one char per byte); values written by
 * ioredis-mock's emulators before the string family became the engine's may still be a Buffer
 * (its bytes) or a number (its decimal text). Anything else is another Redis type: WRONGTYPE.
 */
import { StreamsMockError } from '../clock/clock';
import { ERR_WRONGTYPE, fail } from '../errors';
import type { Db } from './types';
import type { StringMark } from '../model/string-encoding';

/**
 * The XXH3-64 digest of a byte string as Redis 8.4's DIGEST prints it (16 lower-case hex digits).
 * lib/bytes/xxh3.ts loads on the first digest (DIGEST, SET/DELEX IFDEQ/IFDNE), not with the package.
 */
export function digestOf(bytes: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only the digest commands need it
  return (require('../bytes/xxh3') as typeof import('../bytes/xxh3')).xxh3Hex(bytes);
}

/**
 * A digest compared with a value's (IFDEQ/IFDNE of SET and DELEX): 16 characters, compared
 * without regard to case (redis/redis#14502, 8.4: strcasecmp after a length check whose reply is
 * `must be exactly 16 hexadecimal characters`, addReplyError's `ERR ` before it).
 * @throws CommandError when `digest` is not 16 characters long
 */
export function digestMatches(bytes: string, digest: string): boolean {
  if (digest.length !== 16) fail(ERR_DIGEST_LENGTH);
  return digestOf(bytes) === digest.toLowerCase();
}

/** IFDEQ/IFDNE given a digest that is not 16 characters long (redis/redis#14502). */
export const ERR_DIGEST_LENGTH = 'ERR must be exactly 16 hexadecimal characters';

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
  if (typeof v === 'string') {
    db.keyHit();
    return v;
  }
  if (v === undefined) {
    db.keyMiss(key);
    return undefined;
  }
  db.keyHit();
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

/**
 * Bitmaps: string values that SETBIT, BITFIELD and SETRANGE change in place — Buffers over a
 * zero-filled ArrayBuffer of their own (from byte 0, with room to grow), stored as the key's
 * string, so that such a write costs the bytes it writes however long the string is (Redis
 * changes its sds in place; a JS string would be copied whole by every write). Any other stored
 * Buffer (ioredis-mock's data API) is copied into a new bitmap first. Readers of the string (GET,
 * DUMP, COPY …) see the bytes through `bytesOfStored`; the bit commands read the Buffer itself.
 */
const ownBitmaps = new WeakSet<Buffer>();

/** The string at `key` for the bit commands: a byte string or a bitmap, undefined when missing; WRONGTYPE for another type. */
export function bitsAt(db: Db, key: string, read: boolean): string | Buffer | undefined {
  const v = db.lookup(key);
  if (v === undefined) {
    if (read) db.keyMiss(key); // lookupKeyRead (stringForRead)
    return undefined;
  }
  if (read) db.keyHit();
  if (typeof v === 'string' || Buffer.isBuffer(v)) return v;
  const s = bytesOfStored(v);
  if (s === undefined) fail(ERR_WRONGTYPE);
  return s;
}

/** Byte `i` of a byte string or a bitmap (`i` below its length). */
export function byteAt(v: string | Uint8Array, i: number): number {
  return typeof v === 'string' ? v.charCodeAt(i) : v[i];
}

/** Bitmap growth: doubling up to 1 MB, then 1 MB more at a time (sds.c sdsMakeRoomFor's greedy policy). */
const BITMAP_GROWTH_LIMIT = 1024 * 1024;

/**
 * `v`'s bytes as a bitmap the caller may change in place, at least `length` bytes long (zero
 * bytes after `v`'s): `v` itself when it is one long enough, a longer view of its ArrayBuffer
 * when that has room, else a new bitmap.
 * @throws StreamsMockError past the longest JavaScript string (the library's limit)
 */
export function writableBitmap(v: string | Buffer | undefined, length: number): Buffer {
  if (length > MAX_JS_STRING) {
    throw new StreamsMockError(`a string of ${length} bytes is longer than JavaScript strings can be (${MAX_JS_STRING}); Redis would store it`);
  }
  if (v !== undefined && typeof v !== 'string' && ownBitmaps.has(v)) {
    if (length <= v.length) return v;
    if (length <= v.buffer.byteLength) {
      const grown = Buffer.from(v.buffer, 0, length);
      ownBitmaps.add(grown);
      return grown;
    }
  }
  const n = v === undefined ? 0 : v.length;
  const size = Math.max(n, length);
  const room = size < BITMAP_GROWTH_LIMIT ? Math.max(16, size * 2) : size + BITMAP_GROWTH_LIMIT;
  const bitmap = Buffer.alloc(Math.min(room, MAX_JS_STRING)).subarray(0, size);
  if (typeof v === 'string') bitmap.write(v, 0, 'latin1');
  else if (v !== undefined) v.copy(bitmap);
  ownBitmaps.add(bitmap);
  return bitmap;
}
