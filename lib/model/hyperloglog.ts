/**
 * Redis's HyperLogLog, byte for byte (src/hyperloglog.c, identical in 7.0.15 and the post-7.4
 * tree for everything a client can observe).
 *
 * A HyperLogLog is a Redis string: a 16-byte header — magic "HYLL", encoding byte (0 dense,
 * 1 sparse), 3 unused bytes, the cached cardinality as 8 little-endian bytes whose top bit set
 * means "invalid, recompute" — followed by the registers: 16384 registers of 6 bits packed LSB
 * first (dense, 12288 bytes) or the run-length opcodes ZERO `00xxxxxx` (1–64 zero registers),
 * XZERO `01xxxxxx yyyyyyyy` (1–16384 zero registers) and VAL `1vvvvvxx` (1–4 registers of value
 * 1–32) (sparse). Elements hash with MurmurHash64A (seed 0xadc83b19): the low 14 bits pick the
 * register, the position of the first 1 bit in the remaining 50 bits (+1, at most 51) is the
 * candidate value. The cardinality is Otmar Ertl's estimator (hllCount, used since Redis 5).
 *
 * Pure data: `HllBuffer` is the string being worked on, as a growable byte array with a zero
 * byte after the last one (Redis's sds terminator, which the C code reads at times); the command
 * module converts the stored byte string to and from it. The sparse update (`sparseSet`) follows
 * hllSparseSet step by step — opcode split, in-place insertion, merge of adjacent VALs over the
 * next 5 opcodes, promotion to dense past `hll-sparse-max-bytes` or for a value above 32 — so
 * that corrupted strings are modified (or refused) exactly as Redis does.
 *
 * Reading a sparse string (conversion to dense, histogram, merge) refuses any opcode that runs
 * past register 16384, as every Redis release since the CVE-2025-32023 fix does (6.2.19, 7.2.10,
 * 7.4.5, 8.0.3, July 2025; Debian's 7.0.15 carries the backport — checked: `PFCOUNT k other` of a
 * sparse string with VAL opcodes after its 16384 registers is INVALIDOBJ there). The post-7.4
 * development build 4f8cdc2a predates the fix and accepts such trailing VAL opcodes in PFCOUNT of
 * several keys, PFMERGE and the promotion to dense (PFDEBUG GETREG/TODENSE, a sparse string
 * promoted by PFADD or PFMERGE): `HllBuffer.preFixOverflow`, set for emulated '8.0' (checked on
 * both servers: __tests__/differential/hll-trailing-val-opcodes-real-server.test.ts).
 */

export const HLL_P = 14;
export const HLL_Q = 64 - HLL_P;
export const HLL_REGISTERS = 1 << HLL_P;
const HLL_P_MASK = HLL_REGISTERS - 1;
const HLL_REGISTER_MAX = 63;
export const HLL_HDR_SIZE = 16;
export const HLL_DENSE_SIZE = HLL_HDR_SIZE + ((HLL_REGISTERS * 6 + 7) >> 3); // 12304
export const HLL_DENSE = 0;
export const HLL_SPARSE = 1;
const HLL_MAX_ENCODING = 1;
const HLL_SPARSE_VAL_MAX_VALUE = 32;
const HLL_SPARSE_VAL_MAX_LEN = 4;
const HLL_SPARSE_ZERO_MAX_LEN = 64;
const HLL_SPARSE_XZERO_MAX_LEN = 16384;
const HLL_ALPHA_INF = 0.72134752044448170368; // 0.5 / ln(2)
/** Offset of the cached cardinality in the header; its byte 7 carries the invalid bit. */
const CARD = 8;

/** The string of a HyperLogLog being read or changed: `buf[0 … len)` and a 0 at `buf[len]`. */
export class HllBuffer {
  /** A Buffer (a Uint8Array with Node's native latin1 conversions), always: one shape for V8. */
  buf: Buffer;
  len: number;
  /**
   * Read the sparse opcodes as Redis did before the CVE-2025-32023 fix (the 4f8cdc2a build,
   * emulated '8.0'): hllSparseToDense and hllMerge stop at a VAL opcode that would run past
   * register 16384 (`if ((runlen + idx) > HLL_REGISTERS) break;`) and only then compare the
   * register count with 16384, while ZERO/XZERO runs add up unchecked. A string whose 16384
   * registers are followed by VAL opcodes is therefore valid there (the trailing opcodes are
   * ignored); a VAL or a zero run that overflows before register 16384 is reached still is not.
   */
  preFixOverflow: boolean;

