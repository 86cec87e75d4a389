/**
 * SORT key [BY pattern] [LIMIT offset count] [GET pattern [GET pattern …]] [ASC|DESC] [ALPHA]
 *      [STORE destination]
 * SORT_RO key … (Redis 7.0: the same without STORE)
 *
 * sort.c `sortCommandGeneric`, on the model's lists (RedisList), sets (RedisSet) and sorted sets
 * (RedisZset); a missing key sorts as an empty list.
 *
 * - Numeric sort (default): each element (or the value BY names) is read as a double —
 *   7.x: C strtod (leading spaces, hex floats, `inf`; overflow, underflow and `nan` refused);
 *   8.0+: fast_float (no spaces, no hex; overflow to ±inf and underflow to 0 accepted); the
 *   empty text and a missing BY value count as 0 (checked on redis-server 7.0.15 and the post-7.4
 *   build). Equal scores are ordered by the elements' bytes. A value that is not a double answers
 *   `ERR One or more scores can't be converted into double` (after the sort, before any STORE).
 * - ALPHA: byte order (strcoll in the C locale: a text ends at its first NUL byte; STORE
 *   compares the whole bytes, as Redis's compareStringObjects does). With BY, a missing value
 *   sorts first.
 * - BY pattern: the first `*` is replaced by the element; `…->field` reads a hash field; a
 *   pattern without `*` means no sort (the list's order, a sorted set's score order, a set's own
 *   order — unless STORE or a script forces ALPHA, as Redis does for sets).
 * - GET pattern (repeatable): `#` is the element itself; a missing key / wrong type is nil
 *   (the empty string in STORE).
 * - LIMIT offset count: clamped as Redis clamps (a negative count = to the end).
 * - STORE destination: a list of the result (key replaced, event `l sortstore`, dirty += its
 *   length); an empty result deletes the destination (event `g del`, dirty 1 when it existed).
 *   Reply: the number of elements stored.
 * A sorted set is converted to a skiplist by SORT (sort.c zsetConvert), as Redis does.
 *
 * Errors, in Redis's order: options (`ERR syntax error` — also STORE in SORT_RO; LIMIT's numbers:
 * `ERR value is not an integer or out of range`; a BY pattern with `*` or any GET, including
 * `GET #`, when the client's ACL user cannot read every key with SORT — no selector allowing the
 * call with `~*`/`%R~*`/allkeys: `ERR BY|GET option of SORT denied due to insufficient ACL
 * permissions.`, checked on 7.0.15 and the post-7.4 build), then WRONGTYPE for a key that is not a list,
 * set or sorted set, then the conversion error above.
 */
import { keyHashSlot, patternHashSlot } from '../bytes/crc16';
import { bytesOfStored } from './string-value';
import { ERR_SYNTAX, ERR_WRONGTYPE, fail } from '../errors';
import { RedisList } from '../model/list';
import { pqsort } from '../model/pqsort';
import { redisTypeOf } from '../model/value-type';
import { predates } from '../version';
import { int64OrFail, is } from './args';
import { lookupHash } from './hash-common';
import { getList, listFill } from './list-common';
import { lookupSet } from './set-common';
import { getZset, parseScoreArg } from './zset-common';
import type { CommandContext, CommandSpec, Reply } from './types';

export const ERR_SORT_SCORE = "ERR One or more scores can't be converted into double";

/** The parsed options of SORT / SORT_RO. */
export interface SortArgs {
  desc: boolean;
  alpha: boolean;
  limitStart: bigint;
  limitCount: bigint;
  store: string | null;
  by: string | null;
  /** BY without `*`: no sorting at all. */
  dontSort: boolean;
  gets: string[];
}

/**
 * In cluster mode (sort.c): before 7.4 any GET, and a BY pattern with `*`, are refused; from 7.4
 * (PR #12728) only a pattern whose keys may hash to another slot than the sorted key's
 * (patternHashSlot; `GET #` included, as the post-7.4 build still does).
 */
function clusterRefusal(option: 'BY' | 'GET', pattern: string, key: string, version: CommandContext['version']): never | void {
  if (predates(version, '7.4')) fail(`ERR ${option} option of SORT denied in Cluster mode.`);
  if (patternHashSlot(pattern) !== keyHashSlot(key)) {
    fail(`ERR ${option} option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots.`);
  }
}

/**
 * Parse argv[2…] as sortCommandGeneric does (first bad token wins). `cluster`: the emulated
 * version when the server is a cluster node (BY/GET patterns checked), else null.
 */
