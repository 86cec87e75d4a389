/**
 * Listpacks byte for byte as Redis builds them (src/listpack.c): a 6-byte header (total bytes
 * LE32, element count LE16, 65535 = unknown), the elements, and the 0xFF end byte. An element is
 * its encoding followed by its "backlen" (the encoding's length in 7-bit groups, read right to
 * left). Integers use the smallest of 7-bit uint, 13/16/24/32/64-bit signed; a string that is a
 * canonical signed 64-bit decimal is stored as an integer (`lpStringToInt64`), others as 6-bit,
 * 12-bit or 32-bit length strings.
 */
import { RdbFormatError, string2ll } from './rdb-io';

/**
 * A listpack element: an integer (a number when within ±2^53, else a bigint) or a byte string
 * (one char per byte).
 */
export type LpValue = number | bigint | string;

const HDR = 6;
const NUMELE_UNKNOWN = 65535;
const EOF = 0xff;

function backlenSize(l: number): number {
  if (l <= 127) return 1;
  if (l < 16383) return 2;
  if (l < 2097151) return 3;
  if (l < 268435455) return 4;
  return 5;
}

function intEncodingSize(v: bigint): number {
  if (v >= 0n && v <= 127n) return 1;
  if (v >= -4096n && v <= 4095n) return 2;
  if (v >= -32768n && v <= 32767n) return 3;
  if (v >= -8388608n && v <= 8388607n) return 4;
  if (v >= -2147483648n && v <= 2147483647n) return 5;
  return 9;
}

/** Builds a listpack by appending elements (lpAppend / lpAppendInteger). */
export class ListpackWriter {
  private buf: Uint8Array;
  private pos = HDR;
  private count = 0;

  /** `capacity`: expected total bytes (avoids regrowing when the size is known). */
  constructor(capacity = 256) {
    this.buf = new Uint8Array(Math.max(capacity + 1, 16));
  }

