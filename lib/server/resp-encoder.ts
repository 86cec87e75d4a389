/**
 * Typed reply → RESP bytes, one encoder per protocol (STYLE 16), as Redis's `addReply*` family
 * writes them (networking.c):
 *
 * | typed reply        | RESP2                          | RESP3                         |
 * |--------------------|--------------------------------|-------------------------------|
 * | byte string        | `$<len>\r\n<bytes>\r\n`        | same                          |
 * | number / bigint    | `:<n>\r\n`                     | same                          |
 * | null               | `$-1\r\n`                      | `_\r\n`                       |
 * | NIL_ARRAY          | `*-1\r\n`                      | `_\r\n`                       |
 * | array              | `*<n>\r\n` + items             | same                          |
 * | SimpleString       | `+<text>\r\n`                  | same                          |
 * | ErrorReply / error | `-<text>\r\n`                  | same                          |
 * | MapReply           | `*<2n>` flat (or n pairs)      | `%<n>\r\n` + key, value …     |
 * | SetReply           | `*<n>`                         | `~<n>`                        |
 * | PushReply          | `*<n>`                         | `><n>`                        |
 * | PairsReply         | `*<2n>` flat                   | `*<n>` of `*2` element, value |
 * | DoubleReply        | bulk string of its text        | `,<text>\r\n`                 |
 * | BooleanReply       | `:1` / `:0`                    | `#t` / `#f`                   |
 * | VerbatimReply      | bulk string of its text        | `=<len+4>\r\n<fmt>:<text>\r\n`|
 * | BigNumberReply     | bulk string                    | `(<n>\r\n`                    |
 *
 * Strings in replies are byte strings (one char per byte), so the output is built as one
 * latin1 string and converted once. Error texts never carry CR/LF (Redis maps them to spaces).
 */
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

export type Protocol = 2 | 3;

/** A byte string that is not one (chars above 255) would be corrupted by latin1: re-encode it. */
function bytes(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\xff]/.test(s) ? Buffer.from(s, 'utf8').toString('latin1') : s;
}

function bulk(s: string): string {
  const b = bytes(s);
  return `$${b.length}\r\n${b}\r\n`;
}

/** An error line: `-<text>\r\n`, CR/LF replaced by spaces (addReplyErrorFormat). */
export function errorLine(message: string): string {
  return `-${bytes(message).replace(/[\r\n]/g, ' ')}\r\n`;
}

/** A bulk string at least this long is encoded as separate parts (header, payload, CRLF). */
const BIG_BULK = 64 * 1024 * 1024;

/** Bytes written as they are between the elements of a reply (a pair's `*2` header). */
class Raw {
  constructor(readonly text: string) {}
}
const PAIR_HEADER = new Raw('*2\r\n');

/** Push `items` on the work stack so that the first is encoded next. */
function pushItems(todo: (Reply | Raw)[], items: readonly Reply[]): void {
  for (let i = items.length - 1; i >= 0; i--) todo.push(items[i]);
}

/**
 * Append the RESP of `root` to `out`. Nested replies go through a work stack, not recursion: a
 * script's reply may nest thousands of arrays deep (a table that contains itself).
 */
