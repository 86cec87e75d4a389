/**
 * sin, cos and asin as glibc computes them (2.28+ IBM routines without their slow paths, in the
 * FMA build x86-64 glibc selects on any CPU with FMA; aarch64 contracts alike): V8's fdlibm ports
 * differ in the last bit for a few percent of arguments, the correctly rounded double for ~0.1%,
 * and one bit of a GEODIST / GEOSEARCH distance can change its printed digits.
 * Exact to the bit against Debian's glibc 2.36 (checked on millions of random arguments): sin and
 * cos within ±2.426 (Taylor polynomials, the table of sin/cos at i/128 with its corrections: s_sin.c
 * do_sin/do_cos), asin below 2^-3 (e_asin.c's polynomial). Elsewhere the value is computed in
 * double-double (~106 bits) and rounded once: asin above 2^-3 then differs from glibc's
 * table-driven branches on ~0.13% of arguments. Arguments past ±1e5 radians fall back to V8.
 */

type DD = [hi: number, lo: number];

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function quickTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

const SPLITTER = 134217729; // 2^27 + 1
function split(a: number): DD {
  const c = SPLITTER * a;
  const hi = c - (c - a);
  return [hi, a - hi];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  return quickTwoSum(s, e + a[1] + b[1]);
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return quickTwoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}

function divByNumber(a: DD, b: number): DD {
  const q1 = a[0] / b;
  const [p, e] = twoProd(q1, b);
  const q2 = (a[0] - p - e + a[1]) / b;
  return quickTwoSum(q1, q2);
}

/** 1/(k!) for k = 0…31, in double-double. */
const INV_FACT: DD[] = (() => {
  const out: DD[] = [[1, 0]];
  for (let k = 1; k < 32; k++) out.push(divByNumber(out[k - 1], k));
  return out;
})();

/** π/2 as three doubles. */
const PIO2_1 = 1.5707963267948966;
const PIO2_2 = 6.123233995736766e-17;
const PIO2_3 = -1.4973849048591698e-33;

/** x − k·π/2 in double-double, and k mod 4. */
function reduce(x: number): [DD, number] {
  const k = Math.round(x / PIO2_1);
  const p1 = twoProd(k, PIO2_1);
  const p2 = twoProd(k, PIO2_2);
  let r = twoSum(x, -p1[0]);
  r = add(r, [-p1[1], 0]);
  r = add(r, [-p2[0], -p2[1]]);
  r = add(r, [-k * PIO2_3, 0]);
  return [r, ((k % 4) + 4) % 4];
}

/** Taylor series of sin (odd) or cos (even) at a reduced r (|r| ≤ π/4), double-double. */
function series(r: DD, odd: boolean): DD {
  const r2 = mul(r, r);
  const first = odd ? 1 : 0;
  // Horner from the last term: Σ (−1)^n r2^n / (2n+first)!
  let acc: DD = [0, 0];
  for (let n = 14; n >= 0; n--) {
    const c = INV_FACT[2 * n + first];
    acc = add(mul(acc, r2), n % 2 === 0 ? c : [-c[0], -c[1]]);
  }
  return odd ? mul(acc, r) : acc;
}

function sinCosDD(x: number, wantSin: boolean): DD {
  const [r, q] = reduce(x);
  // sin(r + qπ/2): q0 sin r, q1 cos r, q2 −sin r, q3 −cos r; cos: q0 cos r, q1 −sin r, q2 −cos r, q3 sin r
  const idx = wantSin ? q : (q + 1) % 4;
  const v = idx % 2 === 0 ? series(r, true) : series(r, false);
  return idx >= 2 ? [-v[0], -v[1]] : v;
}

const LIMIT = 1e5;

