/**
 * XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-time-ms]
 *        [RETRYCOUNT count] [FORCE] [JUSTID] [LASTID lastid]
 *
 * Moves pending entries of a consumer group to `consumer` when they have been idle at least
 * `min-idle-time` ms (unowned entries — FORCE-created, or XNACK'd in Redis 8.8 — skip the idle
 * test); each claimed entry gets delivery time now (or IDLE/TIME) and delivery count +1 (unless
 * JUSTID; RETRYCOUNT sets it). Pending IDs whose entry left the stream are dropped from the PEL
 * (7.0+). LASTID moves the group's last-delivered-id forward. Reply: the claimed entries as
 * `[id, [field, value, …]]` in argument order, or their IDs with JUSTID.
 * Errors (in this order, t_stream.c `xclaimCommand`, checked on redis-server 7.0.15): WRONGTYPE;
 * `NOGROUP No such key '<key>' or consumer group '<group>'`; `ERR Invalid min-idle-time argument
 * for XCLAIM`; `ERR Invalid IDLE|TIME|RETRYCOUNT option argument for XCLAIM`; a bad LASTID ID;
 * `ERR Unrecognized XCLAIM option '<token>'`. Consumer bookkeeping: 7.2+ creates the consumer
 * and sets seen-time up front and active-time per claim; 7.0 only at the first claim.
 */
import { nextDeliveryCount } from '../model/pel';
import {
  errInvalidMinIdle,
  errNoKeyOrGroup,
  errorArg,
  errXclaimOptionArg,
  errXclaimUnrecognized,
  fail,
} from '../errors';
import type { Consumer } from '../model/consumer';
import type { ConsumerGroup } from '../model/consumer-group';
import type { PendingEntry } from '../model/pel';
import type { Stream } from '../model/stream';
import { StreamId, compareIds, formatId, parseStrictId } from '../model/stream-id';
import { supports } from '../version';
import { is, parseInt64, strictIdOrFail } from './args';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec, Reply } from './types';

/** Parsed XCLAIM arguments after the key/group lookup. */
export interface XclaimArgs {
  /** Minimum idle time in ms (negative given → 0). */
  minIdleTime: bigint;
  ids: StreamId[];
  /** New delivery time (unix ms) from IDLE/TIME, or null for "now". */
  deliveryTime: bigint | null;
  /** RETRYCOUNT value, or null (a negative RETRYCOUNT counts as not given, like Redis's -1 sentinel). */
  retryCount: bigint | null;
  FORCE: boolean;
  JUSTID: boolean;
  /** LASTID, or null. */
  LASTID: StreamId | null;
}

/**
 * Parse argv[4…] as Redis does: min-idle-time, then IDs for as long as they parse as strict IDs,
 * then options. `now` resolves IDLE into a delivery time.
 */
export function parse(argv: string[], now: number): XclaimArgs {
  const minIdle = parseInt64(argv[4]);
  if (minIdle === null) fail(errInvalidMinIdle('XCLAIM'));
  const ids: StreamId[] = [];
  let j = 5;
  for (; j < argv.length; j++) {
    const id = parseStrictId(argv[j]);
    if (!id) break;
    ids.push(id);
  }
  const args: XclaimArgs = {
    minIdleTime: minIdle < 0n ? 0n : minIdle,
    ids,
    deliveryTime: null,
    retryCount: null,
    FORCE: false,
    JUSTID: false,
    LASTID: null,
  };
  // Redis keeps -1 as "not given" for both the delivery time and RETRYCOUNT.
  let deliveryTime = -1n;
  let retryCount = -1n;
  for (; j < argv.length; j++) {
    const opt = argv[j];
    const moreArgs = j < argv.length - 1;
    if (is(opt, 'FORCE')) {
      args.FORCE = true;
    } else if (is(opt, 'JUSTID')) {
      args.JUSTID = true;
    } else if (is(opt, 'IDLE') && moreArgs) {
      const v = parseInt64(argv[++j]);
      if (v === null) fail(errXclaimOptionArg('IDLE'));
      deliveryTime = BigInt(Math.floor(now)) - v;
    } else if (is(opt, 'TIME') && moreArgs) {
      const v = parseInt64(argv[++j]);
      if (v === null) fail(errXclaimOptionArg('TIME'));
      deliveryTime = v;
    } else if (is(opt, 'RETRYCOUNT') && moreArgs) {
      const v = parseInt64(argv[++j]);
      if (v === null) fail(errXclaimOptionArg('RETRYCOUNT'));
      retryCount = v;
    } else if (is(opt, 'LASTID') && moreArgs) {
      args.LASTID = strictIdOrFail(argv[++j]);
    } else {
      fail(errXclaimUnrecognized(errorArg(opt)));
    }
  }
  // A delivery time outside [0, now] is replaced by now (Redis does not raise an error).
  if (deliveryTime !== -1n) args.deliveryTime = deliveryTime < 0n || deliveryTime > BigInt(Math.floor(now)) ? null : deliveryTime;
  if (retryCount >= 0n) args.retryCount = retryCount;
  return args;
}

/** Look up the stream and group, or fail with XCLAIM/XAUTOCLAIM's NOGROUP text. */
export function streamAndGroupOrFail(ctx: CommandContext, key: string, groupName: string): [Stream, ConsumerGroup] {
  const stream = ctx.db.getStream(key);
  const group = stream?.groups.get(groupName);
  if (!stream || !group) fail(errNoKeyOrGroup(errorArg(key), errorArg(groupName)));
  return [stream, group];
}

/**
 * The claiming consumer, looked up lazily: Redis 7.2+ resolves it before claiming anything
 * (so it is created and its seen-time set even when nothing is claimed); 7.0 does it at the
 * first claimed entry. Creation emits `xgroup-createconsumer`.
 */