function encode(root: Reply, proto: Protocol, out: string[]): void {
  const todo: (Reply | Raw)[] = [root];
  while (todo.length > 0) {
    const r = todo.pop() as Reply | Raw;
    if (typeof r === 'string') {
      if (r.length > BIG_BULK) {
        // header, payload and CRLF as three parts: with its header, a value as long as a JS
        // string can be would be a longer string (encodeToParts)
        const b = bytes(r);
        out.push(`$${b.length}\r\n`, b, '\r\n');
      } else {
        out.push(bulk(r));
      }
    } else if (typeof r === 'number') {
      // integers only: Redis has no non-integer number reply outside doubles
      out.push(`:${Number.isInteger(r) ? r : Math.trunc(r)}\r\n`);
    } else if (typeof r === 'bigint') {
      out.push(`:${r}\r\n`);
    } else if (r === null) {
      out.push(proto === 3 ? '_\r\n' : '$-1\r\n');
    } else if (Array.isArray(r)) {
      out.push(`*${r.length}\r\n`);
      pushItems(todo, r);
    } else if (r instanceof Raw) {
      out.push(r.text);
    } else if (r instanceof SimpleString) {
      out.push(`+${bytes(r.value).replace(/[\r\n]/g, ' ')}\r\n`);
    } else if (r instanceof ErrorReply) {
      out.push(errorLine(r.message));
    } else if (r instanceof MapReply) {
      const n = r.items.length / 2;
      if (proto === 3) {
        out.push(`%${n}\r\n`);
        pushItems(todo, r.items);
      } else if (r.resp2Pairs) {
        out.push(`*${n}\r\n`);
        for (let i = r.items.length - 2; i >= 0; i -= 2) todo.push(r.items[i + 1], r.items[i], PAIR_HEADER);
      } else {
        out.push(`*${r.items.length}\r\n`);
        pushItems(todo, r.items);
      }
    } else if (r instanceof SetReply) {
      out.push(`${proto === 3 ? '~' : '*'}${r.items.length}\r\n`);
      pushItems(todo, r.items);
    } else if (r instanceof PushReply) {
      out.push(`${proto === 3 ? '>' : '*'}${r.items.length}\r\n`);
      pushItems(todo, r.items);
    } else if (r instanceof PairsReply) {
      out.push(`*${proto === 3 ? r.items.length : r.items.length * 2}\r\n`);
      for (let i = r.items.length - 1; i >= 0; i--) {
        const [element, value] = r.items[i];
        todo.push(value, element);
        if (proto === 3) todo.push(PAIR_HEADER);
      }
    } else if (r === NIL_ARRAY) {
      out.push(proto === 3 ? '_\r\n' : '*-1\r\n');
    } else if (r instanceof DoubleReply) {
      const text = r.text ?? formatDouble(r.value);
      out.push(proto === 3 ? `,${text}\r\n` : bulk(text));
    } else if (r instanceof BooleanReply) {
      out.push(proto === 3 ? (r.value ? '#t\r\n' : '#f\r\n') : r.value ? ':1\r\n' : ':0\r\n');
    } else if (r instanceof VerbatimReply) {
      if (proto === 3) {
        const text = bytes(r.text);
        const format = (r.format + '   ').slice(0, 3);
        out.push(`=${text.length + 4}\r\n${format}:${text}\r\n`);
      } else {
        out.push(bulk(r.text));
      }
    } else if (r instanceof BigNumberReply) {
      out.push(proto === 3 ? `(${r.text}\r\n` : bulk(r.text));
    } else {
      throw new TypeError(`[ioredis-mock-streams] cannot encode reply ${String(r)}`);
    }
  }
}

/** The RESP bytes of a typed reply in `proto` (2 or 3) as a byte string. */
export function encodeToString(reply: Reply, proto: Protocol): string {
  // the usual single replies without the array
  if (typeof reply === 'string') return bulk(reply);
  if (reply instanceof SimpleString && reply.value === 'OK') return '+OK\r\n';
  const out: string[] = [];
  encode(reply, proto, out);
  return out.join('');
}

/**
 * The RESP of a typed reply as its parts in order (their concatenation is encodeToString's), for
 * a reply longer than one JS string can hold (MGET of a 300 MB value twice): written part by part.
 */
export function encodeToParts(reply: Reply, proto: Protocol): string[] {
  const out: string[] = [];
  encode(reply, proto, out);
  return out;
}

/** `encodeToParts(reply, proto)` appended to `out` (several replies written as one list of parts). */
export function appendParts(reply: Reply, proto: Protocol, out: string[]): void {
  encode(reply, proto, out);
}

/** The RESP2 bytes of a typed reply. */
export function encodeResp2(reply: Reply): Buffer {
  return Buffer.from(encodeToString(reply, 2), 'latin1');
}

/** The RESP3 bytes of a typed reply. */
export function encodeResp3(reply: Reply): Buffer {
  return Buffer.from(encodeToString(reply, 3), 'latin1');
}

