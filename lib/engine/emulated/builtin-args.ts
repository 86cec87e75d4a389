/**
 * Argument checks Redis makes for ioredis-mock's own commands, which ioredis-mock skips (it
 * answers `LRANGE k a b` with [] and `INCRBY k x` with null) or makes after looking the key up
 * (so a wrong-type key hid a bad argument). One table: for each command, the checks Redis runs
 * before it looks the key up (`before`), and the ones it runs after its type check (`after`,
 * which may read the stored value). Orders and texts follow t_list.c, t_string.c, t_hash.c,
 * t_set.c, t_zset.c, bitops.c and db.c of 7.0, each checked on redis-server 7.0.15.
 * Arguments here exclude the command name: args[0] is the first key.
 */
import { parseInt64 } from '../../commands/args';
import { CommandError, ERR_NOT_INTEGER, ERR_SYNTAX, errUnknownSubcommand, ERR_HASH_NOT_FLOAT, ERR_NAN_OR_INF_INCR, ERR_NOT_FLOAT } from '../../errors';
import { StreamsMockError } from '../../clock/clock';
import { bytesOf } from '../../bytes/index';
import { longDoubleModule } from './builtin-fixes';

type Check = (args: readonly string[], value?: unknown) => void;

const fail = (message: string): never => {
  throw new CommandError(message);
};
const wrongArity = (name: string) => `ERR wrong number of arguments for '${name}' command`;

/** C strtod on the whole text: decimal or hex floats, inf/infinity; null when it stops early. */
function strtod(s: string): number | null {
  const lower = s.toLowerCase();
  const m = /^([+-]?)(inf|infinity)$/.exec(lower);
  if (m) return m[1] === '-' ? -Infinity : Infinity;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(lower)) return Number(s);
  const hex = /^([+-]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?\d+))?$/.exec(lower);
  if (hex && (hex[2] !== '' || (hex[3] ?? '') !== '')) {
    const int = hex[2] === '' ? 0 : parseInt(hex[2], 16);
    const frac = [...(hex[3] ?? '')].reduce((acc, d, i) => acc + parseInt(d, 16) / 16 ** (i + 1), 0);
    const v = (int + frac) * 2 ** Number(hex[4] ?? 0);
    return hex[1] === '-' ? -v : v;
  }
  return null;
}

/** getDoubleFromObject / string2ld: not empty, no leading or trailing space, not nan. */
export function parseDouble(s: string): number | null {
  if (s === '' || /^\s|\s$/.test(s)) return null;
  const v = strtod(s);
  return v === null || Number.isNaN(v) ? null : v;
}

/**
 * getDoubleFromObject (ZADD scores, ZINCRBY's increment) also refuses a text strtod overflows to
 * ±HUGE_VAL or underflows to 0 (ERANGE: `1e400`, `1e-400`); the words inf/infinity are fine.
 */
function parseScoreArg(s: string): number | null {
  const v = parseDouble(s);
  if (v === null) return null;
  const lower = s.toLowerCase();
  if (!Number.isFinite(v) && !/^[+-]?inf(inity)?$/.test(lower)) return null;
  if (v === 0) {
    const mantissa = lower.startsWith('0x', /^[+-]/.test(lower) ? 1 : 0) ? lower.replace(/^[+-]?0x/, '').split('p')[0] : lower.split('e')[0];
    if (/[1-9a-f]/.test(mantissa)) return null;
  }
  return v;
}

/**
 * zslParseRange's strtod: leading C spaces (isspace) skipped, the empty text is 0 (strtod
 * converts nothing and stops at its end), spaces alone are not a float (strtod stops at the
 * first one), nor is nan; overflows are the infinities (ERANGE is not checked).
 */
function parseScore(s: string): number | null {
  const t = s.replace(/^[ \t\n\v\f\r]+/, '');
  if (t === '') return s === '' ? 0 : null;
  return parseDouble(t);
}

