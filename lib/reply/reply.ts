/**
 * Typed replies: what a command answers, carrying the RESP3 type Redis gives it, so that every
 * front end encodes from one value (STYLE 16): RESP2/RESP3 on the wire (the server), ioredis's
 * `protocol`/`replyMapping` (the ioredis adapter), JSON/base64 (the Upstash REST handler).
 *
 * Plain JS values stand for the common types, so most replies cost nothing extra:
 * - `string`: a bulk (blob) string — a byte string, one char per byte (0–255);
 * - `number` / `bigint`: an integer (bigint for 64-bit counters beyond 2^53);
 * - `null`: the nil bulk string (RESP2 `$-1`, RESP3 `_`), e.g. XADD NOMKSTREAM on a missing key;
 * - `Reply[]`: an array.
 * Classes mark the rest (Redis `addReply*` family in networking.c):
 * - `SimpleString` (`+OK`, `addReplyStatus`), `MapReply` (`addReplyMapLen`: RESP2 flattens it to
 *   an array of key, value, …), `SetReply` (`addReplySetLen`: RESP2 array), `DoubleReply`
 *   (`addReplyDouble`: RESP2 bulk string), `VerbatimReply` (`addReplyVerbatim`: RESP2 bulk
 *   string), `BooleanReply` (`addReplyBool`: RESP2 integer 1/0), `BigNumberReply`, `PushReply`
 *   (pub/sub messages in RESP3; RESP2 array), `PairsReply` (`[element, value]` pairs: RESP3
 *   an array of 2-element arrays, RESP2 the flat array), e.g. ZRANGE … WITHSCORES;
 * - `NIL_ARRAY` (`addReplyNullArray`: RESP2 `*-1`, RESP3 `_`), e.g. a BLOCK timeout;
 * - `ErrorReply` inside arrays (EXEC's replies, scripts' error tables).
 */

/** A simple (status) string, e.g. `+OK`. */
export class SimpleString {
  constructor(readonly value: string) {}
}

/**
 * A map; `items` holds key, value, key, value … (the RESP2 flattening, free to produce).
 * `resp2Pairs`: RESP2 answers an array of `[key, value]` pairs instead of the flat array
 * (XREAD/XREADGROUP: `c->resp == 2 ? addReplyArrayLen(c,2) : map`).
 */
export class MapReply {
  constructor(
    readonly items: readonly Reply[],
    readonly resp2Pairs = false,
    /**
     * The producer knows every item is a byte string of ASCII bytes only (each decodes to
     * itself as UTF-8): a front end may skip checking them. False: not known.
     */
    readonly ascii = false,
  ) {}
}

/** A set (RESP2: an array). */
export class SetReply {
  constructor(readonly items: Reply[]) {}
}

/**
 * A double. `text` is the RESP2 bulk-string form when the producer knows it exactly (as Redis
 * prints it for that version); otherwise encoders format `value`.
 */
export class DoubleReply {
  constructor(
    readonly value: number,
    readonly text?: string,
  ) {}
}

/** A verbatim string (RESP3 `=len\r\ntxt:…`; RESP2 bulk string of `text`), e.g. INFO. */
export class VerbatimReply {
  constructor(
    readonly text: string,
    /** Three-letter format, e.g. 'txt' or 'mkd'. */
    readonly format = 'txt',
  ) {}
}

/** A boolean (RESP3 `#t`/`#f`; RESP2 integer 1/0). */
export class BooleanReply {
  constructor(readonly value: boolean) {}
}

/** A big number (RESP3 `(…`; RESP2 bulk string). */
export class BigNumberReply {
  /** Its digits as written (`(<text>` in RESP3, a bulk string in RESP2). */
  readonly text: string;
  /**
   * `text`: what a script's `{big_number=…}` gave, written as it is (Redis does not check that
   * it is a number: `(abc`), CR/LF already mapped to spaces; else the digits of `value`.
   */
  constructor(
    readonly value: bigint,
    text?: string,
  ) {
    this.text = text ?? value.toString();
  }
}

/** An out-of-band push message (RESP3 `>`; RESP2 array), e.g. pub/sub `message`. */
export class PushReply {
  constructor(readonly items: Reply[]) {}
}

