/**
 * XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count] [KEEPREF|DELREF|ACKED]
 *
 * Removes the oldest entries: exactly (`=`/default) down to MAXLEN entries or below the MINID
 * ID, or approximately (`~`: whole 100-entry nodes only, at most LIMIT entries of work, default
 * 10000, 0 = unlimited). Redis 8.2 policies: KEEPREF (default) leaves PEL references, DELREF also
 * removes the trimmed IDs from every group PEL, ACKED only removes entries no group still needs.
 * Trimming never changes max-deleted-entry-id or last-generated-id. Reply: integer, entries
 * removed (0 for a missing key). Keyspace event `xtrim` when something was removed. Errors: the
 * option errors of trim-args (checked before the key), then WRONGTYPE (t_stream.c `xtrimCommand`).
 */
import type { TrimStrategy } from '../model/stream';
import type { RedisVersion } from '../version';
import { AddOrTrimArgs, parseAddOrTrimArgs, trimLimit } from './trim-args';
import type { CommandContext, CommandSpec, Reply } from './types';

export interface XtrimArgs extends AddOrTrimArgs {
  strategy: TrimStrategy;
}

/** All option errors; XTRIM always has a strategy after a successful parse. */
export function parse(argv: string[], version: RedisVersion): XtrimArgs {
  return parseAddOrTrimArgs(argv, false, version) as XtrimArgs;
}

export function execute(ctx: CommandContext, key: string, args: XtrimArgs): Reply {
  const stream = ctx.db.getStream(key);
  if (!stream) return 0;
  const removed = stream.trim({ strategy: args.strategy, approx: args.approx, limit: trimLimit(args, stream), policy: args.policy });
  if (removed.length) {
    ctx.db.touch(key);
    ctx.db.notify('xtrim', key);
    ctx.db.dirty?.(removed.length);
  }
  return removed.length;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  return execute(ctx, argv[1], parse(argv, ctx.version));
}

export const specs: CommandSpec[] = [{ name: 'xtrim', arity: -4, write: true, run }];