/** A score-range bound as zslParseRange reads it: `(` makes it exclusive. null: not a float. */
export function parseScoreBound(s: string): { value: number; exclusive: boolean } | null {
  const exclusive = s.startsWith('(');
  const value = parseScore(exclusive ? s.slice(1) : s);
  return value === null ? null : { value, exclusive };
}

const int = (i: number, message = ERR_NOT_INTEGER): Check => (a) => {
  if (a.length > i && parseInt64(a[i]) === null) fail(message);
};
/** getPositiveLongFromObjectOrReply with the "must be positive" text (pop counts). */
const positiveCount = (i: number): Check => (a) => {
  if (a.length <= i) return;
  const v = parseInt64(a[i]);
  if (v === null || v < 0n) fail('ERR value is out of range, must be positive');
};
const maxArgs = (n: number, message: string): Check => (a) => {
  if (a.length > n) fail(message);
};
const oneOf = (i: number, words: string[], message = ERR_SYNTAX): Check => (a) => {
  if (a.length > i && !words.includes(a[i].toUpperCase())) fail(message);
};
const pairsFrom = (from: number, name: string): Check => (a) => {
  if ((a.length - from) % 2 !== 0) fail(wrongArity(name));
};
/** zslParseRange: `(`-exclusive or plain doubles, ±inf. */
const scoreBound = (i: number): Check => (a) => {
  if (a.length > i && parseScoreBound(a[i]) === null) fail('ERR min or max is not a float');
};
/** zslParseLexRangeItem: `-`, `+`, or `(`/`[` followed by the string. */
const lexBound = (i: number): Check => (a) => {
  if (a.length <= i) return;
  const s = a[i];
  if (!(s === '-' || s === '+' || s.startsWith('(') || s.startsWith('['))) fail('ERR min or max not valid string range item');
};
/** parseScanCursorOrReply (strtoul: a sign is allowed, no spaces, at most 2^64 − 1; "" is 0). */
const cursor = (i: number): Check => (a) => {
  if (a.length <= i || a[i] === '') return;
  const m = /^[+-]?(\d+)$/.exec(a[i]);
  if (!m || BigInt(m[1]) > 2n ** 64n - 1n) fail('ERR invalid cursor');
};

const upper = (s: string | undefined) => (s ?? '').toUpperCase();

/** SET key value [NX|XX] [GET] [EX|PX|EXAT|PXAT n|KEEPTTL] (t_string.c parseExtendedStringArgumentsOrReply). */
const setOptions: Check = (a) => {
  let cond = '';
  let expire = '';
  let get = false;
  for (let i = 2; i < a.length; i++) {
    const opt = upper(a[i]);
    if ((opt === 'NX' || opt === 'XX') && !cond) cond = opt;
    else if (opt === 'GET' && !get) get = true;
    else if (opt === 'KEEPTTL' && !expire) expire = opt;
    else if (['EX', 'PX', 'EXAT', 'PXAT'].includes(opt) && !expire && i + 1 < a.length) {
      expire = opt;
      i++;
    } else fail(ERR_SYNTAX);
  }
  for (let i = 2; i < a.length; i++) {
    if (['EX', 'PX', 'EXAT', 'PXAT'].includes(upper(a[i]))) {
      const v = parseInt64(a[i + 1]);
      if (v === null) fail(ERR_NOT_INTEGER);
      if ((v as bigint) <= 0n) fail("ERR invalid expire time in 'set' command");
    }
  }
};

/** GETEX key [EX|PX|EXAT|PXAT n|PERSIST]: the option syntax (the value is checked after the lookup). */
const getexOptions: Check = (a) => {
  let seen = false;
  for (let i = 1; i < a.length; i++) {
    const opt = upper(a[i]);
    if (opt === 'PERSIST' && !seen) seen = true;
    else if (['EX', 'PX', 'EXAT', 'PXAT'].includes(opt) && !seen && i + 1 < a.length) {
      seen = true;
      i++;
    } else fail(ERR_SYNTAX);
  }
};
const getexValue: Check = (a) => {
  const i = a.findIndex((x, j) => j > 0 && ['EX', 'PX', 'EXAT', 'PXAT'].includes(upper(x)));
  if (i < 0) return;
  const v = parseInt64(a[i + 1]);
  if (v === null) fail(ERR_NOT_INTEGER);
  if ((v as bigint) <= 0n) fail("ERR invalid expire time in 'getex' command");
};

