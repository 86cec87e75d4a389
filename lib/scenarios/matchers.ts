/**
 * Matchers for expected replies in scenario fixtures.
 *
 * A Redis reply (RESP2, as ioredis returns it) is built only from strings, numbers, null
 * and arrays. It never contains a plain object, so any object inside an expected reply
 * is a matcher. There are four kinds, each an object with exactly one kind key, plus an
 * optional `capture`:
 *
 * | Matcher                       | Accepts                                              |
 * |-------------------------------|------------------------------------------------------|
 * | `{"any": true}`               | any value, including null and arrays                 |
 * | `{"id": true}`                | a stream ID string `<ms>-<seq>` (decimal digits)     |
 * | `{"int": [min, max]}`         | an integer with min <= value <= max; null = unbounded |
 * | `{"ref": "name"}`             | a value deep-equal to the one captured as `name`     |
 * | `{"capture": "name"}`         | any value, and binds it to `name`                    |
 *
 * `capture` may be combined with one kind key: `{"id": true, "capture": "first"}` checks
 * the kind first and binds the value only if it matched. A name is captured once per
 * scenario. Inside a command (`cmd`), `{"ref": "name"}` is replaced by the captured value,
 * which must then be a string or an integer (or bytes).
 *
 * Bytes that are not UTF-8 text (`ff 00 c3`) are written `{"hex": "ff00c3"}`, in `cmd` and in
 * replies alike: JSON strings hold text only. The recorder writes a bulk reply that is not valid
 * UTF-8 in this form; in a reply it accepts exactly those bytes (text with the same UTF-8 bytes too).
 */

/** A JSON value as it appears in a fixture. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Bytes that are not UTF-8 text, as lower-case hex: `{"hex": "ff00c3"}`. */
export type Bytes = { hex: string };

/** A reply value as ioredis returns it after normalisation (see `normalizeReply`). */
export type Reply = string | number | null | Bytes | Reply[];

/** True for a `{"hex": …}` value holding whole bytes. */
export function isBytes(v: unknown): v is Bytes {
  return isPlainObject(v) && Object.keys(v).length === 1 && typeof v.hex === 'string' && /^(?:[0-9a-fA-F]{2})*$/.test(v.hex);
}

/** Bytes as a reply: UTF-8 text as a string, anything else as `{"hex"}`. */
export function bytesValue(buf: Buffer): string | Bytes {
  const text = buf.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buf) ? text : { hex: buf.toString('hex') };
}

export type Matcher =
  | { kind: 'any'; capture?: string }
  | { kind: 'id'; capture?: string }
  | { kind: 'int'; min: number | null; max: number | null; capture?: string }
  | { kind: 'ref'; name: string; capture?: string }
  | { kind: 'hex'; bytes: Buffer; capture?: string };

/** Captured values, by name. */
export type Bindings = Map<string, Reply>;

const KIND_KEYS = ['any', 'id', 'int', 'ref', 'hex'] as const;
const STREAM_ID = /^\d+-\d+$/;

export function isPlainObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a matcher object. Returns a description of the problem as a string when the
 * object is not a valid matcher (used by the fixture validator).
 */
export function parseMatcher(obj: { [key: string]: Json }): Matcher | string {
  const keys = Object.keys(obj);
  const kinds = keys.filter((k) => (KIND_KEYS as readonly string[]).includes(k));
  const others = keys.filter((k) => k !== 'capture' && !(KIND_KEYS as readonly string[]).includes(k));
  if (others.length > 0) return `unknown matcher key(s) ${others.map((k) => `"${k}"`).join(', ')}`;
  if (kinds.length > 1) return `a matcher has one kind, got ${kinds.join(' + ')}`;
  let capture: string | undefined;
  if ('capture' in obj) {
    if (typeof obj.capture !== 'string' || obj.capture === '') return '"capture" needs a non-empty name';
    capture = obj.capture;
  }
  const kind = kinds[0];
  if (kind === undefined) {
    if (capture === undefined) return 'an empty object is not a matcher';
    return { kind: 'any', capture };
  }
  const arg = obj[kind];
  switch (kind) {
    case 'any':
    case 'id':
      if (arg !== true) return `"${kind}" must be true`;
      return capture === undefined ? { kind } : { kind, capture };
    case 'int': {
      const ok =
        Array.isArray(arg) &&
        arg.length === 2 &&
        arg.every((b) => b === null || (typeof b === 'number' && Number.isInteger(b)));
      if (!ok) return '"int" must be [min, max] with integer or null bounds';
      const [min, max] = arg as (number | null)[];
      if (min !== null && max !== null && min > max) return `"int" range [${min}, ${max}] is empty`;
      return capture === undefined ? { kind, min, max } : { kind, min, max, capture };
    }
    case 'hex': {
      if (typeof arg !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(arg)) return '"hex" must be a string of hex digit pairs, e.g. "ff00"';
      const bytes = Buffer.from(arg, 'hex');
      return capture === undefined ? { kind, bytes } : { kind, bytes, capture };
    }
    case 'ref':
      if (typeof arg !== 'string' || arg === '') return '"ref" needs a non-empty name';
      return capture === undefined ? { kind, name: arg } : { kind, name: arg, capture };
    default:
      return `unknown matcher kind "${kind}"`;
  }
}

