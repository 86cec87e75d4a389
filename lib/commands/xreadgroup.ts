/**
 * XREADGROUP GROUP group consumer [COUNT count] [MAXCOUNT maxcount] [MAXSIZE maxsize]
 *            [BLOCK milliseconds] [CLAIM min-idle-time] [NOACK] STREAMS key [key ...] id [id ...]
 *
 * Reads as a consumer of a group. With `>` it delivers entries after the group's
 * last-delivered-id (advancing it and entries-read) and records each in the PEL for this consumer
 * with delivery count 1 and delivery time now — re-assigning an ID already pending — unless NOACK;
 * with CLAIM (8.4) it first takes over pending entries idle at least min-idle-time ms (any owner,
 * NACKed first, then longest idle; count +1) and every entry of that stream's reply becomes
 * `[id, fields, idleMs, previousDeliveryCount]` (`0, 0` for new ones). Any other ID re-reads this
 * consumer's own PEL after it (`[id, nil]` for deleted entries; count +1, time now) and never
 * blocks. The consumer is created (event `xgroup-createconsumer`) and its seen-time set for every
 * stream (7.0: only for streams served); active-time is set when a PEL entry is created, re-assigned
 * or claimed (7.2+). Reply: `[[key, entries], …]` (history streams always appear, `>` streams only
 * with something to deliver) or nil; with BLOCK ms (0 = forever) it waits instead of replying nil.
 * Errors: option errors (see read-common), `ERR Missing GROUP option for XREADGROUP`, per stream
 * WRONGTYPE, `NOGROUP No such key 'k' or consumer group 'g' in XREADGROUP with GROUP option`, the
 * `$`/`+` "meaningless" texts and invalid IDs; a waiting 7.0 reader gets `UNBLOCKED …` or
 * `NOGROUP the consumer group this client was blocked on …` when its key or group goes away.
 * Source: t_stream.c `xreadCommand`, blocked.c (7.0.15 and 7.4/8.0), redis.io XREADGROUP,
 * shared reference §4 and §1.8. XREADGROUP does not mark the key modified (no WATCH abort; checked
 * on 7.0.15 and in the 8.0 source).
 */
import {
  CommandError,
  ERR_NOGROUP_BLOCKED_GROUP_GONE,
  ERR_UNBLOCKED_KEY_GONE,
  errNoKeyOrGroupXreadgroup,
  errXreadgroupMeaninglessId,
  fail,
} from '../errors';
import type { Consumer } from '../model/consumer';
import type { ConsumerGroup } from '../model/consumer-group';
import { PendingEntry, deliveryCountReply, iterateFrom, nextDeliveryCount } from '../model/pel';
import type { Stream } from '../model/stream';
import type { StreamEntry } from '../model/stream-entries';
import { MAX_ID, StreamId, compareIds, formatId, idEquals, incrId } from '../model/stream-id';
import { RedisVersion, supports } from '../version';
import { copyArgs, strictIdOrFail } from './args';
import {
  BLOCKED_DEFAULT_COUNT_70,
  ReadArgs,
  ReadRetry,
  ReplyBudget,
  blockRequest,
  parseReadArgs,
  streamLimit,
  wakeKeys70,
  streamsReply,
} from './read-common';
import type { CommandContext, CommandResult, CommandSpec, Reply } from './types';
import { propagationOf } from './propagate';
import { NIL_ARRAY } from '../reply/reply';

interface GroupTarget {
  readonly key: string;
  readonly stream: Stream;
  readonly group: ConsumerGroup;
  /** null for `>` (new entries); else the history position (entries after it). */
  readonly after: StreamId | null;
}

/** Per stream in argument order: WRONGTYPE, NOGROUP, then the ID (first failure wins). */
function resolveTargets(ctx: CommandContext, args: ReadArgs): GroupTarget[] {
  const keys = args.keys;
  const targets = new Array<GroupTarget>(keys.length);
  for (let i = 0; i < keys.length; i++) targets[i] = resolveTarget(ctx, args, i);
  return targets;
}

