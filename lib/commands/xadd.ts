/**
 * XADD key [NOMKSTREAM] [KEEPREF|DELREF|ACKED] [MAXLEN|MINID [=|~] threshold [LIMIT count]] <*|id> field value [field value ...]
 *
 * Appends an entry (ID `*` = now-based auto ID, `ms-*` = auto sequence, or explicit) and then
 * trims like XTRIM (which may remove the new entry itself); creates the stream unless NOMKSTREAM
 * (then a missing key replies nil). Reply: the new ID as a bulk string. Side effects: wakes
 * blocked readers of the key, keyspace events `xadd` and, when the trim removed entries, `xtrim`.
 * Errors, in Redis's order (t_stream.c `xaddCommand`, Redis 7.0–8.x): option errors (trim-args),
 * odd/zero field count (arity text), explicit 0-0, WRONGTYPE, exhausted stream, ID not above the
 * top item, fields over 1 GiB.
 */
import {
  ERR_XADD_EXHAUSTED,
  ERR_XADD_ID_SMALLER,
  ERR_XADD_ID_ZERO,
  ERR_XADD_TOO_LARGE,
  errWrongArity,
  fail,
} from '../errors';
import { IDMP_DURATION_DEFAULT, IDMP_MAXSIZE_DEFAULT, IdmpMap } from '../model/idmp';
import type { Stream } from '../model/stream';
import { MAX_ID, StreamId, UINT64_MAX, compareIds, formatId, idEquals, isZeroId } from '../model/stream-id';
import { RedisVersion, supports } from '../version';
import { AddOrTrimArgs, parseAddOrTrimArgs, trimLimit } from './trim-args';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec, Reply } from './types';

/** Redis STREAM_LISTPACK_MAX_SIZE: total field+value bytes one entry may hold. */
const MAX_ENTRY_BYTES = 1 << 30;

export interface XaddArgs extends AddOrTrimArgs {
  /** `[f1, v1, f2, v2, …]`, at least one pair. */
  fields: string[];
}

/**
 * Options, ID and fields; throws the option errors, the arity error for a missing or odd
 * field/value list, and the 0-0 error — all before Redis looks the key up.
 */
export function parse(argv: string[], version: RedisVersion): XaddArgs {
  const args = parseAddOrTrimArgs(argv, true, version);
  const fieldPos = args.idPos + 1;
  const fieldArgs = argv.length - fieldPos;
  if (fieldArgs < 2 || fieldArgs % 2 === 1) fail(errWrongArity('xadd'));
  // Explicit 0-0 (also the bare `0`; not `0-*`) fails before the key is looked up or created.
  if (args.id?.kind === 'id' && isZeroId(args.id.id)) fail(ERR_XADD_ID_ZERO);
  // Extend the parsed object in place: `{ ...args, fields }` is a V8 slow path (~1 µs).
  const xaddArgs = args as XaddArgs;
  // copyArgs(argv, fieldPos) in place: a function that small is compiled by TurboFan within a
  // test file's first commands (V8's "small function" rule, ~1 ms of CPU)
  const fields = new Array<string>(fieldArgs);
  for (let i = 0; i < fieldArgs; i++) fields[i] = argv[fieldPos + i];
  xaddArgs.fields = fields;
  return xaddArgs;
}

/** The ID the entry gets, or the error Redis gives (`streamAppendItem`). */
function newId(ctx: CommandContext, stream: Stream, args: XaddArgs): StreamId {
  const last = stream.lastId;
  let id: StreamId;
  if (args.id === null) {
    id = stream.nextAutoId(ctx.now) ?? MAX_ID; // null only for an exhausted stream, checked before
  } else if (args.id.kind === 'auto-seq') {
    if (args.id.ms === last.ms) {
      if (last.seq === UINT64_MAX) {
        // 7.0 leaves errno unset on this path and answers the size error (redis #11424).
        fail(supports(ctx.version, 'xaddSeqExhaustedEdom') ? ERR_XADD_ID_SMALLER : ERR_XADD_TOO_LARGE);
      }
      id = { ms: last.ms, seq: last.seq + 1n };
    } else {
      id = { ms: args.id.ms, seq: 0n };
    }
  } else {
    id = args.id.id;
  }
  if (compareIds(id, last) <= 0) fail(ERR_XADD_ID_SMALLER);
  return id;
}

