/**
 * Parsing and serving shared by XREAD and XREADGROUP, which Redis implements as one function
 * (t_stream.c `xreadCommand`, `streamReplyWithRange`, `streamReplyWithRangeFromConsumerPEL`).
 *
 * Grammar (options in any order, case-insensitive, before STREAMS, which takes the rest):
 *   [GROUP group consumer] [COUNT n] [MAXCOUNT n] [MAXSIZE bytes] [BLOCK ms] [CLAIM min-idle-ms]
 *   [NOACK] STREAMS key [key …] id [id …]
 * GROUP/NOACK/CLAIM belong to XREADGROUP; CLAIM since 8.4, MAXCOUNT/MAXSIZE since 8.10 (before
 * that they are syntax errors). Errors come in argument order; then, stream by stream, WRONGTYPE,
 * NOGROUP (XREADGROUP) and the ID. Replies: `[[key, [[id, [f, v, …]], …]], …]`, or nil-array.
 *
 * MAXSIZE byte accounting (Redis measures the bytes it has written for the command; the exact
 * figure is unconfirmed): we count the RESP2 encoding of what has been emitted so far — per
 * served stream `*2\r\n` plus the key as a bulk string; per entry its array header, the ID bulk,
 * the field array header and every field/value bulk (`*-1\r\n` for a deleted history entry; the
 * two `:n\r\n` integers for CLAIM replies). Array lengths Redis writes only at the end (the
 * top-level array and each stream's entry array) are not counted. The budget is checked before
 * each stream and before each entry; it never stops the first entry of the whole reply.
 */
import {
  ERR_CLAIM_NEGATIVE,
  ERR_CLAIM_NOT_INTEGER,
  ERR_MAXCOUNT_LT_COUNT,
  ERR_MAXCOUNT_POSITIVE,
  ERR_MAXSIZE_POSITIVE,
  ERR_NOT_INTEGER,
  ERR_SYNTAX,
  ERR_TIMEOUT_NEGATIVE,
  ERR_TIMEOUT_NOT_INTEGER,
  ERR_XREADGROUP_MISSING_GROUP,
  ERR_XREADGROUP_UNBALANCED,
  ERR_XREAD_CLAIM_OPTION,
  ERR_XREAD_GROUP_OPTION,
  ERR_XREAD_NOACK_OPTION,
  ERR_XREAD_UNBALANCED,
  ERR_XREAD_UNBALANCED_70,
  ERR_XREAD_UNBALANCED_72,
  errBlockFromScript,
  fail,
} from '../errors';
import type { StreamId } from '../model/stream-id';
import { supports } from '../version';
import { blockTimeoutOrFail, copyArgs, int64OrFail, is, parseInt64, parseSmallInt } from './args';
import type { BlockRequest, CommandContext, Reply } from './types';
import { MapReply } from '../reply/reply';

/** Parsed options of one XREAD/XREADGROUP call (ID arguments are resolved per command). */
export interface ReadArgs {
  readonly xreadgroup: boolean;
  /** COUNT per stream; 0 = no limit (negative values become 0). */
  readonly count: number;
  /** BLOCK in ms (0 = forever), or null when BLOCK was not given. */
  readonly timeoutMs: number | null;
  readonly noack: boolean;
  /** CLAIM min-idle-time in ms (8.4+), or null. */
  readonly claimMinIdle: number | null;
  /** MAXCOUNT (8.10+), or null. */
  readonly maxCount: number | null;
  /** MAXSIZE in bytes (8.10+), or null. */
  readonly maxSize: number | null;
  readonly group: string | null;
  readonly consumer: string | null;
  /** Index of the first key in argv. */
  readonly streamsArg: number;
  readonly keys: readonly string[];
  readonly ids: readonly string[];
}

/** Redis's `XREAD_BLOCKED_DEFAULT_COUNT`: 7.0 serves a woken reader at most this many entries without COUNT. */
export const BLOCKED_DEFAULT_COUNT_70 = 1000;

/**
 * BLOCK value (ms). Errors as `getTimeoutFromObjectOrReply`; 7.0 has no overflow check and a
 * value whose deadline overflows blocks forever, which we express as 0.
 */
function parseBlockTimeout(ctx: CommandContext, s: string): number {
  if (supports(ctx.version, 'blockTimeoutOverflowCheck')) return blockTimeoutOrFail(s, ctx.now);
  const v = parseInt64(s);
  if (v === null) fail(ERR_TIMEOUT_NOT_INTEGER);
  if (v < 0n) fail(ERR_TIMEOUT_NEGATIVE);
  // 7.0: now+timeout wraps around; the server then never times the call out (checked on 7.0.15).
  if (v > 0n && v + BigInt(Math.floor(ctx.now)) > (1n << 63n) - 1n) return 0;
  return Number(v);
}

