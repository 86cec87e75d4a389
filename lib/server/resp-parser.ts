/**
 * The request side of the RESP protocol, as Redis reads it (networking.c `processInputBuffer`,
 * `processMultibulkBuffer`, `processInlineBuffer`; sds.c `sdssplitargs`; util.c `string2ll`).
 *
 * A request is either a multibulk (`*<n>\r\n` then n × `$<len>\r\n<bytes>\r\n`) or, when the
 * first byte is not `*`, an inline line split like redis-cli arguments (quotes, `\xHH`
 * escapes). The parser is incremental: `push(chunk)` returns the requests completed so far;
 * a half-sent request waits for more bytes. Malformed input yields Redis's protocol error text
 * (after which Redis replies with it and closes the connection) and the parser stops.
 *
 * Quirks kept on purpose, because Redis has them: a count or length line is searched with C
 * string functions, so a NUL byte before its `\r` hides the line (the request waits until the
 * 64 KiB inline limit); the two bytes after a bulk payload and after a `\r` are skipped without
 * checking that they are CRLF; empty inline lines and `*0`/`*-1` requests are ignored.
 *
 * Arguments are byte strings: one char per byte (latin1), as the engine takes them.
 */

/** PROTO_INLINE_MAX_SIZE: the longest inline request or count line (64 KiB). */
export const PROTO_INLINE_MAX_SIZE = 64 * 1024;
/** Default `proto-max-bulk-len` (512 MiB). */
export const DEFAULT_PROTO_MAX_BULK_LEN = 512 * 1024 * 1024;
/** Multibulk count and bulk length limits before authentication (networking.c). */
const UNAUTH_MAX_MULTIBULK = 10;
const UNAUTH_MAX_BULK = 16384;
const INT_MAX = 2147483647;
/** LONG_STR_SIZE: string2ll rejects 21 characters or more. */
const LONG_STR_SIZE = 21;

/**
 * A request, or a protocol error. `tooLong`: the length of an argument longer than a JS string
 * can be (over 536870888 bytes, up to proto-max-bulk-len's 512 MiB): its bytes were read and
 * dropped (`argv` holds '' in its place); the command cannot run (lib/server/session.ts answers
 * an error, where Redis would run it).
 */
export type ParsedRequest = { argv: string[]; tooLong?: number } | { protocolError: string };

/** V8's longest string (lib/commands/string-value.ts MAX_JS_STRING). */
const MAX_JS_STRING = 536870888;

export interface RequestParserOptions {
  /**
   * `proto-max-bulk-len` in bytes, or a function read at each bulk length (the server's CONFIG,
   * which CONFIG SET changes while connections are open). @default 512 MiB
   */
  maxBulkLen?: number | (() => number);
  /** True while the connection must authenticate first (tighter limits). @default () => false */
  authRequired?: () => boolean;
}

/** util.c string2ll: a strict signed 64-bit decimal (no '+', no leading zeros, no spaces). */
export function string2ll(s: string): bigint | null {
  const n = s.length;
  if (n === 0 || n >= LONG_STR_SIZE) return null;
  if (n === 1 && s === '0') return 0n;
  let i = 0;
  const negative = s[0] === '-';
  if (negative) {
    i = 1;
    if (n === 1) return null;
  }
  if (!(s[i] >= '1' && s[i] <= '9')) return null;
  for (let j = i + 1; j < n; j++) if (!(s[j] >= '0' && s[j] <= '9')) return null;
  const v = BigInt(s.slice(i));
  if (negative ? v > 9223372036854775808n : v > 9223372036854775807n) return null;
  return negative ? -v : v;
}

/**
 * `string2ll` of the bytes `b[start..end)` as a number, read from the bytes: the usual count or
 * length line (1-15 digits, no leading zero) without making a string or a bigint; anything
 * else (a sign, more digits, a stray byte) through `string2ll` itself, so the answer is the same.
 */
function lengthOf(b: Buffer, start: number, end: number): bigint | number | null {
  const n = end - start;
  if (n >= 1 && n <= 15) {
    let v = 0;
    let i = start;
    for (; i < end; i++) {
      const c = b[i] - 48;
      if (c < 0 || c > 9) break;
      v = v * 10 + c;
    }
    if (i === end && (b[start] !== 48 || n === 1)) return v;
  }
  return string2ll(b.toString('latin1', start, end));
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

/** C isspace() in the "C" locale. */
function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
}

/**
 * sds.c sdssplitargs: split an inline request into arguments. Returns null for unbalanced
 * quotes (or a closing quote not followed by a space). The line is read as a C string: it
 * ends at the first NUL byte.
 */