export function parseSort(argv: readonly string[], readonly: boolean, cluster: CommandContext['version'] | null = null, fullKeyAccess?: () => boolean): SortArgs {
  const a: SortArgs = { desc: false, alpha: false, limitStart: 0n, limitCount: -1n, store: null, by: null, dontSort: false, gets: [] };
  let keyAccess: boolean | undefined;
  // after the cluster check (sort.c): a user without read access to every key may not use patterns
  const aclRefusal = (option: 'BY' | 'GET'): void => {
    if (fullKeyAccess !== undefined && !(keyAccess ??= fullKeyAccess())) fail(`ERR ${option} option of SORT denied due to insufficient ACL permissions.`);
  };
  for (let j = 2; j < argv.length; j++) {
    const left = argv.length - j - 1;
    const t = argv[j];
    if (is(t, 'ASC')) a.desc = false;
    else if (is(t, 'DESC')) a.desc = true;
    else if (is(t, 'ALPHA')) a.alpha = true;
    else if (is(t, 'LIMIT') && left >= 2) {
      a.limitStart = int64OrFail(argv[j + 1]);
      a.limitCount = int64OrFail(argv[j + 2]);
      j += 2;
    } else if (!readonly && is(t, 'STORE') && left >= 1) {
      a.store = argv[++j];
    } else if (is(t, 'BY') && left >= 1) {
      a.by = argv[++j];
      // a constant BY pattern: nothing to sort (a later BY with `*` does not undo it)
      if (!a.by.includes('*')) a.dontSort = true;
      else {
        if (cluster !== null) clusterRefusal('BY', a.by, argv[1], cluster);
        aclRefusal('BY');
      }
    } else if (is(t, 'GET') && left >= 1) {
      if (cluster !== null) clusterRefusal('GET', argv[j + 1], argv[1], cluster);
      aclRefusal('GET'); // GET # too
      a.gets.push(argv[++j]);
    } else fail(ERR_SYNTAX);
  }
  return a;
}

/** The text up to its first NUL byte (what a C string function sees). */
function cString(s: string): string {
  const z = s.indexOf('\0');
  return z < 0 ? s : s.slice(0, z);
}

function cmpBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The sort weight of a text: sort.c reads it with strtod (7.x) / fast_float_strtod (8.0+) up to
 * its first NUL byte and wants the whole of it read; null when it is not a double.
 */
export function sortScore(text: string, version: CommandContext['version']): number | null {
  const s = cString(text);
  if (s === '') return 0; // nothing converted, and the end pointer is at the terminator
  if (!predates(version, '8.0')) return parseScoreArg(s, version);
  const t = s.replace(/^[ \t\n\v\f\r]+/, ''); // strtod skips leading isspace
  if (t === '') return null;
  return parseScoreArg(t, version);
}

/**
 * sort.c lookupKeyByPattern: `#` is `subst` itself; otherwise the first `*` is replaced by
 * `subst` and the key read — a string, or with `->field` (something after the arrow) a hash's
 * field. Undefined when there is no `*`, the key is missing or of another type.
 */
export function lookupByPattern(ctx: CommandContext, pattern: string, subst: string): string | undefined {
  if (pattern === '#') return subst;
  const p = pattern.indexOf('*');
  if (p < 0) return undefined;
  const f = pattern.indexOf('->', p + 1);
  const hasField = f >= 0 && f + 2 < pattern.length;
  const key = pattern.slice(0, p) + subst + pattern.slice(p + 1, hasField ? f : pattern.length);
  const v = ctx.db.lookup(key);
  const type = redisTypeOf(v);
  if (type === undefined) ctx.db.keyMiss(key); // lookupKeyRead
  else ctx.db.keyHit();
  if (hasField) {
    if (type !== 'hash') return undefined;
    return lookupHash(ctx, key)?.get(pattern.slice(f + 2));
  }
  return type === 'string' ? bytesOfStored(v) : undefined; // the stored byte string (not re-encoded as UTF-8)
}

interface SortItem {
  obj: string;
  score: number;
  cmp: string | undefined;
}

