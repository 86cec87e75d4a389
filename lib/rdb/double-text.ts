/**
 * Doubles as Redis writes them as text: C `%.17g` (glibc) and util.c `d2string` (a sorted-set
 * score in a listpack; 7.0 `%.17g`, 7.2+ fpconv_dtoa: ./fpconv.ts). Used by the RDB codec
 * (./collections.ts) and by the sorted-set replies (lib/commands/zset-common.ts), which must not load
 * the codec.
 */
import { fpconvDtoa } from './fpconv';

/**
 * C `%.17g` as glibc prints it: the exact binary value rounded to 17 significant digits, ties to
 * even (JavaScript's toExponential rounds ties up, so the digits come from an exact expansion).
 */
export function formatG17(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let mant = bits & 0xfffffffffffffn;
  let e2 = biased - 1075;
  if (biased === 0) e2 = -1074;
  else mant |= 1n << 52n;
  // exact value = num / den
  const num = e2 >= 0 ? mant << BigInt(e2) : mant;
  const den = e2 >= 0 ? 1n : 1n << BigInt(-e2);
  // decimal exponent of the leading digit
  let exp = Math.floor(Math.log10(Math.abs(x)));
  const pow10 = (k: number) => 10n ** BigInt(k);
  const scaled = (k: number): [bigint, bigint] => (k >= 0 ? [num, den * pow10(k)] : [num * pow10(-k), den]);
  // digits = round(value / 10^(exp - 16)) must have 17 digits; fix exp when log10 was off by one
  for (;;) {
    const [n, d] = scaled(exp);
    if (n >= d * 10n) exp++;
    else if (n < d) exp--;
    else break;
  }
  const [n, d] = scaled(exp - 16);
  let q = n / d;
  const r = n % d;
  if (2n * r > d || (2n * r === d && q % 2n === 1n)) q++;
  if (q === pow10(17)) {
    q = pow10(16);
    exp++;
  }
  const digits = q.toString();
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 17) {
    const frac = digits.slice(1).replace(/0+$/, '');
    return `${sign}${digits[0]}${frac ? `.${frac}` : ''}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  let text: string;
  if (exp >= 0) {
    const intPart = digits.slice(0, exp + 1);
    const fracPart = digits.slice(exp + 1).replace(/0+$/, '');
    text = fracPart ? `${intPart}.${fracPart}` : intPart;
  } else {
    text = `0.${'0'.repeat(-exp - 1)}${digits}`.replace(/0+$/, '');
  }
  return sign + text;
}

/** util.c `d2string`: the text Redis stores a sorted-set score as in a listpack. */
export function d2string(x: number, style: 'g17' | 'fpconv'): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // double2ll: integral and within ±LLONG_MAX/2 → integer text
  if (Number.isInteger(x) && Math.abs(x) <= 4611686018427387903) return BigInt(x).toString();
  return style === 'g17' ? formatG17(x) : fpconvDtoa(x);
}
