/**
 * XACK key group id [id ...]
 *
 * Acknowledges pending entries (t_stream.c `xackCommand`, Redis 5.0): each ID found in the
 * group PEL leaves it and its owner's PEL (Redis 8.8: released, unowned entries too). The stream
 * entries themselves are not touched, and whether they still exist does not matter. Reply:
 * integer, the number of IDs acknowledged (a repeated ID counts once).
 * Order (checked on redis-server 7.0.15): WRONGTYPE; a missing key or group answers 0 without
 * looking at the IDs; then every ID is parsed strictly before anything is acknowledged (one bad
 * ID → `ERR Invalid stream ID specified as stream command argument` and nothing changes).
 * No keyspace event, and like Redis it does not dirty WATCH.
 */
import type { ConsumerGroup } from '../model/consumer-group';
import { StreamId, lastFormattedId } from '../model/stream-id';
import { strictIdOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';

/** Parse the IDs (argv[3…]) strictly; throws on the first invalid one. */
export function parse(argv: string[]): StreamId[] {
  const ids = new Array<StreamId>(argv.length - 3);
  for (let i = 3; i < argv.length; i++) ids[i - 3] = lastFormattedId(argv[i]) ?? strictIdOrFail(argv[i]);
  return ids;
}

/** Remove each ID from the group PEL; returns how many were pending. */
export function execute(group: ConsumerGroup, ids: readonly StreamId[]): number {
  let acknowledged = 0;
  for (let i = 0; i < ids.length; i++) {
    const pe = group.pel.get(ids[i]);
    if (!pe) continue;
    group.removePending(pe);
    acknowledged++;
  }
  return acknowledged;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const stream = ctx.db.readStream(argv[1]); // lookupKeyRead
  const group = stream?.groups.get(argv[2]);
  if (!group) return 0;
  const acknowledged = execute(group, parse(argv));
  ctx.db.dirty?.(acknowledged); // one per acknowledged entry (t_stream.c xackCommand)
  return acknowledged;
}

export const specs: CommandSpec[] = [{ name: 'xack', arity: -4, write: true, run }];