/** Throws on an invalid matcher; for code paths that run after validation. */
function matcherOf(obj: { [key: string]: Json }): Matcher {
  const m = parseMatcher(obj);
  if (typeof m === 'string') throw new Error(`[ioredis-mock-streams] invalid matcher ${JSON.stringify(obj)}: ${m}`);
  return m;
}

/** True if the expected value contains at least one matcher object (`{"hex"}` bytes are none). */
export function containsMatcher(expected: Json): boolean {
  // `{"hex"}` is an exact value written as an object: the recorder replaces it as it does a string
  if (isPlainObject(expected)) return !isBytes(expected);
  if (Array.isArray(expected)) return expected.some(containsMatcher);
  return false;
}

/** Walks an expected value and calls `visit` on every matcher with its path. */
export function forEachMatcher(expected: Json, visit: (m: Matcher | string, path: string) => void, path = ''): void {
  if (isPlainObject(expected)) {
    visit(parseMatcher(expected), path);
  } else if (Array.isArray(expected)) {
    expected.forEach((e, i) => forEachMatcher(e, visit, `${path}[${i}]`));
  }
}

export type MatchResult = { ok: true } | { ok: false; path: string; message: string };

/** A string or `{"hex"}` reply as bytes; undefined for anything else. */
function bytesOf(v: Reply): Buffer | undefined {
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  if (isBytes(v)) return Buffer.from(v.hex, 'hex');
  return undefined;
}

/** Deep equality of two replies (a string and `{"hex"}` are equal when their bytes are). */
export function replyEquals(a: Reply, b: Reply): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => replyEquals(x, b[i]));
  }
  if (isBytes(a) || isBytes(b)) {
    const x = bytesOf(a);
    const y = bytesOf(b);
    return x !== undefined && y !== undefined && x.equals(y);
  }
  return a === b;
}

function checkMatcher(m: Matcher, actual: Reply, bindings: Bindings, path: string): MatchResult {
  const fail = (message: string): MatchResult => ({ ok: false, path, message });
  switch (m.kind) {
    case 'any':
      break;
    case 'id':
      if (typeof actual !== 'string' || !STREAM_ID.test(actual)) return fail(`expected a stream ID, got ${JSON.stringify(actual)}`);
      break;
    case 'int': {
      const range = `[${m.min ?? '-inf'}, ${m.max ?? '+inf'}]`;
      if (typeof actual !== 'number' || !Number.isInteger(actual)) return fail(`expected an integer in ${range}, got ${JSON.stringify(actual)}`);
      if ((m.min !== null && actual < m.min) || (m.max !== null && actual > m.max)) return fail(`expected an integer in ${range}, got ${actual}`);
      break;
    }
    case 'hex': {
      const bytes = bytesOf(actual);
      if (bytes === undefined || !bytes.equals(m.bytes)) return fail(`expected ${JSON.stringify(bytesValue(m.bytes))}, got ${JSON.stringify(actual)}`);
      break;
    }
    case 'ref': {
      if (!bindings.has(m.name)) return fail(`"${m.name}" was never captured`);
      const bound = bindings.get(m.name) as Reply;
      if (!replyEquals(bound, actual)) return fail(`expected ${JSON.stringify(bound)} (captured "${m.name}"), got ${JSON.stringify(actual)}`);
      break;
    }
  }
  if (m.capture !== undefined) bindings.set(m.capture, actual);
  return { ok: true };
}

/**
 * Matches an actual reply against an expected value. Plain values must be equal (arrays
 * element by element, same length); objects are matchers. Captures are bound into
 * `bindings` as they match, left to right. Returns the path of the first difference.
 */
