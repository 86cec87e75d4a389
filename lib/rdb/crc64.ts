/**
 * CRC-64 as Redis computes it for DUMP payloads and RDB files (src/crc64.c): the "Jones"
 * polynomial 0xad93d23594c935a9, reflected input and output, initial value 0, no final xor.
 * Check value: crc64("123456789") = 0xe9c6d914c4b8d9ca. Redis writes it little-endian.
 *
 * Table-driven, one byte at a time, on two 32-bit halves (no BigInt in the loop).
 */

/** 0xad93d23594c935a9 bit-reversed, as two 32-bit halves. */
const POLY_HI = 0x95ac9329;
const POLY_LO = 0xac4bc9b5;

/** The byte tables (high and low halves), made on the first use, not at every load of the package. */
let TABLE_HI = new Uint32Array(0);
let TABLE_LO = new Uint32Array(0);

function makeTables(): void {
  const tableHi = new Uint32Array(256);
  const tableLo = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let hi = 0;
    let lo = i;
    for (let k = 0; k < 8; k++) {
      const odd = lo & 1;
      lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
      hi = hi >>> 1;
      if (odd) {
        hi = (hi ^ POLY_HI) >>> 0;
        lo = (lo ^ POLY_LO) >>> 0;
      }
    }
    tableHi[i] = hi;
    tableLo[i] = lo;
  }
  TABLE_HI = tableHi;
  TABLE_LO = tableLo;
}

/**
 * CRC-64/Jones of `bytes[start..end)`, continuing from `crc` (0 to start).
 * @returns the CRC as an unsigned 64-bit bigint
 */
export function crc64(bytes: Uint8Array, crc = 0n, start = 0, end = bytes.length): bigint {
  if (TABLE_HI.length === 0) makeTables();
  let hi = Number((crc >> 32n) & 0xffffffffn);
  let lo = Number(crc & 0xffffffffn);
  for (let i = start; i < end; i++) {
    const idx = (lo ^ bytes[i]) & 0xff;
    lo = ((lo >>> 8) | ((hi & 0xff) << 24)) >>> 0;
    hi = hi >>> 8;
    hi = (hi ^ TABLE_HI[idx]) >>> 0;
    lo = (lo ^ TABLE_LO[idx]) >>> 0;
  }
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** The 8 little-endian bytes Redis appends to a DUMP payload. */
export function crc64Bytes(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, crc64(bytes, 0n, start, end), true);
  return out;
}