/** The `i`th stream's target: WRONGTYPE, NOGROUP, then the ID. */
function resolveTarget(ctx: CommandContext, args: ReadArgs, i: number): GroupTarget {
  const groupName = args.group as string;
  const key = args.keys[i];
  const stream = ctx.db.readStream(key); // xreadCommand's lookupKeyRead, before NOGROUP
  const group = stream?.groups.get(groupName);
  if (!stream || !group) fail(errNoKeyOrGroupXreadgroup(key, groupName));
  const idArg = args.ids[i];
  if (idArg === '>') return { key, stream, group, after: null };
  if (idArg === '$') fail(errXreadgroupMeaninglessId('$'));
  if (idArg === '+' && featuresOf(ctx.version).xreadPlusId) fail(errXreadgroupMeaninglessId('+'));
  const id = strictIdOrFail(idArg);
  // Redis encodes `>` as the max ID, so an explicit max ID reads new entries too.
  return { key, stream, group, after: idEquals(id, MAX_ID) ? null : id };
}

/** The consumer the last `touchConsumer` created without NOACK, not yet propagated (else null). */
let unpropagatedConsumer: { key: string; group: string; name: string } | null = null;
/** XCLAIMs propagated by this module so far (a consumer created and claimed for needs no more). */
let claimsPropagated = 0;

/**
 * Look the consumer up, creating it (with its keyspace event); seen-time = now. A consumer
 * created with NOACK is propagated at once as XGROUP CREATECONSUMER (streamPropagateConsumerCreation,
 * 6.2+: no XCLAIM creates it on the replicas; checked on 7.0.15 and the post-7.4 build), one
 * created without it is left in `unpropagatedConsumer` for `propagateIfUnclaimed`.
 */
function touchConsumer(ctx: CommandContext, t: { key: string; group: ConsumerGroup }, name: string, noack = false): Consumer {
  let consumer = t.group.getConsumer(name);
  if (!consumer) {
    consumer = t.group.ensureConsumer(name, ctx.now).consumer;
    ctx.db.notify('xgroup-createconsumer', t.key);
    ctx.db.dirty?.(1);
    if (noack) propagationOf(ctx.db)?.also(['XGROUP', 'CREATECONSUMER', t.key, t.group.name, name]);
    else unpropagatedConsumer = { key: t.key, group: t.group.name, name };
  }
  consumer.seenTime = ctx.now;
  return consumer;
}

/**
 * 8.8+ (redis #14963): a consumer this read created without NOACK is propagated as XGROUP
 * CREATECONSUMER when no XCLAIM was propagated for it since `claimsBefore` (nothing delivered).
 */
function propagateIfUnclaimed(ctx: CommandContext, claimsBefore: number): void {
  const created = unpropagatedConsumer;
  unpropagatedConsumer = null;
  if (created === null || claimsPropagated !== claimsBefore || !supports(ctx.version, 'xreadgroupEmptyConsumerPropagated')) return;
  propagationOf(ctx.db)?.also(['XGROUP', 'CREATECONSUMER', created.key, created.group, created.name]);
}

/** The consumer's own pending entries after `after` (history read). */
function serveHistory(
  ctx: CommandContext,
  t: GroupTarget,
  consumer: Consumer,
  limit: number,
  budget: ReplyBudget,
): { entries: Reply[]; cut: boolean } {
  const entries: Reply[] = [];
  const start = incrId(t.after as StreamId);
  if (!start) return { entries, cut: false };
  for (const [id, pe] of iterateFrom(consumer.pel, start)) {
    if (entries.length >= limit) break;
    if (!budget.open()) return { entries, cut: true };
    const e = t.stream.entries.get(id);
    const idText = formatId(id);
    if (e) {
      entries.push([idText, [...e.fields]]);
      budget.addEntry(idText, e.fields);
      t.group.setDeliveryTime(pe, ctx.now);
      pe.deliveryCount = nextDeliveryCount(pe.deliveryCount);
    } else {
      entries.push([idText, NIL_ARRAY]); // addReplyNullArray: the entry was deleted
      budget.addEntry(idText, null);
    }
  }
  return { entries, cut: false };
}