export class ClaimingConsumer {
  private consumer: Consumer | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly key: string,
    private readonly group: ConsumerGroup,
    private readonly name: string,
  ) {
    if (supports(ctx.version, 'claimTouchesConsumer')) this.get();
  }

  /** The consumer (created on first use, seen-time = now). */
  get(): Consumer {
    if (!this.consumer) {
      const { consumer, created } = this.group.ensureConsumer(this.name, this.ctx.now);
      if (created) {
        this.ctx.db.notify('xgroup-createconsumer', this.key);
        this.ctx.db.dirty?.(1);
      }
      consumer.seenTime = this.ctx.now;
      this.consumer = consumer;
    }
    return this.consumer;
  }

  /**
   * Give `pe` to the consumer with delivery time `deliveryTime` and the new delivery count,
   * marking the consumer active (7.2+).
   */
  claim(pe: PendingEntry, deliveryTime: number, deliveryCount: bigint): void {
    const consumer = this.get();
    this.group.setOwner(pe, consumer);
    this.group.setDeliveryTime(pe, deliveryTime);
    pe.deliveryCount = deliveryCount;
    if (supports(this.ctx.version, 'consumerActiveTime')) consumer.activeTime = this.ctx.now;
    this.ctx.db.dirty?.(1); // each claim is a change (t_stream.c xclaimCommand/xautoclaimCommand)
    propagateClaim(this.ctx, this.key, this.group, pe);
  }
}

/**
 * XCLAIM and XAUTOCLAIM propagate each claim (and each pending entry of a deleted entry they
 * drop, before dropping it) as the idempotent XCLAIM of streamPropagateXCLAIM, never themselves.
 */
export function propagateClaim(ctx: CommandContext, key: string, group: ConsumerGroup, pe: PendingEntry): void {
  const p = propagationOf(ctx.db);
  if (p === null) return;
  p.also(['XCLAIM', key, group.name, pe.consumer?.name ?? '', '0', formatId(pe.id), 'TIME', String(pe.deliveryTime), 'RETRYCOUNT', String(pe.deliveryCount), 'FORCE', 'JUSTID', 'LASTID', formatId(group.lastId)]);
}

/** Delivery count + 1 as Redis's unsigned 64-bit counter (wraps at 2^64). */
export const bumpDeliveryCount = nextDeliveryCount;

/** Is `pe` idle long enough? Unowned entries (FORCE-created, XNACK'd) always are. */
export function idleEnough(pe: PendingEntry, minIdleTime: bigint, now: number): boolean {
  if (pe.consumer === null || minIdleTime === 0n) return true;
  return Math.floor(now - pe.deliveryTime) >= minIdleTime; // number vs bigint: an exact comparison
}

/** One reply element for a claimed entry: the entry, or its ID with JUSTID. */
export function claimedReply(stream: Stream, id: StreamId, justId: boolean): Reply {
  if (justId) return formatId(id);
  const entry = stream.entries.get(id);
  return [formatId(id), entry ? [...entry.fields] : []];
}

export function execute(ctx: CommandContext, stream: Stream, group: ConsumerGroup, consumerName: string, key: string, args: XclaimArgs): Reply {
  const now = ctx.now;
  let lastIdMoved = false;
  if (args.LASTID && compareIds(args.LASTID, group.lastId) > 0) {
    group.lastId = args.LASTID;
    lastIdMoved = true;
  }
  let changes = 0;
  const deliveryTime = args.deliveryTime === null ? now : Number(args.deliveryTime);
  const claimer = new ClaimingConsumer(ctx, key, group, consumerName);
  const reply: Reply[] = [];
  for (const id of args.ids) {
    let pe = group.pel.get(id);
    if (!stream.entries.has(id)) {
      // The entry was deleted or trimmed: drop its pending entry (Redis 7.0+, PR #10227).
      if (pe) {
        propagateClaim(ctx, key, group, pe);
        group.removePending(pe);
        ctx.db.dirty?.(1);
        changes++;
      }
      continue;
    }
    if (!pe) {
      if (!args.FORCE) continue;
      // FORCE: a new unowned pending entry with delivery count 1, claimed just below (being
      // unowned, it skips the idle test).
      pe = group.addPending(id, null, now, 1n);
    }
    if (!idleEnough(pe, args.minIdleTime, now)) continue;
    const count =
      args.retryCount !== null ? args.retryCount : args.JUSTID ? pe.deliveryCount : bumpDeliveryCount(pe.deliveryCount);
    claimer.claim(pe, deliveryTime, count);
    changes++;
    reply.push(claimedReply(stream, id, args.JUSTID));
  }
  // A moved last-delivered-id counts only when no claim or PEL cleanup was made (Redis
  // propagates it with the XCLAIMs then).
  if (lastIdMoved && changes === 0) {
    ctx.db.dirty?.(1);
    propagationOf(ctx.db)?.also(['XGROUP', 'SETID', key, group.name, formatId(group.lastId), 'ENTRIESREAD', String(group.entriesRead)]);
  }
  return reply;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const [, key, groupName, consumerName] = argv;
  // Redis looks the key and group up before parsing anything else.
  ctx.db.readStream(key); // lookupKeyRead
  const [stream, group] = streamAndGroupOrFail(ctx, key, groupName);
  const args = parse(argv, ctx.now);
  propagationOf(ctx.db)?.prevent(); // propagated as its claims
  return execute(ctx, stream, group, consumerName, key, args);
}

export const specs: CommandSpec[] = [{ name: 'xclaim', arity: -6, write: true, run }];
