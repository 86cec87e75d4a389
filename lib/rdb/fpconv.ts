/**
 * A port of Redis's deps/fpconv/fpconv_dtoa.c (night-shift's fpconv, Florian Loitsch's Grisu2):
 * the text Redis 7.2+ prints a non-integral double as (util.c `d2string`, e.g. sorted-set scores
 * stored in listpacks). Grisu2 gives the shortest round-trip digits for most doubles but not all
 * (then one digit more than JavaScript's `String(x)`), so the digit generation is ported step by
 * step, with 64-bit unsigned arithmetic done on BigInt. The cached powers of ten (10^k for
 * k = -348, -340, …, 340, normalised 64-bit significand + binary exponent) are computed here
 * instead of copied.
 */

const U64 = (1n << 64n) - 1n;
const u64 = (x: bigint) => x & U64;

const FRACMASK = 0x000fffffffffffffn;
const EXPMASK = 0x7ff0000000000000n;
const HIDDENBIT = 0x0010000000000000n;
const EXPBIAS = 1023 + 52;

const NPOWERS = 87;
const STEPPOWERS = 8;
const FIRSTPOWER = -348;
const EXPMAX = -32;
const EXPMIN = -60;

interface Fp {
  frac: bigint;
  exp: number;
}

/** 10^k as a 64-bit significand (rounded to nearest) and binary exponent: frac · 2^exp. */
export function cachedPower(k: number): Fp {
  // Find e with 2^63 <= 10^k / 2^e < 2^64, then round.
  const num = k >= 0 ? 10n ** BigInt(k) : 1n;
  const den = k >= 0 ? 1n : 10n ** BigInt(-k);
  let e = Math.floor(k * Math.log2(10)) - 63;
  const scaled = (ee: number): [bigint, bigint] => (ee >= 0 ? [num, den << BigInt(ee)] : [num << BigInt(-ee), den]);
  for (;;) {
    const [n, d] = scaled(e);
    const q = n / d;
    if (q < 1n << 63n) e--;
    else if (q >= 1n << 64n) e++;
    else {
      const r = n % d;
      let frac = q;
      if (2n * r >= d) frac++;
      if (frac === 1n << 64n) return { frac: 1n << 63n, exp: e + 1 };
      return { frac, exp: e };
    }
  }
}

const POWERS_TEN: Fp[] = Array.from({ length: NPOWERS }, (_, i) => cachedPower(FIRSTPOWER + i * STEPPOWERS));

const TENS: bigint[] = Array.from({ length: 20 }, (_, i) => 10n ** BigInt(19 - i));

function findCachedPow10(exp: number): { fp: Fp; k: number } {
  const oneLogTen = 0.30102999566398114;
  const approx = Math.trunc(-(exp + NPOWERS) * oneLogTen);
  let idx = Math.trunc((approx - FIRSTPOWER) / STEPPOWERS);
  for (;;) {
    const current = exp + POWERS_TEN[idx].exp + 64;
    if (current < EXPMIN) {
      idx++;
      continue;
    }
    if (current > EXPMAX) {
      idx--;
      continue;
    }
    return { fp: POWERS_TEN[idx], k: FIRSTPOWER + idx * STEPPOWERS };
  }
}

function buildFp(d: number): Fp {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const fp: Fp = { frac: bits & FRACMASK, exp: Number((bits & EXPMASK) >> 52n) };
  if (fp.exp) {
    fp.frac += HIDDENBIT;
    fp.exp -= EXPBIAS;
  } else {
    fp.exp = -EXPBIAS + 1;
  }
  return fp;
}

function normalize(fp: Fp): void {
  while ((fp.frac & HIDDENBIT) === 0n) {
    fp.frac = u64(fp.frac << 1n);
    fp.exp--;
  }
  const shift = 64 - 52 - 1;
  fp.frac = u64(fp.frac << BigInt(shift));
  fp.exp -= shift;
}

function normalizedBoundaries(fp: Fp): { lower: Fp; upper: Fp } {
  const upper: Fp = { frac: u64((fp.frac << 1n) + 1n), exp: fp.exp - 1 };
  while ((upper.frac & (HIDDENBIT << 1n)) === 0n) {
    upper.frac = u64(upper.frac << 1n);
    upper.exp--;
  }
  const uShift = 64 - 52 - 2;
  upper.frac = u64(upper.frac << BigInt(uShift));
  upper.exp -= uShift;
  const lShift = fp.frac === HIDDENBIT ? 2 : 1;
  const lower: Fp = { frac: u64((fp.frac << BigInt(lShift)) - 1n), exp: fp.exp - lShift };
  lower.frac = u64(lower.frac << BigInt(lower.exp - upper.exp));
  lower.exp = upper.exp;
  return { lower, upper };
}

