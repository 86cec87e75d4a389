/**
 * C's text-to-double readers as Redis calls them on a whole argument, shared by the commands
 * that read doubles (sorted-set scores and ranges, SORT weights, blocking timeouts):
 * - `strtod`: glibc strtod/strtold over the whole text — decimal floats, hexadecimal floats
 *   (`0x1p3`, `0x.8`, at least one digit), `inf`/`infinity` with a sign, any case; null when it
 *   would stop early (spaces, `nan` and the checks on them are the callers');
 * - `fastFloat`: fast_float_strtod (8.0+ string2d): decimal floats and `inf`/`infinity` only.
 */

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;
/** The hexadecimal form: `0x` digits [`.` digits] [`p` exponent]. */
const HEX_FLOAT = /^([+-]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?\d+))?$/i;

/** ±Infinity for `inf`/`infinity` with an optional sign, else undefined. */
function infinity(s: string): number | undefined {
  const m = INFINITY.exec(s);
  return m === null ? undefined : m[1] === '-' ? -Infinity : Infinity;
}

/** fast_float_strtod over the whole text: decimal floats and ±inf/infinity; null otherwise. */
export function fastFloat(s: string): number | null {
  const inf = infinity(s);
  if (inf !== undefined) return inf;
  return DECIMAL.test(s) ? Number(s) : null;
}

/** C strtod over the whole text: decimal or hexadecimal floats, ±inf/infinity; null when it stops early. */
export function strtod(s: string): number | null {
  const v = fastFloat(s);
  if (v !== null) return v;
  const hex = HEX_FLOAT.exec(s);
  if (hex === null) return null;
  const [, sign, int, frac = '', exp = '0'] = hex;
  if (int.length + frac.length === 0) return null;
  let m = 0;
  for (const c of int + frac) m = m * 16 + parseInt(c, 16);
  const out = m * 2 ** (Number(exp) - 4 * frac.length);
  return sign === '-' ? -out : out;
}