export function splitInlineArgs(input: string): string[] | null {
  const nul = input.indexOf('\0');
  const line = nul >= 0 ? input.slice(0, nul) : input;
  const out: string[] = [];
  let p = 0;
  const at = (i: number): string | undefined => (i < line.length ? line[i] : undefined);
  for (;;) {
    while (p < line.length && isSpace(line[p])) p++;
    if (p >= line.length) return out;
    let inq = false;
    let insq = false;
    let done = false;
    let current = '';
    while (!done) {
      const c = at(p);
      if (inq) {
        if (c === '\\' && at(p + 1) === 'x' && isHex(at(p + 2)) && isHex(at(p + 3))) {
          current += String.fromCharCode(parseInt(line.slice(p + 2, p + 4), 16));
          p += 3;
        } else if (c === '\\' && at(p + 1) !== undefined) {
          p++;
          const e = line[p];
          current += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'b' ? '\b' : e === 'a' ? '\x07' : e;
        } else if (c === '"') {
          if (at(p + 1) !== undefined && !isSpace(at(p + 1))) return null;
          done = true;
        } else if (c === undefined) {
          return null;
        } else {
          current += c;
        }
      } else if (insq) {
        if (c === '\\' && at(p + 1) === "'") {
          p++;
          current += "'";
        } else if (c === "'") {
          if (at(p + 1) !== undefined && !isSpace(at(p + 1))) return null;
          done = true;
        } else if (c === undefined) {
          return null;
        } else {
          current += c;
        }
      } else if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === undefined) {
        done = true;
      } else if (c === '"') {
        inq = true;
      } else if (c === "'") {
        insq = true;
      } else {
        current += c;
      }
      if (c !== undefined) p++;
    }
    out.push(current);
  }
}

/** Buffer's own latin1 slice (what `toString('latin1', …)` ends in, without its encoding dispatch). */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (this: Buffer, start: number, end: number) => string }).latin1Slice;

/**
 * Bytes [start, end) of `b` as a byte string (one char per byte). Arguments of up to 4 bytes
 * (command names such as GET/SET, short values) are built directly: no call into the runtime.
 */
function latin1(b: Buffer, start: number, end: number): string {
  switch (end - start) {
    case 0:
      return '';
    case 1:
      return String.fromCharCode(b[start]);
    case 2:
      return String.fromCharCode(b[start], b[start + 1]);
    case 3:
      return String.fromCharCode(b[start], b[start + 1], b[start + 2]);
    case 4:
      return String.fromCharCode(b[start], b[start + 1], b[start + 2], b[start + 3]);
    default:
      return latin1Slice !== undefined ? latin1Slice.call(b, start, end) : b.toString('latin1', start, end);
  }
}

const CR = 13;
const LF = 10;
const NUL = 0;

/** Incremental request parser for one connection. */
export class RequestParser {
  /** Unparsed bytes: `head[pos..]` followed by the `tail` chunks (not yet concatenated). */
  private head: Buffer = Buffer.alloc(0);
  private pos = 0;
  private readonly tail: Buffer[] = [];
  private tailLen = 0;
  /** Bytes of unparsed input needed before parsing can make progress (a bulk payload). */
  private need = 0;
  /** Arguments still expected in the current multibulk (0: none in progress). */
  private multibulkLen = 0;
  /** Length of the bulk being read, or -1 when its `$` line is next. */
  private bulkLen = -1;
  private argv: string[] = [];
  /** The longest argument of the current multibulk past MAX_JS_STRING (0: none). */
  private tooLong = 0;
  private failed = false;
  private readonly maxBulkLen: number | (() => number);
  private readonly authRequired: () => boolean;

  constructor(options: RequestParserOptions = {}) {
    this.maxBulkLen = options.maxBulkLen ?? DEFAULT_PROTO_MAX_BULK_LEN;
    this.authRequired = options.authRequired ?? (() => false);
  }

  /** Unparsed bytes held. */
  get buffered(): number {
    return this.head.length - this.pos + this.tailLen;
  }

  /** True after a protocol error (nothing more is parsed). */
  get stopped(): boolean {
    return this.failed;
  }

