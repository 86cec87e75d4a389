/**
 * XDEL key id [id ...]
 *
 * Deletes entries by ID. A missing key replies 0 without validating the IDs; otherwise every ID
 * is parsed (strictly) before anything is deleted, so one bad ID deletes nothing. Each deleted
 * entry raises max-deleted-entry-id and may move the recorded first ID; PEL references are left
 * alone and the key stays even when the stream becomes empty. Reply: integer, entries deleted
 * (repeats count once). Keyspace event `xdel` when something was deleted. Order (t_stream.c
 * `xdelCommand`): missing key, WRONGTYPE, IDs.
 */
import type { Stream } from '../model/stream';
import type { StreamId } from '../model/stream-id';
import { strictIdOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';

/** The IDs (strict); the invalid-ID error for the first bad one. */
export function parse(argv: string[]): StreamId[] {
  return argv.slice(2).map((a) => strictIdOrFail(a));
}

export function execute(ctx: CommandContext, key: string, stream: Stream, ids: StreamId[]): Reply {
  let deleted = 0;
  for (const id of ids) if (stream.deleteEntry(id)) deleted++;
  if (deleted) {
    ctx.db.touch(key);
    ctx.db.notify('xdel', key);
    ctx.db.dirty?.(deleted);
  }
  return deleted;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  // Redis looks the key up before parsing the IDs.
  const stream = ctx.db.getStream(key);
  if (!stream) return 0;
  return execute(ctx, key, stream, parse(argv));
}

export const specs: CommandSpec[] = [{ name: 'xdel', arity: -3, write: true, run }];
