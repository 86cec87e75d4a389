/**
 * XRANGE key start end [COUNT count]
 * XREVRANGE key end start [COUNT count]
 *
 * Live entries with start <= ID <= end, ascending (XRANGE) or descending (XREVRANGE), at most
 * COUNT. Bounds: `-`, `+`, `ms` (seq 0 as start, 2^64-1 as end), `ms-seq`, or `(id` exclusive
 * (6.2+). Reply: array of `[id, [field, value, ...]]`; a missing key gives an empty array (the
 * key lookup comes before the COUNT 0 check); COUNT 0 or negative gives a nil array. Errors, in
 * order: start ID, end ID (`invalid start/end ID for the interval` when an exclusive bound cannot
 * move), COUNT syntax/integer, WRONGTYPE (t_stream.c `xrangeGenericCommand`).
 */
import { ERR_SYNTAX, fail } from '../errors';
import type { StreamEntry } from '../model/stream-entries';
import { StreamId, formatId } from '../model/stream-id';
import { int64OrFail, is, rangeBoundOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';
import { NIL_ARRAY } from '../reply/reply';

/** An entry as XRANGE/XREAD/XCLAIM reply it: `[id, [f1, v1, ...]]`. */
export function entryReply(e: StreamEntry): Reply {
  return [formatId(e.id), [...e.fields]];
}

export interface XrangeArgs {
  /** Lowest ID to return (exclusive bounds already moved inward). */
  start: StreamId;
  /** Highest ID to return. */
  end: StreamId;
  /** Entries at most; null = no COUNT; 0 = COUNT 0 or negative (nil-array reply). */
  COUNT: bigint | null;
}

/** Bounds then COUNT pairs (repeatable, the last wins); `rev` reads `end start` (XREVRANGE). */
export function parse(argv: string[], rev: boolean): XrangeArgs {
  const start = rangeBoundOrFail(rev ? argv[3] : argv[2], 'start');
  const end = rangeBoundOrFail(rev ? argv[2] : argv[3], 'end');
  let count: bigint | null = null;
  for (let j = 4; j < argv.length; j++) {
    if (is(argv[j], 'COUNT') && argv.length - j - 1 >= 1) {
      count = int64OrFail(argv[j + 1]);
      if (count < 0n) count = 0n;
      j++;
    } else {
      fail(ERR_SYNTAX);
    }
  }
  return { start, end, COUNT: count };
}

export function execute(ctx: CommandContext, key: string, args: XrangeArgs, rev: boolean): Reply {
  const stream = ctx.db.readStream(key); // lookupKeyReadOrReply
  if (!stream) return [];
  if (args.COUNT === 0n) return NIL_ARRAY;
  const limit = args.COUNT === null || args.COUNT > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(args.COUNT);
  const out: Reply[] = [];
  const visit = (id: StreamId, fields: readonly string[]) => {
    out.push([formatId(id), fields.slice()]);
    return out.length < limit;
  };
  if (rev) stream.entries.forEachReverse(args.end, args.start, visit);
  else stream.entries.forEach(args.start, args.end, visit);
  return out;
}

export const specs: CommandSpec[] = [
  { name: 'xrange', arity: -4, write: false, run: (ctx, argv) => execute(ctx, argv[1], parse(argv, false), false) },
  { name: 'xrevrange', arity: -4, write: false, run: (ctx, argv) => execute(ctx, argv[1], parse(argv, true), true) },
];
