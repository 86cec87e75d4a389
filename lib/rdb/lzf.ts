/**
 * LZF as Redis uses it for RDB strings (rdbSaveLzfStringObject / rdbLoadLzfStringObject).
 *
 * `lzfCompress` is a port of Marc Lehmann's liblzf `lzf_c.c` as vendored in Redis (src/lzf_c.c,
 * src/lzfP.h): HLOG 16, VERY_FAST 1, ULTRA_FAST 0, CHECK_INPUT 1, pointer hash slots. The output
 * must be byte-identical to Redis's, so the hash (`IDX`), the match rules (a match never starts
 * at the first input byte, offsets below 8192, length at most 264, the unrolled comparison that
 * may run up to the last input byte) and the re-hashing after a match follow the C code step by
 * step. One difference: Redis leaves the hash table uninitialised (INIT_HTAB 0), so a stale slot
 * left by an earlier call could in principle point into the new input and be used as a (valid)
 * match; this port starts every call with an empty table, which is what a fresh process does.
 *
 * `lzfDecompress` implements the format (lzf_d.c semantics): it fails on a back reference before
 * the start of the output or on output overflow, like liblzf.
 */

const HLOG = 16;
const HSIZE = 1 << HLOG;
const MAX_LIT = 1 << 5;
const MAX_OFF = 1 << 13;
const MAX_REF = (1 << 8) + (1 << 3);

/**
 * Hash slots: input position + 1 (0 = empty), valid only when `stamp` matches the call. Made by
 * the first compression (512 KB: not at every load of the package, once per jest test file).
 */
let htab: Int32Array = new Int32Array(0);
let stamp: Uint32Array = new Uint32Array(0);
let generation = 0;

function idx(h: number): number {
  return ((h >>> 8) - Math.imul(h, 5)) & (HSIZE - 1);
}

/**
 * Compress `input` into at most `outLen` bytes (Redis passes `len - 4`).
 * @returns the compressed bytes, or null when they would not fit (Redis then stores the string
 *   uncompressed)
 */
export function lzfCompress(input: Uint8Array, outLen: number): Uint8Array | null {
  const inLen = input.length;
  if (!inLen || outLen <= 0) return null;
  if (htab.length === 0) {
    htab = new Int32Array(HSIZE);
    stamp = new Uint32Array(HSIZE);
  }
  if (++generation === 0xffffffff) {
    stamp.fill(0);
    generation = 1;
  }
  const gen = generation;
  const out = new Uint8Array(outLen + 8);
  const outEnd = outLen;
  const inEnd = inLen;
  let ip = 0;
  let op = 0;
  let lit = 0;
  op++; // start run

  let hval = ((input[0] << 8) | input[1]) >>> 0; // FRST
  while (ip < inEnd - 2) {
    hval = ((hval << 8) | input[ip + 2]) >>> 0; // NEXT
    const slot = idx(hval);
    const refPlus = stamp[slot] === gen ? htab[slot] : 0;
    htab[slot] = ip + 1;
    stamp[slot] = gen;
    const ref = refPlus - 1;
    let off = 0;
    if (
      refPlus !== 0 &&
      ref < ip &&
      (off = ip - ref - 1) < MAX_OFF &&
      ref > 0 &&
      input[ref + 2] === input[ip + 2] &&
      input[ref] === input[ip] &&
      input[ref + 1] === input[ip + 1]
    ) {
      // match found at ref
      let len = 2;
      let maxlen = inEnd - ip - len;
      if (maxlen > MAX_REF) maxlen = MAX_REF;

      if (op + 3 + 1 >= outEnd) if (op - (lit ? 0 : 1) + 3 + 1 >= outEnd) return null;

      out[op - lit - 1] = (lit - 1) & 0xff; // stop run
      if (!lit) op--; // undo run if length is zero

      matching: {
        if (maxlen > 16) {
          for (let k = 0; k < 16; k++) {
            len++;
            if (input[ref + len] !== input[ip + len]) break matching;
          }
        }
        do len++;
        while (len < maxlen && input[ref + len] === input[ip + len]);
      }

      len -= 2; // len is now #octets - 1
      ip++;

      if (len < 7) {
        out[op++] = (off >> 8) + (len << 5);
      } else {
        out[op++] = (off >> 8) + (7 << 5);
        out[op++] = len - 7;
      }
      out[op++] = off & 0xff;

      lit = 0;
      op++; // start run

      ip += len + 1;
      if (ip >= inEnd - 2) break;

      // VERY_FAST: re-hash the two positions before the new ip
      ip -= 2;
      hval = ((input[ip] << 8) | input[ip + 1]) >>> 0;
      hval = ((hval << 8) | input[ip + 2]) >>> 0;
      let s = idx(hval);
      htab[s] = ip + 1;
      stamp[s] = gen;
      ip++;
      hval = ((hval << 8) | input[ip + 2]) >>> 0;
      s = idx(hval);
      htab[s] = ip + 1;
      stamp[s] = gen;
      ip++;
    } else {
      // one more literal byte we must copy
      if (op >= outEnd) return null;
      lit++;
      out[op++] = input[ip++];
      if (lit === MAX_LIT) {
        out[op - lit - 1] = lit - 1; // stop run
        lit = 0;
        op++; // start run
      }
    }
  }

  if (op + 3 > outEnd) return null; // at most 3 bytes can be missing here

  while (ip < inEnd) {
    lit++;
    out[op++] = input[ip++];
    if (lit === MAX_LIT) {
      out[op - lit - 1] = lit - 1;
      lit = 0;
      op++;
    }
  }

  out[op - lit - 1] = (lit - 1) & 0xff; // end run
  if (!lit) op--; // undo run if length is zero

  return out.slice(0, op);
}

/**
 * Decompress LZF data into exactly `outLen` bytes.
 * @returns the bytes, or null when the data is malformed or does not produce `outLen` bytes
 *   (Redis: "Invalid LZF compressed string")
 */
export function lzfDecompress(input: Uint8Array, outLen: number): Uint8Array | null {
  const out = new Uint8Array(outLen);
  let ip = 0;
  let op = 0;
  const inEnd = input.length;
  while (ip < inEnd) {
    let ctrl = input[ip++];
    if (ctrl < 1 << 5) {
      ctrl++; // literal run of ctrl bytes
      if (op + ctrl > outLen) return null;
      if (ip + ctrl > inEnd) return null;
      out.set(input.subarray(ip, ip + ctrl), op);
      op += ctrl;
      ip += ctrl;
    } else {
      let len = ctrl >> 5;
      let ref = op - ((ctrl & 0x1f) << 8) - 1;
      if (ip >= inEnd) return null;
      if (len === 7) {
        len += input[ip++];
        if (ip >= inEnd) return null;
      }
      ref -= input[ip++];
      len += 2;
      if (op + len > outLen) return null;
      if (ref < 0) return null;
      for (let k = 0; k < len; k++) out[op++] = out[ref++];
    }
  }
  return op === outLen ? out : null;
}
