/**
 * Sorted-set scores as Redis keeps and prints them, for ioredis-mock's ZADD and ZINCRBY:
 * - scores are parsed by C strtod (`inf`, `+inf`, `-inf`, `infinity`, hex floats: ./builtin-args.ts)
 *   while ioredis-mock reads them with Number() / parseFloat() (`inf` is NaN, `0x10` is 0 for
 *   ZINCRBY): the arguments are handed on as JS number texts;
 * - ZADD flags are case-insensitive (ioredis-mock knows only the upper-case words);
 * - ZADD … INCR answers the member's new score, or nil when NX/XX skip it (ioredis-mock answers
 *   the count of added members), and ZADD … INCR / ZINCRBY refuse a NaN result
 *   (`ERR resulting score is not a number (NaN)`, t_zset.c zsetAdd) and change nothing;
 * - scores are replied as the emulated version's addReplyDouble writes them (RESP2 bulk string
 *   and RESP3 `,` double alike): 7.0 `%.17g` (0.1 is `0.10000000000000001`, 123456789012345678
 *   `1.2345678901234568e+17`), 7.2+ util.c d2string (an integral value within ±2^62 as an
 *   integer, else fpconv_dtoa's Grisu2 digits: `0.1`, `1.5e-6`, `4.380604360580891e+4`); an
 *   infinite score is `inf` / `-inf`, never `Infinity` or `NaN`;
 * - ZSCAN's scores are bulk strings of the stored text: d2string of the version for a listpack
 *   sorted set, `%.17g` (ld2string LD_STR_AUTO) for a skiplist one, in every version.
 */
import { CommandError } from '../../errors';
import { builtinPairsKind } from '../builtin-replies';
import { RDB_FORMAT, type RedisVersion } from '../../version';
import { DEFAULT_COLLECTION_LIMITS, type CollectionLimits } from '../../rdb/collection-limits';
import { d2string, formatG17 } from '../../rdb/double-text';
import { parseDouble } from './builtin-args';

const ZADD_FLAGS = ['NX', 'XX', 'GT', 'LT', 'CH', 'INCR'];
const ERR_NAN_SCORE = 'ERR resulting score is not a number (NaN)';

const textOf = (a: unknown) => (Buffer.isBuffer(a) ? a.toString() : String(a ?? ''));

/** A score argument (already checked by ./builtin-args.ts) as a JS number text. */
function jsScore(a: unknown): string {
  return String(parseDouble(textOf(a)) ?? NaN);
}

/**
 * A score as `version`'s addReplyDouble writes it: 7.0 `%.17g`, 7.2+ d2string (fpconv_dtoa);
 * `inf` / `-inf`; zero as `0` (ioredis-mock keeps no negative zero).
 */
export function scoreText(n: number, version: RedisVersion): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (n === 0) return '0';
  return RDB_FORMAT[version].collections.scoreText === 'g17' ? formatG17(n) : d2string(n, 'fpconv');
}

/** ZSCAN's score text: the listpack's stored d2string text, or a skiplist's `%.17Lg`. */
function scanScoreText(n: number, version: RedisVersion, listpack: boolean): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (n === 0) return '0';
  return listpack ? d2string(n, RDB_FORMAT[version].collections.scoreText) : formatG17(n);
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
export function zsetScorePlan(
  name: string,
  flat: readonly unknown[],
  stored: unknown,
  version: RedisVersion,
): { args: unknown[]; reply?: unknown; skip?: boolean; dirty: number } | undefined {
  if (name === 'zincrby' && flat.length === 3) {
    const old = storedScore(stored, flat[2]);
    const next = (old ?? 0) + Number(jsScore(flat[1]));
    if (Number.isNaN(next)) throw new CommandError(ERR_NAN_SCORE);
    return { args: [flat[0], jsScore(flat[1]), flat[2]], dirty: old === next ? 0 : 1 };
  }
  if (name !== 'zadd') return undefined;
  let i = 1;
  const flags: string[] = [];
  while (i < flat.length && ZADD_FLAGS.includes(textOf(flat[i]).toUpperCase())) flags.push(textOf(flat[i++]).toUpperCase());
  const pairs: unknown[] = [];
  for (let j = i; j + 1 < flat.length; j += 2) pairs.push(jsScore(flat[j]), flat[j + 1]);
  const nx = flags.includes('NX');
  const xx = flags.includes('XX');
  if (!flags.includes('INCR')) return { args: [flat[0], ...flags, ...pairs], dirty: addedOrUpdated(stored, pairs, nx, xx) };
  // ZADD [NX|XX] [CH] INCR increment member: one pair (./builtin-args.ts)
  const [increment, member] = pairs;
  const old = storedScore(stored, member);
  if ((nx && old !== undefined) || (xx && old === undefined)) return { args: [], reply: null, skip: true, dirty: 0 };
  const next = (old ?? 0) + Number(increment);
  if (Number.isNaN(next)) throw new CommandError(ERR_NAN_SCORE);
  return { args: [flat[0], String(next), member], reply: scoreText(next, version), dirty: old === next ? 0 : 1 };
}