function unbalancedError(ctx: CommandContext, xreadgroup: boolean): string {
  if (!supports(ctx.version, 'xreadUnbalancedPerCommand')) return ERR_XREAD_UNBALANCED_70;
  if (xreadgroup) return ERR_XREADGROUP_UNBALANCED;
  return supports(ctx.version, 'xreadUnbalancedMentionsPlus') ? ERR_XREAD_UNBALANCED : ERR_XREAD_UNBALANCED_72;
}

/** A positive int64 or `message` (MAXCOUNT/MAXSIZE; the non-integer text is unconfirmed). */
function positiveOrFail(s: string, message: string): number {
  const v = parseInt64(s);
  if (v === null || v <= 0n) fail(message);
  return Number(v);
}

/**
 * Parse the options of XREAD (`xreadgroup` false) or XREADGROUP, in Redis's order: each option
 * as met (COUNT/BLOCK/CLAIM/MAXCOUNT/MAXSIZE/STREAMS need a following argument, GROUP two),
 * STREAMS ends the loop; then "no STREAMS", "missing GROUP" and MAXCOUNT < COUNT.
 */
export function parseReadArgs(ctx: CommandContext, argv: readonly string[], xreadgroup: boolean): ReadArgs {
  let count = 0;
  let timeoutMs: number | null = null;
  let noack = false;
  let claimMinIdle: number | null = null;
  let maxCount: number | null = null;
  let maxSize: number | null = null;
  let group: string | null = null;
  let consumer: string | null = null;
  let streamsArg = 0;
  for (let i = 1; i < argv.length; i++) {
    const moreargs = argv.length - i - 1;
    const o = argv[i];
    // the length first: most tokens are ruled out without a call
    const len = o.length;
    if (len === 5 && is(o, 'BLOCK') && moreargs) {
      if (ctx.inScript && !supports(ctx.version, 'scriptBlockAllowed')) fail(errBlockFromScript(argv[0]));
      timeoutMs = parseBlockTimeout(ctx, argv[++i]);
    } else if (len === 5 && is(o, 'COUNT') && moreargs) {
      const text = argv[++i];
      const small = parseSmallInt(text); // the usual COUNT, without a bigint
      if (small !== null) count = small < 0 ? 0 : small;
      else {
        const v = int64OrFail(text, ERR_NOT_INTEGER);
        count = v < 0n ? 0 : Number(v);
      }
    } else if (len === 7 && is(o, 'STREAMS') && moreargs) {
      streamsArg = i + 1;
      if ((argv.length - streamsArg) % 2 !== 0) fail(unbalancedError(ctx, xreadgroup));
      break;
    } else if (len === 5 && is(o, 'GROUP') && moreargs >= 2) {
      if (!xreadgroup) fail(ERR_XREAD_GROUP_OPTION);
      group = argv[i + 1];
      consumer = argv[i + 2];
      i += 2;
    } else if (is(o, 'NOACK')) {
      if (!xreadgroup) fail(ERR_XREAD_NOACK_OPTION);
      noack = true;
    } else if (is(o, 'CLAIM') && moreargs && supports(ctx.version, 'xreadgroupClaim')) {
      if (!xreadgroup) fail(ERR_XREAD_CLAIM_OPTION);
      const v = parseInt64(argv[++i]);
      if (v === null) fail(ERR_CLAIM_NOT_INTEGER);
      if (v < 0n) fail(ERR_CLAIM_NEGATIVE);
      claimMinIdle = Number(v);
    } else if (is(o, 'MAXCOUNT') && moreargs && supports(ctx.version, 'maxCountMaxSize')) {
      maxCount = positiveOrFail(argv[++i], ERR_MAXCOUNT_POSITIVE);
    } else if (is(o, 'MAXSIZE') && moreargs && supports(ctx.version, 'maxCountMaxSize')) {
      maxSize = positiveOrFail(argv[++i], ERR_MAXSIZE_POSITIVE);
    } else {
      fail(ERR_SYNTAX);
    }
  }
  if (streamsArg === 0) fail(ERR_SYNTAX);
  if (xreadgroup && group === null) fail(ERR_XREADGROUP_MISSING_GROUP);
  // Position of this check relative to the two above is unconfirmed (PR #15282 adds it after them).
  if (maxCount !== null && count > maxCount) fail(ERR_MAXCOUNT_LT_COUNT);
  const n = (argv.length - streamsArg) / 2;
  return {
    xreadgroup,
    count,
    timeoutMs,
    noack,
    claimMinIdle,
    maxCount,
    maxSize,
    group,
    consumer,
    streamsArg,
    keys: copyArgs(argv, streamsArg, streamsArg + n),
    ids: copyArgs(argv, streamsArg + n),
  };
}

