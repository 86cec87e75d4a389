/**
 * XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]
 *
 * Sets the stream's last-generated-id (it may move down, but never below the last live entry,
 * nor, since 7.2, below max-deleted-entry-id), and optionally entries-added and
 * max-deleted-entry-id (a 0-0 MAXDELETEDID leaves it unchanged). Groups are untouched. Reply
 * `OK`; keyspace event `xsetid`. Errors, in order: last-id (strict), options (each needs a value,
 * else syntax error; `entries_added must be positive`; MAXDELETEDID above last-id), `no such key`,
 * WRONGTYPE, then the checks against the stream (t_stream.c `xsetidCommand`; ENTRIESADDED and
 * MAXDELETEDID since 7.0).
 */
import {
  ERR_NO_SUCH_KEY,
  ERR_SYNTAX,
  ERR_XSETID_ENTRIES_ADDED_NEGATIVE,
  ERR_XSETID_ENTRIES_ADDED_SMALL,
  ERR_XSETID_SMALLER_THAN_MAXDEL,
  ERR_XSETID_SMALLER_THAN_PROVIDED_MAXDEL,
  ERR_XSETID_SMALLER_THAN_TOP,
  fail,
} from '../errors';
import { StreamId, compareIds, isZeroId } from '../model/stream-id';
import { supports } from '../version';
import { int64OrFail, is, strictIdOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';
import { OK } from '../reply/reply';

export interface XsetidArgs {
  /** The new last-generated-id. */
  lastId: StreamId;
  ENTRIESADDED: bigint | null;
  MAXDELETEDID: StreamId | null;
}

/** last-id, then the options; all before the key lookup. */
export function parse(argv: string[]): XsetidArgs {
  const lastId = strictIdOrFail(argv[2]);
  let entriesAdded: bigint | null = null;
  let maxDeleted: StreamId | null = null;
  for (let i = 3; i < argv.length; i += 2) {
    const moreargs = argv.length - 1 - i;
    if (is(argv[i], 'ENTRIESADDED') && moreargs) {
      entriesAdded = int64OrFail(argv[i + 1]);
      if (entriesAdded < 0n) fail(ERR_XSETID_ENTRIES_ADDED_NEGATIVE);
    } else if (is(argv[i], 'MAXDELETEDID') && moreargs) {
      maxDeleted = strictIdOrFail(argv[i + 1]);
      if (compareIds(lastId, maxDeleted) < 0) fail(ERR_XSETID_SMALLER_THAN_PROVIDED_MAXDEL);
    } else {
      fail(ERR_SYNTAX);
    }
  }
  return { lastId, ENTRIESADDED: entriesAdded, MAXDELETEDID: maxDeleted };
}

export function execute(ctx: CommandContext, key: string, args: XsetidArgs): Reply {
  const { lastId, ENTRIESADDED: entriesAdded, MAXDELETEDID: maxDeleted } = args;
  const stream = ctx.db.getStream(key);
  if (!stream) fail(ERR_NO_SUCH_KEY);
  if (supports(ctx.version, 'xsetidMaxDeletedCheck') && compareIds(lastId, stream.maxDeletedEntryId) < 0)
    fail(ERR_XSETID_SMALLER_THAN_MAXDEL);
  const top = stream.entries.last();
  if (top) {
    if (compareIds(lastId, top.id) < 0) fail(ERR_XSETID_SMALLER_THAN_TOP);
    if (entriesAdded !== null && BigInt(stream.length) > entriesAdded) fail(ERR_XSETID_ENTRIES_ADDED_SMALL);
  }

  stream.lastId = lastId;
  if (entriesAdded !== null) stream.entriesAdded = entriesAdded;
  if (maxDeleted && !isZeroId(maxDeleted)) stream.maxDeletedEntryId = maxDeleted;
  // No ctx.db.touch: Redis does not signal the key as modified here (7.0.15: a WATCH on the key
  // survives XSETID; 8.x calls keyModified(..., 0), "update LRM without signaling").
  ctx.db.notify('xsetid', key);
  ctx.db.dirty?.(1);
  return OK;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  return execute(ctx, argv[1], parse(argv));
}

export const specs: CommandSpec[] = [{ name: 'xsetid', arity: -3, write: true, run }];