/**
 * ZADD's `server.dirty` increment (t_zset.c zaddGenericCommand: `added + updated`): the pairs
 * `[score, member, …]` applied in order to the stored sorted set, a member counting when it is
 * added or its score changes (NX / XX skip as Redis does).
 */
function addedOrUpdated(stored: unknown, pairs: readonly unknown[], nx: boolean, xx: boolean): number {
  const seen = new Map<string, number>();
  let dirty = 0;
  for (let j = 0; j + 1 < pairs.length; j += 2) {
    const key = textOf(pairs[j + 1]);
    const old = seen.has(key) ? seen.get(key) : storedScore(stored, pairs[j + 1]);
    if ((nx && old !== undefined) || (xx && old === undefined)) continue;
    const score = Number(pairs[j]);
    if (old === undefined || old !== score) dirty++;
    seen.set(key, score);
  }
  return dirty;
}

/** `v` (a score from ioredis-mock: number, text or Buffer) as `text` prints it (a Buffer stays a Buffer). */
function fixScore(v: unknown, text: (n: number) => string): unknown {
  if (v === null || v === undefined) return v;
  const given = Buffer.isBuffer(v) ? v.toString() : String(v);
  const n = given === 'inf' ? Infinity : given === '-inf' ? -Infinity : Number(given);
  if (Number.isNaN(n)) return v;
  const fixed = text(n);
  return Buffer.isBuffer(v) ? Buffer.from(fixed) : fixed;
}

const everyOther = (a: unknown[], text: (n: number) => string) => a.map((v, i) => (i % 2 === 1 ? fixScore(v, text) : v));


/** A sorted set (ioredis-mock's Map) small enough to be a listpack (zset-max-listpack-entries / -value). */
function isListpack(value: unknown, limits: CollectionLimits): boolean {
  if (!(value instanceof Map) || value.size > limits.zsetMaxListpackEntries) return false;
  for (const member of value.keys()) if (Buffer.byteLength(Buffer.isBuffer(member) ? member : String(member)) > limits.zsetMaxListpackValue) return false;
  return true;
}

/**
 * ioredis-mock's reply `r` of `name` (lower case; `flat`: its arguments) with its scores as
 * `version` prints them (ioredis-mock prints them as JS numbers, infinities `Infinity`).
 * Members are left alone. `stored`: the sorted set (for ZSCAN's encoding).
 */
export function fixScoreReply(name: string, flat: readonly unknown[], r: unknown, version: RedisVersion, stored?: unknown, limits: CollectionLimits = DEFAULT_COLLECTION_LIMITS): unknown {
  const text = (n: number) => scoreText(n, version);
  switch (name) {
    case 'zscore':
    case 'zincrby':
      return fixScore(r, text);
    case 'zmscore':
      return Array.isArray(r) ? r.map((v) => fixScore(v, text)) : r;
    case 'zscan': {
      if (!Array.isArray(r) || !Array.isArray(r[1])) return r;
      const listpack = isListpack(stored, limits);
      return [r[0], everyOther(r[1], (n) => scanScoreText(n, version, listpack))];
    }
    case 'zpopmin':
    case 'zpopmax':
      return Array.isArray(r) ? everyOther(r, text) : r;
    default:
      return Array.isArray(r) && builtinPairsKind(name, flat) === 'scores' ? everyOther(r, text) : r;
  }
}