/**
 * Deliver entries after the group's last-delivered-id (`>`), at most `limit`; `ext` adds the
 * CLAIM reply extension `0, 0`. Advances the group and, unless NOACK, creates or re-assigns PEL
 * entries (count 1, time now) and sets the consumer's active-time.
 */
function serveNew(
  ctx: CommandContext,
  t: { key: string; stream: Stream; group: ConsumerGroup },
  consumer: Consumer,
  noack: boolean,
  limit: number,
  budget: ReplyBudget | null,
  ext: boolean,
): Reply[] {
  const { stream, group } = t;
  // entries after last-delivered-id (none after the max ID)
  if (limit <= 0 || idEquals(group.lastId, MAX_ID)) return [];
  const features = featuresOf(ctx.version);
  const tombstonesFrom = features.entriesReadRecountBehindFirst ? 'lastIdNotBehindFirst' : features.entriesReadTombstonesFromLastId ? 'lastId' : 'entry';
  let delivered = false;
  // made with its first entry: an array literal is sized exactly, `[]` grows by 16 slots at the first push
  let out: Reply[] | null = null;
  const walk = stream.entries.after(group.lastId);
  const p = propagationOf(ctx.db);
  const lastBefore = group.lastId;
  while ((out === null || out.length < limit) && (budget === null || budget.open()) && walk.next()) {
    const id = walk.id();
    stream.advanceGroup(group, id, tombstonesFrom);
    const idText = formatId(id);
    const fields = walk.fields();
    const reply: Reply[] = ext ? [idText, fields, 0, 0] : [idText, fields];
    if (out === null) out = [reply];
    else out.push(reply);
    budget?.addEntry(idText, fields, ext ? [0, 0] : undefined);
    if (noack) continue;
    const pe = group.pel.get(id);
    if (!pe) group.addPending(id, consumer, ctx.now, 1n);
    else {
      group.setOwner(pe, consumer);
      group.setDeliveryTime(pe, ctx.now);
      pe.deliveryCount = 1n;
    }
    delivered = true;
    // propagated as an idempotent XCLAIM per delivered entry (streamPropagateXCLAIM)
    claimsPropagated++;
    if (p !== null) p.also(['XCLAIM', t.key, group.name, consumer.name, '0', idText, 'TIME', String(ctx.now), 'RETRYCOUNT', '1', 'FORCE', 'JUSTID', 'LASTID', formatId(group.lastId)]);
  }
  // and the group's new last-delivered-id (streamPropagateGroupID)
  if (p !== null && group.lastId !== lastBefore && (noack || features.xreadgroupSetIdPropagated)) p.also(['XGROUP', 'SETID', t.key, group.name, formatId(group.lastId), 'ENTRIESREAD', String(group.entriesRead)]);
  if (delivered && features.consumerActiveTime) consumer.activeTime = ctx.now;
  return out ?? [];
}

/** The features XREADGROUP asks about on every call, per version (one lookup per call instead of several). */
interface ReadFeatures {
  readonly xreadPlusId: boolean;
  readonly consumerCreatedOnEmptyRead: boolean;
  readonly entriesReadTombstonesFromLastId: boolean;
  readonly entriesReadRecountBehindFirst: boolean;
  /** XREADGROUP propagates the group's new last-delivered-id (XGROUP SETID) without NOACK too. */
  readonly xreadgroupSetIdPropagated: boolean;
  readonly consumerActiveTime: boolean;
  readonly xreadgroupHistoryNotDirty: boolean;
}

let featuresVersion: RedisVersion | undefined;
let features: ReadFeatures | undefined;

