/**
 * OBJECT ENCODING of a string value, decided by its content as Redis's `tryObjectEncoding`
 * (object.c) decides it for a value stored by SET, SETNX, SETEX, PSETEX, GETSET, MSET, MSETNX and
 * APPEND on a missing key (the same in 7.0.15 and the post-7.4 tree):
 * - `int`: at most 20 bytes that `string2l` reads whole — a canonical signed 64-bit decimal
 *   (no sign `+`, no leading zero, no `-0`, no spaces);
 * - `embstr`: otherwise, at most 44 bytes (OBJ_ENCODING_EMBSTR_SIZE_LIMIT);
 * - `raw`: longer.
 *
 * Known gaps (the engine keeps strings as plain byte strings, without Redis's object header):
 * Redis answers `raw` for a value changed in place by APPEND or SETRANGE (dbUnshareStringValue
 * makes a raw copy; `APPEND k x` on "1" gives "1x" → raw, SETRANGE on 1234 gives 2234 → raw,
 * SETBIT likewise), and `embstr`/`raw` (never `int`) for INCRBYFLOAT's result
 * (createStringObjectFromLongDouble); this function answers by content only (`int` for "2234").
 */

/** The encoding Redis's tryObjectEncoding gives the byte string `value` (see above). */
export function stringEncoding(value: string): 'int' | 'embstr' | 'raw' {
  const n = value.length;
  if (n <= 20 && isLongLong(value)) return 'int';
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