// ---------------------------------------------------------------------------------------------
// Reply budget (MAXCOUNT / MAXSIZE, Redis 8.10) and RESP2 sizes

function digits(n: number): number {
  return String(n).length;
}

function bulkSize(s: string): number {
  return 1 + digits(s.length) + 2 + s.length + 2;
}

function headerSize(n: number): number {
  return 1 + digits(n) + 2;
}

function intSize(n: number | bigint): number {
  return 1 + String(n).length + 2;
}

/** RESP2 bytes of `*2\r\n$len\r\nkey\r\n`, written before a stream's entries. */
export function streamHeaderSize(key: string): number {
  return headerSize(2) + bulkSize(key);
}

/** RESP2 bytes of one entry; `fields` null for a deleted history entry; `ext` for CLAIM replies. */
export function entrySize(id: string, fields: readonly string[] | null, ext?: [number | bigint, number | bigint]): number {
  let n = headerSize(ext ? 4 : 2) + bulkSize(id);
  if (fields === null) n += 5; // *-1\r\n
  else {
    n += headerSize(fields.length);
    for (const f of fields) n += bulkSize(f);
  }
  if (ext) n += intSize(ext[0]) + intSize(ext[1]);
  return n;
}

/** The cumulative MAXCOUNT/MAXSIZE budget of one reply; unlimited when both are null. */
export class ReplyBudget {
  /** Entries emitted so far across all streams. */
  emitted = 0;
  /** RESP2 bytes counted so far (see the module comment). */
  bytes = 0;

  constructor(
    readonly maxCount: number | null,
    readonly maxSize: number | null,
  ) {}

  /** May another entry (or stream) be served? Never false before the first entry. */
  open(): boolean {
    if (this.maxCount !== null && this.emitted >= this.maxCount) return false;
    if (this.maxSize !== null && this.emitted > 0 && this.bytes >= this.maxSize) return false;
    return true;
  }

  /** Entries still allowed by MAXCOUNT (Infinity without it). */
  remaining(): number {
    return this.maxCount === null ? Infinity : Math.max(0, this.maxCount - this.emitted);
  }

  /** Count the `*2\r\n` + key bulk written before a stream's entries. */
  addStreamHeader(key: string): void {
    if (this.maxSize !== null) this.bytes += streamHeaderSize(key);
  }

  /** Count one emitted entry (its RESP2 size is only computed when MAXSIZE is in force). */
  addEntry(id: string, fields: readonly string[] | null, ext?: [number | bigint, number | bigint]): void {
    this.emitted++;
    if (this.maxSize !== null) this.bytes += entrySize(id, fields, ext);
  }
}

/** A per-stream limit: COUNT (0 = none) capped by what MAXCOUNT still allows. */
export function streamLimit(count: number, budget: ReplyBudget): number {
  return Math.min(count > 0 ? count : Infinity, budget.remaining());
}

/**
 * The XREAD/XREADGROUP reply from `key, entries, key, entries …`: a map in RESP3, an array of
 * `[key, entries]` pairs in RESP2 (t_stream.c `c->resp == 2 ? addReplyArrayLen(c,2) : map`).
 */
export function streamsReply(keysAndEntries: Reply[]): MapReply {
  return new MapReply(keysAndEntries, true);
}

/** Keys to wait on: the stream keys in argument order without repeats (Redis `blockForKeys`). */
export function uniqueKeys(keys: readonly string[]): string[] {
  return [...new Set(keys)];
}

/** A retry function; the optional key is the signalled key (used by the 7.0 wake-up model). */
export type ReadRetry = (ctx: CommandContext, signalledKey?: string) => Reply | BlockRequest;

export function blockRequest(
  keys: readonly string[],
  timeoutMs: number,
  wakeAt: number | null,
  retry: ReadRetry,
  unblockOnNoKey?: boolean,
  waitsAfter?: ReadonlyMap<string, StreamId>,
): BlockRequest {
  return { kind: 'block', keys: uniqueKeys(keys), timeoutMs, wakeAt, retry, unblockOnNoKey: unblockOnNoKey === true, waitsAfter };
}

/** Keys a 7.0 wake-up may serve: the signalled key if known, else every key in argument order. */
export function wakeKeys70(keys: readonly string[], signalledKey: string | undefined): string[] {
  if (signalledKey !== undefined && keys.includes(signalledKey)) return [signalledKey];
  return uniqueKeys(keys);
}