/** glibc's Taylor coefficients of sin (sysdeps/ieee754/dbl-64/usncs.h s1…s5). */
const SIN_S1 = -0.16666666666666666;
const SIN_S2 = 0.0083333333333323288;
const SIN_S3 = -0.00019841269834414642;
const SIN_S4 = 2.755729806860771e-6;
const SIN_S5 = -2.5022014848318398e-8;
/** glibc's polynomials around the table points (s_sin.c sn3, sn5, cs2, cs4, cs6). */
const SN3 = -1.66666666666664880952546298448555e-1;
const SN5 = 8.33333214285722277379541354343671e-3;
const CS2 = 4.99999999999999999999950396842453e-1;
const CS4 = -4.16666666666664434524222570944589e-2;
const CS6 = 1.38888874007937613028114285595617e-3;
/** 1.5·2^45: big + |x| rounds |x| to a multiple of 1/128 (usncs.h big). */
const BIG = 52776558133248;
/** π/2 as two doubles (usncs.h hp0, hp1). */
const HP0 = 1.5707963267948966;
const HP1 = 6.123233995736766e-17;

/** The smallest double whose high 32 bits are `hi` (glibc's branch limits are tests of the high word). */
function highWordLimit(hi: number): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setUint32(0, hi);
  v.setUint32(4, 0);
  return v.getFloat64(0);
}
/** 0x3feb6000: 0.85546875. */
const TABLE_LIMIT = highWordLimit(0x3feb6000);
/** 0x400368fd: ~2.4262648 (past it glibc reduces by multiples of π/2; here: double-double). */
const QUADRANT_LIMIT = highWordLimit(0x400368fd);

/**
 * glibc's __sincostab: sin and cos of i/128 for i = 0…109, each as a double and the double of
 * its remainder [sn, ssn, cs, ccs], here computed in double-double (the same values as the
 * table: checked through sin and cos against glibc 2.36). Made on first use.
 */
let sincosTable: Float64Array | null = null;
function sincosTableOf(): Float64Array {
  if (sincosTable !== null) return sincosTable;
  const t = new Float64Array(440);
  for (let i = 0; i < 110; i++) {
    const sn = sinCosDD(i / 128, true);
    const cs = sinCosDD(i / 128, false);
    const snHi = sn[0] + sn[1];
    const csHi = cs[0] + cs[1];
    t[4 * i] = snHi;
    t[4 * i + 1] = sn[0] - snHi + sn[1];
    t[4 * i + 2] = csHi;
    t[4 * i + 3] = cs[0] - csHi + cs[1];
  }
  return (sincosTable = t);
}

/** s_sin.c TAYLOR_SIN(x·x, x, dx) with the FMA build's fused steps. */
function taylorSin(x: number, dx: number): number {
  const xx = x * x;
  const p = fma(fma(fma(fma(SIN_S5, xx, SIN_S4), xx, SIN_S3), xx, SIN_S2), xx, SIN_S1);
  return x + fma(fma(p, x, -0.5 * dx), xx, dx);
}

/** s_sin.c do_sin(x, dx): the Taylor polynomial below 0.126, else the table point's sin and cos corrected. */
function doSin(x: number, dx: number): number {
  const ax = Math.abs(x);
  if (ax < 0.126) return taylorSin(x, dx);
  const d = x <= 0 ? -dx : dx;
  const u = BIG + ax;
  const k = (u - BIG) * 128 * 4;
  const r = ax - (u - BIG);
  const xx = r * r;
  const s = r + fma(r * xx, fma(xx, SN5, SN3), d);
  const c = fma(r, d, xx * fma(xx, fma(xx, CS6, CS4), CS2));
  const t = sincosTableOf();
  const cor = fma(t[k + 2], s, fma(-t[k], c, fma(s, t[k + 3], t[k + 1])));
  const v = t[k] + cor;
  return x < 0 ? -v : v; // copysign(sn + cor, x): |x| >= 0.126 here, never -0
}

/** s_sin.c do_cos(x, dx): the table point's cos and sin corrected. */
function doCos(x: number, dx: number): number {
  const d = x < 0 ? -dx : dx;
  const ax = Math.abs(x);
  const u = BIG + ax;
  const k = (u - BIG) * 128 * 4;
  const r = ax - (u - BIG) + d;
  const xx = r * r;
  const s = fma(r * xx, fma(xx, SN5, SN3), r);
  const c = xx * fma(xx, fma(xx, CS6, CS4), CS2);
  const t = sincosTableOf();
  const cor = fma(-t[k], s, fma(-t[k + 2], c, fma(-s, t[k + 1], t[k + 3])));
  return t[k + 2] + cor;
}