/** Look up/create the stream, append, trim; reply the new ID (nil for NOMKSTREAM on a missing key). */
export function execute(ctx: CommandContext, key: string, args: XaddArgs): Reply {
  let stream = ctx.db.getStream(key);
  if (!stream) {
    if (args.noMkStream) return null;
    stream = ctx.db.createStream(key);
    ctx.db.notifyEvent('n', 'new', key); // dbAdd
  }
  if (idEquals(stream.lastId, MAX_ID)) fail(ERR_XADD_EXHAUSTED);
  const id = newId(ctx, stream, args);
  let bytes = 0;
  const fields = args.fields;
  for (let i = 0; i < fields.length; i++) bytes += fields[i].length; // indexed: no iterator (interpreted first calls)
  if (bytes > MAX_ENTRY_BYTES) fail(ERR_XADD_TOO_LARGE);

  stream.append(id, args.fields);
  ctx.db.notify('xadd', key);
  if (args.strategy) {
    const { strategy, approx, policy } = args;
    if (stream.trim({ strategy, approx, limit: trimLimit(args, stream), policy }).length) ctx.db.notify('xtrim', key);
  }
  ctx.db.touch(key);
  ctx.db.signalReady(key);
  ctx.db.dirty?.(1); // one change, trimming included (t_stream.c xaddCommand)
  return formatId(id);
}

/** A stream's first IDMP map: duration and size from CONFIG stream-idmp-duration / -maxsize. */
export function newIdmpMap(ctx: CommandContext): IdmpMap {
  const config = ctx.db.config;
  return new IdmpMap(
    Number(config?.get('stream-idmp-duration') ?? IDMP_DURATION_DEFAULT),
    Number(config?.get('stream-idmp-maxsize') ?? IDMP_MAXSIZE_DEFAULT),
  );
}

/**
 * IDMPAUTO's iid: a digest of the field/value pairs in any order (Redis's stream.tcl: the same
 * pairs in another order are a duplicate; another field name or value is not). Redis's own
 * digest is not known here: the iid differs from a real server's (visible only in DUMP).
 */
function autoIid(fields: readonly string[]): string {
  const pairs: string[] = [];
  for (let i = 0; i < fields.length; i += 2) pairs.push(`${fields[i].length}:${fields[i]}${fields[i + 1].length}:${fields[i + 1]}`);
  pairs.sort();
  return (require('../bytes/xxh3') as typeof import('../bytes/xxh3')).xxh3Hex(pairs.join(''));
}

/**
 * XADD IDMP / IDMPAUTO (8.6): a pid/iid seen within the stream's IDMP-DURATION answers the ID of
 * the entry it added and adds nothing (counted in `iids-duplicates`; nothing propagated, notified
 * or dirtied); otherwise `execute`, and the iid is recorded with the entry's ID (also when the
 * trim removed the entry). A missing or exhausted stream goes to `execute` for its reply/error.
 */
function executeIdempotent(ctx: CommandContext, key: string, args: XaddArgs, idmpArgs: { pid: string; iid: string | null; at: number }): { reply: Reply; duplicate: boolean } {
  const iid = idmpArgs.iid ?? autoIid(args.fields);
  const existing = ctx.db.getStream(key);
  if (existing && !idEquals(existing.lastId, MAX_ID)) {
    const idmp = (existing.idmp ??= newIdmpMap(ctx));
    const seen = idmp.lookup(idmpArgs.pid, iid, ctx.now);
    if (seen !== null) {
      idmp.iidsDuplicates++;
      return { reply: formatId(seen), duplicate: true };
    }
  }
  const reply = execute(ctx, key, args);
  if (reply !== null) {
    const stream = ctx.db.getStream(key) as Stream;
    (stream.idmp ??= newIdmpMap(ctx)).record(idmpArgs.pid, iid, stream.lastId);
  }
  return { reply, duplicate: false };
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const args = parse(argv, ctx.version);
  let reply: Reply;
  if (args.idmp === null) reply = execute(ctx, argv[1], args);
  else {
    const out = executeIdempotent(ctx, argv[1], args, args.idmp);
    if (out.duplicate) return out.reply; // nothing to propagate
    reply = out.reply;
  }
  // a generated ID propagates as the ID itself
  if (typeof reply === 'string' && (args.id === null || args.id.kind === 'auto-seq')) {
    const p = propagationOf(ctx.db);
    if (p !== null) {
      const rewritten = argv.slice();
      rewritten[args.idPos] = reply;
      // without IDMP/IDMPAUTO, which take no explicit ID (a replica would refuse the command):
      // what Redis 8.6 sends its replicas is unconfirmed here (8.8 has XIDMPRECORD for AOF)
      if (args.idmp !== null) rewritten.splice(args.idmp.at, args.idmp.iid === null ? 2 : 3);
      p.rewrite(rewritten);
    }
  }
  return reply;
}

export const specs: CommandSpec[] = [{ name: 'xadd', arity: -5, write: true, run }];
