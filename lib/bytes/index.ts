/**
 * Byte strings: how the engine holds every key, field, member and value. A byte string is a JS
 * string with one char per byte (codes 0–255, what `Buffer#toString('latin1')` gives), so names
 * compare in byte order (`<` on byte strings is memcmp order), lengths and offsets count bytes,
 * and any binary value round-trips. Front ends convert at their boundary: ioredis sends strings
 * as UTF-8 (`bytesOf`) and decodes replies as UTF-8 (`utf8Of`); RESP and Upstash carry bytes.
 */

import { lastFormattedText } from '../model/stream-id';

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Strings up to this length are checked char by char; longer ones by the regex. Optimized, the
 * loop is ~7% faster for short strings; interpreted (a fresh process's first commands, every
 * string of every argv and reply) it costs ~2x the regex from 5 chars on (`field0`: 300 vs
 * 150 ns), so the loop is kept for the shortest only.
 */
const SHORT = 4;

/** True when every char of `s` is ASCII (its UTF-8 bytes and its byte string are `s` itself). */
export function isAscii(s: string): boolean {
  // the ID just formatted is ASCII (and, a fresh rope, costly to read: model/stream-id.ts)
  if (s === lastFormattedText) return true;
  const n = s.length;
  if (n > SHORT) return !NON_ASCII.test(s);
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The byte string of a JS (UTF-16) string written as UTF-8. */
export function utf8Bytes(s: string): string {
  return isAscii(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/**
 * Any value as a byte string: strings as their UTF-8 bytes, Buffers and Uint8Arrays as their
 * bytes, numbers as `String(n)`, null/undefined as the empty string, anything else its String().
 */
export function bytesOf(v: unknown): string {
  if (typeof v === 'string') return utf8Bytes(v);
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (typeof v === 'number') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('latin1');
  return v === null || v === undefined ? '' : utf8Bytes(String(v));
}

/** A byte string decoded as UTF-8 (invalid sequences become U+FFFD, as Buffer#toString does). */
export function utf8Of(s: string): string {
  return isAscii(s) ? s : Buffer.from(s, 'latin1').toString('utf8');
}

/**
 * Flatten arguments the way ioredis does (arrays are spread one level). Element by element:
 * `push(...a)` passes the array as call arguments, which overflows the stack above ~120 000
 * elements, where ioredis and Redis take any number.
 */
export function flattenArgs(args: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const a of args) {
    if (Array.isArray(a)) for (const x of a) out.push(x);
    else out.push(a);
  }
  return out;
}
