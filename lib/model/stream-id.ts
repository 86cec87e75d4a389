/**
 * Stream IDs: two unsigned 64-bit integers `ms-seq`, compared ms first.
 *
 * Parsing follows Redis's `streamGenericParseIDOrReply` / `string2ull` (t_stream.c, util.c):
 * each numeric part is a decimal of at most 2^64-1; `strtoull` leniency (leading `+`,
 * whitespace, a leading `-` negating modulo 2^64) is reproduced because real servers accept it.
 */

/** A stream ID. Both parts are 0 … 2^64−1. */
export interface StreamId {
  readonly ms: bigint; // milliseconds part
  readonly seq: bigint; // sequence part
}

export const UINT64_MAX = (1n << 64n) - 1n;
export const MIN_ID: StreamId = Object.freeze({ ms: 0n, seq: 0n });
export const MAX_ID: StreamId = Object.freeze({ ms: UINT64_MAX, seq: UINT64_MAX });

export function compareIds(a: StreamId, b: StreamId): number {
  if (a === b) return 0; // IDs are immutable; lookups often get the stored object itself
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1;
  return 0;
}

export function idEquals(a: StreamId, b: StreamId): boolean {
  return a.ms === b.ms && a.seq === b.seq;
}

export function isZeroId(id: StreamId): boolean {
  return id.ms === 0n && id.seq === 0n;
}

export function maxId(a: StreamId, b: StreamId): StreamId {
  return compareIds(a, b) >= 0 ? a : b;
}

/** Largest ID part exact as a number. */
const SAFE_PART = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The parts, as numbers, of the two IDs last made from numbers or converted by `numericParts`
 * (newest in `a`): the usual command reads back the ID it was just given (XADD's new ID when
 * XREADGROUP delivers it, the group's last-delivered-id when it reads after it), and converting
 * a bigint to a number is a runtime call. Fields of one object: V8 writes a number into an
 * object's field in place, where a module-level `let` would get a new heap number per write.
 */
const parts = {
  a: null as StreamId | null,
  aMs: -0.5,
  aSeq: -0.5,
  b: null as StreamId | null,
  bMs: -0.5,
  bSeq: -0.5,
  /** The last ms part made into a bigint, and that bigint (consecutive IDs mostly share it). */
  msNumber: -0.5,
  msBig: 0n,
};
/** Sequence parts below this come from a table, filled as they are met (BigInt() costs more than a lookup). */
const SMALL_SEQS = 256;
const smallSeqBigints: (bigint | undefined)[] = [];

function rememberParts(id: StreamId, ms: number, seq: number): void {
  const p = parts;
  p.b = p.a;
  p.bMs = p.aMs;
  p.bSeq = p.aSeq;
  p.a = id;
  p.aMs = ms;
  p.aSeq = seq;
}

/**
 * The ID `ms-seq` from two exact numbers (integers from 0 to 2^53 − 1): one of the two last such
 * IDs when equal (IDs are immutable values), else a new one.
 */
export function idOfNumbers(ms: number, seq: number): StreamId {
  const p = parts;
  if (ms === p.aMs && seq === p.aSeq && p.a !== null) return p.a;
  if (ms === p.bMs && seq === p.bSeq && p.b !== null) return p.b;
  if (ms !== p.msNumber) {
    p.msBig = BigInt(ms);
    p.msNumber = ms;
  }
  const id: StreamId = { ms: p.msBig, seq: seq < SMALL_SEQS ? (smallSeqBigints[seq] ??= BigInt(seq)) : BigInt(seq) };
  rememberParts(id, ms, seq);
  return id;
}

/** Out-parameters of `numericParts`: the parts of the ID it was given. */
export const idParts = { ms: 0, seq: 0 };

/**
 * Whether both parts of `id` are at most 2^53 − 1 (exact as numbers); when they are, `idParts`
 * holds them as numbers.
 */
export function numericParts(id: StreamId): boolean {
  // one of the two IDs whose parts are known as numbers (tested here, not in a helper: a
  // function that small is compiled by TurboFan within a test file's first commands)
  const p = parts;
  if (id === p.a) {
    idParts.ms = p.aMs;
    idParts.seq = p.aSeq;
    return true;
  }
  if (id === p.b) {
    idParts.ms = p.bMs;
    idParts.seq = p.bSeq;
    return true;
  }
  if (id.ms > SAFE_PART || id.seq > SAFE_PART) return false;
  const ms = Number(id.ms);
  const seq = Number(id.seq);
  rememberParts(id, ms, seq);
  idParts.ms = ms;
  idParts.seq = seq;
  return true;
}

/** The last ID formatted and its text (IDs are immutable: XADD's reply and the XREADGROUP right after it format the same object). */
let lastFormatted: StreamId | undefined;
/** The text of the last ID formatted (read as a variable on the per-command path: no call). */
export let lastFormattedText = '';
/** The last `ms` part formatted and its digits (consecutive IDs mostly share it). */
let lastMs = -1n;
let lastMsText = '';
/** `-0` … `-15`: the dash and a small sequence part as one text (bigint-to-string costs ~50 ns, and one concatenation fewer). */
const SMALL_SEQ = Array.from({ length: 16 }, (_, i) => `-${i}`);

/**
 * A 64-bit part in decimal: through a number below 2^53, where Number() is exact (V8 writes
 * numbers about twice as fast as bigints).
 */
function decimal(v: bigint): string {
  const n = Number(v);
  return n <= Number.MAX_SAFE_INTEGER ? '' + n : `${v}`;
}

/**
 * The ID whose `formatId` text is `text` when that is the last ID formatted, else undefined:
 * a client acknowledging (XACK) the ID it was just given sends that text back, and re-parsing
 * it would build an equal ID. Only a canonical `ms-seq` text ever matches.
 */
export function lastFormattedId(text: string): StreamId | undefined {
  return text === lastFormattedText ? lastFormatted : undefined;
}

/**
 * The text of the last ID formatted ('' before any): front ends that must know whether a string
 * is ASCII skip reading the ID they just got (XADD's reply, the entry XREADGROUP hands out, the
 * ID XACK gets back), whose characters cost more to read than a compare.
 */
export function lastFormattedIdText(): string {
  return lastFormattedText;
}

/** `ms-seq` in decimal, as Redis writes IDs in replies. */
export function formatId(id: StreamId): string {
  if (id === lastFormatted) return lastFormattedText;
  const ms = id.ms;
  if (ms !== lastMs) {
    lastMsText = decimal(ms);
    lastMs = ms;
  }
  // V8 builds a concatenation of 13+ characters as a rope, flattened by the first read of a
  // character (~60 ns); the ioredis front end does not read the last ID formatted
  // (`lastFormattedIdText`), so it is not flattened here
  let text: string;
  const p = parts;
  if (id === p.a || id === p.b) {
    // parts known as numbers (numericParts)
    const seq = id === p.a ? p.aSeq : p.bSeq;
    text = seq < 16 ? lastMsText + SMALL_SEQ[seq] : lastMsText + '-' + seq;
  } else {
    const seq = id.seq;
    text = seq < 16n ? lastMsText + SMALL_SEQ[Number(seq)] : lastMsText + '-' + decimal(seq);
  }
  lastFormatted = id;
  lastFormattedText = text;
  return text;
}

/** The next ID (seq+1 with carry); null for the max ID. */
export function incrId(id: StreamId): StreamId | null {
  if (id.seq === UINT64_MAX) {
    if (id.ms === UINT64_MAX) return null;
    return { ms: id.ms + 1n, seq: 0n };
  }
  return { ms: id.ms, seq: id.seq + 1n };
}

/** The previous ID (seq-1 with borrow); null for 0-0. */
export function decrId(id: StreamId): StreamId | null {
  if (id.seq === 0n) {
    if (id.ms === 0n) return null;
    return { ms: id.ms - 1n, seq: UINT64_MAX };
  }
  return { ms: id.ms, seq: id.seq - 1n };
}

const CANONICAL_INT64 = /^(0|-?[1-9][0-9]*)$/;

/**
 * Redis's `string2ull`: first a canonical signed 64-bit decimal (negative rejected), else
 * C `strtoull(s, &end, 10)` which must consume the whole string (leading spaces, `+` or `-`
 * allowed; `-n` wraps modulo 2^64; overflow rejected). Returns null when Redis would reject.
 */
export function parseUint64Part(s: string): bigint | null {
  if (s.length === 0) return null;
  if (s.length <= 15) {
    // Fast path: only digits (leading zeros included, which strtoull accepts), below 2^53.
    let v = 0;
    let i = 0;
    for (; i < s.length; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === s.length) return BigInt(v);
  }
  if (CANONICAL_INT64.test(s) && s.length <= 20) {
    const v = BigInt(s);
    if (v >= -(1n << 63n) && v < 1n << 63n) return v < 0n ? null : v;
  }
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)$/.exec(s);
  if (!m) return null;
  const v = BigInt(m[2]);
  if (v > UINT64_MAX) return null;
  return m[1] === '-' ? (UINT64_MAX + 1n - v) & UINT64_MAX : v;
}

