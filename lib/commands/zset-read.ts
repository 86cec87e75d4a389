/**
 * The sorted-set reads of t_zset.c: ZCARD key · ZSCORE key member · ZMSCORE key member [member …]
 * · ZRANK / ZREVRANK key member [WITHSCORE] · ZRANDMEMBER key [count [WITHSCORES]] · ZSCAN key
 * cursor [MATCH pattern] [COUNT count].
 *
 * - Scores are doubles (RESP3 `,`; RESP2 bulk strings) printed as the emulated version prints
 *   them (./zset-common.ts scoreText); ZSCAN's are bulk strings of the stored text.
 * - ZRANK/ZREVRANK: 0-based rank or nil; WITHSCORE (7.2+) `[rank, score]` or the nil array.
 *   7.0 takes exactly one member (`ERR wrong number of arguments for 'zrank' command`).
 * - ZRANDMEMBER count (object.c getRangeLongFromObjectOrReply, -LONG_MAX … LONG_MAX): positive
 *   = distinct members (all of them, highest score first, when count ≥ ZCARD), negative = |count| members
 *   drawn with repetition; WITHSCORES with |count| > LONG_MAX/2 is `ERR value is out of range`.
 *   A repeated draw of more than MAX_RANDOM_REPLY members (Redis would stream them until the
 *   client's output buffer fails) throws a StreamsMockError instead of exhausting memory.
 * - ZSCAN: `ERR invalid cursor` (string2ull) before the key is looked up; a missing key answers
 *   `0` and no members before the options are read; COUNT < 1 is `ERR syntax error`; NOVALUES
 *   is `ERR NOVALUES option can only be used in HSCAN` (7.4+; a syntax error before). A listpack
 *   answers every member at once (cursor 0, as Redis); a skiplist pages COUNT members (default
 *   10) in score order, the cursor being the next rank — members added or removed during a scan
 *   may shift a page (Redis's hash-table cursor guarantees more).
 */
import { StreamsMockError } from '../clock/clock';
import { ERR_SYNTAX, errWrongArity, fail } from '../errors';
import type { ZsetEntry } from '../model/zset';
import { globMatch } from '../bytes/glob';
import { NIL_ARRAY, type Reply } from '../reply/reply';
import { predates } from '../version';
import { INT64_MAX, is, parseInt64 } from './args';
import { entriesReply, readZset, scanScoreText, scoreReply } from './zset-common';
import type { CommandContext, CommandSpec } from './types';
import { parseScanCursor, parseScanOptions } from './scan-args';

/** Largest ZRANDMEMBER reply with repetitions built (members). */
export const MAX_RANDOM_REPLY = 1 << 24;

function zcard(ctx: CommandContext, argv: string[]): Reply {
  return readZset(ctx.db, argv[1])?.size ?? 0;
}

function zscore(ctx: CommandContext, argv: string[]): Reply {
  const s = readZset(ctx.db, argv[1])?.score(argv[2]);
  return s === undefined ? null : scoreReply(s, ctx.version);
}

function zmscore(ctx: CommandContext, argv: string[]): Reply {
  const z = readZset(ctx.db, argv[1]);
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) {
    const s = z?.score(argv[j]);
    out.push(s === undefined ? null : scoreReply(s, ctx.version));
  }
  return out;
}

function zrankGeneric(ctx: CommandContext, argv: string[], reverse: boolean): Reply {
  const name = reverse ? 'zrevrank' : 'zrank';
  if (argv.length > 4 || (argv.length > 3 && predates(ctx.version, '7.2'))) fail(errWrongArity(name));
  let withScore = false;
  if (argv.length > 3) {
    if (is(argv[3], 'WITHSCORE')) withScore = true;
    else fail(ERR_SYNTAX);
  }
  const z = readZset(ctx.db, argv[1]);
  const rank = z?.rank(argv[2], reverse);
  if (z === undefined || rank === undefined) return withScore ? NIL_ARRAY : null;
  return withScore ? [rank, scoreReply(z.score(argv[2]) as number, ctx.version)] : rank;
}

const LONG_MAX = INT64_MAX;

function randomIndex(n: number): number {
  return Math.floor(Math.random() * n);
}

