/**
 * OBJECT ENCODING of a string value, decided by its content as Redis's `tryObjectEncoding`
 * (object.c) decides it for a value stored by SET, SETNX, SETEX, PSETEX, GETSET, MSET, MSETNX and
 * APPEND on a missing key (the same in 7.0.15 and the post-7.4 tree):
 * - `int`: at most 20 bytes that `string2l` reads whole — a canonical signed 64-bit decimal
 *   (no sign `+`, no leading zero, no `-0`, no spaces);
 * - `embstr`: otherwise, at most 44 bytes (OBJ_ENCODING_EMBSTR_SIZE_LIMIT);
 * - `raw`: longer.
 *
 * A value a command built or changed in place keeps the encoding that command gave it, whatever
 * its content (checked on 7.0.15 and the post-7.4 build), marked on the key (`StringMark`,
 * kept by the key store until the key gets a fresh value):
 * - `raw`: APPEND to an existing key (even of ""), SETRANGE of a non-empty text (an existing key
 *   or a new one), SETBIT, BITFIELD, BITOP's destination, every HyperLogLog (PFADD, PFMERGE …):
 *   dbUnshareStringValue / createObject(OBJ_STRING, sds) / createRawStringObject;
 * - `float`: INCRBYFLOAT's result (createStringObjectFromLongDouble): `embstr` up to 44 bytes,
 *   else `raw`, never `int`.
 * - `unshared`: COPY's duplicate of a string (dupStringObject): its encoding by content, but an
 *   `int` is an object of its own, never one of the shared integers (OBJECT REFCOUNT 1).
 * - an `SdsBlock`: `raw`, and APPEND grew its sds in place (sds.c sdsMakeRoomFor's greedy room):
 *   the allocation MEMORY USAGE counts (lib/stats/object-size.ts).
 * RENAME and MOVE keep the mark (the same object), COPY keeps `raw`/`float` (dupStringObject
 * keeps the encoding; its copy of a grown sds fits its length); RESTORE decides by content
 * (rdbLoadObject's tryObjectEncoding), as SET does.
 */

/**
 * A raw string's sds as allocated: its header's size, the block `zmalloc_size` reports and the
 * bytes it may hold (`sdsalloc`: the block less the header and terminator, or its length once
 * sdsRemoveFreeSpace trimmed it).
 */
export interface SdsBlock {
  readonly hdr: number;
  readonly block: number;
  readonly alloc: number;
}

/** How a string's encoding was decided when not by its content alone (see above). */
export type StringMark = 'raw' | 'float' | 'unshared' | SdsBlock;

/** True for the marks of a raw string (`raw`, or a raw string with its allocation). */
export function isRawMark(mark: StringMark | undefined): boolean {
  return mark === 'raw' || typeof mark === 'object';
}

/** The encoding of the byte string `value`: tryObjectEncoding's, or as `mark` decided it (see above). */
export function stringEncoding(value: string, mark?: StringMark): 'int' | 'embstr' | 'raw' {
  const n = value.length;
  if (isRawMark(mark)) return 'raw';
  if ((mark === undefined || mark === 'unshared') && n <= 20 && isLongLong(value)) return 'int';
  return n <= 44 ? 'embstr' : 'raw';
}

const LLONG_MAX_DIGITS = '9223372036854775807';
const LLONG_MIN_DIGITS = '9223372036854775808';

/** util.c string2ll accepts `s` whole: "0", or an optional '-' then 1-9 then digits, in range. */
function isLongLong(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (n === 1 && s === '0') return true;
  const neg = s.charCodeAt(0) === 45;
  const from = neg ? 1 : 0;
  if (from >= n) return false;
  const first = s.charCodeAt(from);
  if (first < 49 || first > 57) return false;
  for (let i = from + 1; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  const digits = n - from;
  if (digits < 19) return true;
  if (digits > 19) return false;
  const body = neg ? s.slice(1) : s;
  return body <= (neg ? LLONG_MIN_DIGITS : LLONG_MAX_DIGITS);
}
