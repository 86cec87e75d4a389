/**
 * The RDB value primitives (src/rdb.c): lengths, strings (integer-encoded, LZF-compressed or
 * verbatim), millisecond times and raw bytes, written to a growable buffer or read from one.
 * Byte strings are JS strings with one char per byte (latin1), as in the rest of the project.
 */
import { lzfCompress, lzfDecompress } from './lzf';

const RDB_6BITLEN = 0;
const RDB_14BITLEN = 1;
const RDB_32BITLEN = 0x80;
const RDB_64BITLEN = 0x81;
const RDB_ENCVAL = 3;
const RDB_ENC_INT8 = 0;
const RDB_ENC_INT16 = 1;
const RDB_ENC_INT32 = 2;
const RDB_ENC_LZF = 3;

/** A payload Redis's loader would reject (RESTORE answers "ERR Bad data format"). */
export class RdbFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RdbFormatError';
  }
}

export function bytesOf(s: string): Uint8Array {
  return Buffer.from(s, 'latin1');
}

export function byteString(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

/**
 * Redis `string2ll` on a byte string: a canonical signed 64-bit decimal (no '+', no leading
 * zeros, no "-0", at most 20 chars). Returns the value or null.
 */
export function string2ll(s: string): bigint | null {
  const n = s.length;
  if (n === 0 || n > 20) return null;
  if (n === 1 && s === '0') return 0n;
  let i = 0;
  if (s.charCodeAt(0) === 45) {
    i = 1;
    if (n === 1) return null;
  }
  const c0 = s.charCodeAt(i);
  if (c0 < 49 || c0 > 57) return null;
  for (let k = i + 1; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c < 48 || c > 57) return null;
  }
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return null;
  return v;
}

export interface RdbWriteOptions {
  /** `rdbcompression`: LZF-compress strings longer than 20 bytes when that saves 4+ bytes. */
  compression: boolean;
}

export class RdbWriter {
  private buf: Uint8Array;
  private pos = 0;

  constructor(
    readonly options: RdbWriteOptions = { compression: true },
    initial = 256,
  ) {
    this.buf = new Uint8Array(initial);
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  get length(): number {
    return this.pos;
  }

  /** The bytes written so far (a view: copy before writing more). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.pos++] = b & 0xff;
  }

  raw(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Raw bytes of a byte string. */
  rawString(s: string): void {
    this.reserve(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i);
  }

  /** rdbSaveLen: 6-bit, 14-bit, 32-bit or 64-bit big-endian length (unsigned 64-bit). */
  len(v: bigint | number): void {
    const n = typeof v === 'bigint' ? BigInt.asUintN(64, v) : BigInt(v);
    if (n < 64n) {
      this.byte(Number(n) | (RDB_6BITLEN << 6));
    } else if (n < 16384n) {
      const x = Number(n);
      this.byte(((x >> 8) & 0xff) | (RDB_14BITLEN << 6));
      this.byte(x & 0xff);
    } else if (n <= 0xffffffffn) {
      this.byte(RDB_32BITLEN);
      this.reserve(4);
      new DataView(this.buf.buffer, this.buf.byteOffset).setUint32(this.pos, Number(n), false);
      this.pos += 4;
    } else {
      this.byte(RDB_64BITLEN);
      this.reserve(8);
      new DataView(this.buf.buffer, this.buf.byteOffset).setBigUint64(this.pos, n, false);
      this.pos += 8;
    }
  }

  /** rdbSaveMillisecondTime: signed 64-bit little-endian. */
  millisecondTime(ms: number | bigint): void {
    this.reserve(8);
    new DataView(this.buf.buffer, this.buf.byteOffset).setBigInt64(this.pos, BigInt.asIntN(64, BigInt(ms)), true);
    this.pos += 8;
  }

  /** rdbEncodeInteger: int8/16/32 special encodings; false when `v` needs more than 32 bits. */
  private encodedInteger(v: bigint): boolean {
    if (v >= -128n && v <= 127n) {
      this.byte((RDB_ENCVAL << 6) | RDB_ENC_INT8);
      this.byte(Number(v) & 0xff);
    } else if (v >= -32768n && v <= 32767n) {
      const x = Number(v);
      this.byte((RDB_ENCVAL << 6) | RDB_ENC_INT16);
      this.byte(x & 0xff);
      this.byte((x >> 8) & 0xff);
    } else if (v >= -2147483648n && v <= 2147483647n) {
      const x = Number(v);
      this.byte((RDB_ENCVAL << 6) | RDB_ENC_INT32);
      this.byte(x & 0xff);
      this.byte((x >> 8) & 0xff);
      this.byte((x >> 16) & 0xff);
      this.byte((x >>> 24) & 0xff);
    } else {
      return false;
    }
    return true;
  }

  /**
   * rdbSaveRawString: integer encoding for canonical decimals of at most 11 chars that fit in
   * 32 bits, else LZF when enabled, longer than 20 bytes and at least 4 bytes smaller, else
   * length + bytes.
   */
  string(s: string): void {
    if (s.length <= 11) {
      const v = string2ll(s);
      if (v !== null && this.encodedInteger(v)) return;
    }
    this.stringBytes(bytesOf(s), s);
  }

  /** rdbSaveRawString of raw bytes (listpacks, rax keys). */
  bytesString(b: Uint8Array): void {
    if (b.length <= 11) {
      const v = string2ll(byteString(b));
      if (v !== null && this.encodedInteger(v)) return;
    }
    this.stringBytes(b, null);
  }

  private stringBytes(b: Uint8Array, s: string | null): void {
    if (this.options.compression && b.length > 20) {
      const compressed = lzfCompress(b, b.length - 4);
      if (compressed) {
        this.byte((RDB_ENCVAL << 6) | RDB_ENC_LZF);
        this.len(compressed.length);
        this.len(b.length);
        this.raw(compressed);
        return;
      }
    }
    this.len(b.length);
    if (s !== null) this.rawString(s);
    else this.raw(b);
  }
}

export class RdbReader {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    /** Reads may not pass this offset (Redis reads the payload buffer, footer included). */
    readonly end = buf.length,
  ) {}

