/**
 * XXH3-64 (seed 0, the default secret), as Redis 8.4's DIGEST and SET/DELEX IFDEQ/IFDNE compute
 * it over a string value's bytes. Written from the xxHash specification (Cyan4973/xxHash
 * doc/xxhash_spec.md, "XXH3 Algorithm Description": empty, 1-3, 4-8, 9-16, 17-128, 129-240 and
 * large inputs) with BigInt arithmetic masked to 64 bits; checked against the xxHash project's
 * sanity vectors (cli/xsum_sanity_check.c XSUM_XXH3_testdata, seed 0, one length per code path)
 * and redis.io's DIGEST example (__tests__/bytes/xxh3.test.ts).
 *
 * No npm package fits: js-xxhash has XXH32 only, xxh3-ts XXH64 and XXH3-128 only, xxhash-wasm
 * no XXH3 and an async start, @node-rs/xxhash native binaries. This module is loaded only when
 * DIGEST / IFDEQ / IFDNE first run (lib/commands/strings-conditional.ts requires it lazily).
 */

const M64 = (1n << 64n) - 1n;
const M32 = 0xffffffffn;

const PRIME32_1 = 0x9e3779b1n;
const PRIME32_2 = 0x85ebca77n;
const PRIME32_3 = 0xc2b2ae3dn;
const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n;
const PRIME64_5 = 0x27d4eb2f165667c5n;
const PRIME_MX1 = 0x165667919e3779f9n;
const PRIME_MX2 = 0x9fb21c651e98df25n;

/** The 192-byte default secret of the specification. */
const SECRET = Buffer.from(
  'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f' +
    'cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c' +
    '3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8' +
    'a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364' +
    'eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e' +
    '2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e',
  'hex',
);
const SECRET_LEN = 192;
const STRIPES_PER_BLOCK = (SECRET_LEN - 64) / 8; // 16
const BLOCK = 64 * STRIPES_PER_BLOCK; // 1024

const u64 = (b: Buffer, at: number): bigint => b.readBigUInt64LE(at);
const u32 = (b: Buffer, at: number): bigint => BigInt(b.readUInt32LE(at));
const mul = (a: bigint, b: bigint): bigint => (a * b) & M64;
const rotl64 = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & M64;

function bswap32(x: bigint): bigint {
  return ((x & 0xffn) << 24n) | ((x & 0xff00n) << 8n) | ((x >> 8n) & 0xff00n) | ((x >> 24n) & 0xffn);
}

function bswap64(x: bigint): bigint {
  return (bswap32(x & M32) << 32n) | bswap32(x >> 32n);
}

/** The 128-bit product's halves xor-folded (u128 a·b: low ^ high). */
function fold(a: bigint, b: bigint): bigint {
  const p = a * b;
  return (p & M64) ^ (p >> 64n);
}

function avalanche(x: bigint): bigint {
  x ^= x >> 37n;
  x = mul(x, PRIME_MX1);
  return x ^ (x >> 32n);
}

function avalancheXxh64(x: bigint): bigint {
  x ^= x >> 33n;
  x = mul(x, PRIME64_2);
  x ^= x >> 29n;
  x = mul(x, PRIME64_3);
  return x ^ (x >> 32n);
}

/** mixStep of the medium inputs: 16 bytes of data at `at` with 16 bytes of secret at `s` (seed 0). */
function mixStep(data: Buffer, at: number, s: number): bigint {
  return fold(u64(data, at) ^ u64(SECRET, s), u64(data, at + 8) ^ u64(SECRET, s + 8));
}

function small(data: Buffer): bigint {
  const n = data.length;
  if (n === 0) return avalancheXxh64(u64(SECRET, 56) ^ u64(SECRET, 64));
  if (n <= 3) {
    const combined = BigInt(data[n - 1] | (n << 8) | (data[0] << 16)) | (BigInt(data[n >> 1]) << 24n);
    return avalancheXxh64((u32(SECRET, 0) ^ u32(SECRET, 4)) ^ combined);
  }
  if (n <= 8) {
    const combined = u32(data, n - 4) | (u32(data, 0) << 32n);
    let v = (u64(SECRET, 8) ^ u64(SECRET, 16)) ^ combined;
    v ^= rotl64(v, 49n) ^ rotl64(v, 24n);
    v = mul(v, PRIME_MX2);
    v ^= (v >> 35n) + BigInt(n);
    v = mul(v, PRIME_MX2);
    return v ^ (v >> 28n);
  }
  const low = (u64(SECRET, 24) ^ u64(SECRET, 32)) ^ u64(data, 0);
  const high = (u64(SECRET, 40) ^ u64(SECRET, 48)) ^ u64(data, n - 8);
  return avalanche((BigInt(n) + bswap64(low) + high + fold(low, high)) & M64);
}

