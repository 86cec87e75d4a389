/**
 * XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]
 *
 * Scans the group PEL in ID order from `start` (`-`, `+`, `ms[-seq]`, or `(id` exclusive) and
 * gives to `consumer` the entries idle at least `min-idle-time` ms (idle == min-idle-time is
 * claimed, as the server does; XNACK'd entries, Redis 8.8, at any min-idle-time): delivery time
 * now, delivery count +1 unless JUSTID. Pending IDs whose entry left the stream are dropped from
 * the PEL and reported (7.0+). At most COUNT (default 100) entries are claimed or dropped, and at
 * most COUNT×10 PEL entries examined. Reply: `[cursor, claimed, deletedIds]` where `cursor` is
 * the next PEL ID to scan from (`0-0` when the PEL end was reached) and `claimed` holds entries
 * `[id, [field, value, …]]`, or IDs with JUSTID.
 * Errors, in order (t_stream.c `xautoclaimCommand`, checked on redis-server 7.0.15): `ERR Invalid
 * min-idle-time argument for XAUTOCLAIM`; a bad start ID / `ERR invalid start ID for the
 * interval`; `ERR COUNT must be > 0` (also for non-integers and COUNT > 576460752303423487);
 * `ERR syntax error`; then WRONGTYPE and `NOGROUP No such key '<key>' or consumer group
 * '<group>'`; then, for COUNT ≥ 2^43, `ERR Insufficient memory, failed allocating transient
 * memory, COUNT too high.`. Consumer bookkeeping as XCLAIM (7.2+: created and seen up front; 7.0: at the first
 * claim).
 */
import { ERR_SYNTAX, ERR_XAUTOCLAIM_COUNT, ERR_XAUTOCLAIM_COUNT_TOO_HIGH, errInvalidMinIdle, fail } from '../errors';
import type { ConsumerGroup } from '../model/consumer-group';
import type { PendingEntry } from '../model/pel';
import type { Stream } from '../model/stream';
import { MIN_ID, StreamId, formatId } from '../model/stream-id';
import { INT64_MAX, is, parseInt64, rangeBoundOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';
import { propagationOf } from './propagate';
import { ClaimingConsumer, bumpDeliveryCount, claimedReply, idleEnough, streamAndGroupOrFail, propagateClaim } from './xclaim';

/** Redis's COUNT ceiling: LONG_MAX / max(sizeof(streamID), 10). */
const MAX_COUNT = INT64_MAX / 16n;
/** PEL entries examined per unit of COUNT (hard-coded in Redis). */
const ATTEMPTS_FACTOR = 10;
/**
 * Smallest COUNT whose array of deleted IDs (COUNT × 16 bytes, allocated before the scan) Redis
 * cannot get: 2^43 entries = 128 TiB, the whole x86-64 user address space. Smaller counts may
 * fail too, depending on the machine's memory and overcommit policy (redis-server 7.0.15 with
 * jemalloc allocated 2^40 entries, the 4f8cdc2a build with libc malloc failed at 2^32 on a 23 GiB
 * host); the fake fails only where every server must.
 */
const UNALLOCATABLE_COUNT = 2 ** 43;

export interface XautoclaimArgs {
  /** Minimum idle time in ms (negative given → 0). */
  minIdleTime: bigint;
  /** First PEL ID to examine (exclusive starts already moved up by one). */
  start: StreamId;
  /** @default 100 */
  COUNT: number;
  JUSTID: boolean;
}

/** Parse argv[4…]; throws the syntax/value errors, which Redis reports before the key lookup. */
export function parse(argv: string[]): XautoclaimArgs {
  const minIdle = parseInt64(argv[4]);
  if (minIdle === null) fail(errInvalidMinIdle('XAUTOCLAIM'));
  const start = rangeBoundOrFail(argv[5], 'start');
  const args: XautoclaimArgs = { minIdleTime: minIdle < 0n ? 0n : minIdle, start, COUNT: 100, JUSTID: false };
  for (let j = 6; j < argv.length; j++) {
    const opt = argv[j];
    if (is(opt, 'COUNT') && j < argv.length - 1) {
      const v = parseInt64(argv[++j]);
      if (v === null || v < 1n || v > MAX_COUNT) fail(ERR_XAUTOCLAIM_COUNT);
      args.COUNT = Number(v);
    } else if (is(opt, 'JUSTID')) {
      args.JUSTID = true;
    } else {
      fail(ERR_SYNTAX);
    }
  }
  return args;
}

export function execute(ctx: CommandContext, stream: Stream, group: ConsumerGroup, consumerName: string, key: string, args: XautoclaimArgs): Reply {
  const now = ctx.now;
  const claimer = new ClaimingConsumer(ctx, key, group, consumerName);
  // Scan first (nothing changes while the PEL is walked), then act in ID order: each decision
  // depends only on its own pending entry, and acting removes or re-times only that entry, so
  // this is the same as deciding and acting entry by entry. The cursor is the PEL ID after the
  // last one examined (0-0 at the end of the PEL).
  const toDelete: PendingEntry[] = [];
  const actions: (PendingEntry | null)[] = []; // null: the next entry of toDelete
  let count = args.COUNT;
  let attempts = args.COUNT * ATTEMPTS_FACTOR;
  let cursor: StreamId = MIN_ID;
  const near = { n: -1, s: 0 }; // PEL IDs ascend: each stream lookup starts where the last one ended
  group.pel.forEachFrom(args.start, (id, pe) => {
    if (attempts === 0 || count === 0) {
      cursor = id;
      return false;
    }
    attempts--;
    if (!stream.entries.hasAscending(id, near)) {
      // Deleted or trimmed entry: drop it from the PEL and report it (Redis 7.0+).
      toDelete.push(pe);
      actions.push(null);
      count--;
    } else if (idleEnough(pe, args.minIdleTime, now)) {
      actions.push(pe);
      count--;
    }
    return true;
  });
  const claimed: Reply[] = [];
  const deleted: Reply[] = [];
  let d = 0;
  for (const pe of actions) {
    if (pe === null) {
      const gone = toDelete[d++];
      propagateClaim(ctx, key, group, gone);
      group.removePending(gone);
      ctx.db.dirty?.(1);
      deleted.push(formatId(gone.id));
    } else {
      claimer.claim(pe, now, args.JUSTID ? pe.deliveryCount : bumpDeliveryCount(pe.deliveryCount));
      claimed.push(claimedReply(stream, pe.id, args.JUSTID));
    }
  }
  return [formatId(cursor), claimed, deleted];
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const [, key, groupName, consumerName] = argv;
  // lookupKeyRead comes before the arguments are parsed
  if (ctx.db.lookup(key, true) === undefined) ctx.db.keyMiss(key);
  else ctx.db.keyHit();
  const args = parse(argv);
  const [stream, group] = streamAndGroupOrFail(ctx, key, groupName);
  if (args.COUNT >= UNALLOCATABLE_COUNT) fail(ERR_XAUTOCLAIM_COUNT_TOO_HIGH);
  propagationOf(ctx.db)?.prevent(); // propagated as its claims
  return execute(ctx, stream, group, consumerName, key, args);
}

export const specs: CommandSpec[] = [{ name: 'xautoclaim', arity: -6, write: true, run }];