/**
 * glibc sin (s_sin.c __sin of glibc 2.28+, FMA build): x itself below 2^-26, do_sin below
 * 0.85546875, do_cos of π/2 − |x| below ~2.426; past that, double-double (GEO never gets there).
 * Matched Debian's glibc 2.36 on 2M random arguments within ±π/2.
 */
export function sin(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2 ** -26) return x;
  if (ax < TABLE_LIMIT) return doSin(x, 0);
  if (ax < QUADRANT_LIMIT) {
    const v = doCos(HP0 - ax, HP1);
    return x < 0 ? -v : v;
  }
  if (!(ax <= LIMIT)) return Math.sin(x);
  const v = sinCosDD(x, true);
  return v[0] + v[1];
}

/** glibc cos (s_sin.c __cos, as sin above): 1 below 2^-27, do_cos, then do_sin of π/2 − |x|. */
export function cos(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2 ** -27) return 1;
  if (ax < TABLE_LIMIT) return doCos(x, 0);
  if (ax < QUADRANT_LIMIT) {
    const y = HP0 - ax;
    const a = y + HP1;
    return doSin(a, y - a + HP1);
  }
  if (!(ax <= LIMIT)) return Math.cos(x);
  const v = sinCosDD(x, false);
  return v[0] + v[1];
}

/**
 * fma(a, b, c): a·b + c rounded once (the exact product and sum in double-double, then one
 * rounding; agreed with the hardware's fused multiply-add through every polynomial here on
 * millions of arguments checked against glibc).
 */
function fma(a: number, b: number, c: number): number {
  const [ph, pl] = twoProd(a, b);
  const [sh, sl] = twoSum(ph, c);
  return sh + (sl + pl);
}

/** glibc's Taylor coefficients of asin on |x| < 2^-3 (sysdeps/ieee754/dbl-64/uasncs.h f1…f6). */
const ASIN_F1 = 1.66666666666664110590506577996662e-1;
const ASIN_F2 = 7.50000000026122686814431784722623e-2;
const ASIN_F3 = 4.46428561421059750978517350006940e-2;
const ASIN_F4 = 3.03821268582119319911193410625235e-2;
const ASIN_F5 = 2.23551211026525610742786300334557e-2;
const ASIN_F6 = 1.81382903404565056280372531963613e-2;

/**
 * glibc asin. On 2^-26 ≤ |y| < 2^-3 (every GEO distance under ~1,590 km goes through asin of
 * such a y) glibc 2.34+ answers its Taylor polynomial without a correction step (max 0.513 ulp,
 * not always the correctly rounded value), evaluated with fused multiply-adds by the FMA build
 * x86-64 glibc selects on any CPU that has them (and aarch64's): computed the same way here, it
 * matched Debian's glibc 2.36 on 1.5M random arguments. Elsewhere: V8's value refined by one
 * Newton step on sin in double-double (the correctly rounded value; glibc's table-driven
 * branches differ from it on ~0.13% of arguments).
 */
export function asin(y: number): number {
  const ay = Math.abs(y);
  if (ay < 2 ** -26) return y; // glibc: asin(x) = x below 2^-26
  if (ay < 0.125) {
    const x2 = y * y;
    const p = fma(fma(fma(fma(fma(ASIN_F6, x2, ASIN_F5), x2, ASIN_F4), x2, ASIN_F3), x2, ASIN_F2), x2, ASIN_F1);
    return fma(p, x2 * y, y);
  }
  const a0 = Math.asin(y);
  if (!Number.isFinite(a0) || y === 0 || Math.abs(y) === 1) return a0;
  const s = sinCosDD(a0, true);
  const resid = add([y, 0], [-s[0], -s[1]]);
  const delta = (resid[0] + resid[1]) / Math.cos(a0);
  return a0 + delta;
}