function zrandmember(ctx: CommandContext, argv: string[]): Reply {
  if (argv.length < 3) {
    const z = readZset(ctx.db, argv[1]);
    if (z === undefined) return null;
    return (z.at(randomIndex(z.size)) as ZsetEntry)[0];
  }
  const l = parseInt64(argv[2]);
  if (l === null) fail('ERR value is not an integer or out of range');
  if (l < -LONG_MAX) fail(`ERR value is out of range, value must between ${-LONG_MAX} and ${LONG_MAX}`);
  let withScores = false;
  if (argv.length > 4 || (argv.length === 4 && !is(argv[3], 'WITHSCORES'))) fail(ERR_SYNTAX);
  if (argv.length === 4) {
    withScores = true;
    if (l < -LONG_MAX / 2n || l > LONG_MAX / 2n) fail('ERR value is out of range');
  }
  const z = readZset(ctx.db, argv[1]);
  if (z === undefined) return [];
  if (l === 0n) return [];
  const size = z.size;
  const picked: ZsetEntry[] = [];
  if (l < 0n || l === 1n) {
    const count = l < 0n ? -l : 1n;
    if (count > BigInt(MAX_RANDOM_REPLY)) {
      throw new StreamsMockError(`ZRANDMEMBER with a count of ${count} repeated members: the fake builds at most ${MAX_RANDOM_REPLY} (Redis would stream them until memory runs out)`);
    }
    for (let i = 0; i < Number(count); i++) picked.push(z.at(randomIndex(size)) as ZsetEntry);
    return entriesReply(picked, withScores, ctx.version);
  }
  const count = Number(l > BigInt(size) ? BigInt(size) : l);
  // every member: zuiNext walks from the tail, so the highest comes first (checked on both servers)
  if (count >= size) return entriesReply(z.range(0, size - 1, true), withScores, ctx.version);
  // distinct members: choose `count` ranks (Floyd's algorithm)
  const ranks = new Set<number>();
  for (let j = size - count; j < size; j++) {
    const t = randomIndex(j + 1);
    ranks.add(ranks.has(t) ? j : t);
  }
  let order = [...ranks];
  if (z.listpack) order = order.sort((a, b) => a - b); // lpRandomPairsUnique keeps listpack order
  for (const r of order) picked.push(z.at(r) as ZsetEntry);
  return entriesReply(picked, withScores, ctx.version);
}

/**
 * ZSCAN key cursor [MATCH pattern] [COUNT count]. A listpack answers every member in one call
 * (cursor 0), as Redis. A skiplist is walked by insertion slot (RedisZset.scan), not by rank: a
 * member added or removed with a lower score would shift the ranks and make an iteration skip
 * or repeat members. Members added during an iteration are not returned by it.
 */
function zscan(ctx: CommandContext, argv: string[]): Reply {
  const cursor = parseScanCursor(argv[2], ctx.version);
  const z = readZset(ctx.db, argv[1]);
  if (z === undefined) return ['0', []];
  const { count, pattern } = parseScanOptions(argv, 3, ctx.version, 'zset');
  let page: Iterable<ZsetEntry>;
  let next = 0;
  if (z.listpack) page = z.entries();
  else {
    const step = z.scan(cursor > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(cursor), count);
    page = step.entries;
    next = step.next;
  }
  const items: Reply[] = [];
  for (const [m, s] of page) {
    if (pattern !== undefined && !globMatch(pattern, m)) continue;
    items.push(m, scanScoreText(s, ctx.version, z.listpack));
  }
  return [next.toString(), items];
}

export const specs: CommandSpec[] = [
  { name: 'zcard', arity: 2, write: false, run: zcard },
  { name: 'zscore', arity: 3, write: false, run: zscore },
  { name: 'zmscore', arity: -3, write: false, run: zmscore },
  { name: 'zrank', arity: -3, write: false, run: (ctx, argv) => zrankGeneric(ctx, argv, false) },
  { name: 'zrevrank', arity: -3, write: false, run: (ctx, argv) => zrankGeneric(ctx, argv, true) },
  { name: 'zrandmember', arity: -2, write: false, run: zrandmember },
  { name: 'zscan', arity: -3, write: false, run: zscan },
];
