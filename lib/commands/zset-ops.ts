/**
 * ZUNION / ZINTER numkeys key [key …] [WEIGHTS w …] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]
 * ZDIFF numkeys key [key …] [WITHSCORES] · ZINTERCARD numkeys key [key …] [LIMIT limit]
 * ZUNIONSTORE / ZINTERSTORE destination numkeys key [key …] [WEIGHTS …] [AGGREGATE …]
 * ZDIFFSTORE destination numkeys key [key …]
 *
 * As t_zset.c zunionInterDiffGenericCommand runs them: numkeys (`ERR value is not an integer or
 * out of range`; below 1 `ERR at least 1 input key is needed for '<command>' command`; more
 * than the keys given `ERR syntax error`), then the inputs are looked up — each a sorted set or
 * a plain set (members scored 1), else WRONGTYPE — then the options (`ERR weight value is not a
 * float`, `ERR syntax error`, ZINTERCARD `ERR LIMIT can't be negative`). A weighted score that is
 * NaN (0 × inf) counts as 0, as does a NaN sum (inf + -inf). ZDIFF keeps the first input's
 * scores. Results are in Redis order; the …STORE forms store the result (a listpack when it fits
 * the limits: zsetConvertToListpackIfNeeded), reply its size and send `zunionstore` /
 * `zinterstore` / `zdiffstore`; an empty result deletes the destination (event `del`).
 */
import { ERR_SYNTAX, ERR_WRONGTYPE, fail } from '../errors';
import { RedisZset } from '../model/zset';
import { redisTypeOf } from '../model/value-type';
import type { Reply } from '../reply/reply';
import { is, int64OrFail, parseInt64 } from './args';
import { entriesReply, fitEncoding, getZset, limitsOf, scoreOrFail } from './zset-common';
import type { CommandContext, CommandSpec, Db } from './types';

type Op = 'union' | 'inter' | 'diff';
type Aggregate = 'sum' | 'min' | 'max';

/** One input: a sorted set, a plain set (score 1), or a missing key (empty). */
interface Operand {
  readonly subject: unknown;
  readonly size: number;
  entries(): Iterable<readonly [string, number]>;
  score(member: string): number | undefined;
  weight: number;
}

const EMPTY: Iterable<readonly [string, number]> = [];

