/**
 * Sorted-set score ranges as Redis selects them (t_zset.c zslParseRange, zslValueGteMin /
 * zslValueLteMax, genericZrangebyscoreCommand, zremrangeGenericCommand), for ZRANGEBYSCORE,
 * ZREVRANGEBYSCORE, ZRANGE … BYSCORE [REV], ZCOUNT and ZREMRANGEBYSCORE. ioredis-mock reads the
 * bounds with parseInt (`1.5` is 1, `1e2` is 1, `0x10` is 0, `inf` is NaN, which lets every
 * member through) and takes `-inf` / `+inf` as exclusive (members scored ±inf left out); its
 * LIMIT reads a negative count other than -1 as "all but the last n", a negative offset as a
 * position from the end. ZREMRANGEBYSCORE removed what it selected: members Redis keeps.
 * Here, on ioredis-mock's stored value (a Map of member → { score, value }):
 * - bounds as strtod reads them (./builtin-args.ts parseScoreBound: `(` exclusive, ±inf and
 *   their spellings inclusive, decimal and hex floats, leading spaces, the empty text is 0);
 * - an empty range (min > max, or min = max with an exclusive end) selects nothing;
 * - members ordered by score, then by their bytes (memcmp, then length); REV is the reverse;
 * - LIMIT offset count: a negative offset, or one at or past the end, selects nothing; a
 *   negative count is no limit;
 * - replies in ioredis-mock's shape (members as stored, scores as number texts, Buffers for the
 *   `…Buffer` methods), so its reply fixes (infinite scores: ./zset-scores.ts) still apply.
 * The arguments were checked before (./builtin-args.ts: syntax, `ERR min or max is not a
 * float`, LIMIT integers) and the key's type too.
 */
import { parseInt64 } from '../../commands/args';
import type { KeyStore } from '../../keyspace/store';
import { parseScoreBound } from './builtin-args';
import { storeKeyOfArg } from './keys';


interface Entry {
  score: number;
  value: unknown;
}

type Bound = { value: number; exclusive: boolean };

const textOf = (a: unknown) => (Buffer.isBuffer(a) ? a.toString('latin1') : String(a ?? ''));

function bound(a: unknown): Bound {
  return parseScoreBound(textOf(a)) ?? { value: NaN, exclusive: false }; // checked before: never NaN
}

/** zslIsInRange's empty range test: nothing lies between the bounds. */
function emptyRange(min: Bound, max: Bound): boolean {
  return min.value > max.value || (min.value === max.value && (min.exclusive || max.exclusive));
}

function inRange(score: number, min: Bound, max: Bound): boolean {
  return (min.exclusive ? score > min.value : score >= min.value) && (max.exclusive ? score < max.value : score <= max.value);
}

/** A member's bytes as a latin1 string (one char per byte: `<` compares as memcmp, then length). */
function memberBytes(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  const s = String(value);
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** The members of `set` within [min, max], in Redis's order (score, then member bytes). */
function selectInRange(set: Map<unknown, Entry>, min: Bound, max: Bound): Entry[] {
  if (emptyRange(min, max)) return [];
  const picked: { entry: Entry; score: number; bytes: string }[] = [];
  for (const entry of set.values()) {
    const score = Number(entry.score);
    if (inRange(score, min, max)) picked.push({ entry, score, bytes: memberBytes(entry.value) });
  }
  picked.sort((a, b) => (a.score !== b.score ? (a.score < b.score ? -1 : 1) : a.bytes < b.bytes ? -1 : a.bytes > b.bytes ? 1 : 0));
  return picked.map((p) => p.entry);
}

const toBuffer = (v: unknown) => (typeof v === 'string' ? Buffer.from(v) : v);

/**
 * Run `name` (lower case; `flat`: its checked arguments; `buffers`: the `…Buffer` form) on the
 * sorted set in `store`, or undefined when it is not a score range (ZRANGE without BYSCORE:
 * ioredis-mock's own). ZREMRANGEBYSCORE removes the members in place and reports the key
 * modified when it removed any (the caller drops an emptied set).
 */
export function scoreRangeReply(store: KeyStore, name: string, flat: readonly unknown[], buffers: boolean): { reply: unknown } | undefined {
  let rev = name === 'zrevrangebyscore';
  let withScores = false;
  let offset = 0n;
  let count = -1n;
  if (name === 'zrange' || name === 'zrangebyscore' || name === 'zrevrangebyscore') {
    let byScore = name !== 'zrange';
    for (let i = 3; i < flat.length; i++) {
      const opt = textOf(flat[i]).toUpperCase();
      if (opt === 'WITHSCORES') withScores = true;
      else if (opt === 'BYSCORE') byScore = true;
      else if (opt === 'REV') rev = true;
      else if (opt === 'LIMIT') {
        offset = parseInt64(textOf(flat[i + 1])) ?? 0n;
        count = parseInt64(textOf(flat[i + 2])) ?? -1n;
        i += 2;
      }
    }
    if (!byScore) return undefined;
  }
  // Z[REV]RANGE… with REV take the range as max min
  const [min, max] = rev ? [bound(flat[2]), bound(flat[1])] : [bound(flat[1]), bound(flat[2])];
  const key = storeKeyOfArg(flat[0]);
  const stored = store.getRaw(key);
  const set = stored instanceof Map ? (stored as Map<unknown, Entry>) : undefined;
  if (name === 'zcount') {
    if (!set || emptyRange(min, max)) return { reply: 0 };
    let n = 0;
    for (const entry of set.values()) if (inRange(Number(entry.score), min, max)) n++;
    return { reply: n };
  }
  if (name === 'zremrangebyscore') {
    if (!set) return { reply: 0 };
    const gone = selectInRange(set, min, max);
    for (const entry of gone) set.delete(entry.value); // ioredis-mock keys members by their value
    if (gone.length > 0) store.markModified(key);
    return { reply: gone.length };
  }
  let picked = set ? selectInRange(set, min, max) : [];
  if (rev) picked.reverse();
  if (offset !== 0n || count >= 0n) {
    if (offset < 0n || offset >= BigInt(picked.length)) picked = [];
    else {
      const start = Number(offset);
      picked = picked.slice(start, count < 0n ? undefined : start + Number(count > BigInt(picked.length) ? BigInt(picked.length) : count));
    }
  }
  const reply: unknown[] = [];
  for (const entry of picked) {
    reply.push(entry.value);
    if (withScores) reply.push(`${entry.score}`);
  }
  return { reply: buffers ? reply.map(toBuffer) : reply };
}