export function matchReply(expected: Json, actual: Reply, bindings: Bindings, path = ''): MatchResult {
  if (isPlainObject(expected)) return checkMatcher(matcherOf(expected), actual, bindings, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { ok: false, path, message: `expected an array, got ${JSON.stringify(actual)}` };
    if (actual.length !== expected.length) {
      return { ok: false, path, message: `expected ${expected.length} element(s), got ${actual.length}` };
    }
    for (let i = 0; i < expected.length; i++) {
      const r = matchReply(expected[i], actual[i], bindings, `${path}[${i}]`);
      if (!r.ok) return r;
    }
    return { ok: true };
  }
  if (expected !== actual && !sameWideInteger(expected, actual)) {
    return { ok: false, path, message: `expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}` };
  }
  return { ok: true };
}

/**
 * An integer reply beyond 2^53 is a JSON number only approximately, and clients round it their
 * own way while reading its digits (ioredis 5's parser and ioredis 6's decoder add them up in
 * doubles differently: 9223372036854775807 arrives as 9223372036854778000 and 9223372036854776000).
 * Two such numbers match within a few units in the last place (8 ULPs).
 */
function sameWideInteger(expected: unknown, actual: unknown): boolean {
  if (typeof expected !== 'number' || typeof actual !== 'number') return false;
  if (!Number.isFinite(expected) || Math.abs(expected) <= Number.MAX_SAFE_INTEGER) return false;
  return Math.abs(expected - actual) <= Math.abs(expected) * 8 * Number.EPSILON;
}

/** A command argument in a fixture: a string, bytes (`{"hex"}`), or a reference to a captured value. */
export type Arg = string | Bytes | { ref: string };

/**
 * Replaces `{"ref": name}` arguments by their captured values (strings or integers; bytes) and
 * `{"hex"}` arguments by their bytes (Buffers).
 */
export function resolveArgs(cmd: readonly Arg[], bindings: Bindings): (string | Buffer)[] {
  return cmd.map((arg) => {
    if (typeof arg === 'string') return arg;
    if (isBytes(arg)) return Buffer.from(arg.hex, 'hex');
    if (!bindings.has(arg.ref)) throw new Error(`[ioredis-mock-streams] argument {"ref": "${arg.ref}"} was never captured`);
    const v = bindings.get(arg.ref);
    if (typeof v === 'string') return v;
    if (isBytes(v)) return Buffer.from(v.hex, 'hex');
    if (typeof v === 'number' && Number.isInteger(v)) return String(v);
    throw new Error(`[ioredis-mock-streams] argument {"ref": "${arg.ref}"} is ${JSON.stringify(v)}, not a string or integer`);
  });
}

/**
 * Converts what a client returned into a `Reply`: Buffers become UTF-8 strings (`{"hex"}` when
 * they are not UTF-8 text), bigints
 * become numbers when safe (else decimal strings). Anything else unexpected is kept as
 * its JSON form so that a comparison shows it.
 */
export function normalizeReply(value: unknown): Reply {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (Buffer.isBuffer(value)) return bytesValue(value);
  if (Array.isArray(value)) return value.map(normalizeReply);
  if (value instanceof Error) return `<error in reply: ${value.message}>`;
  return `<unexpected ${typeof value}: ${JSON.stringify(value)}>`;
}

export type MergeResult = { ok: true; value: Json } | { ok: false; path: string; message: string };

/**
 * Used by the recorder: produce the expectation to write for a step, given the old
 * expectation and the real reply. Parts of the old expectation that hold no matcher are
 * replaced by the real values. Matchers are kept when the real value satisfies them;
 * when one does not, or an array holding matchers changed length, the result says where.
 */
export function mergeRecorded(expected: Json | undefined, actual: Reply, bindings: Bindings, path = ''): MergeResult {
  if (expected === undefined || !containsMatcher(expected)) return { ok: true, value: actual };
  if (isPlainObject(expected)) {
    const r = checkMatcher(matcherOf(expected), actual, bindings, path);
    return r.ok ? { ok: true, value: expected } : r;
  }
  // expected is an array holding at least one matcher
  const arr = expected as Json[];
  if (!Array.isArray(actual)) return { ok: false, path, message: `expected an array (with matchers), got ${JSON.stringify(actual)}` };
  if (actual.length !== arr.length) {
    return { ok: false, path, message: `expected ${arr.length} element(s) (with matchers), got ${actual.length}` };
  }
  const out: Json[] = [];
  for (let i = 0; i < arr.length; i++) {
    const r = mergeRecorded(arr[i], actual[i], bindings, `${path}[${i}]`);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}
