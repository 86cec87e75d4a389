/**
 * XLEN key
 *
 * Reply: integer, the number of live entries (0 for a missing key; deleted and trimmed entries
 * are not counted). Errors: WRONGTYPE (t_stream.c `xlenCommand`).
 */
import type { CommandContext, CommandSpec, Reply } from './types';

function xlen(ctx: CommandContext, argv: string[]): Reply {
  const stream = ctx.db.readStream(argv[1]); // lookupKeyReadOrReply
  return stream?.length ?? 0;
}

export const specs: CommandSpec[] = [{ name: 'xlen', arity: 2, write: false, run: xlen }];
