/**
 * XREAD [COUNT count] [MAXCOUNT maxcount] [MAXSIZE maxsize] [BLOCK milliseconds]
 *       STREAMS key [key ...] id [id ...]
 *
 * Returns, for each listed stream whose last live entry is newer than its ID, the entries after
 * that ID (at most COUNT per stream; MAXCOUNT/MAXSIZE cap the whole reply, Redis 8.10) as
 * `[[key, [[id, [field, value, …]], …]], …]`; streams with nothing new are left out and the reply
 * is nil when none has anything. `$` means the stream's last-generated-id, `+` (7.4+) the last
 * entry. With BLOCK (ms, 0 = forever) and nothing to serve the call waits; `$` is then pinned to
 * the ID it resolved to. Read-only: no state changes. Errors: syntax/option errors, the
 * unbalanced-STREAMS text (it differs in 7.0 and 7.2–7.4), WRONGTYPE, invalid IDs, `>`
 * (XREADGROUP only), `ERR the stream last element ID is 0-0` for `+` on a never-written stream.
 * Source: t_stream.c `xreadCommand` (7.0.15 and 7.4/8.0), redis.io XREAD, shared reference §3.
 */
import { CommandError, ERR_XREAD_GT_ID, ERR_XREAD_LAST_ID_ZERO, fail } from '../errors';
import type { Stream } from '../model/stream';
import { MAX_ID, MIN_ID, StreamId, compareIds, decrId, formatId, incrId } from '../model/stream-id';
import { supports } from '../version';
import { strictIdOrFail } from './args';
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
import { NIL_ARRAY } from '../reply/reply';

interface XreadTarget {
  readonly key: string;
  readonly stream: Stream | undefined;
  /** Serve entries with an ID greater than this. */
  readonly after: StreamId;
}

/** Resolve each stream's ID in argument order; the first failing stream decides the error. */
function resolveTargets(ctx: CommandContext, args: ReadArgs): XreadTarget[] {
  const plus = supports(ctx.version, 'xreadPlusId');
  return args.keys.map((key, i) => {
    const stream = ctx.db.readStream(key); // xreadCommand's first lookupKeyRead
    const idArg = args.ids[i];
    let after: StreamId;
    if (idArg === '$') {
      after = stream ? stream.lastId : MIN_ID;
    } else if (plus && idArg === '+') {
      if (stream) {
        const prev = decrId(stream.lastId);
        if (!prev) fail(ERR_XREAD_LAST_ID_ZERO);
        after = prev;
      } else after = MIN_ID;
    } else if (idArg === '>') {
      fail(ERR_XREAD_GT_ID);
    } else {
      after = strictIdOrFail(idArg);
    }
    return { key, stream, after };
  });
}

/** Entries of `stream` after `after`, at most `limit`, within the budget (header counted by the caller). */
function readAfter(stream: Stream, after: StreamId, limit: number, budget: ReplyBudget): Reply[] {
  const out: Reply[] = [];
  const start = incrId(after);
  if (!start) return out;
  stream.entries.forEach(start, MAX_ID, (id, fields) => {
    if (out.length >= limit || !budget.open()) return false;
    const idText = formatId(id);
    budget.addEntry(idText, fields);
    out.push([idText, fields.slice()]);
    return true;
  });
  return out;
}

/**
 * Serve synchronously: key, entries, key, entries …; empty when nothing could be served. Each
 * stream is looked up again, as xreadCommand's serving loop does (a keyspace hit or miss again;
 * a missing key: keymiss again).
 */
function serve(ctx: CommandContext, args: ReadArgs, targets: XreadTarget[]): Reply[] {
  const budget = new ReplyBudget(args.maxCount, args.maxSize);
  const out: Reply[] = [];
  for (const t of targets) {
    if (!budget.open()) break; // MAXCOUNT/MAXSIZE reached: the remaining streams are skipped
    const s = t.stream;
    if (!s) ctx.db.keyMiss(t.key);
    else ctx.db.keyHit();
    if (!s || s.length === 0) continue;
    const last = s.entries.lastId();
    if (!last || compareIds(last, t.after) <= 0) continue;
    budget.addStreamHeader(t.key);
    const entries = readAfter(s, t.after, streamLimit(args.count, budget), budget);
    // Only MAXSIZE can leave a servable stream empty; such a stream is left out (unconfirmed).
    if (entries.length) out.push(t.key, entries);
  }
  return out;
}

function execute(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const args = parseReadArgs(ctx, argv, false);
  const targets = resolveTargets(ctx, args);
  const out = serve(ctx, args, targets);
  if (out.length) return streamsReply(out);
  if (args.timeoutMs === null) return NIL_ARRAY;
  if (!ctx.isRetry && !ctx.canBlock) return NIL_ARRAY; // MULTI/EXEC, scripts: answer as a timeout
  // Pin `$` to the ID it resolved to, so a re-execution waits for entries after it (`+` stays).
  const pinned = [...argv];
  args.ids.forEach((idArg, i) => {
    if (idArg === '$') pinned[args.streamsArg + args.keys.length + i] = formatId(targets[i].after);
  });
  const timeoutMs = args.timeoutMs;
  const afters = new Map<string, StreamId>();
  targets.forEach((t) => afters.has(t.key) || afters.set(t.key, t.after));
  const retry: ReadRetry = (retryCtx, signalledKey) => {
    if (supports(retryCtx.version, 'blockedReadRerun')) {
      // blocked.c handleClientsBlockedOnKey: an XREAD reader is re-run only if the signalled key
      // holds a stream (XREADGROUP also when it is gone or of another type). The re-run covers
      // every listed key, so another key of another type does answer WRONGTYPE.
      if (signalledKey !== undefined && !holdsStream(retryCtx, signalledKey)) return blockRequest(args.keys, timeoutMs, null, retry, false, afters);
      return execute(retryCtx, pinned);
    }
    return wake70(retryCtx, args, afters, signalledKey) ?? blockRequest(args.keys, timeoutMs, null, retry, false, afters);
  };
  return blockRequest(args.keys, timeoutMs, null, retry, false, afters);
}

/** True if `key` holds a stream (false when missing or of another type). */
function holdsStream(ctx: CommandContext, key: string): boolean {
  try {
    return ctx.db.getStream(key) !== undefined;
  } catch (e) {
    if (e instanceof CommandError) return false;
    throw e;
  }
}

/**
 * Redis 7.0 wake-up (blocked.c `serveClientsBlockedOnStreamKey`): no re-execution. The signalled
 * key is served once its last-generated-id is past the ID waited for — even if the new entries
 * were deleted again, giving `[[key, []]]` — with COUNT or at most 1000 entries; a missing or
 * non-stream key keeps the reader waiting (undefined).
 */
function wake70(
  ctx: CommandContext,
  args: ReadArgs,
  afters: ReadonlyMap<string, StreamId>,
  signalledKey: string | undefined,
): Reply | undefined {
  for (const key of wakeKeys70(args.keys, signalledKey)) {
    let stream: Stream | undefined;
    try {
      stream = ctx.db.getStream(key);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      continue; // another type: XREAD readers are not woken
    }
    const after = afters.get(key) as StreamId;
    if (!stream || compareIds(stream.lastId, after) <= 0) continue;
    const limit = args.count || BLOCKED_DEFAULT_COUNT_70;
    return streamsReply([key, readAfter(stream, after, limit, new ReplyBudget(null, null))]);
  }
  return undefined;
}

export const specs: CommandSpec[] = [{ name: 'xread', arity: -4, write: false, run: (ctx, argv) => execute(ctx, argv) }];
