/**
 * Sorted-set scores as Redis keeps and prints them, for ioredis-mock's ZADD and ZINCRBY:
 * - scores are parsed by C strtod (`inf`, `+inf`, `-inf`, `infinity`, hex floats: ./builtin-args.ts)
 *   while ioredis-mock reads them with Number() / parseFloat() (`inf` is NaN, `0x10` is 0 for
 *   ZINCRBY): the arguments are handed on as JS number texts;
 * - ZADD flags are case-insensitive (ioredis-mock knows only the upper-case words);
 * - ZADD … INCR answers the member's new score, or nil when NX/XX skip it (ioredis-mock answers
 *   the count of added members), and ZADD … INCR / ZINCRBY refuse a NaN result
 *   (`ERR resulting score is not a number (NaN)`, t_zset.c zsetAdd) and change nothing;
 * - an infinite score is replied `inf` / `-inf` (addReplyDouble), never `Infinity` or `NaN`.
 */
import { CommandError } from '../errors';
import { builtinPairsKind } from '../engine/builtin-replies';
import { parseDouble } from './builtin-args';

const ZADD_FLAGS = ['NX', 'XX', 'GT', 'LT', 'CH', 'INCR'];
const ERR_NAN_SCORE = 'ERR resulting score is not a number (NaN)';

const textOf = (a: unknown) => (Buffer.isBuffer(a) ? a.toString() : String(a ?? ''));

/** A score argument (already checked by ./builtin-args.ts) as a JS number text. */
function jsScore(a: unknown): string {
  return String(parseDouble(textOf(a)) ?? NaN);
}

/** A double as Redis prints it for the infinities (the rest as JS prints numbers). */
export function scoreText(n: number): string {
  return n === Infinity ? 'inf' : n === -Infinity ? '-inf' : String(n);
}

/** The stored score of `member` in the sorted set `value` (ioredis-mock's Map), if any. */
function storedScore(value: unknown, member: unknown): number | undefined {
  if (!(value instanceof Map)) return undefined;
  const entry = (value.get(member) ?? value.get(textOf(member))) as { score?: unknown } | undefined;
  return entry === undefined ? undefined : Number(entry.score);
}

/**
 * How to run ZADD / ZINCRBY on ioredis-mock: the arguments to hand it (`args`) and, when Redis's
 * reply is not ioredis-mock's, the reply (`reply`; with `skip`, ioredis-mock is not called at
 * all). undefined for every other command. `flat`: the checked arguments; `stored`: the value
 * of the key (flat[0]). Throws the NaN error.
 */
export function zsetScorePlan(name: string, flat: readonly unknown[], stored: unknown): { args: unknown[]; reply?: unknown; skip?: boolean } | undefined {
  if (name === 'zincrby' && flat.length === 3) {
    const next = (storedScore(stored, flat[2]) ?? 0) + Number(jsScore(flat[1]));
    if (Number.isNaN(next)) throw new CommandError(ERR_NAN_SCORE);
    return { args: [flat[0], jsScore(flat[1]), flat[2]] };
  }
  if (name !== 'zadd') return undefined;
  let i = 1;
  const flags: string[] = [];
  while (i < flat.length && ZADD_FLAGS.includes(textOf(flat[i]).toUpperCase())) flags.push(textOf(flat[i++]).toUpperCase());
  const pairs: unknown[] = [];
  for (let j = i; j + 1 < flat.length; j += 2) pairs.push(jsScore(flat[j]), flat[j + 1]);
  if (!flags.includes('INCR')) return { args: [flat[0], ...flags, ...pairs] };
  // ZADD [NX|XX] [CH] INCR increment member: one pair (./builtin-args.ts)
  const [increment, member] = pairs;
  const old = storedScore(stored, member);
  if ((flags.includes('NX') && old !== undefined) || (flags.includes('XX') && old === undefined)) return { args: [], reply: null, skip: true };
  const next = (old ?? 0) + Number(increment);
  if (Number.isNaN(next)) throw new CommandError(ERR_NAN_SCORE);
  return { args: [flat[0], String(next), member], reply: scoreText(next) };
}

/** `v` (a score from ioredis-mock: number, text or Buffer) with the infinities as Redis prints them. */
function fixScore(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : scoreText(v);
  const text = Buffer.isBuffer(v) ? v.toString() : typeof v === 'string' ? v : undefined;
  if (text !== 'Infinity' && text !== '-Infinity') return v;
  const fixed = text === 'Infinity' ? 'inf' : '-inf';
  return Buffer.isBuffer(v) ? Buffer.from(fixed) : fixed;
}

const everyOther = (a: unknown[]) => a.map((v, i) => (i % 2 === 1 ? fixScore(v) : v));

/** Commands whose replies hold scores (lower case). */
export const SCORE_REPLY_COMMANDS: ReadonlySet<string> = new Set([
  'zscore', 'zincrby', 'zmscore', 'zscan', 'zpopmin', 'zpopmax', 'zrange', 'zrangebyscore', 'zrevrange', 'zrevrangebyscore', 'zunion', 'zinter', 'zdiff', 'zrandmember',
]);

/**
 * ioredis-mock's reply `r` of `name` (lower case; `flat`: its arguments) with infinite scores
 * as `inf` / `-inf` (ioredis-mock prints them `Infinity`). Members are left alone.
 */
export function fixScoreReply(name: string, flat: readonly unknown[], r: unknown): unknown {
  switch (name) {
    case 'zscore':
    case 'zincrby':
      return fixScore(r);
    case 'zmscore':
      return Array.isArray(r) ? r.map(fixScore) : r;
    case 'zscan':
      return Array.isArray(r) && Array.isArray(r[1]) ? [r[0], everyOther(r[1])] : r;
    case 'zpopmin':
    case 'zpopmax':
      return Array.isArray(r) ? everyOther(r) : r;
    default:
      return Array.isArray(r) && builtinPairsKind(name, flat) === 'scores' ? everyOther(r) : r;
  }
}
