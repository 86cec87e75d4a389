/**
 * Typed reply → the JS value real ioredis delivers for it, for every client setting: ioredis 5
 * (RESP2) and ioredis 6 with `protocol` 2 or 3 and `replyMapping` 'legacy' or 'resp3', string or
 * Buffer replies, `stringNumbers`, and the command name ioredis looks its reply transformers up by.
 * Pure: no client, no I/O. Ground truth: __tests__/ioredis-replies/recorded.json (real ioredis
 * 6.0.0 and 5.11.1 against redis-server 7.0.15, scripts/record-ioredis-replies.js).
 *
 * ioredis produces a reply in three steps, mirrored here:
 * 1. decoding (ioredis 6 DataHandler type mapping; ioredis 5 redis-parser): every string type
 *    as a Buffer; integers as numbers (strings with `stringNumbers`). Over RESP2 the server has
 *    already flattened maps and sets and sent doubles as bulk strings and booleans as 1/0.
 *    Over RESP3 with 'legacy': maps flat, sets as arrays, doubles as their text (a string with
 *    `stringNumbers`), booleans 1/0, big numbers as strings. With 'resp3': maps as plain objects
 *    with string keys, doubles as numbers (read from their text as ioredis 6 reads it, not
 *    always the exact value: encoding.ts `doubleAsRead`), booleans as true/false;
 * 2. `replyEncoding`: for all but the `…Buffer` methods and `callBuffer`, Buffers become UTF-8
 *    strings, inside arrays and objects too;
 * 3. the reply transformer registered under the exact command name: methods and pipelines use
 *    the lowercase name, `call()` the name as written — so with ioredis 5 and 6.0
 *    `call('XREADGROUP', …)` skips the transformer that `xreadgroup()` gets; ioredis 6.1 falls
 *    back to the lowercase name for the pair, stream-read and VSIM transformers (not hgetall's). ioredis 5: `hgetall` (pairs → object). ioredis 6:
 *    `hgetall`; `xread`/`xreadgroup` (RESP3 legacy: the flat map back into `[key, entries]`
 *    pairs); `zrange` WITHSCORES and kin, `hrandfield` (RESP3 legacy: `[member, score]` pairs
 *    flattened); `vsim` (both legacy protocols: flattened).
 */
import { newReplyError } from './reply-error';
import {
  BigNumberReply,
  BooleanReply,
  DoubleReply,
  ErrorReply,
  MapReply,
  NIL_ARRAY,
  PairsReply,
  PushReply,
  type Reply,
  SetReply,
  SimpleString,
  VerbatimReply,
  formatDouble,
} from '../reply/reply';
import { installedIoredisAtLeast, installedIoredisMajor, ioredisMajorKnown } from './command-table';
import { decodeBytes, doubleAsRead, integerAsRead } from './encoding';

/** How the client that receives the reply is set up. */
export interface IoredisReplyContext {
  /** Major version of the client's ioredis (5 speaks RESP2 only). */
  ioredis: 5 | 6;
  /** The connection's protocol: ioredis 6 `protocol` option (default 3); always 2 for ioredis 5. */
  protocol: 2 | 3;
  /**
   * What the connection receives when it differs from `protocol`: after a HELLO sent by the
   * user, the server answers in the new protocol while ioredis keeps the reply context it
   * connected with (its decoder reads either protocol).
   */
  wireProtocol?: 2 | 3;
  /** ioredis 6 `replyMapping` ('legacy' by default; 'resp3' only takes effect with protocol 3). */
  replyMapping: 'legacy' | 'resp3';
  /** A `…Buffer` method or `callBuffer`: strings stay Buffers. */
  buffers: boolean;
  /** ioredis `stringNumbers`: integers (and RESP3 doubles) as strings. */
  stringNumbers: boolean;
  /**
   * The command name as ioredis's Command holds it: lowercase for methods and pipeline methods
   * (`xreadgroup`), exactly as written for `call()` / `pipeline().call()` (`XREADGROUP`).
   */
  commandName: string;
  /**
   * ioredis 6.1 and later: a name with no transformer of its own gets the RESP3 pair,
   * stream-read and VSIM transformers of its lowercase name (`call('XREAD')` as `xread()`;
   * not `hgetall`'s). ioredis 6.0 and 5 look the exact name up only.
   */
  caseInsensitiveTransformers?: boolean;
}

