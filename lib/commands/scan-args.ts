/**
 * The options of SCAN, HSCAN, SSCAN and ZSCAN as db.c scanGenericCommand reads them, in order:
 * `COUNT n` (an integer, at least 1: "syntax error" otherwise), `MATCH pattern`, `TYPE name`
 * (SCAN only; an unknown name is `ERR unknown type name '<name>'` from 7.2 and matches nothing in
 * 7.0), `NOVALUES` (7.4+: HSCAN only, an error for the others; an unknown word before 7.4);
 * anything else, or an option without its value, is "syntax error".
 */
import { errorArg, ERR_NOT_INTEGER, ERR_SYNTAX, fail } from '../errors';
import { supports, type RedisVersion } from '../version';
import { is, parseInt64 } from './args';

const UINT64_MAX = 2n ** 64n - 1n;

/**
 * The cursor of SCAN, HSCAN, SSCAN and ZSCAN (db.c parseScanCursorOrReply, read before the key
 * is looked up). 7.0 reads it with strtoul (db.c parseScanCursorOrReply: no leading space, a
 * sign allowed — `-1` is 2^64 − 1 —, "" is 0, at most 2^64 − 1); later versions with string2ull
 * (a canonical negative number is refused, else strtoull: leading spaces and a sign allowed,
 * "" refused). `ERR invalid cursor` otherwise.
 */
export function parseScanCursor(text: string, version: RedisVersion): bigint {
  const strict = supports(version, 'scanCursorString2ull');
  // strtoul/string2ull read the argument as a C string: a NUL byte ends it
  const nul = text.indexOf('\0');
  if (nul !== -1) text = text.slice(0, nul);
  if (text === '') {
    if (strict) fail('ERR invalid cursor');
    return 0n;
  }
  const m = (strict ? /^[ \t\n\v\f\r]*([+-]?)(\d+)$/ : /^([+-]?)(\d+)$/).exec(text);
  if (!m) fail('ERR invalid cursor');
  const value = BigInt(m[2]);
  if (value > UINT64_MAX) fail('ERR invalid cursor');
  if (m[1] !== '-' || value === 0n) return value;
  if (strict && parseInt64(text) !== null) fail('ERR invalid cursor'); // string2ll read it: negative
  return UINT64_MAX + 1n - value;
}

/** The type names TYPE and SCAN … TYPE know. */
export const TYPE_NAMES = ['string', 'list', 'set', 'zset', 'hash', 'stream'];

export interface ScanOptions {
  /** Elements to examine per call (capped at 10^9). */
  readonly count: number;
  /** The MATCH pattern; undefined for none or `*`. */
  readonly pattern: string | undefined;
  /** SCAN's TYPE, lower case. */
  readonly typeName: string | undefined;
  /** HSCAN's NOVALUES. */
  readonly noValues: boolean;
}

/** The options from `argv[from]` on, for the SCAN of `kind` (`keys`: SCAN itself). */
export function parseScanOptions(argv: readonly string[], from: number, version: RedisVersion, kind: 'keys' | 'hash' | 'set' | 'zset'): ScanOptions {
  let count = 10;
  let pattern: string | undefined;
  let typeName: string | undefined;
  let noValues = false;
  for (let i = from; i < argv.length; ) {
    const more = argv.length - i;
    if (is(argv[i], 'COUNT') && more >= 2) {
      const v = parseInt64(argv[i + 1]);
      if (v === null) fail(ERR_NOT_INTEGER);
      if (v < 1n) fail(ERR_SYNTAX);
      count = v > 1_000_000_000n ? 1_000_000_000 : Number(v);
      i += 2;
    } else if (is(argv[i], 'MATCH') && more >= 2) {
      pattern = argv[i + 1] === '*' ? undefined : argv[i + 1];
      i += 2;
    } else if (kind === 'keys' && is(argv[i], 'TYPE') && more >= 2) {
      typeName = argv[i + 1].toLowerCase();
      if (!TYPE_NAMES.includes(typeName) && supports(version, 'scanUnknownTypeError')) fail(`ERR unknown type name '${errorArg(argv[i + 1])}'`);
      i += 2;
    } else if (is(argv[i], 'NOVALUES') && supports(version, 'hscanNovalues')) {
      if (kind !== 'hash') fail('ERR NOVALUES option can only be used in HSCAN');
      noValues = true;
      i++;
    } else {
      fail(ERR_SYNTAX);
    }
  }
  return { count, pattern, typeName, noValues };
}