/** LPOS key element [RANK r] [COUNT n] [MAXLEN m]. */
const lposOptions: Check = (a) => {
  for (let i = 2; i < a.length; i += 2) {
    const opt = upper(a[i]);
    if (!['RANK', 'COUNT', 'MAXLEN'].includes(opt) || i + 1 >= a.length) fail(ERR_SYNTAX);
    const v = parseInt64(a[i + 1]);
    if (v === null) fail(ERR_NOT_INTEGER);
    if (opt === 'RANK' && v === 0n) {
      fail("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list");
    }
    if (opt === 'COUNT' && (v as bigint) < 0n) fail("ERR COUNT can't be negative");
    if (opt === 'MAXLEN' && (v as bigint) < 0n) fail("ERR MAXLEN can't be negative");
  }
};

/** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member … (t_zset.c zaddGenericCommand). */
const zaddArgs: Check = (a) => {
  const flags = new Set<string>();
  let i = 1;
  while (i < a.length && ['NX', 'XX', 'GT', 'LT', 'CH', 'INCR'].includes(upper(a[i]))) flags.add(upper(a[i++]));
  const pairs = a.length - i;
  if (pairs % 2 !== 0 || pairs === 0) fail(ERR_SYNTAX);
  if (flags.has('NX') && flags.has('XX')) fail('ERR XX and NX options at the same time are not compatible');
  if ((flags.has('GT') && flags.has('NX')) || (flags.has('LT') && flags.has('NX')) || (flags.has('GT') && flags.has('LT'))) {
    fail('ERR GT, LT, and/or NX options at the same time are not compatible');
  }
  if (flags.has('INCR') && pairs > 2) fail('ERR INCR option supports a single increment-element pair');
  for (let j = i; j < a.length; j += 2) if (parseScoreArg(a[j]) === null) fail('ERR value is not a valid float');
};

/**
 * ZRANGE and its older forms (t_zset.c zrangeGenericCommand): options first, then the range
 * by its kind (ranks, scores or lex), all before the key is looked up.
 */