function sortGeneric(ctx: CommandContext, argv: string[], readonly: boolean): Reply {
  const access = ctx.db.fullKeyReadAccess;
  const a = parseSort(argv, readonly, ctx.clusterEnabled ? ctx.version : null, access && (() => access.call(ctx.db, argv)));
  const key = argv[1];
  const type = redisTypeOf(ctx.db.lookup(key));
  if (type === undefined) ctx.db.keyMiss(key); // lookupKeyRead
  else ctx.db.keyHit();
  if (type !== undefined && type !== 'list' && type !== 'set' && type !== 'zset') fail(ERR_WRONGTYPE);
  const list = type === 'list' ? getList(ctx.db, key) : undefined;
  const set = type === 'set' ? lookupSet(ctx, key) : undefined;
  const zset = type === 'zset' ? getZset(ctx.db, key) : undefined;

  let { dontSort, alpha, by } = a;
  const { desc } = a;
  if (dontSort && set !== undefined && (a.store !== null || ctx.inScript)) {
    // a set's order is not stable: forced ALPHA sort (replication and scripts)
    dontSort = false;
    alpha = true;
    by = null;
  }
  if (zset !== undefined) zset.listpack = false; // zsetConvert(sortval, OBJ_ENCODING_SKIPLIST)

  const n = list?.length ?? set?.size ?? zset?.size ?? 0;
  // LIMIT sanity checks (sort.c)
  let start = Number(a.limitStart < 0n ? 0n : a.limitStart > BigInt(n) ? BigInt(n) : a.limitStart);
  const count = Number(a.limitCount < -1n ? -1n : a.limitCount > BigInt(n) ? BigInt(n) : a.limitCount);
  let end = count < 0 ? n - 1 : start + count - 1;
  if (start >= n) {
    start = n - 1;
    end = n - 2;
  }
  if (end >= n) end = n - 1;

  const items: SortItem[] = [];
  const item = (obj: string): SortItem => ({ obj, score: 0, cmp: undefined });
  if (dontSort && (list !== undefined || zset !== undefined)) {
    // the native order, only the LIMIT range
    for (let k = 0; k <= end - start; k++) {
      const rank = desc ? n - 1 - start - k : start + k;
      items.push(item(list !== undefined ? list.at(rank) : zset!.at(rank)![0]));
    }
    end -= start;
    start = 0;
  } else if (list !== undefined) {
    for (const e of list.toArray()) items.push(item(e));
  } else if (set !== undefined) {
    for (const e of set.members()) items.push(item(e));
  } else if (zset !== undefined) {
    for (const [m] of zset.dictEntries()) items.push(item(m));
  }

  let conversionError = false;
  if (!dontSort) {
    for (const it of items) {
      let byval: string | undefined;
      if (by !== null) {
        byval = lookupByPattern(ctx, by, it.obj);
        if (byval === undefined) continue;
      } else byval = it.obj;
      if (alpha) {
        if (by !== null) it.cmp = byval;
      } else {
        const score = sortScore(byval, ctx.version);
        if (score === null) conversionError = true;
        else it.score = score;
      }
    }
    const storing = a.store !== null;
    const text = (s: string) => (storing ? s : cString(s));
    const compare = (x: SortItem, y: SortItem): number => {
      let c: number;
      if (!alpha) c = x.score > y.score ? 1 : x.score < y.score ? -1 : cmpBytes(x.obj, y.obj);
      else if (by !== null) {
        if (x.cmp === undefined || y.cmp === undefined) c = x.cmp === y.cmp ? 0 : x.cmp === undefined ? -1 : 1;
        else c = cmpBytes(text(x.cmp), text(y.cmp));
      } else c = cmpBytes(text(x.obj), text(y.obj));
      return desc ? -c : c;
    };
    // sort.c: with BY and a LIMIT short of the whole vector, pqsort over the range (not stable:
    // equal or missing weights end where that quicksort leaves them); else glibc's qsort (a merge
    // sort for vectors this size: stable, as Array.prototype.sort)
    if (by !== null && (start !== 0 || end !== items.length - 1)) pqsort(items, compare, start, end);
    else items.sort(compare);
  }

  const getop = a.gets.length;
  const outputLen = end < start ? 0 : getop ? getop * (end - start + 1) : end - start + 1;
  if (conversionError) fail(ERR_SORT_SCORE);

  if (a.store === null) {
    const out: (string | null)[] = [];
    for (let j = start; j <= end; j++) {
      const obj = items[j].obj;
      if (!getop) out.push(obj);
      for (const g of a.gets) out.push(lookupByPattern(ctx, g, obj) ?? null);
    }
    return out;
  }

  const stored: string[] = [];
  for (let j = start; j <= end; j++) {
    const obj = items[j].obj;
    if (!getop) stored.push(obj);
    else for (const g of a.gets) stored.push(lookupByPattern(ctx, g, obj) ?? '');
  }
  const db = ctx.db;
  if (outputLen > 0) {
    const isNew = db.lookup(a.store, true) === undefined;
    db.store(a.store, RedisList.of(stored, listFill(db)));
    if (isNew) db.notifyEvent('n', 'new', a.store); // setKey → dbAdd
    db.notifyEvent('l', 'sortstore', a.store);
    db.dirty?.(outputLen);
  } else if (db.remove(a.store)) {
    db.touch(a.store);
    db.notifyEvent('g', 'del', a.store);
    db.dirty?.(1);
  }
  return outputLen;
}

export const specs: CommandSpec[] = [
  { name: 'sort', arity: -2, write: true, run: (ctx, argv) => sortGeneric(ctx, argv, false) },
  { name: 'sort_ro', arity: -2, write: false, run: (ctx, argv) => sortGeneric(ctx, argv, true) },
];
