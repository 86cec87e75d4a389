/**
 * The Upstash REST encoder: a typed reply (lib/reply/reply.ts) as the JSON value of `result`.
 *
 * Upstash speaks RESP2, so the reply first takes its RESP2 form (`toResp2Plain`: maps and sets
 * flattened, XREAD's map as [key, entries] pairs, doubles as strings, both nils `null`); then:
 * - integers are JSON numbers, written digit for digit (64-bit counters beyond 2^53 too);
 * - nil is `null`; arrays are arrays, at any depth;
 * - strings: with `Upstash-Encoding: base64` every string at every depth is the base64 of its
 *   bytes, except a top-level `OK` status reply, sent as `"OK"` (Upstash REST docs, "Base64
 *   Encoded Responses"; @upstash/redis 1.39.0 `decode()` keeps a top-level "OK" as is and
 *   base64-decodes every other string). Without it, strings are UTF-8 text, an invalid UTF-8
 *   sequence replaced by U+FFFD (the same docs);
 * - an error reply nested in an array (a Lua script's error table) is sent as its text, like
 *   any string. Upstash documents no form for it; this is our choice.
 */
import { ErrorReply, MapReply, NIL_ARRAY, PushReply, type Reply, SetReply, SimpleString, toResp2Plain } from '../reply/reply';

const ASCII = /^[\x00-\x7f]*$/;

/** A byte string (one char per byte) as JSON text of its UTF-8 decoding. */
function utf8Json(s: string): string {
  return JSON.stringify(ASCII.test(s) ? s : Buffer.from(s, 'latin1').toString('utf8'));
}

/** A byte string as JSON text of its base64 encoding. */
function base64Json(s: string): string {
  return `"${Buffer.from(s, 'latin1').toString('base64')}"`;
}

function plainJson(v: unknown, base64: boolean): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return base64 ? base64Json(v) : utf8Json(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map((x) => plainJson(x, base64)).join(',')}]`;
  if (v instanceof ErrorReply) return plainJson(v.message, base64);
  return 'null';
}

/**
 * The JSON text of `result` for a reply.
 * @param reply the typed reply of one command
 * @param base64 whether the request asked for `Upstash-Encoding: base64`
 */
export function encodeResult(reply: Reply, base64: boolean): string {
  if (base64 && reply instanceof SimpleString && reply.value === 'OK') return '"OK"';
  try {
    return plainJson(toResp2Plain(reply), base64);
  } catch (e) {
    // deeper than the JS stack allows (a Lua table cut at "reached lua stack limit", 7995 levels)
    if (!(e instanceof RangeError)) throw e;
    return deepJson(reply, base64);
  }
}

/** The elements of a reply RESP2 sends as a flat array (arrays, sets, pushes, flat maps), else undefined. */
function flatItems(r: Reply): readonly Reply[] | undefined {
  if (Array.isArray(r)) return r;
  if (r instanceof SetReply || r instanceof PushReply || (r instanceof MapReply && !r.resp2Pairs)) return r.items;
  return undefined;
}

/** `plainJson(toResp2Plain(reply))` with the arrays walked by a loop instead of recursion. */
function deepJson(reply: Reply, base64: boolean): string {
  const parts: string[] = [];
  const frames: { items: readonly Reply[]; i: number }[] = [];
  let next: Reply | undefined = reply;
  for (;;) {
    if (next !== undefined) {
      const items = next === NIL_ARRAY ? undefined : flatItems(next);
      if (items === undefined) parts.push(plainJson(toResp2Plain(next), base64));
      else {
        parts.push('[');
        frames.push({ items, i: 0 });
      }
      next = undefined;
    }
    const f = frames[frames.length - 1];
    if (f === undefined) return parts.join('');
    if (f.i === f.items.length) {
      parts.push(']');
      frames.pop();
      continue;
    }
    if (f.i > 0) parts.push(',');
    next = f.items[f.i++];
  }
}

/** `{"result": …}` for a reply. */
export function resultBody(reply: Reply, base64: boolean): string {
  return `{"result":${encodeResult(reply, base64)}}`;
}

/**
 * `{"error": …}` for an error reply. The text is never base64-encoded (Upstash sends error
 * texts as they are); a byte string is decoded as UTF-8, and CR/LF become spaces, as Redis
 * never puts them in an error line.
 */
export function errorBody(message: string): string {
  const text = ASCII.test(message) ? message : Buffer.from(message, 'latin1').toString('utf8');
  return JSON.stringify({ error: text.replace(/[\r\n]/g, ' ') });
}