  constructor(buf: Buffer, len: number, preFixOverflow = false) {
    this.buf = buf;
    this.len = len;
    this.preFixOverflow = preFixOverflow;
  }

  /**
   * The bytes of a byte string (one char per byte), with room for `spare` more; `preFixOverflow`
   * as the field of that name.
   */
  static of(s: string, spare = 0, preFixOverflow = false): HllBuffer {
    const n = s.length;
    const buf = Buffer.alloc(n + 1 + spare);
    buf.write(s, 0, n, 'latin1');
    return new HllBuffer(buf, n, preFixOverflow);
  }

  /** Make room for `n` bytes plus the terminator (and a few more, as the C code may write past). */
  reserve(n: number): void {
    if (this.buf.length >= n + 8) return;
    const grown = Buffer.alloc(Math.max(n + 8, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.len + 1));
    this.buf = grown;
  }

  get encoding(): number {
    return this.buf[4];
  }

  /** The byte string of the HyperLogLog (what GET answers). */
  toByteString(): string {
    return this.buf.toString('latin1', 0, this.len);
  }
}

// ---------------------------------------------------------------------------------------------
// MurmurHash64A on 32-bit halves (64-bit products by 16-bit pieces: no bigint, no allocation)

/**
 * Results of mul64 and murmurHash64A, as int32 (lo at 0, hi at 1): stores into a typed array do
 * not box numbers above 2^30 as module-level variables would (a heap number per store).
 */
const out = new Int32Array(2);
/**
 * (aHi:aLo × bHi:bLo) mod 2^64 into out[1]:out[0], by 16-bit limbs: every partial sum stays below
 * 2^32, so the arithmetic is exact in 32-bit unsigned integers (no bigint, no allocation).
 */
function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a48 = aHi >>> 16;
  const a32 = aHi & 0xffff;
  const a16 = aLo >>> 16;
  const a00 = aLo & 0xffff;
  const b48 = bHi >>> 16;
  const b32 = bHi & 0xffff;
  const b16 = bLo >>> 16;
  const b00 = bLo & 0xffff;
  let c00 = a00 * b00;
  let c16 = c00 >>> 16;
  c00 &= 0xffff;
  c16 += a16 * b00;
  let c32 = c16 >>> 16;
  c16 &= 0xffff;
  c16 += a00 * b16;
  c32 += c16 >>> 16;
  c16 &= 0xffff;
  c32 += a32 * b00;
  let c48 = c32 >>> 16;
  c32 &= 0xffff;
  c32 += a16 * b16;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c32 += a00 * b32;
  c48 += c32 >>> 16;
  c32 &= 0xffff;
  c48 += Math.imul(a48, b00) + Math.imul(a32, b16) + Math.imul(a16, b32) + Math.imul(a00, b48);
  c48 &= 0xffff;
  out[0] = (c16 << 16) | c00;
  out[1] = (c48 << 16) | c32;
}

const M_HI = 0xc6a4a793;
const M_LO = 0x5bd1e995;
const SEED = 0xadc83b19;

/**
 * MurmurHash64A of the byte string `s` (chars 0–255) with Redis's seed, as Redis computes it on
 * a little-endian machine (its "endian neutral" variant gives the same result), into
 * out[1]:out[0].
 */
