/**
 * XNACK key group <SILENT | FAIL | FATAL> IDS numids id [id ...] [RETRYCOUNT count] [FORCE]
 *
 * Redis 8.8: releases pending entries back to the group without acknowledging them. Each ID in
 * the group PEL (owned or already released) loses its owner, gets delivery time 0 and moves to
 * the tail of the NACK zone, so XREADGROUP … CLAIM takes it first and XCLAIM/XAUTOCLAIM claim it
 * at any min-idle-time. Delivery count: SILENT −1 (not below 0), FAIL unchanged, FATAL
 * 9223372036854775807; RETRYCOUNT sets it instead. With FORCE an ID not pending but present in
 * the stream becomes a new released entry (count 0, FATAL's maximum, or RETRYCOUNT). Repeated IDs
 * are processed (and counted) each time. Reply: integer, the number of IDs released. Wakes
 * XREADGROUP … CLAIM waiters when it released at least one entry. Consumers are not created and
 * their times are untouched.
 * Errors (reference §4 XNACK, cg.tcl@8.8), in this order: `ERR mode must be SILENT, FAIL, or
 * FATAL`; while reading options: `ERR numids must be a positive integer`, `ERR number of IDs
 * doesn't match numids`, `ERR value is not an integer or out of range` / `ERR Invalid RETRYCOUNT
 * value, must be >= 0`, `ERR Unrecognized XNACK option '<token>'`; `ERR syntax error, expected IDS
 * keyword`; a bad ID; then WRONGTYPE and `NOGROUP No such key '<key>' or consumer group
 * '<group>'`. The parse-before-lookup order and the NOGROUP wording are unconfirmed (reference
 * §7 item 9); they follow the other 8.x commands (XACKDEL) and XCLAIM's wording.
 */
import {
  ERR_XNACK_MODE,
  ERR_XNACK_NO_IDS,
  ERR_XNACK_NUMIDS,
  ERR_XNACK_NUMIDS_MISMATCH,
  ERR_XNACK_RETRYCOUNT_NEGATIVE,
  errorArg,
  errXnackUnrecognized,
  fail,
} from '../errors';
import type { ConsumerGroup } from '../model/consumer-group';
import type { Stream } from '../model/stream';
import type { StreamId } from '../model/stream-id';
import { INT64_MAX, int64OrFail, is, parseInt64, strictIdOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';
import { streamAndGroupOrFail } from './xclaim';

export type XnackMode = 'SILENT' | 'FAIL' | 'FATAL';

export interface XnackArgs {
  mode: XnackMode;
  ids: StreamId[];
  /** RETRYCOUNT, or null when not given. */
  RETRYCOUNT: bigint | null;
  FORCE: boolean;
}

/** The delivery count FATAL sets (LLONG_MAX). */
export const FATAL_DELIVERY_COUNT = INT64_MAX;

/** Parse argv[3…]. The IDS block, RETRYCOUNT and FORCE may come in any order after the mode. */
export function parse(argv: string[]): XnackArgs {
  const modeWord = argv[3];
  const mode: XnackMode | null = is(modeWord, 'SILENT')
    ? 'SILENT'
    : is(modeWord, 'FAIL')
      ? 'FAIL'
      : is(modeWord, 'FATAL')
        ? 'FATAL'
        : null;
  if (mode === null) fail(ERR_XNACK_MODE);
  let idsStart = -1;
  let numIds = 0;
  let retryCount: bigint | null = null;
  let force = false;
  for (let i = 4; i < argv.length; i++) {
    const opt = argv[i];
    const moreArgs = argv.length - 1 - i;
    if (is(opt, 'IDS') && moreArgs > 0) {
      const n = parseInt64(argv[i + 1]);
      if (n === null || n <= 0n) fail(ERR_XNACK_NUMIDS);
      if (n > BigInt(moreArgs - 1)) fail(ERR_XNACK_NUMIDS_MISMATCH);
      numIds = Number(n);
      idsStart = i + 2;
      i += 1 + numIds; // a repeated IDS block replaces the earlier one
    } else if (is(opt, 'RETRYCOUNT') && moreArgs > 0) {
      const n = int64OrFail(argv[++i]);
      if (n < 0n) fail(ERR_XNACK_RETRYCOUNT_NEGATIVE);
      retryCount = n;
    } else if (is(opt, 'FORCE')) {
      force = true;
    } else {
      fail(errXnackUnrecognized(errorArg(opt)));
    }
  }
  if (idsStart === -1) fail(ERR_XNACK_NO_IDS);
  const ids = argv.slice(idsStart, idsStart + numIds).map((s) => strictIdOrFail(s));
  return { mode, ids, RETRYCOUNT: retryCount, FORCE: force };
}

/** The delivery count after releasing an entry whose count was `count` (null: FORCE-created). */
function releasedCount(args: XnackArgs, count: bigint | null): bigint {
  if (args.RETRYCOUNT !== null) return args.RETRYCOUNT;
  if (args.mode === 'FATAL') return FATAL_DELIVERY_COUNT;
  if (count === null) return 0n;
  if (args.mode === 'SILENT') return count > 0n ? count - 1n : 0n;
  return count;
}

export function execute(ctx: CommandContext, stream: Stream, group: ConsumerGroup, key: string, args: XnackArgs): Reply {
  let released = 0;
  for (const id of args.ids) {
    let pe = group.pel.get(id);
    let count: bigint | null;
    if (pe) {
      count = pe.deliveryCount;
    } else {
      // Only FORCE creates pending entries, and only for entries still in the stream.
      if (!args.FORCE || !stream.entries.has(id)) continue;
      pe = group.addPending(id, null, 0, 0n);
      count = null;
    }
    group.nack(pe);
    pe.deliveryCount = releasedCount(args, count);
    released++;
  }
  if (released > 0) ctx.db.signalReady(key);
  ctx.db.dirty?.(released); // one change per released entry (assumed: no 8.8 source at hand)
  return released;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const [, key, groupName] = argv;
  const args = parse(argv);
  const [stream, group] = streamAndGroupOrFail(ctx, key, groupName);
  return execute(ctx, stream, group, key, args);
}

export const specs: CommandSpec[] = [{ name: 'xnack', arity: -7, write: true, run }];
