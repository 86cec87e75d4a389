/**
 * The long double arithmetic of INCRBYFLOAT (./incr.ts) and HINCRBYFLOAT, as Redis computes
 * them (t_string.c incrbyfloatCommand, t_hash.c hincrbyfloatCommand, every version): both numbers read by `strtold` (util.c
 * string2ld), added in `long double`, the sum written with `%.17Lf` and its trailing zeros cut
 * (ld2string LD_STR_HUMAN). That is the reply and the stored text: 0.1 + 0.2 is `0.3`, where
 * ioredis-mock adds JS doubles (`0.30000000000000004`).
 *
 * `long double` is x86-64's 80-bit extended format (64-bit significand, exponents down to
 * 2^-16445 with subnormals, overflow at 2^16384: the servers this is checked on). It is
 * emulated exactly on BigInt: a finite value is `m · 2^e` with m < 2^64; strtold and the sum
 * round the exact value to nearest, ties to even; `%.17Lf` rounds the exact binary value to 17
 * fractional digits, ties to even (glibc). So `INCRBYFLOAT k 1e400` is accepted as Redis
 * accepts it (1e400 is within long double range) and stores the 401-digit integer Redis stores.
 */

/** An 80-bit extended value: m · 2^e (m < 2^64, finite), or an infinity. */
export type LongDouble = { neg: boolean; m: bigint; e: number } | { inf: 1 | -1 };

const MIN_EXP = -16445; // the least subnormal is 2^-16445
const MAX_EXP = 16384; // values ≥ 2^16384 overflow
const TWO63 = 1n << 63n;
const TWO64 = 1n << 64n;

const bitLength = (n: bigint) => (n === 0n ? 0 : n.toString(2).length);

/** The exact non-negative rational n / d rounded to the extended format (half to even); Infinity when it overflows. */
function roundExtended(neg: boolean, n: bigint, d: bigint): LongDouble {
  if (n === 0n) return { neg, m: 0n, e: 0 };
  let e = bitLength(n) - bitLength(d) - 64;
  for (;;) {
    const q = e >= 0 ? n / (d << BigInt(e)) : (n << BigInt(-e)) / d;
    if (q >= TWO64) e++;
    else if (q < TWO63 && e > MIN_EXP) e--;
    else break;
  }
  if (e < MIN_EXP) e = MIN_EXP;
  const num = e >= 0 ? n : n << BigInt(-e);
  const den = e >= 0 ? d << BigInt(e) : d;
  let m = num / den;
  const r2 = 2n * (num % den);
  if (r2 > den || (r2 === den && (m & 1n) === 1n)) m++;
  if (m === TWO64) {
    m = TWO63;
    e++;
  }
  if (m !== 0n && e + 64 > MAX_EXP) return { inf: neg ? -1 : 1 };
  return { neg, m, e };
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;

/**
 * util.c string2ld: the whole text read by strtold, or null (Redis's "not a valid float"): empty
 * or 5120+ characters, a leading space, trailing characters, nan, an overflow to ±HUGE_VALL or
 * an underflow to 0 (ERANGE). `inf`/`infinity` are the infinities.
 */
export function parseLongDouble(text: string): LongDouble | null {
  if (text.length === 0 || text.length >= 5120) return null;
  const inf = /^([+-]?)(inf|infinity)$/i.exec(text);
  if (inf) return { inf: inf[1] === '-' ? -1 : 1 };
  let neg: boolean;
  let n: bigint;
  let d = 1n;
  let hex = false;
  let m = DECIMAL.exec(text);
  if (!m) {
    m = HEX.exec(text);
    hex = true;
  }
  if (!m) return null;
  const int = m[2];
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return null;
  neg = m[1] === '-';
  const digits = (int + frac).replace(/^0+/, '');
  if (digits === '') return { neg, m: 0n, e: 0 };
  const exp = Number(m[4] ?? 0);
  if (hex) {
    // value = digits(16) · 2^(exp - 4·|frac|)
    n = BigInt(`0x${digits}`);
    const e2 = exp - 4 * frac.length;
    if (!Number.isFinite(e2) || e2 + 4 * digits.length > MAX_EXP + 8) return null; // overflow
    if (e2 + 4 * digits.length < MIN_EXP - 8) return null; // underflow to 0
    if (e2 >= 0) n <<= BigInt(e2);
    else d = 1n << BigInt(-e2);
  } else {
    // value = digits · 10^(exp - |frac|); ERANGE out of long double range (about 1e±4951)
    const e10 = exp - frac.length;
    const magnitude = e10 + digits.length; // value < 10^magnitude
    if (!Number.isFinite(magnitude) || magnitude > 4934) return null;
    if (magnitude < -4952) return null;
    n = BigInt(digits);
    if (e10 >= 0) n *= 10n ** BigInt(e10);
    else d = 10n ** BigInt(-e10);
  }
  const v = roundExtended(neg, n, d);
  if ('inf' in v) return null; // HUGE_VALL with ERANGE
  if (v.m === 0n) return null; // underflow to 0 with ERANGE
  return v;
}

/** a + b in long double; an infinity when it overflows, null for NaN (inf + -inf). */
export function addLongDouble(a: LongDouble, b: LongDouble): LongDouble | null {
  if ('inf' in a || 'inf' in b) {
    if ('inf' in a && 'inf' in b && a.inf !== b.inf) return null;
    return 'inf' in a ? a : b;
  }
  const e = Math.min(a.e, b.e);
  const sa = (a.m << BigInt(a.e - e)) * (a.neg ? -1n : 1n);
  const sb = (b.m << BigInt(b.e - e)) * (b.neg ? -1n : 1n);
  const s = sa + sb;
  const neg = s < 0n;
  const abs = neg ? -s : s;
  // exact sum: abs · 2^e, rounded (the exponent floor keeps subnormals exact)
  return e >= 0 ? roundExtended(neg, abs << BigInt(e), 1n) : roundExtended(neg, abs, 1n << BigInt(-e));
}

/** ld2string(…, LD_STR_HUMAN): `%.17Lf` with the trailing zeros (and a bare '.') removed, `-0` as `0`. */
export function formatLongDoubleHuman(v: LongDouble): string {
  if ('inf' in v) return v.inf > 0 ? 'inf' : '-inf';
  const SCALE = 10n ** 17n;
  let q: bigint;
  if (v.e >= 0) q = (v.m << BigInt(v.e)) * SCALE;
  else {
    const num = v.m * SCALE;
    const den = 1n << BigInt(-v.e);
    q = num / den;
    const r2 = 2n * (num % den);
    if (r2 > den || (r2 === den && (q & 1n) === 1n)) q++;
  }
  const digits = q.toString().padStart(18, '0');
  const int = digits.slice(0, -17);
  const frac = digits.slice(-17).replace(/0+$/, '');
  const text = frac ? `${int}.${frac}` : int;
  return v.neg && text !== '0' ? `-${text}` : text;
}