/** A member of ioredis-mock's Set (a JS string as UTF-8, or a Buffer) as bytes. */
function bytesOfMember(m: unknown): string {
  if (Buffer.isBuffer(m)) return m.toString('latin1');
  const s = String(m);
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** The members of a set value: ioredis-mock's Set, or the model's set class (iterable members). */
function setMembers(v: unknown): Set<string> {
  if (v instanceof Set) return new Set([...v].map(bytesOfMember));
  const o = v as { members?: () => Iterable<string>; [Symbol.iterator]?: () => Iterator<string> };
  if (typeof o.members === 'function') return new Set(o.members());
  if (typeof o[Symbol.iterator] === 'function') return new Set(o as Iterable<string>);
  return new Set();
}

function operandOf(db: Db, key: string): Operand {
  const v = db.lookup(key);
  if (v === undefined || v === null) {
    db.keyMiss(key); // lookupKeyRead (the STORE variants too)
    return { subject: undefined, size: 0, entries: () => EMPTY, score: () => undefined, weight: 1 };
  }
  db.keyHit();
  const type = redisTypeOf(v);
  if (v instanceof RedisZset || v instanceof Map) {
    const z = getZset(db, key) as RedisZset;
    return { subject: z, size: z.size, entries: () => z.entries(), score: (m) => z.score(m), weight: 1 };
  }
  if (v instanceof Set || type === 'set') {
    const members = setMembers(v);
    return {
      subject: v,
      size: members.size,
      entries: () => [...members].map((m) => [m, 1] as const),
      score: (m) => (members.has(m) ? 1 : undefined),
      weight: 1,
    };
  }
  return fail(ERR_WRONGTYPE);
}

/** zunionInterAggregate. */
function aggregate(target: number, value: number, how: Aggregate): number {
  if (how === 'sum') {
    const s = target + value;
    return Number.isNaN(s) ? 0 : s;
  }
  if (how === 'min') return value < target ? value : target;
  return value > target ? value : target;
}

function generic(ctx: CommandContext, argv: string[], dst: string | undefined, numkeysIdx: number, op: Op, cardinalityOnly: boolean): Reply {
  const name = argv[0].toLowerCase();
  const setnum = int64OrFail(argv[numkeysIdx]);
  if (setnum < 1n) fail(`ERR at least 1 input key is needed for '${name}' command`);
  if (setnum > BigInt(argv.length - (numkeysIdx + 1))) fail(ERR_SYNTAX);
  const n = Number(setnum);
  const db = ctx.db;
  const src: Operand[] = [];
  let j = numkeysIdx + 1;
  for (let i = 0; i < n; i++, j++) src.push(operandOf(db, argv[j]));

  let how: Aggregate = 'sum';
  let withScores = false;
  let limit = 0;
  while (j < argv.length) {
    const remaining = argv.length - j;
    if (op !== 'diff' && !cardinalityOnly && remaining >= n + 1 && is(argv[j], 'WEIGHTS')) {
      j++;
      for (let i = 0; i < n; i++, j++) src[i].weight = scoreOrFail(argv[j], ctx.version, 'ERR weight value is not a float');
    } else if (op !== 'diff' && !cardinalityOnly && remaining >= 2 && is(argv[j], 'AGGREGATE')) {
      const a = argv[j + 1];
      if (is(a, 'SUM')) how = 'sum';
      else if (is(a, 'MIN')) how = 'min';
      else if (is(a, 'MAX')) how = 'max';
      else fail(ERR_SYNTAX);
      j += 2;
    } else if (remaining >= 1 && dst === undefined && !cardinalityOnly && is(argv[j], 'WITHSCORES')) {
      j++;
      withScores = true;
    } else if (cardinalityOnly && remaining >= 2 && is(argv[j], 'LIMIT')) {
      const v = parseInt64(argv[j + 1]);
      if (v === null || v < 0n) fail("ERR LIMIT can't be negative");
      limit = v > 1n << 53n ? 2 ** 53 : Number(v);
      j += 2;
    } else fail(ERR_SYNTAX);
  }

  if (op !== 'diff') src.sort((a, b) => a.size - b.size);
  const result = new Map<string, number>();
  let cardinality = 0;
  if (op === 'inter') {
    if (src[0].size > 0) {
      for (const [member, s0] of src[0].entries()) {
        let score = src[0].weight * s0;
        if (Number.isNaN(score)) score = 0;
        let k = 1;
        for (; k < n; k++) {
          const other = src[k].subject === src[0].subject ? s0 : src[k].score(member);
          if (other === undefined) break;
          score = aggregate(score, other * src[k].weight, how);
        }
        if (k < n) continue;
        if (cardinalityOnly) {
          cardinality++;
          if (limit && cardinality >= limit) break;
        } else result.set(member, score);
      }
    }
  } else if (op === 'union') {
    for (const s of src) {
      if (s.size === 0) continue;
      for (const [member, sc] of s.entries()) {
        let score = s.weight * sc;
        if (Number.isNaN(score)) score = 0;
        const existing = result.get(member);
        result.set(member, existing === undefined ? score : aggregate(existing, score, how));
      }
    }
  } else if (src[0].size > 0) {
    for (const [member, sc] of src[0].entries()) {
      let found = false;
      for (let k = 1; k < n && !found; k++) found = src[k].score(member) !== undefined;
      if (!found) result.set(member, sc);
    }
  }
  if (cardinalityOnly) return cardinality;

  const out = new RedisZset();
  out.listpack = false;
  for (const [m, s] of result) out.set(m, s);
  if (dst === undefined) return entriesReply(out.entries(), withScores, ctx.version);
  if (out.size > 0) {
    fitEncoding(out, limitsOf(db));
    const isNew = db.lookup(dst, true) === undefined;
    db.store(dst, out);
    if (isNew) db.notifyEvent('n', 'new', dst); // setKey → dbAdd
    db.notifyEvent('z', op === 'union' ? 'zunionstore' : op === 'inter' ? 'zinterstore' : 'zdiffstore', dst);
    db.dirty?.(1);
    return out.size;
  }
  if (db.remove(dst)) {
    db.notifyEvent('g', 'del', dst);
    db.dirty?.(1);
  }
  return 0;
}

export const specs: CommandSpec[] = [
  { name: 'zunion', arity: -3, write: false, run: (ctx, argv) => generic(ctx, argv, undefined, 1, 'union', false) },
  { name: 'zinter', arity: -3, write: false, run: (ctx, argv) => generic(ctx, argv, undefined, 1, 'inter', false) },
  { name: 'zdiff', arity: -3, write: false, run: (ctx, argv) => generic(ctx, argv, undefined, 1, 'diff', false) },
  { name: 'zintercard', arity: -3, write: false, run: (ctx, argv) => generic(ctx, argv, undefined, 1, 'inter', true) },
  { name: 'zunionstore', arity: -4, write: true, run: (ctx, argv) => generic(ctx, argv, argv[1], 2, 'union', false) },
  { name: 'zinterstore', arity: -4, write: true, run: (ctx, argv) => generic(ctx, argv, argv[1], 2, 'inter', false) },
  { name: 'zdiffstore', arity: -4, write: true, run: (ctx, argv) => generic(ctx, argv, argv[1], 2, 'diff', false) },
];
