/**
 * The range commands of t_zset.c (zrangeGenericCommand, zremrangeGenericCommand, zcountCommand,
 * zlexcountCommand):
 *   ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
 *   ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]
 *   ZREVRANGE key start stop [WITHSCORES]
 *   ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count] · ZREVRANGEBYSCORE key max min …
 *   ZRANGEBYLEX key min max [LIMIT offset count] · ZREVRANGEBYLEX key max min [LIMIT …]
 *   ZREMRANGEBYRANK key start stop · ZREMRANGEBYSCORE key min max · ZREMRANGEBYLEX key min max
 *   ZCOUNT key min max · ZLEXCOUNT key min max
 *
 * Errors in Redis's order: options (`ERR syntax error`; LIMIT's integers `ERR value is not an
 * integer or out of range`), `ERR syntax error, LIMIT is only supported in combination with
 * either BYSCORE or BYLEX`, `ERR syntax error, WITHSCORES not supported in combination with
 * BYLEX`, the range (`ERR value is not an integer or out of range`, `ERR min or max is not a
 * float`, `ERR min or max not valid string range item`), then WRONGTYPE. REV (and the ZREV…
 * forms) take the score and lex ranges as max, min. Ranks: negative counts from the end;
 * LIMIT: a negative offset (or one past the end) selects nothing (but see `limited` for 8.0's
 * skiplists), a negative count everything.
 * Replies: members, with WITHSCORES `[member, score]` pairs (PairsReply: RESP2 flat, RESP3
 * nested). ZRANGESTORE stores the selection (event `zrangestore`) or, when empty, deletes the
 * destination (event `del`), replying the count. ZREMRANGEBY… reply the count removed (events
 * `zremrangebyrank|score|lex`, `del` when the key goes; dirty += removed).
 */
import { ERR_SYNTAX, fail } from '../errors';
import type { ZsetEntry } from '../model/zset';
import type { Reply } from '../reply/reply';
import { int64OrFail, is } from './args';
import { clampLong, createZset, entriesReply, ERR_MIN_MAX_NOT_FLOAT, ERR_MIN_MAX_NOT_LEX, getZset, lexRangeRanks, lexRangeReachable, limitsOf, listpackLexWalk, parseLexBound, parseScoreBound, readZset, scoreRangeRanks, type LexBound, type ScoreBound, zsetSet } from './zset-common';
import type { CommandContext, CommandSpec } from './types';
import type { RedisZset } from '../model/zset';
import { predates, type RedisVersion } from '../version';

type RangeType = 'auto' | 'rank' | 'score' | 'lex';
type Direction = 'auto' | 'forward' | 'reverse';

function scoreBoundOrFail(s: string, version: RedisVersion): ScoreBound {
  return parseScoreBound(s, version) ?? fail(ERR_MIN_MAX_NOT_FLOAT);
}

function lexBoundOrFail(s: string): LexBound {
  return parseLexBound(s) ?? fail(ERR_MIN_MAX_NOT_LEX);
}

/** Ascending ranks [from, to] (inclusive) of a rank range `start stop` over `llen` members, or null. */
function rankWindow(start: number, end: number, llen: number): [number, number] | null {
  if (start < 0) start = llen + start;
  if (end < 0) end = llen + end;
  if (start < 0) start = 0;
  if (start > end || start >= llen) return null;
  if (end >= llen) end = llen - 1;
  return [start, end];
}

/**
 * The entries of ascending ranks [start, end) after LIMIT, in the direction asked. A negative
 * offset selects nothing (Redis steps `offset--` times), except for a score or lex range of a
 * skiplist from 8.0 on (`negativeFromEnd`): zslNthInRange / zslNthInLexRange then takes a negative n from the far end —
 * forward, offset -k starts at the k-th member from the end of the range; REV, offset -k starts
 * at the k-th from its low end and walks down (checked on the post-7.4 build: ZRANGEBYSCORE z
 * -inf +inf LIMIT -1 2 → the last member; ZREVRANGEBYSCORE z +inf -inf LIMIT -1 2 → the first).
 */
function limited(z: RedisZset, start: number, end: number, offset: number, limit: number, reverse: boolean, negativeFromEnd: boolean): ZsetEntry[] {
  if (end <= start) return [];
  if (offset > 0 && offset >= z.size) return [];
  let first: number; // ascending rank of the first member emitted
  if (offset >= 0) first = reverse ? end - 1 - offset : start + offset;
  else if (!negativeFromEnd) return [];
  else first = reverse ? start - offset - 1 : end + offset;
  if (first < start || first >= end) return [];
  let take = reverse ? first - start + 1 : end - first;
  if (limit >= 0 && limit < take) take = limit;
  if (take <= 0) return [];
  return reverse ? [...z.range(first - take + 1, first, true)] : [...z.range(first, first + take - 1)];
}

