/**
 * ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member …] · ZINCRBY key increment
 * member · ZREM key member [member …]
 *
 * As t_zset.c zaddGenericCommand / zsetAdd / zremCommand run them:
 * - ZADD options in any order before the first score (case-insensitive); then, in this order:
 *   an odd or empty list of pairs `ERR syntax error`; `ERR XX and NX options at the same time
 *   are not compatible`; `ERR GT, LT, and/or NX options at the same time are not compatible`;
 *   `ERR INCR option supports a single increment-element pair`; every score parsed before
 *   anything changes (`ERR value is not a valid float`); WRONGTYPE.
 * - XX on a missing key creates nothing. NX skips existing members, XX new ones; GT/LT update an
 *   existing member only to a greater/lower score (new members are still added). INCR (and
 *   ZINCRBY) adds the increment to the current score (0 for a new member); a NaN result
 *   (`inf` + `-inf`) is `ERR resulting score is not a number (NaN)` — members processed before
 *   it stay changed, as in Redis.
 * - Replies: the number of members added (CH: added or whose score changed); with INCR the new
 *   score as a double, or nil when NX/XX/GT/LT skipped the member.
 * - Events: `zadd` (or `zincr` with INCR/ZINCRBY) when a member was added or changed; ZREM `zrem`
 *   then `del` when the key went away. INFO's dirty counter: members added + updated (ZADD),
 *   members removed (ZREM).
 */
import { ERR_SYNTAX, fail } from '../errors';
import type { Reply } from '../reply/reply';
import { predates } from '../version';
import { is } from './args';
import { ERR_NAN_SCORE, createZset, getZset, limitsOf, scoreOrFail, scoreReply, zsetSet } from './zset-common';
import type { CommandContext, CommandSpec } from './types';

interface ZaddFlags {
  nx: boolean;
  xx: boolean;
  gt: boolean;
  lt: boolean;
  ch: boolean;
  incr: boolean;
}

function zaddGeneric(ctx: CommandContext, argv: string[], incrCommand: boolean): Reply {
  const key = argv[1];
  const f: ZaddFlags = { nx: false, xx: false, gt: false, lt: false, ch: false, incr: incrCommand };
  let scoreIdx = 2;
  if (!incrCommand) {
    for (; scoreIdx < argv.length; scoreIdx++) {
      const opt = argv[scoreIdx];
      if (is(opt, 'NX')) f.nx = true;
      else if (is(opt, 'XX')) f.xx = true;
      else if (is(opt, 'CH')) f.ch = true;
      else if (is(opt, 'INCR')) f.incr = true;
      else if (is(opt, 'GT')) f.gt = true;
      else if (is(opt, 'LT')) f.lt = true;
      else break;
    }
  }
  const rest = argv.length - scoreIdx;
  if (rest % 2 !== 0 || rest === 0) fail(ERR_SYNTAX);
  const elements = rest / 2;
  if (f.nx && f.xx) fail('ERR XX and NX options at the same time are not compatible');
  if ((f.gt && f.nx) || (f.lt && f.nx) || (f.gt && f.lt)) fail('ERR GT, LT, and/or NX options at the same time are not compatible');
  if (f.incr && elements > 1) fail('ERR INCR option supports a single increment-element pair');
  const scores = new Array<number>(elements);
  for (let j = 0; j < elements; j++) scores[j] = scoreOrFail(argv[scoreIdx + j * 2], ctx.version);

  const db = ctx.db;
  let z = getZset(db, key);
  let added = 0;
  let updated = 0;
  let processed = 0;
  let lastScore = 0;
  if (z === undefined) {
    if (f.xx) return f.incr ? null : 0;
    z = createZset(ctx, elements, argv[scoreIdx + 1].length);
    db.store(key, z);
    db.notifyEvent('n', 'new', key); // dbAdd
  } else if (z.listpack && elements > limitsOf(db).zsetMaxListpackEntries && !predates(ctx.version, '7.2')) {
    z.listpack = false; // zsetTypeMaybeConvert (7.2+)
  }
  const limits = limitsOf(db);
  let error: string | undefined;
  for (let j = 0; j < elements; j++) {
    const member = argv[scoreIdx + 1 + j * 2];
    let score = scores[j];
    const cur = z.score(member);
    if (cur !== undefined) {
      if (f.nx) continue;
      if (f.incr) {
        score += cur;
        if (Number.isNaN(score)) {
          error = ERR_NAN_SCORE;
          break;
        }
      }
      if ((f.lt && score >= cur) || (f.gt && score <= cur)) continue;
      lastScore = score;
      processed++;
      if (score !== cur) {
        z.set(member, score);
        updated++;
      }
    } else if (!f.xx) {
      zsetSet(z, member, score, limits);
      lastScore = score;
      added++;
      processed++;
    }
  }
  if (added + updated > 0) {
    db.dirty?.(added + updated);
    db.touch(key);
    db.notifyEvent('z', f.incr ? 'zincr' : 'zadd', key);
  }
  if (error !== undefined) fail(error);
  if (f.incr) return processed > 0 ? scoreReply(lastScore, ctx.version) : null;
  return f.ch ? added + updated : added;
}

function zrem(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const z = getZset(ctx.db, key);
  if (z === undefined) return 0;
  let deleted = 0;
  let keyRemoved = false;
  for (let j = 2; j < argv.length; j++) {
    if (z.delete(argv[j])) deleted++;
    if (z.size === 0) {
      ctx.db.remove(key);
      keyRemoved = true;
      break;
    }
  }
  if (deleted > 0) {
    ctx.db.notifyEvent('z', 'zrem', key);
    if (keyRemoved) ctx.db.notifyEvent('g', 'del', key);
    else ctx.db.touch(key);
    ctx.db.dirty?.(deleted);
  }
  return deleted;
}

export const specs: CommandSpec[] = [
  { name: 'zadd', arity: -4, write: true, run: (ctx, argv) => zaddGeneric(ctx, argv, false) },
  { name: 'zincrby', arity: 4, write: true, run: (ctx, argv) => zaddGeneric(ctx, argv, true) },
  { name: 'zrem', arity: -3, write: true, run: zrem },
];