const zrangeArgs = (form: 'zrange' | 'zrevrange' | 'score' | 'lex'): Check => (a) => {
  let kind: 'rank' | 'score' | 'lex' = form === 'score' ? 'score' : form === 'lex' ? 'lex' : 'rank';
  let withScores = false;
  let limit = false;
  let rev = false;
  for (let i = 3; i < a.length; i++) {
    const opt = upper(a[i]);
    if (opt === 'WITHSCORES') withScores = true;
    else if (opt === 'LIMIT' && form !== 'zrevrange' && i + 2 < a.length) {
      if (parseInt64(a[i + 1]) === null || parseInt64(a[i + 2]) === null) fail(ERR_NOT_INTEGER);
      limit = true;
      i += 2;
    } else if (form === 'zrange' && opt === 'BYSCORE' && kind === 'rank') kind = 'score';
    else if (form === 'zrange' && opt === 'BYLEX' && kind === 'rank') kind = 'lex';
    else if (form === 'zrange' && opt === 'REV' && !rev) rev = true;
    else fail(ERR_SYNTAX);
  }
  if (limit && kind === 'rank') fail('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  if (withScores && kind === 'lex') fail('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  const [min, max] = [a[1] ?? '', a[2] ?? ''];
  if (kind === 'rank' && (parseInt64(min) === null || parseInt64(max) === null)) fail(ERR_NOT_INTEGER);
  if (kind === 'score') for (const b of [min, max]) if (parseScoreBound(b) === null) fail('ERR min or max is not a float');
  if (kind === 'lex') for (const b of [min, max]) if (!(b === '-' || b === '+' || b.startsWith('(') || b.startsWith('['))) fail('ERR min or max not valid string range item');
};

/** numkeys of ZUNION/ZINTER/ZDIFF[STORE]/ZINTERSTORE/ZUNIONSTORE at `i` (`name` for the text). */
const numkeys = (i: number, name: string): Check => (a) => {
  if (a.length <= i) return;
  const v = parseInt64(a[i]);
  if (v === null) fail(ERR_NOT_INTEGER);
  if ((v as bigint) < 1n) fail(`ERR at least 1 input key is needed for '${name}' command`);
  if ((v as bigint) > BigInt(a.length - i - 1)) fail(ERR_SYNTAX);
};
const bitOffset = (i: number): Check => (a) => {
  if (a.length <= i) return;
  const v = parseInt64(a[i]);
  if (v === null || v < 0n || v >= 4n * 1024n * 1024n * 1024n * 8n) fail('ERR bit offset is not an integer or out of range');
};
const bitValue = (i: number): Check => (a) => {
  if (a.length > i && a[i] !== '0' && a[i] !== '1') fail('ERR bit is not an integer or out of range');
};
const expireTime = (i: number, name: string): Check => (a) => {
  if (a.length <= i) return;
  const v = parseInt64(a[i]);
  if (v === null) fail(ERR_NOT_INTEGER);
  if ((v as bigint) <= 0n) fail(`ERR invalid expire time in '${name}' command`);
};

/** The stored string as a number for INCR & co. (string2ll / string2ld of the value). */
const storedInteger: Check = (_a, value) => {
  if (value === undefined) return;
  if (parseInt64(bytesOf(value)) === null) fail(ERR_NOT_INTEGER);
};
/** INCRBYFLOAT / HINCRBYFLOAT read both numbers as long doubles (string2ld: ./long-double.ts). */
const storedLongDouble: Check = (_a, value) => {
  if (value === undefined) return;
  if (longDoubleModule().parseLongDouble(bytesOf(value)) === null) fail(ERR_NOT_FLOAT);
};
const longDouble = (i: number): Check => (a) => {
  if (a.length > i && longDoubleModule().parseLongDouble(a[i]) === null) fail(ERR_NOT_FLOAT);
};
/** HINCRBYFLOAT's increment: a long double, not an infinity. */
const finiteLongDouble = (i: number): Check => (a) => {
  const v = longDoubleModule().parseLongDouble(a[i] ?? '');
  if (v === null) return fail(ERR_NOT_FLOAT);
  if ('inf' in v) fail(ERR_NAN_OR_INF_INCR);
};

/** Strings the fake builds byte by byte in JS: beyond 64 MiB ioredis-mock would exhaust memory. */
const FAKE_MAX_STRING = 64 * 1024 * 1024;
const fakeSizeLimit = (command: string, bytes: (a: readonly string[]) => number): Check => (a) => {
  if (bytes(a) > FAKE_MAX_STRING) {
    throw new StreamsMockError(`${command} beyond ${FAKE_MAX_STRING} bytes is not emulated: ioredis-mock builds such strings in memory, byte by byte`);
  }
};

const hashField = (integer: boolean): Check => (a, value) => {
  const field = a[1];
  const stored = value && typeof value === 'object' && field !== undefined ? (value as Record<string, unknown>)[field] : undefined;
  if (stored === undefined) return;
  const text = bytesOf(stored);
  if (integer ? parseInt64(text) === null : longDoubleModule().parseLongDouble(text) === null) fail(integer ? 'ERR hash value is not an integer' : ERR_HASH_NOT_FLOAT);
};

/**
 * `before`: checks before the key lookup; `after`: checks once the key exists with the right
 * type (a missing key answers first, or `missing` is the error for one, or `afterMissing` runs).
 */
const RULES: Record<string, { before?: Check[]; after?: Check[]; missing?: string; afterMissing?: Check[] }> = {
  object: {
    before: [
      (a) => {
        if (a.length > 0 && !['ENCODING', 'FREQ', 'IDLETIME', 'REFCOUNT', 'HELP'].includes(upper(a[0]))) fail(errUnknownSubcommand(a[0], 'OBJECT'));
      },
    ],
  },
  lrange: { before: [int(1), int(2)] },
  ltrim: { before: [int(1), int(2)] },
  lrem: { before: [int(1)] },
  lindex: { after: [int(1)] },
  lset: { missing: 'ERR no such key', after: [int(1)] },
  lpos: { before: [lposOptions] },
  lmpop: {
    before: [
      (a) => {
        const v = parseInt64(a[0] ?? '');
        if (v === null || v < 1n) fail('ERR numkeys should be greater than 0');
        const n = v as bigint;
        if (n > BigInt(a.length - 2)) fail(ERR_SYNTAX);
        const rest = a.slice(1 + Number(n));
        if (!['LEFT', 'RIGHT'].includes(upper(rest[0]))) fail(ERR_SYNTAX);
        for (let i = 1; i < rest.length; i += 2) {
          if (upper(rest[i]) !== 'COUNT' || i + 1 >= rest.length) fail(ERR_SYNTAX);
          const count = parseInt64(rest[i + 1]);
          if (count === null || count < 1n) fail('ERR count should be greater than 0');
        }
      },
    ],
  },
  set: { before: [setOptions] },
  getex: { before: [getexOptions], after: [getexValue] },
  hrandfield: {
    before: [
      int(1),
      (a) => {
        if (a.length > 3 || (a.length === 3 && upper(a[2]) !== 'WITHVALUES')) fail(ERR_SYNTAX);
      },
    ],
  },
  zadd: {
    before: [
      zaddArgs,
      (a) => {
        // ioredis-mock parses neither GT nor LT (it answers a syntax error): say so instead
        if (a.some((x, i) => i > 0 && ['GT', 'LT'].includes(upper(x)))) throw new StreamsMockError('ZADD GT/LT is not emulated: ioredis-mock does not implement them');
      },
    ],
  },
  zrange: { before: [zrangeArgs('zrange')] },
  zrevrange: { before: [zrangeArgs('zrevrange')] },
  zunion: { before: [numkeys(0, 'zunion')] },
  zinter: { before: [numkeys(0, 'zinter')] },
  zdiff: { before: [numkeys(0, 'zdiff')] },
  zunionstore: { before: [numkeys(1, 'zunionstore')] },
  zinterstore: { before: [numkeys(1, 'zinterstore')] },
  zdiffstore: { before: [numkeys(1, 'zdiffstore')] },
  linsert: { before: [oneOf(1, ['BEFORE', 'AFTER'])] },
  lmove: { before: [oneOf(2, ['LEFT', 'RIGHT']), oneOf(3, ['LEFT', 'RIGHT'])] },
  lpop: { before: [maxArgs(2, wrongArity('lpop')), positiveCount(1)] },
  rpop: { before: [maxArgs(2, wrongArity('rpop')), positiveCount(1)] },
  getrange: { before: [int(1), int(2)] },
  substr: { before: [int(1), int(2)] },
  setrange: {
    before: [
      int(1),
      (a) => {
        if (a.length > 1 && (parseInt64(a[1]) as bigint) < 0n) fail('ERR offset is out of range');
      },
      (a) => {
        if ((a[2] ?? '').length > 0 && Number(parseInt64(a[1]) as bigint) + (a[2] ?? '').length > 512 * 1024 * 1024) {
          fail('ERR string exceeds maximum allowed size (proto-max-bulk-len)');
        }
      },
      fakeSizeLimit('SETRANGE', (a) => Number(parseInt64(a[1]) as bigint) + (a[2] ?? '').length),
    ],
  },
  incr: { after: [storedInteger] },
  decr: { after: [storedInteger] },
  incrby: { before: [int(1)], after: [storedInteger] },
  decrby: {
    before: [
      int(1),
      (a) => {
        // -LLONG_MIN is not a long long (t_string.c decrbyCommand, before the key lookup)
        if (a.length > 1 && parseInt64(a[1]) === -(2n ** 63n)) fail('ERR decrement would overflow');
      },
    ],
    after: [storedInteger],
  },
  incrbyfloat: { after: [storedLongDouble, longDouble(1)], afterMissing: [longDouble(1)] }, // the sum: ./long-double.ts
  setex: { before: [expireTime(1, 'setex')] },
  psetex: { before: [expireTime(1, 'psetex')] },
  getbit: { before: [bitOffset(1)] },
  setbit: { before: [bitOffset(1), bitValue(2), fakeSizeLimit('SETBIT', (a) => Number(parseInt64(a[1]) as bigint) / 8 + 1)] },
  bitcount: {
    after: [
      (a) => {
        if (a.length === 2 || a.length > 4) fail(ERR_SYNTAX);
      },
      int(1),
      int(2),
      (a) => {
        if (a.length === 4 && !['BYTE', 'BIT'].includes(upper(a[3]))) fail(ERR_SYNTAX);
      },
    ],
  },
  hset: { before: [pairsFrom(1, 'hset')] },
  hmset: { before: [pairsFrom(1, 'hmset')] },
  hincrby: { before: [int(2)], after: [hashField(true)] },
  hincrbyfloat: { before: [finiteLongDouble(2)], after: [hashField(false)] }, // the sum: ./long-double.ts
  hscan: { before: [cursor(1)] },
  sscan: { before: [cursor(1)] },
  zscan: { before: [cursor(1)] },
  mset: { before: [pairsFrom(0, 'mset')] },
  msetnx: { before: [pairsFrom(0, 'msetnx')] },
  spop: { before: [maxArgs(2, ERR_SYNTAX), positiveCount(1)] },
  srandmember: { before: [maxArgs(2, ERR_SYNTAX), int(1)] },
  zpopmin: { before: [maxArgs(2, ERR_SYNTAX), positiveCount(1)] },
  zpopmax: { before: [maxArgs(2, ERR_SYNTAX), positiveCount(1)] },
  zincrby: {
    before: [
      (a) => {
        if (a.length > 1 && parseScoreArg(a[1]) === null) fail('ERR value is not a valid float');
      },
    ],
  },
  zcount: { before: [scoreBound(1), scoreBound(2)] },
  zrangebyscore: { before: [zrangeArgs('score')] },
  zrevrangebyscore: { before: [zrangeArgs('score')] },
  zremrangebyscore: { before: [scoreBound(1), scoreBound(2)] },
  zrangebylex: { before: [zrangeArgs('lex')] },
  zrevrangebylex: { before: [zrangeArgs('lex')] },
  zremrangebylex: { before: [lexBound(1), lexBound(2)] },
  zlexcount: { before: [lexBound(1), lexBound(2)] },
  zremrangebyrank: { before: [int(1), int(2)] },
};

/** True when the table has checks for `command`. */
export function hasArgChecks(command: string): boolean {
  return Object.prototype.hasOwnProperty.call(RULES, command);
}

/** Run the checks Redis makes before looking the key up. Throws CommandError. */
export function checkArgsBeforeLookup(command: string, args: readonly string[]): void {
  for (const check of RULES[command]?.before ?? []) check(args);
}

/** Run the checks Redis makes after its type check; `value` is the key's stored value. Throws CommandError. */
export function checkArgsAfterLookup(command: string, args: readonly string[], value: unknown): void {
  const rule = RULES[command];
  if (!rule) return;
  if (value === undefined) {
    if (rule.missing) fail(rule.missing);
    for (const check of rule.afterMissing ?? []) check(args);
    return;
  }
  for (const check of rule.after ?? []) check(args, value);
}