/**
 * `[element, value]` pairs: RESP3 sends an array of 2-element arrays, RESP2 flattens them
 * (`*2n` of element, value, …). Redis writes `addReplyArrayLen(c, 2)` before each element only
 * when `c->resp > 2` (t_zset.c genericZrangebyrankCommand and kin, t_hash.c
 * hrandfieldWithCountCommand): ZRANGE / ZRANGEBYSCORE / ZREVRANGE / ZREVRANGEBYSCORE /
 * ZUNION / ZINTER / ZDIFF / ZRANDMEMBER … WITHSCORES and ZPOPMIN / ZPOPMAX with a count (value:
 * a `DoubleReply` score, a double in RESP3), HRANDFIELD … WITHVALUES (value: a bulk string).
 */
export class PairsReply {
  constructor(readonly items: [Reply, Reply][]) {}
}

/** The nil array (RESP2 `*-1`, RESP3 `_`). Use the `NIL_ARRAY` singleton. */
export class NilArray {
  private constructor() {}
  static readonly instance = new NilArray();
}
export const NIL_ARRAY = NilArray.instance;

/** An error reply inside an array (EXEC, scripts). `message` is the full text, e.g. `ERR …`. */
export class ErrorReply {
  constructor(readonly message: string) {}
}

export type Reply =
  | string
  | number
  | bigint
  | null
  | Reply[]
  | SimpleString
  | MapReply
  | SetReply
  | DoubleReply
  | VerbatimReply
  | BooleanReply
  | BigNumberReply
  | PushReply
  | PairsReply
  | NilArray
  | ErrorReply;

/** `+OK`. */
export const OK = new SimpleString('OK');
/** `+QUEUED` (a command queued by MULTI). */
export const QUEUED = new SimpleString('QUEUED');
/** `+PONG`. */
export const PONG = new SimpleString('PONG');

/** Build a map reply from key/value pairs given flat. */
export function mapReply(...items: Reply[]): MapReply {
  return new MapReply(items);
}

/** Lines of a HELP reply (`addReplyHelp`): simple strings. */
export function statusLines(lines: readonly string[]): SimpleString[] {
  return lines.map((l) => new SimpleString(l));
}

/** A map's entries as `[key, value]` pairs. */
export function mapPairs(m: MapReply): [Reply, Reply][] {
  const out: [Reply, Reply][] = [];
  for (let i = 0; i < m.items.length; i += 2) out.push([m.items[i], m.items[i + 1]]);
  return out;
}

/** `[element, value]` pairs flattened: element, value, element, value … (their RESP2 form). */
export function flatPairs(p: PairsReply): Reply[] {
  const out: Reply[] = [];
  for (const [element, value] of p.items) out.push(element, value);
  return out;
}

/**
 * The RESP2 form of a reply as plain values: maps/sets/pushes/pairs become (flat) arrays, simple strings,
 * doubles, verbatim and big numbers become strings, booleans 1/0, both nils `null`. Error
 * replies stay `ErrorReply`. This is what a RESP2 client (and Upstash's REST API) sees.
 */
export function toResp2Plain(r: Reply): unknown {
  if (r === null || typeof r === 'string' || typeof r === 'number' || typeof r === 'bigint') return r;
  if (Array.isArray(r)) return r.map(toResp2Plain);
  if (r instanceof SimpleString) return r.value;
  if (r instanceof MapReply && r.resp2Pairs) return mapPairs(r).map((p) => p.map(toResp2Plain));
  if (r instanceof MapReply || r instanceof SetReply || r instanceof PushReply) return r.items.map(toResp2Plain);
  if (r instanceof PairsReply) return flatPairs(r).map(toResp2Plain);
  if (r instanceof DoubleReply) return r.text ?? formatDouble(r.value);
  if (r instanceof VerbatimReply) return r.text;
  if (r instanceof BooleanReply) return r.value ? 1 : 0;
  if (r instanceof BigNumberReply) return r.text;
  if (r === NIL_ARRAY) return null;
  return r; // ErrorReply
}

/**
 * A double in RESP2 text when its producer gave no exact text: `inf`/`-inf`/`nan`, else the
 * shortest round-trip form (Redis 7+ `fpconv_dtoa`; exponent forms may differ from Redis, so
 * producers that can should pass `text`).
 */
export function formatDouble(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return String(v);
}