function featuresOf(version: RedisVersion): ReadFeatures {
  if (version !== featuresVersion || features === undefined) {
    features = {
      xreadPlusId: supports(version, 'xreadPlusId'),
      consumerCreatedOnEmptyRead: supports(version, 'consumerCreatedOnEmptyRead'),
      entriesReadTombstonesFromLastId: supports(version, 'entriesReadTombstonesFromLastId'),
      entriesReadRecountBehindFirst: supports(version, 'entriesReadRecountBehindFirst'),
      xreadgroupSetIdPropagated: supports(version, 'xreadgroupSetIdPropagated'),
      consumerActiveTime: supports(version, 'consumerActiveTime'),
      xreadgroupHistoryNotDirty: supports(version, 'xreadgroupHistoryNotDirty'),
    };
    featuresVersion = version;
  }
  return features;
}

interface Claimable {
  readonly pe: PendingEntry;
  readonly entry: StreamEntry;
  readonly idle: number;
}

/**
 * Scan the group's pending entries in CLAIM order (NACK zone, then oldest delivery first) while
 * they are idle >= minIdle, skipping entries deleted from the stream (left in the PEL: whether
 * Redis purges them is unconfirmed). Stops after `limit` claimable entries or when the budget
 * closes. `wakeAt`: when the first not-yet-idle entry becomes claimable (null if none).
 */
function scanClaimable(
  ctx: CommandContext,
  t: GroupTarget,
  minIdle: number,
  limit: number,
  budget: ReplyBudget | null,
): { found: Claimable[]; wakeAt: number | null } {
  const found: Claimable[] = [];
  for (const pe of t.group.pendingByDeliveryTime()) {
    const idle = ctx.now - pe.deliveryTime;
    if (idle < minIdle) return { found, wakeAt: pe.deliveryTime + minIdle };
    if (found.length >= limit) break;
    const entry = t.stream.entries.get(pe.id);
    if (!entry) continue;
    if (budget) {
      if (!budget.open()) break;
      budget.addEntry(formatId(pe.id), entry.fields, [idle, deliveryCountReply(pe.deliveryCount)]);
    }
    found.push({ pe, entry, idle });
  }
  return { found, wakeAt: null };
}

/** Claim the scanned entries for `consumer` (after the scan: claiming reorders the time view). */
function applyClaims(ctx: CommandContext, t: GroupTarget, consumer: Consumer, found: Claimable[]): Reply[] {
  const out: Reply[] = [];
  for (const { pe, entry, idle } of found) {
    const previous = pe.deliveryCount;
    t.group.setOwner(pe, consumer);
    t.group.setDeliveryTime(pe, ctx.now);
    pe.deliveryCount = nextDeliveryCount(previous);
    out.push([formatId(pe.id), [...entry.fields], idle, previous]);
    // each claim reaches the replicas as the idempotent XCLAIM of streamPropagateXCLAIM, with the
    // new owner, delivery time and count (Redis's newer stream-cgroups.tcl: `XREADGROUP CLAIM
    // delivery count increments replicated correctly`)
    claimsPropagated++;
    propagationOf(ctx.db)?.also(['XCLAIM', t.key, t.group.name, consumer.name, '0', formatId(pe.id), 'TIME', String(pe.deliveryTime), 'RETRYCOUNT', String(pe.deliveryCount), 'FORCE', 'JUSTID', 'LASTID', formatId(t.group.lastId)]);
  }
  // Whether a claim sets active-time is unconfirmed (reference §7 item 12); we assume it does.
  if (found.length && supports(ctx.version, 'consumerActiveTime')) consumer.activeTime = ctx.now;
  return out;
}

/** True when the stream has a live entry after the group's last-delivered-id. */
function hasNew(t: { stream: Stream; group: ConsumerGroup }): boolean {
  return t.stream.entries.hasLiveAfter(t.group.lastId);
}