/**
 * ZRANGE and its forms. `argStart` is the index of the source key; `dst` the ZRANGESTORE
 * destination (undefined for a client reply).
 */
function zrangeGeneric(ctx: CommandContext, argv: string[], argStart: number, dst: string | undefined, rangeType: RangeType, direction: Direction): Reply {
  const store = dst !== undefined;
  const key = argv[argStart];
  let minIdx = argStart + 1;
  let maxIdx = argStart + 2;
  let withScores = false;
  let offset = 0;
  let limit = -1;
  for (let j = argStart + 3; j < argv.length; j++) {
    const left = argv.length - j - 1;
    const a = argv[j];
    if (!store && is(a, 'WITHSCORES')) withScores = true;
    else if (is(a, 'LIMIT') && left >= 2) {
      offset = clampLong(int64OrFail(argv[j + 1]));
      limit = clampLong(int64OrFail(argv[j + 2]));
      j += 2;
    } else if (direction === 'auto' && is(a, 'REV')) direction = 'reverse';
    else if (rangeType === 'auto' && is(a, 'BYLEX')) rangeType = 'lex';
    else if (rangeType === 'auto' && is(a, 'BYSCORE')) rangeType = 'score';
    else fail(ERR_SYNTAX);
  }
  if (direction === 'auto') direction = 'forward';
  if (rangeType === 'auto') rangeType = 'rank';
  if (limit !== -1 && rangeType === 'rank') fail('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  if (withScores && rangeType === 'lex') fail('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  const reverse = direction === 'reverse';
  if (reverse && rangeType !== 'rank') [minIdx, maxIdx] = [maxIdx, minIdx];

  let select: (z: RedisZset) => ZsetEntry[];
  let knownLength = false;
  if (rangeType === 'rank') {
    const start = clampLong(int64OrFail(argv[minIdx]));
    const end = clampLong(int64OrFail(argv[maxIdx]));
    knownLength = true;
    select = (z) => {
      const w = rankWindow(start, end, z.size);
      if (!w) return [];
      const [from, to] = reverse ? [z.size - 1 - w[1], z.size - 1 - w[0]] : w;
      return [...z.range(from, to, reverse)];
    };
  } else if (rangeType === 'score') {
    const min = scoreBoundOrFail(argv[minIdx], ctx.version);
    const max = scoreBoundOrFail(argv[maxIdx], ctx.version);
    select = (z) => {
      const [s, e] = scoreRangeRanks(z, min, max);
      return limited(z, s, e, offset, limit, reverse, !z.listpack && !predates(ctx.version, '8.0'));
    };
  } else {
    const min = lexBoundOrFail(argv[minIdx]);
    const max = lexBoundOrFail(argv[maxIdx]);
    select = (z) => {
      if (z.listpack) return listpackLexWalk(z, min, max, reverse, offset, limit).map((r) => z.at(r)!);
      if (!lexRangeReachable(z, min, max)) return []; // zslNthInLexRange's zslIsInLexRange
      const [s, e] = lexRangeRanks(z, min, max);
      return limited(z, s, e, offset, limit, reverse, !predates(ctx.version, '8.0'));
    };
  }

  const z = readZset(ctx.db, key);
  const picked = z === undefined ? [] : select(z);
  if (!store) return entriesReply(picked, withScores, ctx.version);

  const db = ctx.db;
  if (picked.length > 0) {
    const out = createZset(ctx, knownLength ? picked.length : 0, 0);
    const limits = limitsOf(db);
    for (const [m, s] of picked) zsetSet(out, m, s, limits);
    const isNew = db.lookup(dst, true) === undefined;
    db.store(dst, out);
    if (isNew) db.notifyEvent('n', 'new', dst); // setKey → dbAdd
    db.notifyEvent('z', 'zrangestore', dst);
    db.dirty?.(1);
    return picked.length;
  }
  if (db.remove(dst)) {
    db.notifyEvent('g', 'del', dst);
    db.dirty?.(1);
  }
  return 0;
}

function zremrangeGeneric(ctx: CommandContext, argv: string[], rangeType: 'rank' | 'score' | 'lex'): Reply {
  const key = argv[1];
  let window: (z: RedisZset) => [number, number] | null;
  if (rangeType === 'rank') {
    const start = clampLong(int64OrFail(argv[2]));
    const end = clampLong(int64OrFail(argv[3]));
    window = (z) => rankWindow(start, end, z.size);
  } else if (rangeType === 'score') {
    const min = scoreBoundOrFail(argv[2], ctx.version);
    const max = scoreBoundOrFail(argv[3], ctx.version);
    window = (z) => {
      const [s, e] = scoreRangeRanks(z, min, max);
      return e > s ? [s, e - 1] : null;
    };
  } else {
    const min = lexBoundOrFail(argv[2]);
    const max = lexBoundOrFail(argv[3]);
    window = (z) => {
      if (z.listpack) {
        const ranks = listpackLexWalk(z, min, max, false);
        return ranks.length > 0 ? [ranks[0], ranks[ranks.length - 1]] : null;
      }
      const [s, e] = lexRangeRanks(z, min, max);
      return e > s ? [s, e - 1] : null;
    };
  }
  const z = getZset(ctx.db, key);
  if (z === undefined) return 0;
  const w = window(z);
  if (!w) return 0;
  const gone = [...z.range(w[0], w[1])];
  for (const [m] of gone) z.delete(m);
  const db = ctx.db;
  if (gone.length > 0) {
    const removed = z.size === 0;
    if (removed) db.remove(key);
    else db.touch(key);
    db.notifyEvent('z', `zremrangeby${rangeType}`, key);
    if (removed) db.notifyEvent('g', 'del', key);
    db.dirty?.(gone.length);
  }
  return gone.length;
}

function zcount(ctx: CommandContext, argv: string[]): Reply {
  const min = scoreBoundOrFail(argv[2], ctx.version);
  const max = scoreBoundOrFail(argv[3], ctx.version);
  const z = readZset(ctx.db, argv[1]);
  if (z === undefined) return 0;
  const [s, e] = scoreRangeRanks(z, min, max);
  return e > s ? e - s : 0;
}

function zlexcount(ctx: CommandContext, argv: string[]): Reply {
  const min = lexBoundOrFail(argv[2]);
  const max = lexBoundOrFail(argv[3]);
  const z = readZset(ctx.db, argv[1]);
  if (z === undefined) return 0;
  if (z.listpack) return listpackLexWalk(z, min, max, false).length;
  if (!lexRangeReachable(z, min, max)) return 0; // zslFirstInLexRange's zslIsInLexRange
  const [s, e] = lexRangeRanks(z, min, max);
  return e > s ? e - s : 0;
}

export const specs: CommandSpec[] = [
  { name: 'zrange', arity: -4, write: false, run: (ctx, argv) => zrangeGeneric(ctx, argv, 1, undefined, 'auto', 'auto') },
  { name: 'zrangestore', arity: -5, write: true, run: (ctx, argv) => zrangeGeneric(ctx, argv, 2, argv[1], 'auto', 'auto') },
  { name: 'zrevrange', arity: -4, write: false, run: (ctx, argv) => zrangeGeneric(ctx, argv, 1, undefined, 'rank', 'reverse') },
  { name: 'zrangebyscore', arity: -4, write: false, run: (ctx, argv) => zrangeGeneric(ctx, argv, 1, undefined, 'score', 'forward') },
  { name: 'zrevrangebyscore', arity: -4, write: false, run: (ctx, argv) => zrangeGeneric(ctx, argv, 1, undefined, 'score', 'reverse') },
  { name: 'zrangebylex', arity: -4, write: false, run: (ctx, argv) => zrangeGeneric(ctx, argv, 1, undefined, 'lex', 'forward') },
  { name: 'zrevrangebylex', arity: -4, write: false, run: (ctx, argv) => zrangeGeneric(ctx, argv, 1, undefined, 'lex', 'reverse') },
  { name: 'zremrangebyrank', arity: 4, write: true, run: (ctx, argv) => zremrangeGeneric(ctx, argv, 'rank') },
  { name: 'zremrangebyscore', arity: 4, write: true, run: (ctx, argv) => zremrangeGeneric(ctx, argv, 'score') },
  { name: 'zremrangebylex', arity: 4, write: true, run: (ctx, argv) => zremrangeGeneric(ctx, argv, 'lex') },
  { name: 'zcount', arity: 4, write: false, run: zcount },
  { name: 'zlexcount', arity: 4, write: false, run: zlexcount },
];