function medium(data: Buffer): bigint {
  const n = data.length;
  let acc = mul(BigInt(n), PRIME64_1);
  if (n <= 128) {
    for (let i = ((n - 1) >> 5); i >= 0; i--) {
      acc += mixStep(data, i * 16, i * 32);
      acc += mixStep(data, n - i * 16 - 16, i * 32 + 16);
    }
    return avalanche(acc & M64);
  }
  for (let i = 0; i < 8; i++) acc += mixStep(data, i * 16, i * 16);
  acc = avalanche(acc & M64);
  const chunks = n >> 4;
  for (let i = 8; i < chunks; i++) acc += mixStep(data, i * 16, (i - 8) * 16 + 3);
  acc += mixStep(data, n - 16, 119);
  return avalanche(acc & M64);
}

/**
 * The accumulation step on 32-bit halves (`lo`/`hi` of the 8 accumulators), in plain numbers:
 * the hot loop of large inputs, ~10x faster than BigInt. acc[i^1] += lane; acc[i] += lo32(v) ·
 * hi32(v) with v = lane ^ secret, the 32×32-bit product formed from 16-bit pieces (all exact
 * below 2^53); Uint32Array stores keep each half mod 2^32.
 */
function accumulate(lo: Uint32Array, hi: Uint32Array, data: Buffer, at: number, s: number): void {
  for (let i = 0; i < 8; i++) {
    const dLo = data.readUInt32LE(at + i * 8);
    const dHi = data.readUInt32LE(at + i * 8 + 4);
    const vLo = (dLo ^ SECRET.readUInt32LE(s + i * 8)) >>> 0;
    const vHi = (dHi ^ SECRET.readUInt32LE(s + i * 8 + 4)) >>> 0;
    const j = i ^ 1;
    let sum = lo[j] + dLo;
    lo[j] = sum;
    hi[j] = hi[j] + dHi + (sum > 0xffffffff ? 1 : 0);
    const p0 = (vLo & 0xffff) * vHi; // < 2^48
    const p1 = (vLo >>> 16) * vHi; // < 2^48; the product is p0 + p1·2^16
    const low = p0 + (p1 % 65536) * 65536; // < 2^49
    const prodLo = low % 4294967296;
    const prodHi = Math.floor(low / 4294967296) + Math.floor(p1 / 65536);
    sum = lo[i] + prodLo;
    lo[i] = sum;
    hi[i] = hi[i] + prodHi + (sum > 0xffffffff ? 1 : 0);
  }
}

const big = (lo: Uint32Array, hi: Uint32Array, i: number): bigint => (BigInt(hi[i]) << 32n) | BigInt(lo[i]);

function large(data: Buffer): bigint {
  const n = data.length;
  const init = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1];
  const lo = new Uint32Array(8);
  const hi = new Uint32Array(8);
  for (let i = 0; i < 8; i++) {
    lo[i] = Number(init[i] & M32);
    hi[i] = Number(init[i] >> 32n);
  }
  const blocks = Math.floor((n - 1) / BLOCK); // full blocks before the last (which may be full)
  for (let b = 0; b < blocks; b++) {
    for (let s = 0; s < STRIPES_PER_BLOCK; s++) accumulate(lo, hi, data, b * BLOCK + s * 64, s * 8);
    for (let i = 0; i < 8; i++) {
      let a = big(lo, hi, i);
      a ^= a >> 47n;
      a ^= u64(SECRET, SECRET_LEN - 64 + i * 8);
      a = mul(a, PRIME32_1);
      lo[i] = Number(a & M32);
      hi[i] = Number(a >> 32n);
    }
  }
  const last = blocks * BLOCK;
  const stripes = Math.floor((n - last - 1) / 64);
  for (let s = 0; s < stripes; s++) accumulate(lo, hi, data, last + s * 64, s * 8);
  accumulate(lo, hi, data, n - 64, SECRET_LEN - 71);
  let result = mul(BigInt(n), PRIME64_1);
  for (let i = 0; i < 4; i++) {
    result += fold(big(lo, hi, 2 * i) ^ u64(SECRET, 11 + 16 * i), big(lo, hi, 2 * i + 1) ^ u64(SECRET, 11 + 16 * i + 8));
  }
  return avalanche(result & M64);
}

/** XXH3-64 of `data` (seed 0) as a bigint. */
export function xxh3(data: Buffer): bigint {
  const n = data.length;
  if (n <= 16) return small(data);
  if (n <= 240) return medium(data);
  return large(data);
}

/** XXH3-64 of a byte string (one char per byte) as Redis prints it: 16 lower-case hex digits. */
export function xxh3Hex(bytes: string): string {
  return xxh3(Buffer.from(bytes, 'latin1')).toString(16).padStart(16, '0');
}