function murmurHash64A(s: string): void {
  const len = s.length;
  mul64(0, len, M_HI, M_LO);
  let hHi = out[1];
  let hLo = out[0] ^ SEED;
  const blocks = len - (len & 7);
  let i = 0;
  for (; i < blocks; i += 8) {
    const kLo = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24);
    const kHi = s.charCodeAt(i + 4) | (s.charCodeAt(i + 5) << 8) | (s.charCodeAt(i + 6) << 16) | (s.charCodeAt(i + 7) << 24);
    mul64(kHi, kLo, M_HI, M_LO); // k *= m
    const k1Hi = out[1];
    mul64(k1Hi, out[0] ^ (k1Hi >>> 15), M_HI, M_LO); // k ^= k >> 47; k *= m
    mul64(hHi ^ out[1], hLo ^ out[0], M_HI, M_LO); // h ^= k; h *= m
    hHi = out[1];
    hLo = out[0];
  }
  const rest = len & 7;
  if (rest > 0) {
    // the C switch falls through from case `rest` down to case 1
    if (rest >= 7) hHi ^= s.charCodeAt(i + 6) << 16;
    if (rest >= 6) hHi ^= s.charCodeAt(i + 5) << 8;
    if (rest >= 5) hHi ^= s.charCodeAt(i + 4);
    if (rest >= 4) hLo ^= s.charCodeAt(i + 3) << 24;
    if (rest >= 3) hLo ^= s.charCodeAt(i + 2) << 16;
    if (rest >= 2) hLo ^= s.charCodeAt(i + 1) << 8;
    hLo ^= s.charCodeAt(i);
    mul64(hHi, hLo, M_HI, M_LO);
    hHi = out[1];
    hLo = out[0];
  }
  mul64(hHi, hLo ^ (hHi >>> 15), M_HI, M_LO); // h ^= h >> r; h *= m
  out[0] ^= out[1] >>> 15; // h ^= h >> r
}

function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** The register of the last `patLen` call. */
let patIndex = 0;

/**
 * hllPatLen: the register index of `element` (into `patIndex`) and the length of its hash's
 * 000…1 pattern past the index bits (1 … 51).
 */
export function patLen(element: string): number {
  murmurHash64A(element);
  const hashLo = out[0];
  const hashHi = out[1];
  patIndex = hashLo & HLL_P_MASK;
  // hash >>= 14, then bit 50 set so that the count is at most Q + 1
  const lo = (hashLo >>> HLL_P) | (hashHi << (32 - HLL_P));
  const hi = (hashHi >>> HLL_P) | (1 << (HLL_Q - 32));
  return (lo !== 0 ? ctz32(lo) : 32 + ctz32(hi)) + 1;
}

/** The register `patLen` hashed its last element to. */
export function lastPatIndex(): number {
  return patIndex;
}

// ---------------------------------------------------------------------------------------------
// Dense registers (6 bits each, LSB first, registers starting at `base`)

export function denseGet(b: Uint8Array, base: number, regnum: number): number {
  const byte = base + ((regnum * 6) >>> 3);
  const fb = (regnum * 6) & 7;
  return ((b[byte] >> fb) | (b[byte + 1] << (8 - fb))) & HLL_REGISTER_MAX;
}

function denseSetRegister(b: Uint8Array, base: number, regnum: number, val: number): void {
  const byte = base + ((regnum * 6) >>> 3);
  const fb = (regnum * 6) & 7;
  const fb8 = 8 - fb;
  b[byte] &= ~(HLL_REGISTER_MAX << fb);
  b[byte] |= val << fb;
  b[byte + 1] &= ~(HLL_REGISTER_MAX >> fb8);
  b[byte + 1] |= val >> fb8;
}