  /** Add received bytes. Call `next()` to take requests. */
  push(chunk: Buffer): void {
    if (this.failed || chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailLen += chunk.length;
  }

  /**
   * The next complete request, a protocol error (then the parser stops for good), or null when
   * more bytes are needed. Requests are taken one at a time so that a command's effect on the
   * connection (AUTH lifting the unauthenticated limits) applies to the requests after it.
   */
  next(): ParsedRequest | null {
    if (this.failed) return null;
    for (;;) {
      if (this.buffered === 0) return null;
      if (this.buffered < this.need) return null;
      this.compact();
      const result = this.multibulkLen > 0 || this.head[this.pos] === 0x2a /* '*' */ ? this.multibulk() : this.inline();
      if (result === 'wait') return null;
      if (result === 'empty') continue;
      if ('protocolError' in result) {
        this.failed = true;
        this.head = Buffer.alloc(0);
        this.pos = 0;
        this.tail.length = 0;
        this.tailLen = 0;
      }
      return result;
    }
  }

  /** Join the pending chunks to the unparsed part of `head`. */
  private compact(): void {
    if (this.tail.length === 0) return;
    if (this.pos === this.head.length && this.tail.length === 1) {
      this.head = this.tail.pop() as Buffer; // the usual read: no copy, no array length store
    } else {
      this.head = Buffer.concat([this.head.subarray(this.pos), ...this.tail]);
      this.tail.length = 0;
    }
    this.pos = 0;
    this.tailLen = 0;
  }

  /** Index of the first `byte` at or after `from`, as C strchr finds it (stops at NUL). */
  private strchr(byte: number, from: number): number {
    const b = this.head;
    for (let i = from; i < b.length; i++) {
      const c = b[i];
      if (c === byte) return i;
      if (c === NUL) return -1;
    }
    return -1;
  }

  private inline(): ParsedRequest | 'wait' | 'empty' {
    const b = this.head;
    let newline = this.strchr(LF, this.pos);
    if (newline < 0) {
      if (b.length - this.pos > PROTO_INLINE_MAX_SIZE) return { protocolError: 'Protocol error: too big inline request' };
      return 'wait';
    }
    let linefeed = 1;
    if (newline !== this.pos && b[newline - 1] === CR) {
      newline--;
      linefeed++;
    }
    const line = b.toString('latin1', this.pos, newline);
    const argv = splitInlineArgs(line);
    if (argv === null) return { protocolError: 'Protocol error: unbalanced quotes in request' };
    this.pos = newline + linefeed;
    return argv.length === 0 ? 'empty' : { argv };
  }

  private multibulk(): ParsedRequest | 'wait' | 'empty' {
    const b = this.head;
    if (this.multibulkLen === 0) {
      const cr = this.strchr(CR, this.pos);
      if (cr < 0) {
        if (b.length - this.pos > PROTO_INLINE_MAX_SIZE) return { protocolError: 'Protocol error: too big mbulk count string' };
        return 'wait';
      }
      if (cr + 1 >= b.length) return 'wait'; // the byte after '\r' (not checked to be '\n')
      const ll = lengthOf(b, this.pos + 1, cr);
      if (ll === null || ll > INT_MAX) return { protocolError: 'Protocol error: invalid multibulk length' };
      if (ll > UNAUTH_MAX_MULTIBULK && this.authRequired()) {
        return { protocolError: 'Protocol error: unauthenticated multibulk length' };
      }
      this.pos = cr + 2;
      if (ll <= 0) return 'empty';
      this.multibulkLen = Number(ll);
      this.argv = [];
    }
    while (this.multibulkLen > 0) {
      if (this.bulkLen === -1) {
        const cr = this.strchr(CR, this.pos);
        if (cr < 0) {
          if (b.length - this.pos > PROTO_INLINE_MAX_SIZE) return { protocolError: 'Protocol error: too big bulk count string' };
          return 'wait';
        }
        if (cr + 1 >= b.length) return 'wait';
        if (b[this.pos] !== 0x24 /* '$' */) {
          return { protocolError: `Protocol error: expected '$', got '${String.fromCharCode(b[this.pos])}'` };
        }
        const ll = lengthOf(b, this.pos + 1, cr);
        const max = typeof this.maxBulkLen === 'number' ? this.maxBulkLen : this.maxBulkLen();
        if (ll === null || ll < 0 || ll > max) return { protocolError: 'Protocol error: invalid bulk length' };
        if (ll > UNAUTH_MAX_BULK && this.authRequired()) {
          return { protocolError: 'Protocol error: unauthenticated bulk length' };
        }
        this.pos = cr + 2;
        this.bulkLen = Number(ll);
      }
      if (b.length - this.pos < this.bulkLen + 2) {
        this.need = this.bulkLen + 2; // do not re-scan until the payload is all here
        return 'wait';
      }
      this.need = 0;
      if (this.bulkLen > MAX_JS_STRING) {
        this.argv.push('');
        if (this.bulkLen > this.tooLong) this.tooLong = this.bulkLen;
      } else {
        this.argv.push(latin1(b, this.pos, this.pos + this.bulkLen));
      }
      this.pos += this.bulkLen + 2; // the CRLF after the payload is skipped unchecked, as in Redis
      this.bulkLen = -1;
      this.multibulkLen--;
    }
    const argv = this.argv;
    this.argv = [];
    if (this.tooLong > 0) {
      const tooLong = this.tooLong;
      this.tooLong = 0;
      return { argv, tooLong };
    }
    return { argv };
  }
}
