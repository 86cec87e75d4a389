/**
 * XDELEX key [KEEPREF|DELREF|ACKED] IDS numids id [id ...]
 *
 * Redis 8.2. Deletes entries with control over consumer-group references: KEEPREF (default)
 * deletes like XDEL and leaves PEL references; DELREF first removes the ID from every group PEL
 * (even when the entry itself is already gone); ACKED deletes only entries no group still needs
 * (none has it pending and every group's last-delivered-id is >= it). Deletion raises
 * max-deleted-entry-id and may move the recorded first ID, as XDEL. Reply: one integer per ID,
 * in order: 1 deleted, -1 no such entry, 2 kept because still referenced (ACKED; also for an ID
 * not in the stream that some group has not read yet). A missing key replies all -1 without
 * validating the IDs. Keyspace event `xdel` when something was deleted. Order (t_stream.c
 * `xdelexCommand`): WRONGTYPE, options, missing key, IDs (strict), then the deletions.
 */
import {
  ERR_IDS_REQUIRED,
  ERR_NUMIDS_MISMATCH,
  ERR_NUMIDS_POSITIVE,
  ERR_SYNTAX,
  fail,
} from '../errors';
import type { RefPolicy, Stream } from '../model/stream';
import type { StreamId } from '../model/stream-id';
import { is, parseInt64, strictIdOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';

/** The `[KEEPREF|DELREF|ACKED] IDS numids id...` block of XDELEX/XACKDEL. */
export interface AckDelArgs {
  policy: RefPolicy;
  /** Index in argv of the first ID. */
  startIdx: number;
  numIds: number;
}

/**
 * Redis `streamParseAckDelArgsOrReply` from `startPos` (2 for XDELEX, 3 for XACKDEL): tokens in
 * any order; one policy word at most (a second one is a syntax error); `IDS` needs a value;
 * numids must be an integer >= 1 (`Number of IDs must be a positive integer`) and no more than
 * the arguments left (``The `numids` parameter must match the number of arguments``); parsing
 * resumes after the IDs, so extra IDs are syntax errors and a later IDS block replaces the
 * earlier one; no IDS at all → `IDS option is required`.
 */
export function parseAckDelArgs(argv: string[], startPos: number): AckDelArgs {
  let policy: RefPolicy | null = null;
  let startIdx = -1;
  let numIds = 0;
  let j = startPos;
  while (j < argv.length) {
    const opt = argv[j];
    if (policy === null && (is(opt, 'KEEPREF') || is(opt, 'DELREF') || is(opt, 'ACKED'))) {
      policy = opt.toLowerCase() as RefPolicy;
      j++;
    } else if (is(opt, 'IDS') && j + 1 < argv.length) {
      const n = parseInt64(argv[j + 1]);
      if (n === null || n < 1n) fail(ERR_NUMIDS_POSITIVE);
      if (n > BigInt(argv.length - j - 2)) fail(ERR_NUMIDS_MISMATCH);
      numIds = Number(n);
      startIdx = j + 2;
      j = startIdx + numIds;
    } else {
      fail(ERR_SYNTAX);
    }
  }
  if (startIdx === -1) fail(ERR_IDS_REQUIRED);
  return { policy: policy ?? 'keepref', startIdx, numIds };
}

/** The IDs of the IDS block (strict); the invalid-ID error for the first bad one. */
export function parseIds(argv: string[], args: AckDelArgs): StreamId[] {
  return argv.slice(args.startIdx, args.startIdx + args.numIds).map((a) => strictIdOrFail(a));
}

/** One reply code per ID: 1 deleted, -1 not in the stream, 2 still referenced (ACKED). */
export function execute(ctx: CommandContext, key: string, stream: Stream, policy: RefPolicy, ids: StreamId[]): Reply {
  const out: Reply[] = [];
  let deleted = 0;
  for (const id of ids) {
    if (policy === 'acked' && !stream.isAckedByAllGroups(id)) {
      out.push(2);
      continue;
    }
    if (policy === 'delref') stream.removeReferences(id);
    if (stream.deleteEntry(id)) {
      deleted++;
      out.push(1);
    } else {
      out.push(-1);
    }
  }
  if (deleted) {
    ctx.db.touch(key);
    ctx.db.notify('xdel', key);
    ctx.db.dirty?.(deleted); // as XDEL (assumed for 8.2's XDELEX)
  }
  return out;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  // Redis checks the key's type before parsing the options, and skips ID validation when the
  // key is missing.
  const stream = ctx.db.getStream(key);
  const args = parseAckDelArgs(argv, 2);
  if (!stream) return new Array<Reply>(args.numIds).fill(-1);
  return execute(ctx, key, stream, args.policy, parseIds(argv, args));
}

export const specs: CommandSpec[] = [{ name: 'xdelex', arity: -5, write: true, run }];