/** hllDenseSet: raise register `index` to `count`; 1 if it changed. */
function denseSet(b: Uint8Array, index: number, count: number): number {
  if (count > denseGet(b, HLL_HDR_SIZE, index)) {
    denseSetRegister(b, HLL_HDR_SIZE, index, count);
    return 1;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Sparse opcodes

const isZero = (c: number) => (c & 0xc0) === 0;
const isXzero = (c: number) => (c & 0xc0) === 0x40;
const zeroLen = (c: number) => (c & 0x3f) + 1;
const xzeroLen = (c: number, next: number) => (((c & 0x3f) << 8) | next) + 1;
const valValue = (c: number) => ((c >> 2) & 0x1f) + 1;
const valLen = (c: number) => (c & 0x3) + 1;
const valOp = (val: number, len: number) => (((val - 1) << 2) | (len - 1) | 0x80) & 0xff;

/** createHLLObject: an empty sparse HyperLogLog (one XZERO:16384), cache valid at 0. */
export function createHll(): HllBuffer {
  const h = new HllBuffer(Buffer.alloc(HLL_HDR_SIZE + 2 + 1 + 8), HLL_HDR_SIZE + 2);
  h.buf.set([0x48, 0x59, 0x4c, 0x4c, HLL_SPARSE]); // "HYLL", sparse
  const l = HLL_SPARSE_XZERO_MAX_LEN - 1;
  h.buf[HLL_HDR_SIZE] = (l >> 8) | 0x40;
  h.buf[HLL_HDR_SIZE + 1] = l & 0xff;
  return h;
}

/**
 * isHLLObjectOrReply's checks on a string value: at least 16 bytes, magic "HYLL", encoding 0
 * or 1, a dense one exactly 12304 bytes long.
 */
export function isValidHllString(s: string): boolean {
  if (s.length < HLL_HDR_SIZE) return false;
  if (s.charCodeAt(0) !== 0x48 || s.charCodeAt(1) !== 0x59 || s.charCodeAt(2) !== 0x4c || s.charCodeAt(3) !== 0x4c) return false;
  const encoding = s.charCodeAt(4);
  if (encoding > HLL_MAX_ENCODING) return false;
  return !(encoding === HLL_DENSE && s.length !== HLL_DENSE_SIZE);
}

/** hllSparseToDense: false (and `h` unchanged) when the sparse registers do not add up to 16384. */
export function sparseToDense(h: HllBuffer): boolean {
  const b = h.buf;
  if (b[4] === HLL_DENSE) return true;
  const dense = Buffer.alloc(HLL_DENSE_SIZE + 1);
  dense.set(b.subarray(0, HLL_HDR_SIZE));
  dense[4] = HLL_DENSE;
  const end = h.len;
  let p = HLL_HDR_SIZE;
  let idx = 0;
  while (p < end) {
    const c = b[p];
    let runlen: number;
    if (isZero(c)) runlen = zeroLen(c);
    else if (isXzero(c)) runlen = xzeroLen(c, b[p + 1]);
    else runlen = valLen(c);
    if (runlen + idx > HLL_REGISTERS) {
      // before the fix only a VAL opcode stopped the loop (then idx decides); zero runs added up
      if (!h.preFixOverflow) return false; // overflow (CVE-2025-32023 fix)
      if (!isZero(c) && !isXzero(c)) break;
    }
    if (isZero(c)) p++;
    else if (isXzero(c)) p += 2;
    else {
      const regval = valValue(c);
      while (runlen--) denseSetRegister(dense, HLL_HDR_SIZE, idx++, regval);
      p++;
      continue;
    }
    idx += runlen;
  }
  if (idx !== HLL_REGISTERS) return false;
  h.buf = dense;
  h.len = HLL_DENSE_SIZE;
  return true;
}

/**
 * hllSparseSet: raise register `index` of a sparse HyperLogLog to `count`, promoting it to dense
 * when `count` > 32 or when the string would grow past `maxBytes` (hll-sparse-max-bytes).
 * @returns 1 if the register changed, 0 if not, -1 for a corrupted representation
 */
export function sparseSet(h: HllBuffer, index: number, count: number, maxBytes: number): number {
  if (count > HLL_SPARSE_VAL_MAX_VALUE) return promote(h, index, count);
  h.reserve(h.len + 3);
  const b = h.buf;

  // Step 1: the opcode covering the register
  const sparse = HLL_HDR_SIZE;
  let end = h.len;
  let p = sparse;
  let first = 0;
  let prev = -1;
  let span = 0;
  // the hot loop of the sparse representation: opcodes decoded inline
  while (p < end) {
    const c = b[p];
    let oplen = 1;
    if (c < 0x40) span = c + 1; // ZERO
    else if (c >= 0x80) span = (c & 3) + 1; // VAL
    else {
      span = (((c & 0x3f) << 8) | b[p + 1]) + 1; // XZERO
      oplen = 2;
    }
    if (index < first + span) break;
    prev = p;
    p += oplen;
    first += span;
  }
  if (span === 0 || p >= end) return -1;

  let next = isXzero(b[p]) ? p + 2 : p + 1;
  if (next >= end) next = -1;

  const op = b[p];
  const isZ = isZero(op);
  const isX = isXzero(op);
  const runlen = isZ ? zeroLen(op) : isX ? xzeroLen(op, b[p + 1]) : valLen(op);

  // Step 2: cases A, B (VAL) and C (ZERO of length 1) are done in place
  let updatedInPlace = false;
  if (!isZ && !isX) {
    if (valValue(op) >= count) return 0; // A
    if (runlen === 1) {
      b[p] = valOp(count, 1); // B
      updatedInPlace = true;
    }
  }
  if (!updatedInPlace && isZ && runlen === 1) {
    b[p] = valOp(count, 1); // C
    updatedInPlace = true;
  }

  if (!updatedInPlace) {
    // D: split the opcode into up to 5 bytes
    const seq: number[] = [];
    const last = first + span - 1;
    if (isZ || isX) {
      if (index !== first) {
        const len = index - first;
        if (len > HLL_SPARSE_ZERO_MAX_LEN) seq.push(((len - 1) >> 8) | 0x40, (len - 1) & 0xff);
        else seq.push(len - 1);
      }
      seq.push(valOp(count, 1));
      if (index !== last) {
        const len = last - index;
        if (len > HLL_SPARSE_ZERO_MAX_LEN) seq.push(((len - 1) >> 8) | 0x40, (len - 1) & 0xff);
        else seq.push(len - 1);
      }
    } else {
      const curval = valValue(op);
      if (index !== first) seq.push(valOp(curval, index - first));
      seq.push(valOp(count, 1));
      if (index !== last) seq.push(valOp(curval, last - index));
    }

    // Step 3: the new sequence replaces the old opcode
    const seqlen = seq.length;
    const oldlen = isX ? 2 : 1;
    const deltalen = seqlen - oldlen;
    if (deltalen > 0 && h.len + deltalen > maxBytes) return promote(h, index, count);
    if (deltalen && next !== -1) b.copyWithin(next + deltalen, next, end);
    h.len += deltalen; // sdsIncrLen: the terminator first, then the sequence over it
    b[h.len] = 0;
    for (let i = 0; i < seqlen; i++) b[p + i] = seq[i];
    end += deltalen;
  }

  // Step 4: merge adjacent VAL opcodes of the same value, scanning up to 5 opcodes from prev
  p = prev !== -1 ? prev : sparse;
  let scanlen = 5;
  while (p < end && scanlen-- > 0) {
    const c = b[p];
    if (isXzero(c)) {
      p += 2;
      continue;
    } else if (isZero(c)) {
      p++;
      continue;
    }
    if (p + 1 < end && b[p + 1] & 0x80) {
      const v1 = valValue(c);
      const v2 = valValue(b[p + 1]);
      if (v1 === v2) {
        const len = valLen(c) + valLen(b[p + 1]);
        if (len <= HLL_SPARSE_VAL_MAX_LEN) {
          b[p + 1] = valOp(v1, len);
          b.copyWithin(p, p + 1, end + 1);
          h.len--;
          b[h.len] = 0;
          end--;
          continue;
        }
      }
    }
    p++;
  }

  invalidateCache(h);
  return 1;
}

function promote(h: HllBuffer, index: number, count: number): number {
  if (!sparseToDense(h)) return -1;
  denseSet(h.buf, index, count); // always 1: the register needed a bigger value
  return 1;
}

/** hllAdd: add `element`; 1 if a register changed, 0 if not, -1 for a corrupted representation. */
export function hllAdd(h: HllBuffer, element: string, maxBytes: number): number {
  const count = patLen(element);
  switch (h.buf[4]) {
    case HLL_DENSE:
      return denseSet(h.buf, patIndex, count);
    case HLL_SPARSE:
      return sparseSet(h, patIndex, count, maxBytes);
    default:
      return -1;
  }
}

/** Raise register `index` to `value` whatever the encoding (PFMERGE's write loop). */
export function hllSet(h: HllBuffer, index: number, value: number, maxBytes: number): void {
  if (h.buf[4] === HLL_DENSE) denseSet(h.buf, index, value);
  else if (h.buf[4] === HLL_SPARSE) sparseSet(h, index, value, maxBytes);
}

/** HLL_INVALIDATE_CACHE. */
export function invalidateCache(h: HllBuffer): void {
  h.buf[CARD + 7] |= 0x80;
}

/** HLL_VALID_CACHE of a stored string. */
export function hasValidCache(s: string): boolean {
  return (s.charCodeAt(CARD + 7) & 0x80) === 0;
}

/** The cached cardinality of a stored string (valid cache: at most 2^63 - 1). */
export function cachedCardinality(s: string): number | bigint {
  let hi = 0;
  for (let i = 7; i >= 4; i--) hi = hi * 256 + s.charCodeAt(CARD + i);
  let lo = 0;
  for (let i = 3; i >= 0; i--) lo = lo * 256 + s.charCodeAt(CARD + i);
  if (hi < 0x200000) return hi * 4294967296 + lo;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Store `card` (an unsigned 64-bit value) as the cached cardinality. */
export function setCachedCardinality(h: HllBuffer, card: bigint): void {
  let v = card;
  for (let i = 0; i < 8; i++) {
    h.buf[CARD + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

// ---------------------------------------------------------------------------------------------
// Counting and merging

/** hllSparseRegHisto: add the registers to `histo`; false when they do not add up to 16384. */
function sparseHisto(b: Uint8Array, end: number, histo: Float64Array): boolean {
  let idx = 0;
  let p = HLL_HDR_SIZE;
  while (p < end) {
    const c = b[p];
    if (isZero(c)) {
      const runlen = zeroLen(c);
      if (runlen + idx > HLL_REGISTERS) return false;
      idx += runlen;
      histo[0] += runlen;
      p++;
    } else if (isXzero(c)) {
      const runlen = xzeroLen(c, b[p + 1]);
      if (runlen + idx > HLL_REGISTERS) return false;
      idx += runlen;
      histo[0] += runlen;
      p += 2;
    } else {
      const runlen = valLen(c);
      if (runlen + idx > HLL_REGISTERS) return false;
      idx += runlen;
      histo[valValue(c)] += runlen;
      p++;
    }
  }
  return idx === HLL_REGISTERS;
}

/** Ertl's sigma (hllSigma). */
function sigma(x: number): number {
  if (x === 1) return Infinity;
  let zPrime: number;
  let y = 1;
  let z = x;
  do {
    x *= x;
    zPrime = z;
    z += x * y;
    y += y;
  } while (zPrime !== z);
  return z;
}

/** Ertl's tau (hllTau). */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let zPrime: number;
  let y = 1.0;
  let z = 1 - x;
  do {
    x = Math.sqrt(x);
    zPrime = z;
    y *= 0.5;
    const d = 1 - x;
    z -= d * d * y;
  } while (zPrime !== z);
  return z / 3;
}

const LLONG_MIN_AS_UINT64 = 1n << 63n;

/**
 * The estimate of a register histogram (hllCount after the histogram), as the uint64 Redis
 * computes: `llroundl` of the estimate (an estimate out of the long long range — only a forged
 * dense string gets there — gives LLONG_MIN, read back as 2^63).
 */
function estimate(histo: Float64Array): bigint {
  const m = HLL_REGISTERS;
  let z = m * tau((m - histo[HLL_Q + 1]) / m);
  for (let j = HLL_Q; j >= 1; --j) {
    z += histo[j];
    z *= 0.5;
  }
  z += m * sigma(histo[0] / m);
  const e = (HLL_ALPHA_INF * m * m) / z;
  if (!(e < 9223372036854775807.5)) return LLONG_MIN_AS_UINT64;
  return BigInt(Math.round(e));
}

/**
 * hllCount of a stored dense or sparse HyperLogLog; null when a sparse one is corrupted (its
 * registers do not add up to 16384).
 */
export function hllCount(h: HllBuffer): bigint | null {
  const histo = new Float64Array(64);
  const b = h.buf;
  if (b[4] === HLL_DENSE) {
    // hllDenseRegHisto: 4 registers in every 3 bytes
    for (let p = HLL_HDR_SIZE; p < HLL_DENSE_SIZE; p += 3) {
      const b0 = b[p];
      const b1 = b[p + 1];
      const b2 = b[p + 2];
      histo[b0 & 63]++;
      histo[((b0 >> 6) | (b1 << 2)) & 63]++;
      histo[((b1 >> 4) | (b2 << 4)) & 63]++;
      histo[b2 >> 2]++;
    }
  } else if (!sparseHisto(b, h.len, histo)) return null;
  return estimate(histo);
}

/** hllCount of raw registers (one byte each: PFCOUNT of several keys). */
export function rawCount(registers: Uint8Array): bigint {
  const histo = new Float64Array(64);
  for (let j = 0; j < HLL_REGISTERS; j++) histo[registers[j]]++;
  return estimate(histo);
}

/**
 * hllMerge: `max[i] = MAX(max[i], register i)` for a valid HyperLogLog string; false when a
 * sparse one is corrupted.
 */
export function hllMerge(max: Uint8Array, h: HllBuffer): boolean {
  const b = h.buf;
  if (b[4] === HLL_DENSE) {
    for (let p = HLL_HDR_SIZE, i = 0; p < HLL_DENSE_SIZE; p += 3, i += 4) {
      const b0 = b[p];
      const b1 = b[p + 1];
      const b2 = b[p + 2];
      const r0 = b0 & 63;
      const r1 = ((b0 >> 6) | (b1 << 2)) & 63;
      const r2 = ((b1 >> 4) | (b2 << 4)) & 63;
      const r3 = b2 >> 2;
      if (r0 > max[i]) max[i] = r0;
      if (r1 > max[i + 1]) max[i + 1] = r1;
      if (r2 > max[i + 2]) max[i + 2] = r2;
      if (r3 > max[i + 3]) max[i + 3] = r3;
    }
    return true;
  }
  const end = h.len;
  let p = HLL_HDR_SIZE;
  let i = 0;
  while (p < end) {
    const c = b[p];
    if (isZero(c)) {
      const runlen = zeroLen(c);
      if (runlen + i > HLL_REGISTERS && !h.preFixOverflow) return false;
      i += runlen;
      p++;
    } else if (isXzero(c)) {
      const runlen = xzeroLen(c, b[p + 1]);
      if (runlen + i > HLL_REGISTERS && !h.preFixOverflow) return false;
      i += runlen;
      p += 2;
    } else {
      let runlen = valLen(c);
      const regval = valValue(c);
      if (runlen + i > HLL_REGISTERS) {
        if (h.preFixOverflow) break; // before the fix: stop, then the count decides
        return false;
      }
      while (runlen--) {
        if (regval > max[i]) max[i] = regval;
        i++;
      }
      p++;
    }
  }
  return i === HLL_REGISTERS;
}

/** PFDEBUG DECODE: the sparse opcodes as `z:len`, `Z:len`, `v:value,len`, space-separated. */
export function decodeSparse(h: HllBuffer): string {
  const b = h.buf;
  const parts: string[] = [];
  let p = HLL_HDR_SIZE;
  while (p < h.len) {
    const c = b[p];
    if (isZero(c)) {
      parts.push(`z:${zeroLen(c)}`);
      p++;
    } else if (isXzero(c)) {
      parts.push(`Z:${xzeroLen(c, b[p + 1])}`);
      p += 2;
    } else {
      parts.push(`v:${valValue(c)},${valLen(c)}`);
      p++;
    }
  }
  return parts.join(' ');
}

/** The 16384 registers of a dense HyperLogLog (PFDEBUG GETREG). */
export function denseRegisters(h: HllBuffer): number[] {
  const out = new Array<number>(HLL_REGISTERS);
  for (let j = 0; j < HLL_REGISTERS; j++) out[j] = denseGet(h.buf, HLL_HDR_SIZE, j);
  return out;
}