  private need(n: number, what: string): void {
    if (this.pos + n > this.end) throw new RdbFormatError(`short read: ${what}`);
  }

  byte(): number {
    this.need(1, 'byte');
    return this.buf[this.pos++];
  }

  raw(n: number): Uint8Array {
    this.need(n, 'raw bytes');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  /** rdbLoadLen; `encoded` tells a special string encoding (then the value is its type). */
  lenOrEncoding(): { value: bigint; encoded: boolean } {
    const b0 = this.byte();
    const type = (b0 & 0xc0) >> 6;
    if (type === RDB_ENCVAL) return { value: BigInt(b0 & 0x3f), encoded: true };
    if (type === RDB_6BITLEN) return { value: BigInt(b0 & 0x3f), encoded: false };
    if (type === RDB_14BITLEN) return { value: BigInt(((b0 & 0x3f) << 8) | this.byte()), encoded: false };
    if (b0 === RDB_32BITLEN) {
      this.need(4, 'len32');
      const v = new DataView(this.buf.buffer, this.buf.byteOffset).getUint32(this.pos, false);
      this.pos += 4;
      return { value: BigInt(v), encoded: false };
    }
    if (b0 === RDB_64BITLEN) {
      this.need(8, 'len64');
      const v = new DataView(this.buf.buffer, this.buf.byteOffset).getBigUint64(this.pos, false);
      this.pos += 8;
      return { value: v, encoded: false };
    }
    throw new RdbFormatError(`Unknown length encoding ${type} in rdbLoadLen()`);
  }

  /** A plain length (unsigned 64-bit). An encoded marker is read as its 6-bit value, as Redis does. */
  len(): bigint {
    return this.lenOrEncoding().value;
  }

  /** A length that must fit a JS array size (element counts). */
  count(what: string): number {
    const v = this.len();
    if (v > BigInt(this.end)) throw new RdbFormatError(`${what} too large`);
    return Number(v);
  }

  /** rdbLoadMillisecondTime: signed 64-bit little-endian. */
  millisecondTime(): bigint {
    this.need(8, 'millisecond time');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset).getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** rdbGenericLoadStringObject as raw bytes (integer encodings become their decimal text). */
  stringBytes(): Uint8Array {
    const { value, encoded } = this.lenOrEncoding();
    if (encoded) {
      switch (Number(value)) {
        case RDB_ENC_INT8: {
          const v = (this.byte() << 24) >> 24;
          return bytesOf(String(v));
        }
        case RDB_ENC_INT16: {
          const b = this.raw(2);
          const v = ((b[0] | (b[1] << 8)) << 16) >> 16;
          return bytesOf(String(v));
        }
        case RDB_ENC_INT32: {
          const b = this.raw(4);
          const v = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24);
          return bytesOf(String(v));
        }
        case RDB_ENC_LZF: {
          const clen = this.len();
          const len = this.len();
          if (clen > BigInt(this.end - this.pos)) throw new RdbFormatError('LZF data truncated');
          if (len > 1n << 32n) throw new RdbFormatError('LZF length too large');
          const out = lzfDecompress(this.raw(Number(clen)), Number(len));
          if (!out) throw new RdbFormatError('Invalid LZF compressed string');
          return out;
        }
        default:
          throw new RdbFormatError(`Unknown RDB string encoding type ${value}`);
      }
    }
    if (value > BigInt(this.end - this.pos)) throw new RdbFormatError('string truncated');
    return this.raw(Number(value));
  }

  /** A string as a byte string (one char per byte). */
  string(): string {
    return byteString(this.stringBytes());
  }
}