/** Serve every stream in order; `wakeAt` is the earliest CLAIM wake-up when nothing was served. */
function serve(ctx: CommandContext, args: ReadArgs, targets: GroupTarget[]): { out: Reply[]; wakeAt: number | null } {
  const name = args.consumer as string;
  const eager = featuresOf(ctx.version).consumerCreatedOnEmptyRead;
  const budget = new ReplyBudget(args.maxCount, args.maxSize);
  const out: Reply[] = [];
  let wakeAt: number | null = null;
  for (const t of targets) {
    if (!budget.open()) break; // MAXCOUNT/MAXSIZE reached: the remaining streams are skipped
    ctx.db.keyHit(); // the serving loop's lookupKeyRead
    const claimsBefore = claimsPropagated;
    unpropagatedConsumer = null;
    let consumer = eager ? touchConsumer(ctx, t, name, args.noack) : undefined;
    if (t.after !== null) {
      consumer ??= touchConsumer(ctx, t, name, args.noack);
      budget.addStreamHeader(t.key);
      const { entries, cut } = serveHistory(ctx, t, consumer, streamLimit(args.count, budget), budget);
      if (!cut || entries.length) out.push(t.key, entries);
      // 7.0 counts every served stream as a change; 7.2+ only new deliveries (history re-reads
      // update delivery counts without propagation: "XREADGROUP from PEL does not change dirty").
      if (!supports(ctx.version, 'xreadgroupHistoryNotDirty')) ctx.db.dirty?.(1);
      propagateIfUnclaimed(ctx, claimsBefore);
      continue;
    }
    if (args.claimMinIdle === null) {
      if (!hasNew(t)) {
        propagateIfUnclaimed(ctx, claimsBefore);
        continue;
      }
      consumer ??= touchConsumer(ctx, t, name, args.noack);
      budget.addStreamHeader(t.key);
      const entries = serveNew(ctx, t, consumer, args.noack, streamLimit(args.count, budget), budget, false);
      if (entries.length) {
        out.push(t.key, entries);
        ctx.db.dirty?.(1); // one change per stream served with new deliveries
      }
      propagateIfUnclaimed(ctx, claimsBefore);
      continue;
    }
    // CLAIM (8.4): claimable pending entries first, then new entries, sharing COUNT.
    const probe = scanClaimable(ctx, t, args.claimMinIdle, 1, null);
    if (probe.found.length === 0 && !hasNew(t)) {
      if (probe.wakeAt !== null && (wakeAt === null || probe.wakeAt < wakeAt)) wakeAt = probe.wakeAt;
      propagateIfUnclaimed(ctx, claimsBefore);
      continue;
    }
    consumer ??= touchConsumer(ctx, t, name, args.noack);
    budget.addStreamHeader(t.key);
    const limit = streamLimit(args.count, budget);
    const { found } = scanClaimable(ctx, t, args.claimMinIdle, limit, budget);
    const entries = applyClaims(ctx, t, consumer, found);
    for (const e of serveNew(ctx, t, consumer, args.noack, limit - found.length, budget, true)) entries.push(e);
    if (entries.length) {
      out.push(t.key, entries);
      ctx.db.dirty?.(1);
    }
    propagateIfUnclaimed(ctx, claimsBefore);
  }
  return { out, wakeAt };
}

/**
 * `serve` for the usual read: one stream, `>`, no CLAIM, MAXCOUNT or MAXSIZE (no reply budget,
 * no target list). The entries delivered, or null when there is nothing (then nothing changed
 * but the consumer, as in `serve`).
 */
function serveOneNew(ctx: CommandContext, args: ReadArgs, t: GroupTarget): Reply[] | null {
  const name = args.consumer as string;
  ctx.db.keyHit(); // the serving loop's lookupKeyRead
  const claimsBefore = claimsPropagated;
  unpropagatedConsumer = null;
  let consumer = featuresOf(ctx.version).consumerCreatedOnEmptyRead ? touchConsumer(ctx, t, name, args.noack) : undefined;
  if (!hasNew(t)) {
    propagateIfUnclaimed(ctx, claimsBefore);
    return null;
  }
  consumer ??= touchConsumer(ctx, t, name, args.noack);
  const entries = serveNew(ctx, t, consumer, args.noack, args.count > 0 ? args.count : Infinity, null, false);
  propagateIfUnclaimed(ctx, claimsBefore);
  if (entries.length === 0) return null;
  ctx.db.dirty?.(1); // one change per stream served with new deliveries
  return entries;
}