  private reserve(n: number): void {
    if (this.pos + n + 1 <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n + 1) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  private backlen(l: number): void {
    const b = this.buf;
    let p = this.pos;
    if (l <= 127) {
      b[p++] = l;
    } else if (l < 16383) {
      b[p++] = l >>> 7;
      b[p++] = (l & 127) | 128;
    } else if (l < 2097151) {
      b[p++] = l >>> 14;
      b[p++] = ((l >>> 7) & 127) | 128;
      b[p++] = (l & 127) | 128;
    } else if (l < 268435455) {
      b[p++] = l >>> 21;
      b[p++] = ((l >>> 14) & 127) | 128;
      b[p++] = ((l >>> 7) & 127) | 128;
      b[p++] = (l & 127) | 128;
    } else {
      b[p++] = Math.floor(l / 2 ** 28);
      b[p++] = ((l >>> 21) & 127) | 128;
      b[p++] = ((l >>> 14) & 127) | 128;
      b[p++] = ((l >>> 7) & 127) | 128;
      b[p++] = (l & 127) | 128;
    }
    this.pos = p;
  }

  /** lpAppendInteger (signed 64-bit). */
  int(value: bigint | number): void {
    if (typeof value === 'number' && value >= -2147483648 && value <= 2147483647) {
      this.smallInt(value);
      return;
    }
    if (typeof value === 'bigint' && value >= -2147483648n && value <= 2147483647n) {
      this.smallInt(Number(value));
      return;
    }
    const v = BigInt.asIntN(64, BigInt(value));
    const size = intEncodingSize(v);
    this.reserve(size + 1);
    const b = this.buf;
    let p = this.pos;
    if (size === 1) {
      b[p++] = Number(v);
    } else if (size === 2) {
      const x = v < 0n ? Number(v) + (1 << 13) : Number(v);
      b[p++] = (x >> 8) | 0xc0;
      b[p++] = x & 0xff;
    } else if (size === 3 || size === 4 || size === 5) {
      const bytes = size - 1;
      const x = BigInt.asUintN(bytes * 8, v);
      b[p++] = size === 3 ? 0xf1 : size === 4 ? 0xf2 : 0xf3;
      let n = Number(x);
      for (let k = 0; k < bytes; k++) {
        b[p++] = n & 0xff;
        n = Math.floor(n / 256);
      }
    } else {
      b[p++] = 0xf4;
      const x = BigInt.asUintN(64, v);
      const lo = Number(x & 0xffffffffn);
      const hi = Number(x >> 32n);
      b[p++] = lo & 0xff;
      b[p++] = (lo >>> 8) & 0xff;
      b[p++] = (lo >>> 16) & 0xff;
      b[p++] = lo >>> 24;
      b[p++] = hi & 0xff;
      b[p++] = (hi >>> 8) & 0xff;
      b[p++] = (hi >>> 16) & 0xff;
      b[p++] = hi >>> 24;
    }
    this.pos = p;
    this.backlen(size);
    this.count++;
  }

  /** An integer in the 32-bit range (7-bit, 13, 16, 24 or 32-bit encodings), number arithmetic. */
  private smallInt(v: number): void {
    this.reserve(6);
    const b = this.buf;
    let p = this.pos;
    let size: number;
    if (v >= 0 && v <= 127) {
      b[p++] = v;
      size = 1;
    } else if (v >= -4096 && v <= 4095) {
      const x = v < 0 ? v + 8192 : v;
      b[p++] = (x >> 8) | 0xc0;
      b[p++] = x & 0xff;
      size = 2;
    } else {
      const bytes = v >= -32768 && v <= 32767 ? 2 : v >= -8388608 && v <= 8388607 ? 3 : 4;
      b[p++] = bytes === 2 ? 0xf1 : bytes === 3 ? 0xf2 : 0xf3;
      for (let k = 0; k < bytes; k++) b[p++] = (v >> (8 * k)) & 0xff;
      size = bytes + 1;
    }
    b[p++] = size; // backlen of a 1..5-byte encoding
    this.pos = p;
    this.count++;
  }

  /** lpAppend of a byte string: integer-encoded when it is a canonical int64 decimal. */
  string(s: string): void {
    const n = s.length;
    if (n > 0 && n <= 20) {
      const c0 = s.charCodeAt(0);
      if ((c0 >= 48 && c0 <= 57) || c0 === 45) {
        if (n <= 15 && /^(0|-?[1-9][0-9]*)$/.test(s)) {
          const v = Number(s);
          if (v >= -2147483648 && v <= 2147483647) this.smallInt(v);
          else this.int(v);
          return;
        }
        const v = string2ll(s);
        if (v !== null) {
          this.int(v);
          return;
        }
      }
    }
    const enc = n < 64 ? 1 + n : n < 4096 ? 2 + n : 5 + n;
    this.reserve(enc + 5);
    const b = this.buf;
    let p = this.pos;
    if (n < 64) {
      b[p++] = n | 0x80;
    } else if (n < 4096) {
      b[p++] = (n >> 8) | 0xe0;
      b[p++] = n & 0xff;
    } else {
      b[p++] = 0xf0;
      b[p++] = n & 0xff;
      b[p++] = (n >>> 8) & 0xff;
      b[p++] = (n >>> 16) & 0xff;
      b[p++] = n >>> 24;
    }
    for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
    this.backlen(enc);
    this.count++;
  }

  /** Number of elements appended. */
  get length(): number {
    return this.count;
  }

  /** The finished listpack (header filled in, end byte added). */
  finish(): Uint8Array {
    this.reserve(1);
    this.buf[this.pos++] = EOF;
    const total = this.pos;
    const out = this.buf.slice(0, total);
    const view = new DataView(out.buffer);
    view.setUint32(0, total, true);
    view.setUint16(4, this.count < NUMELE_UNKNOWN ? this.count : NUMELE_UNKNOWN, true);
    return out;
  }
}

/**
 * Every element of a listpack, validated as Redis's deep integrity check does (header size and
 * count, each encoding within bounds, each backlen matching, the end byte).
 * @throws RdbFormatError for a malformed listpack
 */
export function readListpack(lp: Uint8Array): LpValue[] {
  if (lp.length < HDR + 1) throw new RdbFormatError('listpack too short');
  const view = new DataView(lp.buffer, lp.byteOffset, lp.byteLength);
  const total = view.getUint32(0, true);
  if (total !== lp.length) throw new RdbFormatError('listpack size mismatch');
  if (lp[total - 1] !== EOF) throw new RdbFormatError('listpack without end byte');
  const numele = view.getUint16(4, true);
  const out: LpValue[] = [];
  let p = HDR;
  const end = total - 1;
  while (p < end) {
    const start = p;
    const b = lp[p];
    let encLen: number;
    let value: LpValue;
    if ((b & 0x80) === 0) {
      encLen = 1;
      value = b;
    } else if ((b & 0xc0) === 0x80) {
      const n = b & 0x3f;
      encLen = 1 + n;
      if (p + encLen > end) throw new RdbFormatError('listpack string out of range');
      value = Buffer.from(lp.buffer, lp.byteOffset + p + 1, n).toString('latin1');
    } else if ((b & 0xe0) === 0xc0) {
      encLen = 2;
      if (p + 2 > end) throw new RdbFormatError('listpack int out of range');
      let x = ((b & 0x1f) << 8) | lp[p + 1];
      if (x >= 1 << 12) x -= 1 << 13;
      value = x;
    } else if ((b & 0xf0) === 0xe0) {
      if (p + 2 > end) throw new RdbFormatError('listpack string out of range');
      const n = ((b & 0x0f) << 8) | lp[p + 1];
      encLen = 2 + n;
      if (p + encLen > end) throw new RdbFormatError('listpack string out of range');
      value = Buffer.from(lp.buffer, lp.byteOffset + p + 2, n).toString('latin1');
    } else if (b === 0xf0) {
      if (p + 5 > end) throw new RdbFormatError('listpack string out of range');
      const n = view.getUint32(p + 1, true);
      encLen = 5 + n;
      if (p + encLen > end) throw new RdbFormatError('listpack string out of range');
      value = Buffer.from(lp.buffer, lp.byteOffset + p + 5, n).toString('latin1');
    } else if (b === 0xf1) {
      encLen = 3;
      if (p + 3 > end) throw new RdbFormatError('listpack int out of range');
      value = view.getInt16(p + 1, true);
    } else if (b === 0xf2) {
      encLen = 4;
      if (p + 4 > end) throw new RdbFormatError('listpack int out of range');
      let x = lp[p + 1] | (lp[p + 2] << 8) | (lp[p + 3] << 16);
      if (x >= 1 << 23) x -= 1 << 24;
      value = x;
    } else if (b === 0xf3) {
      encLen = 5;
      if (p + 5 > end) throw new RdbFormatError('listpack int out of range');
      value = view.getInt32(p + 1, true);
    } else if (b === 0xf4) {
      encLen = 9;
      if (p + 9 > end) throw new RdbFormatError('listpack int out of range');
      const big = view.getBigInt64(p + 1, true);
      value = big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
    } else {
      throw new RdbFormatError('listpack: invalid encoding');
    }
    p += encLen;
    const bl = backlenSize(encLen);
    if (p + bl > end) throw new RdbFormatError('listpack backlen out of range');
    // decode the backlen right to left, as lpDecodeBacklen does
    let l = 0;
    let shift = 0;
    for (let q = p + bl - 1; q >= p; q--) {
      l |= (lp[q] & 127) << shift;
      shift += 7;
      const more = q > p;
      if (more !== ((lp[q] & 128) !== 0)) throw new RdbFormatError('listpack backlen malformed');
    }
    if (l !== encLen) throw new RdbFormatError('listpack backlen mismatch');
    p += bl;
    out.push(value);
    void start;
  }
  if (p !== end) throw new RdbFormatError('listpack elements overrun');
  if (numele !== NUMELE_UNKNOWN && numele !== out.length) throw new RdbFormatError('listpack count mismatch');
  return out;
}

/** A listpack element value as the byte string Redis returns for it (integers in decimal). */
export function lpString(v: LpValue): string {
  return typeof v === 'string' ? v : String(v);
}
