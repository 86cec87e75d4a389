/**
 * XCFGSET key [IDMP-DURATION seconds] [IDMP-MAXSIZE count]   (Redis 8.6)
 *
 * Sets a stream's IDMP settings (idempotent XADD, see model/idmp.ts): how long an iid is
 * remembered (1–86400 s, default CONFIG stream-idmp-duration, 100) and how many recent iids per
 * producer (1–10000, default CONFIG stream-idmp-maxsize, 100). A value that differs from the
 * current one forgets every producer's iids (`pids-tracked`/`iids-tracked` 0; `iids-added` and
 * `iids-duplicates` stay); the same values again change nothing. Reply: `OK`.
 *
 * Errors, as Redis's stream.tcl (8.6) shows them, each pair read in turn: no parameter →
 * `ERR At least one parameter …`; an unknown word or a word without its value → `ERR syntax
 * error`; a value that is not an integer → `ERR value is not an integer or out of range`; out of
 * range → `ERR IDMP-DURATION must be between …` / `ERR IDMP-MAXSIZE must be between …`; then a
 * missing key → `ERR no such key`, WRONGTYPE. Unconfirmed (no 8.6+ server or source here): the
 * tails of the two range texts and of the no-parameter text, that the arguments are read before
 * the key is looked up, and the keyspace event (`xcfgset`, as XSETID's).
 */
import {
  ERR_NO_SUCH_KEY,
  ERR_SYNTAX,
  ERR_XCFGSET_DURATION_RANGE,
  ERR_XCFGSET_MAXSIZE_RANGE,
  ERR_XCFGSET_NO_PARAMETER,
  fail,
} from '../errors';
import { IDMP_DURATION_MAX, IDMP_MAXSIZE_MAX } from '../model/idmp';
import { OK } from '../reply/reply';
import { int64OrFail, is } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';
import { newIdmpMap } from './xadd';

export interface XcfgsetArgs {
  /** IDMP-DURATION in seconds, or null when not given. */
  duration: number | null;
  /** IDMP-MAXSIZE, or null when not given. */
  maxSize: number | null;
}

/** The parameters, pair by pair (a bad value fails before a later word is read). */
export function parse(argv: string[]): XcfgsetArgs {
  if (argv.length === 2) fail(ERR_XCFGSET_NO_PARAMETER);
  const out: XcfgsetArgs = { duration: null, maxSize: null };
  for (let i = 2; i < argv.length; i += 2) {
    const word = argv[i];
    const hasValue = i + 1 < argv.length;
    if (is(word, 'IDMP-DURATION') && hasValue) {
      const v = int64OrFail(argv[i + 1]);
      if (v < 1n || v > BigInt(IDMP_DURATION_MAX)) fail(ERR_XCFGSET_DURATION_RANGE);
      out.duration = Number(v);
    } else if (is(word, 'IDMP-MAXSIZE') && hasValue) {
      const v = int64OrFail(argv[i + 1]);
      if (v < 1n || v > BigInt(IDMP_MAXSIZE_MAX)) fail(ERR_XCFGSET_MAXSIZE_RANGE);
      out.maxSize = Number(v);
    } else {
      fail(ERR_SYNTAX);
    }
  }
  return out;
}

export function execute(ctx: CommandContext, key: string, args: XcfgsetArgs): Reply {
  const stream = ctx.db.getStream(key);
  if (!stream) fail(ERR_NO_SUCH_KEY);
  const idmp = (stream.idmp ??= newIdmpMap(ctx));
  idmp.configure(args.duration ?? idmp.duration, args.maxSize ?? idmp.maxSize);
  ctx.db.notify('xcfgset', key);
  ctx.db.dirty?.(1);
  return OK;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  return execute(ctx, argv[1], parse(argv));
}

export const specs: CommandSpec[] = [{ name: 'xcfgset', arity: -2, write: true, run }];