/** The last parse without BLOCK (its result depends on argv and the version alone), and its argv. */
let lastArgv: readonly string[] | null = null;
let lastArgs: ReadArgs | null = null;
let lastVersion: CommandContext['version'] | undefined;

/**
 * `parseReadArgs(ctx, argv, true)`, reusing the last result when argv and the version are the
 * same: a worker repeats the same read (ReadArgs is never modified). Reads with BLOCK are parsed
 * every time (their timeout depends on the time).
 */
function parseArgs(ctx: CommandContext, argv: readonly string[]): ReadArgs {
  const last = lastArgv;
  if (last !== null && last.length === argv.length && lastVersion === ctx.version) {
    let same = true;
    for (let i = 1; i < argv.length; i++) {
      if (last[i] !== argv[i]) {
        same = false;
        break;
      }
    }
    if (same) return lastArgs as ReadArgs;
  }
  const args = parseReadArgs(ctx, argv, true);
  if (args.timeoutMs === null) {
    lastArgv = copyArgs(argv, 0); // a copy: a caller may reuse its array
    lastArgs = args;
    lastVersion = ctx.version;
  }
  return args;
}

function execute(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const args = parseArgs(ctx, argv);
  let targets: GroupTarget[];
  let wakeAt: number | null = null;
  if (args.keys.length === 1 && args.ids[0] === '>' && args.claimMinIdle === null && args.maxCount === null && args.maxSize === null) {
    const t = resolveTarget(ctx, args, 0);
    const entries = serveOneNew(ctx, args, t);
    if (entries !== null) return streamsReply([t.key, entries]);
    targets = [t];
  } else {
    targets = resolveTargets(ctx, args);
    const served = serve(ctx, args, targets);
    if (served.out.length) return streamsReply(served.out);
    wakeAt = served.wakeAt;
  }
  if (args.timeoutMs === null) return NIL_ARRAY;
  if (!ctx.isRetry && !ctx.canBlock) return NIL_ARRAY; // MULTI/EXEC, scripts: answer as a timeout
  const timeoutMs = args.timeoutMs;
  const seen: SeenConsumers = { consumers: [], removals: [] };
  const retry: ReadRetry = (retryCtx, signalledKey) => {
    propagationOf(retryCtx.db)?.prevent(); // propagated as its effects (XCLAIM, XGROUP SETID)
    // 7.2+: re-run the whole command (a missing key/group now answers NOGROUP, a new type WRONGTYPE).
    if (supports(retryCtx.version, 'blockedReadRerun')) {
      return rerunQuietly(retryCtx, ctx.version, args, targets, seen) ? request : execute(retryCtx, argv);
    }
    return wake70(retryCtx, args, signalledKey) ?? request;
  };
  // A deleted key or a new type wakes the reader (Redis `unblock_on_nokey`).
  const request = blockRequest(args.keys, timeoutMs, wakeAt, retry, true);
  return request;
}

/** A BLOCK deadline far enough from int64 overflow that a later `now` cannot make it overflow. */
const SAFE_DEADLINE = 2 ** 62;

/**
 * The re-execution of a blocked `>` read (7.2+) when it would block again, done cheaply: with
 * thousands of readers blocked on one key, every XADD re-runs all of them, and all but the first
 * find nothing new for their group. When re-parsing would give the same arguments (same version;
 * a BLOCK timeout that cannot overflow), every stream key still holds the same stream and group,
 * nothing follows the group's last-delivered-id and no CLAIM is asked, the full re-run would do
 * exactly this: create the consumer if it was deleted meanwhile (with its keyspace event) and set
 * its seen-time, stream by stream (consumerCreatedOnEmptyRead), then block again. Returns false,
 * having changed nothing, whenever any of that does not hold (the caller then re-runs in full).
 */