type Mode = 'resp2' | 'legacy' | 'resp3';

function modeOf(ctx: Pick<IoredisReplyContext, 'ioredis' | 'replyMapping'>, protocol: 2 | 3): Mode {
  if (ctx.ioredis === 5 || protocol === 2) return 'resp2';
  return ctx.replyMapping === 'resp3' ? 'resp3' : 'legacy';
}

const bytes = (s: string) => Buffer.from(s, 'latin1');

/** A plain object the way ioredis 6's RESP3 decoder builds one (guarding `__proto__`). */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' || key === 'constructor' || key in obj) {
    Object.defineProperty(obj, key, { value, configurable: true, enumerable: true, writable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * Steps 1 and 2: what ioredis's decoder hands on, strings already as the reply encoding makes
 * them (`text`: a Buffer of the bytes for `…Buffer` methods, else their UTF-8 decoding — the
 * same as decoding to Buffers and converting, without the allocations).
 */
function decode(r: Reply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown {
  if (r === null || r === NIL_ARRAY) return null;
  if (typeof r === 'string') return text(r);
  if (typeof r === 'number' || typeof r === 'bigint') return stringNumbers ? String(r) : integerAsRead(r);
  if (Array.isArray(r)) return decodeAll(r, mode, stringNumbers, text);
  if (r instanceof MapReply) return decodeMap(r, mode, stringNumbers, text);
  if (r instanceof SimpleString) return text(r.value);
  if (r instanceof VerbatimReply) return text(r.text);
  if (r instanceof ErrorReply) return newReplyError(decodeBytes(r.message));
  if (r instanceof SetReply || r instanceof PushReply) return decodeAll(r.items, mode, stringNumbers, text);
  if (r instanceof PairsReply) return decodePairs(r, mode, stringNumbers, text);
  if (r instanceof DoubleReply) {
    const digits = r.text ?? formatDouble(r.value);
    if (mode === 'resp2') return text(digits);
    if (stringNumbers) return digits;
    return mode === 'legacy' ? text(digits) : doubleAsRead(digits);
  }
  if (r instanceof BooleanReply) {
    if (mode === 'resp3') return r.value;
    return mode === 'resp2' && stringNumbers ? (r.value ? '1' : '0') : r.value ? 1 : 0;
  }
  if (r instanceof BigNumberReply) return mode === 'resp2' ? text(r.text) : r.text;
  return r;
}

/**
 * `decode` that survives any nesting: `decode` recurses once per array level, and a reply can
 * nest deeper than the JS stack allows (a Lua script's table converted down to Redis's "reached
 * lua stack limit", 7995 levels). On a RangeError the reply is decoded again with the arrays
 * (plain, sets, pushes) walked by a loop; every other reply inside goes through `decode`.
 * Only the general path of the encoders calls it: a string, a status or a number never nests.
 * (Real ioredis's own decoders recurse too: 6.0.0 rejects such a reply with a RangeError from
 * about 2,000 levels, 5.11.1's redis-parser throws it out of the socket handler.)
 */
function decodeAnyDepth(r: Reply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown {
  try {
    return decode(r, mode, stringNumbers, text);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return decodeByLoop(r, mode, stringNumbers, text);
  }
}

/** The items of a reply `decodeAll` decodes (an array, a set, a push), else undefined. */
function arrayItems(r: Reply): readonly Reply[] | undefined {
  if (Array.isArray(r)) return r;
  if (r instanceof SetReply || r instanceof PushReply) return r.items;
  return undefined;
}

/** `decode` with the arrays walked by a loop instead of recursion (see `decodeAnyDepth`). */
function decodeByLoop(r: Reply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown {
  const top = arrayItems(r);
  if (top === undefined) return decode(r, mode, stringNumbers, text);
  const root: unknown[] = new Array<unknown>(top.length);
  const frames: { items: readonly Reply[]; out: unknown[]; i: number }[] = [{ items: top, out: root, i: 0 }];
  while (frames.length > 0) {
    const f = frames[frames.length - 1];
    if (f.i === f.items.length) {
      frames.pop();
      continue;
    }
    const item = f.items[f.i];
    const inner = item === NIL_ARRAY ? undefined : arrayItems(item);
    if (inner === undefined) {
      f.out[f.i++] = decode(item, mode, stringNumbers, text);
    } else {
      const out = new Array<unknown>(inner.length);
      f.out[f.i++] = out;
      frames.push({ items: inner, out, i: 0 });
    }
  }
  return root;
}

/** `decode` of a map: an object (RESP3 'resp3'), `[k, v]` pairs (RESP2 XREAD*), else flat. */
function decodeMap(r: MapReply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown, asPairs = mode === 'resp2' && r.resp2Pairs): unknown {
  if (mode === 'resp3') {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < r.items.length; i += 2) {
      const k = r.items[i];
      const key =
        typeof k === 'string' ? decodeBytes(k) : k instanceof SimpleString ? decodeBytes(k.value) : String(toStrings(decode(k, mode, stringNumbers, text)));
      setKey(obj, key, decode(r.items[i + 1], mode, stringNumbers, text));
    }
    return obj;
  }
  if (asPairs) return decodeStreamsPairs(r, mode, stringNumbers, text);
  return decodeAll(r.items, mode, stringNumbers, text);
}

/**
 * A map as `[k, v]` pairs (`decodeMap` with `asPairs`: XREAD/XREADGROUP replies, `key → [[id,
 * [f, v, …]], …]`): the usual shapes decoded by loops of their own (the read path of every
 * worker), anything else through `decode` — the same values as `decode` of each key and value.
 */
function decodeStreamsPairs(r: MapReply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown[] {
  const items = r.items;
  const pairs = new Array<unknown>(items.length >> 1);
  for (let i = 0; i < pairs.length; i++) {
    const key = items[2 * i];
    const entries = items[2 * i + 1];
    pairs[i] = [typeof key === 'string' ? text(key) : decode(key, mode, stringNumbers, text), decodeEntries(entries, mode, stringNumbers, text)];
  }
  return pairs;
}

/** `decode` of a stream's entries `[[id, [f, v, …]], …]`. */
function decodeEntries(r: Reply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown {
  if (!Array.isArray(r)) return decode(r, mode, stringNumbers, text);
  const n = r.length;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const e = r[i];
    if (Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && Array.isArray(e[1])) {
      const fields = e[1] as readonly Reply[];
      const decoded = new Array<unknown>(fields.length);
      for (let j = 0; j < fields.length; j++) {
        const f = fields[j];
        decoded[j] = typeof f === 'string' ? text(f) : decode(f, mode, stringNumbers, text);
      }
      out[i] = [text(e[0]), decoded];
    } else {
      out[i] = decode(e, mode, stringNumbers, text);
    }
  }
  return out;
}

/** `decode` of pairs: flat over RESP2, an array of `[element, value]` arrays over RESP3. */
function decodePairs(r: PairsReply, mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown[] {
  const out: unknown[] = [];
  for (const [element, value] of r.items) {
    const e = decode(element, mode, stringNumbers, text);
    const v = decode(value, mode, stringNumbers, text);
    if (mode === 'resp2') out.push(e, v);
    else out.push([e, v]);
  }
  return out;
}

/** `decode` of every element of an array (a loop: no closure per array). */
function decodeAll(items: readonly Reply[], mode: Mode, stringNumbers: boolean, text: (s: string) => unknown): unknown[] {
  const n = items.length;
  // strings all ASCII (HGETALL's fields and values, MGET's values): each decodes to itself, so
  // one check of them all (asciiStrings written out: V8 compiles a function that small with
  // TurboFan within a test file's first commands) instead of a decode and a UTF-8 check per string
  if (n > 1 && text === decodeBytes) {
    let strings = true;
    for (let i = 0; i < n; i++) {
      if (typeof items[i] !== 'string') {
        strings = false;
        break;
      }
    }
    if (strings && !NON_ASCII.test(items.join(''))) return items.slice();
  }
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = decode(items[i], mode, stringNumbers, text);
  return out;
}

const NON_ASCII = /[^\x00-\x7f]/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** Step 2: ioredis `convertBufferToString(value, 'utf8')`. */
function toStrings(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString();
  if (Array.isArray(v)) return v.map(toStrings);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setKey(out, k, toStrings(v[k]));
    return out;
  }
  return v;
}

/** `[a, [b, c], d]` → `[a, b, c, d]` (one level), ioredis 6 `flattenNestedArrayItems`. */
function flattenPairs(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.flatMap((x) => (Array.isArray(x) ? x : [x]));
}

/** `[k1, v1, k2, v2]` → `[[k1, v1], [k2, v2]]`, ioredis 6 `wrapStreamMapPairs`. */
function wrapPairs(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const out: unknown[] = [];
  for (let i = 0; i < v.length; i += 2) out.push([v[i], v[i + 1]]);
  return out;
}

/** ioredis's `hgetall` transformer: a flat array becomes an object. */
function pairsToObject(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < v.length; i += 2) setKey(obj, String(v[i]), v[i + 1]);
  return obj;
}

/**
 * `pairsToObject` of flat strings when all are ASCII (each decodes to itself), else undefined.
 * One function for the check and the build: V8 compiles a function this small with TurboFan
 * within a test file's first calls (its "small function" rule), about 1 ms of CPU each.
 */
function asciiPairsObject(items: readonly Reply[]): Record<string, unknown> | undefined {
  for (let i = 0; i < items.length; i++) if (typeof items[i] !== 'string') return undefined;
  if (NON_ASCII.test(items.join(''))) return undefined;
  return pairsObjectOf(items as readonly string[]);
}

/**
 * The object of each pairs array a reply marked ASCII carried (HGETALL: the hash's snapshot,
 * handed out again until the hash is written), copied for each reply: a copy is one step of
 * V8's (object spread), where building it walks the fields in the interpreter.
 */
const pairsObjects = new WeakMap<readonly Reply[], Record<string, unknown>>();

/** `pairsObjectOf(items)` as a new object, from the one made for `items` before if any. */
function keptPairsObject(items: readonly string[]): Record<string, unknown> {
  let made = pairsObjects.get(items);
  if (made === undefined) {
    made = pairsObjectOf(items);
    pairsObjects.set(items, made);
  }
  return { ...made };
}

/** ioredis's hgetall transformer on flat ASCII strings (each decodes to itself). */
function pairsObjectOf(items: readonly string[]): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < items.length; i += 2) {
    // setKey in place (a hash's fields are distinct: only an inherited name is `in` the object)
    const key = items[i];
    if (key in obj) Object.defineProperty(obj, key, { value: items[i + 1], configurable: true, enumerable: true, writable: true });
    else obj[key] = items[i + 1];
  }
  return obj;
}

/** ioredis 6 commands whose `[member, score]` pairs are flattened for RESP3 'legacy'. */
const PAIR_COMMANDS = new Set([
  'hrandfield', 'zdiff', 'zinter', 'zpopmax', 'zpopmin', 'zunion', 'zrandmember', 'zrange', 'zrangebyscore', 'zrevrange', 'zrevrangebyscore',
]);

/**
 * The name ioredis 6 finds the RESP3 transformers under: the name as the Command holds it, or
 * (6.1 and later, Command.caseInsensitiveReplyTransformers) its lowercase form.
 */
function transformerName(name: string, caseInsensitive: boolean | undefined): string {
  return caseInsensitive ? name.toLowerCase() : name;
}

/**
 * Step 3: the reply transformer registered under the exact command name; with ioredis 6.1 and
 * later also under its lowercase form for the pair, stream-read and VSIM transformers.
 */
function transform(v: unknown, exactName: string, ioredis: 5 | 6, mode: Mode, caseInsensitive?: boolean): unknown {
  if (exactName === 'hgetall') return pairsToObject(v);
  if (ioredis === 5) return v;
  const name = transformerName(exactName, caseInsensitive);
  if (name === 'xread' || name === 'xreadgroup') return mode === 'legacy' ? wrapPairs(v) : v;
  if (PAIR_COMMANDS.has(name)) return mode === 'legacy' ? flattenPairs(v) : v;
  if (name === 'vsim') return mode === 'resp3' ? v : flattenPairs(v);
  return v;
}

/**
 * Whether ioredis 6.1 finds a reply transformer for `name` through its lowercase form (the pair,
 * stream-read and VSIM transformers: Command.caseInsensitiveReplyTransformers), whatever its
 * casing. The fake's encoding of such a name then already holds that transformer's work.
 */
export function hasCaseInsensitiveTransformer(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'xread' || lower === 'xreadgroup' || lower === 'vsim' || PAIR_COMMANDS.has(lower);
}

/**
 * The value real ioredis delivers for `reply` to a client set up as `ctx` (see the module doc).
 * Error replies nested in arrays become ReplyErrors; a top-level error is the caller's to throw.
 */
export function encodeIoredisReply(reply: Reply, ctx: IoredisReplyContext): unknown {
  const v = decodeAnyDepth(reply, modeOf(ctx, ctx.wireProtocol ?? ctx.protocol), ctx.stringNumbers, ctx.buffers ? bytes : decodeBytes);
  return transform(v, ctx.commandName, ctx.ioredis, modeOf(ctx, ctx.protocol), ctx.caseInsensitiveTransformers);
}

/**
 * The reply context of a client from its constructor options: `protocol` and `replyMapping`
 * count only for ioredis 6 (ioredis 6 defaults: protocol 3, 'legacy').
 */
export function replyContextOf(
  ioredisMajor: 5 | 6,
  options: { protocol?: unknown; replyMapping?: unknown; stringNumbers?: unknown } | undefined,
): Omit<IoredisReplyContext, 'buffers' | 'commandName'> {
  const protocol = ioredisMajor === 5 ? 2 : options?.protocol === 2 ? 2 : 3;
  const replyMapping = protocol === 3 && options?.replyMapping === 'resp3' ? 'resp3' : 'legacy';
  const context: Omit<IoredisReplyContext, 'buffers' | 'commandName'> = { ioredis: ioredisMajor, protocol, replyMapping, stringNumbers: Boolean(options?.stringNumbers) };
  if (ioredisMajor === 6 && installedIoredisAtLeast(6, 1)) context.caseInsensitiveTransformers = true;
  return context;
}

/**
 * The encoder for one reply to an ioredis-mock-streams client: the installed ioredis's major
 * (./command-table.ts), the client's `protocol` / `replyMapping` / `stringNumbers` options, a
 * `…Buffer` method or not, and the command name as the client passed it (see `commandName`).
 */
export function replyEncoderFor(
  options: { protocol?: unknown; replyMapping?: unknown; stringNumbers?: unknown } | undefined,
  buffers: boolean,
  commandName: string,
  wireProtocol?: 2 | 3,
): (reply: Reply) => unknown {
  return (reply) => encodeReplyFor(options, buffers, commandName, wireProtocol, reply);
}

/**
 * `replyEncoderFor(options, buffers, commandName, wireProtocol)(reply)` in one call, without
 * the context object and closure (the per-command path of the client methods).
 */
export function encodeReplyFor(
  options: { protocol?: unknown; replyMapping?: unknown; stringNumbers?: unknown } | undefined,
  buffers: boolean,
  commandName: string,
  wireProtocol: 2 | 3 | undefined,
  reply: Reply,
): unknown {
  // a string is text in every mode, and no reply transformer changes one (XADD's ID)
  if (typeof reply === 'string') return buffers ? bytes(reply) : decodeBytes(reply);
  // nor a status (SET's OK): every mode decodes it as its text
  if (reply instanceof SimpleString) return buffers ? bytes(reply.value) : decodeBytes(reply.value);
  const base = baseContextOf(options);
  // nor a number (XLEN, XACK)
  if (typeof reply === 'number') return base.stringNumbers ? String(reply) : integerAsRead(reply);
  const mode = modeOf(base, wireProtocol ?? base.protocol);
  if (commandName === 'hgetall' && !buffers && mode !== 'resp3' && reply instanceof MapReply) {
    // ioredis's hgetall transformer on the flat fields and values, all ASCII (each decodes to
    // itself): the object at once, without the flat array between
    if (reply.ascii) return keptPairsObject(reply.items as readonly string[]);
    const obj = asciiPairsObject(reply.items);
    if (obj !== undefined) return obj;
  }
  const text = buffers ? bytes : decodeBytes;
  const lookup = transformerName(commandName, base.caseInsensitiveTransformers);
  if (mode === 'legacy' && reply instanceof MapReply && (lookup === 'xreadgroup' || lookup === 'xread') && modeOf(base, base.protocol) === 'legacy') {
    // ioredis 6's XREAD/XREADGROUP transformer pairs the flat map again (wrapPairs): decode it
    // into the pairs at once
    return decodeStreamsPairs(reply, mode, base.stringNumbers, text);
  }
  // decodeAnyDepth written out (no call more on this path of every array reply)
  let v: unknown;
  try {
    v = decode(reply, mode, base.stringNumbers, text);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    v = decodeByLoop(reply, mode, base.stringNumbers, text);
  }
  return transform(v, commandName, base.ioredis, modeOf(base, base.protocol), base.caseInsensitiveTransformers);
}

/**
 * Steps 1 and 2 only: the value ioredis hands its reply transformer for `reply` (a user's
 * transformer runs on it instead of the built-in one: lib/adapter/user-transformers.ts).
 */
export function decodeReplyFor(
  options: { protocol?: unknown; replyMapping?: unknown; stringNumbers?: unknown } | undefined,
  buffers: boolean,
  wireProtocol: 2 | 3 | undefined,
  reply: Reply,
): unknown {
  const base = baseContextOf(options);
  return decodeAnyDepth(reply, modeOf(base, wireProtocol ?? base.protocol), base.stringNumbers, buffers ? bytes : decodeBytes);
}

/** ioredis 6's second argument to a reply transformer: `{ commandName, protocol, replyMapping }` of the client. */
export function transformerContext(
  options: { protocol?: unknown; replyMapping?: unknown; stringNumbers?: unknown } | undefined,
  commandName: string,
): { commandName: string; protocol: 2 | 3; replyMapping: 'legacy' | 'resp3' } {
  const base = baseContextOf(options);
  return { commandName, protocol: base.protocol, replyMapping: base.replyMapping };
}

type BaseContext = Omit<IoredisReplyContext, 'buffers' | 'commandName'>;
/** Per client options object: its reply context (options are read once, as ioredis does). */
const baseContexts = new WeakMap<object, BaseContext>();

function baseContextOf(options: object | undefined): BaseContext {
  // read as a variable once known (every reply of every method comes here)
  const major = ioredisMajorKnown || installedIoredisMajor();
  if (!options) return replyContextOf(major, undefined);
  let base = baseContexts.get(options);
  if (base === undefined || base.ioredis !== major) {
    base = replyContextOf(major, options as Parameters<typeof replyContextOf>[1]);
    baseContexts.set(options, base);
  }
  return base;
}