function multiply(a: Fp, b: Fp): Fp {
  const lomask = 0xffffffffn;
  const ahBl = (a.frac >> 32n) * (b.frac & lomask);
  const alBh = (a.frac & lomask) * (b.frac >> 32n);
  const alBl = (a.frac & lomask) * (b.frac & lomask);
  const ahBh = (a.frac >> 32n) * (b.frac >> 32n);
  let tmp = (ahBl & lomask) + (alBh & lomask) + (alBl >> 32n);
  tmp += 1n << 31n; // round up
  return { frac: u64(ahBh + (ahBl >> 32n) + (alBh >> 32n) + (tmp >> 32n)), exp: a.exp + b.exp + 64 };
}

function roundDigit(digits: number[], delta: bigint, rem: bigint, kappa: bigint, frac: bigint): void {
  while (rem < frac && u64(delta - rem) >= kappa && (u64(rem + kappa) < frac || u64(frac - rem) > u64(rem + kappa - frac))) {
    digits[digits.length - 1]--;
    rem = u64(rem + kappa);
  }
}

function generateDigits(fp: Fp, upper: Fp, lower: Fp): { digits: number[]; K: number } {
  const wfrac = u64(upper.frac - fp.frac);
  let delta = u64(upper.frac - lower.frac);
  const oneExp = upper.exp;
  const oneFrac = 1n << BigInt(-oneExp);
  let part1 = upper.frac >> BigInt(-oneExp);
  let part2 = upper.frac & (oneFrac - 1n);
  const digits: number[] = [];
  let K = 0;
  let kappa = 10;
  for (let divp = 10; kappa > 0; divp++) {
    const div = TENS[divp];
    const digit = part1 / div;
    if (digit || digits.length) digits.push(Number(digit));
    part1 = u64(part1 - digit * div);
    kappa--;
    const tmp = u64((part1 << BigInt(-oneExp)) + part2);
    if (tmp <= delta) {
      K += kappa;
      roundDigit(digits, delta, tmp, u64(div << BigInt(-oneExp)), wfrac);
      return { digits, K };
    }
  }
  let unit = 18;
  for (;;) {
    part2 = u64(part2 * 10n);
    delta = u64(delta * 10n);
    kappa--;
    const digit = part2 >> BigInt(-oneExp);
    if (digit || digits.length) digits.push(Number(digit));
    part2 &= oneFrac - 1n;
    if (part2 < delta) {
      K += kappa;
      roundDigit(digits, delta, part2, oneFrac, u64(wfrac * TENS[unit]));
      return { digits, K };
    }
    unit--;
  }
}

/** Grisu2 digits and decimal exponent K of a finite non-zero |d|: d = digits · 10^K. */
function grisu2(d: number): { digits: string; K: number } {
  let w = buildFp(d);
  const { lower: lo, upper: up } = normalizedBoundaries(w);
  normalize(w);
  const { fp: cp, k } = findCachedPow10(up.exp);
  w = multiply(w, cp);
  const upper = multiply(up, cp);
  const lower = multiply(lo, cp);
  lower.frac = u64(lower.frac + 1n);
  upper.frac = u64(upper.frac - 1n);
  const g = generateDigits(w, upper, lower);
  return { digits: g.digits.join(''), K: g.K - k };
}

/** `emit_digits`: plain integer, plain decimal or scientific notation. */
function emitDigits(digitsIn: string, K: number, neg: boolean): string {
  let digits = digitsIn;
  let ndigits = digits.length;
  let exp = Math.abs(K + ndigits - 1);
  if (K >= 0 && exp < ndigits + 7) return digits + '0'.repeat(K);
  if (K < 0 && (K > -7 || exp < 4)) {
    const offset = ndigits - Math.abs(K);
    if (offset <= 0) return `0.${'0'.repeat(-offset)}${digits}`;
    return `${digits.slice(0, offset)}.${digits.slice(offset)}`;
  }
  ndigits = Math.min(ndigits, 18 - (neg ? 1 : 0));
  digits = digits.slice(0, ndigits);
  let out = digits[0];
  if (ndigits > 1) out += `.${digits.slice(1)}`;
  out += K + ndigits - 1 < 0 ? 'e-' : 'e+';
  let cent = 0;
  if (exp > 99) {
    cent = Math.floor(exp / 100);
    out += String(cent);
    exp -= cent * 100;
  }
  if (exp > 9) {
    const dec = Math.floor(exp / 10);
    out += String(dec);
    exp -= dec * 10;
  } else if (cent) out += '0';
  return out + String(exp % 10);
}

/** `fpconv_dtoa`: `nan`, `inf`, `-inf`, `0`/`-0`, else Grisu2 digits laid out by emit_digits. */
export function fpconvDtoa(d: number): string {
  const neg = d < 0 || Object.is(d, -0);
  const sign = neg ? '-' : '';
  if (d === 0) return `${sign}0`;
  if (Number.isNaN(d)) return 'nan';
  if (!Number.isFinite(d)) return `${sign}inf`;
  const { digits, K } = grisu2(Math.abs(d));
  return sign + emitDigits(digits, K, neg);
}