/** The consumer each target's quiet re-run touched, and its group's consumer removals then. */
interface SeenConsumers {
  consumers: (Consumer | undefined)[];
  removals: number[];
}

function rerunQuietly(
  ctx: CommandContext,
  parsedFor: CommandContext['version'],
  args: ReadArgs,
  targets: readonly GroupTarget[],
  seen: SeenConsumers,
): boolean {
  if (ctx.version !== parsedFor || args.claimMinIdle !== null) return false;
  if (args.timeoutMs !== null && args.timeoutMs > 0 && args.timeoutMs + ctx.now >= SAFE_DEADLINE) return false;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i];
    if (t.after !== null) return false;
    let stream: Stream | undefined;
    try {
      stream = ctx.db.getStream(t.key);
    } catch {
      return false; // WRONGTYPE: the full re-run answers it
    }
    if (stream !== t.stream || stream.groups.get(args.group as string) !== t.group || hasNew(t)) return false;
  }
  if (supports(ctx.version, 'consumerCreatedOnEmptyRead')) {
    for (let i = 0; i < targets.length; i++) {
      const t = targets[i];
      const consumer = seen.consumers[i];
      // The consumer object seen last time is still the group's while no consumer was removed.
      if (consumer !== undefined && seen.removals[i] === t.group.consumerRemovals) {
        consumer.seenTime = ctx.now;
      } else {
        unpropagatedConsumer = null;
        seen.consumers[i] = touchConsumer(ctx, t, args.consumer as string, args.noack);
        propagateIfUnclaimed(ctx, claimsPropagated);
        seen.removals[i] = t.group.consumerRemovals;
      }
    }
  }
  // the keyspace hits of the full re-run: each key's two lookupKeyRead (the IDs', the serving loop's)
  for (let i = 0; i < targets.length; i++) {
    ctx.db.keyHit();
    ctx.db.keyHit();
  }
  return true;
}

/**
 * Redis 7.0 wake-up (blocked.c `serveClientsBlockedOnStreamKey` / `unblockDeletedStreamReadgroupClients`):
 * no re-execution. A deleted or re-typed key answers UNBLOCKED, a destroyed group NOGROUP; the
 * signalled key is served as soon as its last-generated-id passes the group's last-delivered-id
 * (COUNT, or at most 1000 entries; possibly `[[key, []]]`); otherwise the reader keeps waiting
 * (undefined). Without a signalled key the keys are tried in argument order.
 */
function wake70(ctx: CommandContext, args: ReadArgs, signalledKey: string | undefined): Reply | undefined {
  const groupName = args.group as string;
  for (const key of wakeKeys70(args.keys, signalledKey)) {
    let stream: Stream | undefined;
    try {
      stream = ctx.db.getStream(key);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      fail(ERR_UNBLOCKED_KEY_GONE);
    }
    if (!stream) fail(ERR_UNBLOCKED_KEY_GONE);
    const group = stream.groups.get(groupName);
    if (!group) fail(ERR_NOGROUP_BLOCKED_GROUP_GONE);
    if (compareIds(stream.lastId, group.lastId) <= 0) continue;
    const t = { key, stream, group };
    const consumer = touchConsumer(ctx, t, args.consumer as string, args.noack);
    const limit = args.count || BLOCKED_DEFAULT_COUNT_70;
    return streamsReply([key, serveNew(ctx, t, consumer, args.noack, limit, new ReplyBudget(null, null), false)]);
  }
  return undefined;
}

export const specs: CommandSpec[] = [
  {
    name: 'xreadgroup',
    arity: -7,
    write: true,
    run: (ctx, argv) => {
      propagationOf(ctx.db)?.prevent(); // propagated as its effects (XCLAIM, XGROUP SETID)
      return execute(ctx, argv);
    },
  },
];