export type ParsedId =
  | { kind: 'id'; id: StreamId; seqGiven: boolean }
  | { kind: 'auto-seq'; ms: bigint }; // `ms-*` (XADD only)

/**
 * Parse `ms`, `ms-seq` (and `ms-*` when `allowAutoSeq`). `-` and `+` are accepted only
 * when `strict` is false (XRANGE-style bounds). `missingSeq` is used for the bare `ms` form.
 * Returns null when Redis answers "Invalid stream ID specified as stream command argument".
 */
export function parseStreamId(
  text: string,
  opts: { strict: boolean; missingSeq?: bigint; allowAutoSeq?: boolean },
): ParsedId | null {
  if (text.length > 127) return null;
  // streamGenericParseIDOrReply copies the argument into a C string: a NUL byte ends it
  const nul = text.indexOf('\0');
  if (nul !== -1) text = text.slice(0, nul);
  if (!opts.strict) {
    if (text === '-') return { kind: 'id', id: MIN_ID, seqGiven: true };
    if (text === '+') return { kind: 'id', id: MAX_ID, seqGiven: true };
  }
  const dash = text.indexOf('-');
  if (dash === -1) {
    const ms = parseUint64Part(text);
    if (ms === null) return null;
    return { kind: 'id', id: { ms, seq: opts.missingSeq ?? 0n }, seqGiven: false };
  }
  const msText = text.slice(0, dash);
  const seqText = text.slice(dash + 1);
  const ms = parseUint64Part(msText);
  if (ms === null) return null;
  if (opts.allowAutoSeq && seqText === '*') return { kind: 'auto-seq', ms };
  const seq = parseUint64Part(seqText);
  if (seq === null) return null;
  return { kind: 'id', id: { ms, seq }, seqGiven: true };
}

/** Strict parse of a complete ID argument (XACK, XDEL, XCLAIM …). */
export function parseStrictId(text: string, missingSeq = 0n): StreamId | null {
  const p = parseStreamId(text, { strict: true, missingSeq });
  return p && p.kind === 'id' ? p.id : null;
}
