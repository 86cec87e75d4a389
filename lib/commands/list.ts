/**
 * The list commands (t_list.c), on the model's RedisList (lib/model/list.ts: O(1) push/pop at
 * both ends and O(1) access by index):
 *
 * - LPUSH/RPUSH key element [element …] → the new length; LPUSHX/RPUSHX push only onto an
 *   existing list (0 when the key is missing). Events `lpush`/`rpush` (and `new` for a new key).
 * - LPOP/RPOP key [count] → one element (nil bulk for a missing key) or, with a count, an array of
 *   up to count elements (nil array for a missing key, empty array for count 0). "ERR value is out
 *   of range, must be positive" for a negative or non-integer count; a third argument is an arity
 *   error. Events `lpop`/`rpop`, `del` when the list empties.
 * - LLEN key; LINDEX key index (nil when out of range; the key is looked up before the index is
 *   parsed); LSET key index element ("ERR no such key", "ERR index out of range"; event `lset`).
 * - LRANGE key start stop; LTRIM key start stop (event `ltrim` whenever the key holds a list).
 * - LREM key count element (count < 0 scans from the tail, 0 removes all; event `lrem`).
 * - LINSERT key BEFORE|AFTER pivot element → the new length, -1 when the pivot is missing, 0 when
 *   the key is missing (event `linsert`).
 * - LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]: errors "ERR RANK can't be
 *   zero: …", "ERR COUNT can't be negative", "ERR MAXLEN can't be negative" (also for a
 *   non-integer COUNT/MAXLEN), RANK out of -LONG_MAX … LONG_MAX from 7.2.
 * - LMOVE source destination LEFT|RIGHT LEFT|RIGHT, RPOPLPUSH source destination → the moved
 *   element or nil (events: the push on the destination, then the pop on the source).
 * - LMPOP numkeys key [key …] LEFT|RIGHT [COUNT count] → [key, [elements]] of the first non-empty
 *   list, or the nil array.
 *
 * Every command parses what Redis parses before its key lookup first, answers WRONGTYPE for a key
 * of another type, counts its changes as Redis's `server.dirty` does (one per element pushed,
 * popped, removed, trimmed, one per LSET/LINSERT) and keeps the 7.2+ listpack/quicklist
 * encoding with t_list.c's conversions (`list-max-listpack-size`). Checked on redis-server 7.0.15
 * and the post-7.4 4f8cdc2a build; source: t_list.c (4f8cdc2a).
 */
import { ERR_NOT_INTEGER, ERR_SYNTAX, errWrongArity, fail } from '../errors';
import { RedisList, type ListEnd } from '../model/list';
import { NIL_ARRAY, OK, type Reply } from '../reply/reply';
import { supports } from '../version';
import { is, parseInt64 } from './args';
import { addList, getList, listElementsRemoved, listEnd, listFill, listShrank, lmoveServe, readList } from './list-common';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec, Db } from './types';

const LONG_MAX = 9223372036854775807n;
const ERR_INDEX_OUT_OF_RANGE = 'ERR index out of range';
const ERR_NO_SUCH_KEY = 'ERR no such key';
const ERR_POSITIVE = 'ERR value is out of range, must be positive';
const ERR_RANK_RANGE = 'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807';
const ERR_RANK_ZERO =
  "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list";

/** getLongFromObjectOrReply: a signed 64-bit integer (as a number: list offsets are small). */
function long(arg: string, message = ERR_NOT_INTEGER): number {
  const v = parseInt64(arg);
  if (v === null) fail(message);
  return Number(v);
}

/** getPositiveLongFromObjectOrReply: 0 … LONG_MAX; `message` for a non-integer or a negative. */
function positiveLong(arg: string, message: string): number {
  const v = parseInt64(arg);
  if (v === null || v < 0n) fail(message);
  return Number(v);
}

/** getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX) from 7.2; 7.0 takes any long (LONG_MIN too). */
function rankLong(ctx: CommandContext, arg: string): bigint {
  const v = parseInt64(arg);
  if (v === null) fail(ERR_NOT_INTEGER);
  if (v < -LONG_MAX && supports(ctx.version, 'listRankRangeCheck')) fail(ERR_RANK_RANGE);
  return v;
}

// ---------------------------------------------------------------------------------------------
// LPUSH / RPUSH / LPUSHX / RPUSHX

/** t_list.c pushGenericCommand. */
function push(ctx: CommandContext, argv: string[], where: ListEnd, xx: boolean): Reply {
  const db = ctx.db;
  const key = argv[1];
  let list = getList(db, key);
  const created = list === undefined;
  if (list === undefined) {
    if (xx) return 0;
    list = new RedisList();
  }
  let addBytes = 0;
  for (let j = 2; j < argv.length; j++) addBytes += argv[j].length;
  list.growing(listFill(db), addBytes, argv.length - 2);
  if (where === 'left') for (let j = 2; j < argv.length; j++) list.pushLeft(argv[j]);
  else for (let j = 2; j < argv.length; j++) list.pushRight(argv[j]);
  db.dirty?.(argv.length - 2);
  if (created) addList(db, key, list);
  else db.touch(key);
  db.notifyEvent('l', where === 'left' ? 'lpush' : 'rpush', key);
  return list.length;
}

// ---------------------------------------------------------------------------------------------
// LPOP / RPOP

/** t_list.c popGenericCommand. */
function pop(ctx: CommandContext, argv: string[], where: ListEnd): Reply {
  if (argv.length > 3) fail(errWrongArity(argv[0].toLowerCase()));
  const hasCount = argv.length === 3;
  const count = hasCount ? positiveLong(argv[2], ERR_POSITIVE) : 0;
  const db = ctx.db;
  const list = getList(db, argv[1]);
  if (list === undefined) return hasCount ? NIL_ARRAY : null;
  if (hasCount && count === 0) return [];
  if (!hasCount) {
    const value = list.pop(where) as string;
    listElementsRemoved(db, argv[1], where, list, 1);
    return value;
  }
  const taken = list.popMany(where, count);
  listElementsRemoved(db, argv[1], where, list, taken.length);
  return taken;
}

// ---------------------------------------------------------------------------------------------
// LLEN / LINDEX / LSET / LRANGE / LTRIM

function llen(ctx: CommandContext, argv: string[]): Reply {
  return readList(ctx.db, argv[1])?.length ?? 0;
}

function lindex(ctx: CommandContext, argv: string[]): Reply {
  const list = readList(ctx.db, argv[1]);
  if (list === undefined) return null;
  const i = list.offsetOf(long(argv[2]));
  return i < 0 ? null : list.at(i);
}

function lset(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const list = getList(db, argv[1]);
  if (list === undefined) fail(ERR_NO_SUCH_KEY);
  const parsed = parseInt64(argv[2]);
  if (parsed === null) fail(ERR_NOT_INTEGER);
  // 7.2 … 8.8: listTypeReplaceAtIndex takes an `int` index, so the long is cut to its low 32 bits
  const index = supports(ctx.version, 'lsetIntIndex') && !supports(ctx.version, 'lsetLongIndex') ? Number(BigInt.asIntN(32, parsed)) : Number(parsed);
  const value = argv[3];
  const fill = listFill(db);
  // listTypeTryConversionAppend runs before the index is known to be in range
  list.growing(fill, value.length, 1);
  const i = list.offsetOf(index);
  if (i < 0) fail(ERR_INDEX_OUT_OF_RANGE);
  list.set(i, value);
  list.shrinking(fill);
  db.touch(argv[1]);
  db.notifyEvent('l', 'lset', argv[1]);
  db.dirty?.(1);
  return OK;
}

/** addListRangeReply's clamping: [from, to] offsets, or null for an empty range. */
function clampRange(start: number, end: number, len: number): [number, number] | null {
  if (start < 0) start = len + start;
  if (end < 0) end = len + end;
  if (start < 0) start = 0;
  if (start > end || start >= len) return null;
  if (end >= len) end = len - 1;
  return [start, end];
}

function lrange(ctx: CommandContext, argv: string[]): Reply {
  const start = long(argv[2]);
  const end = long(argv[3]);
  const list = readList(ctx.db, argv[1]);
  if (list === undefined) return [];
  const r = clampRange(start, end, list.length);
  return r === null ? [] : list.range(r[0], r[1]);
}

function ltrim(ctx: CommandContext, argv: string[]): Reply {
  const start = long(argv[2]);
  const end = long(argv[3]);
  const db = ctx.db;
  const key = argv[1];
  const list = getList(db, key);
  if (list === undefined) return OK;
  const len = list.length;
  const r = clampRange(start, end, len);
  const left = r === null ? len : r[0];
  const right = r === null ? 0 : len - r[1] - 1;
  list.trim(left, right);
  db.notifyEvent('l', 'ltrim', key);
  listShrank(db, key, list);
  db.dirty?.(left + right);
  return OK;
}

// ---------------------------------------------------------------------------------------------
// LREM / LINSERT / LPOS

function lrem(ctx: CommandContext, argv: string[]): Reply {
  const toRemove = rankLong(ctx, argv[2]);
  const db = ctx.db;
  const key = argv[1];
  const list = getList(db, key);
  if (list === undefined) return 0;
  // 7.0: LONG_MIN stays negative once negated, so nothing stops the scan from the tail
  const fromTail = toRemove < 0n;
  const limit = toRemove === -LONG_MAX - 1n ? 0 : Number(fromTail ? -toRemove : toRemove);
  const removed = list.removeEqual(argv[3], limit, fromTail);
  if (removed > 0) {
    db.dirty?.(removed);
    db.notifyEvent('l', 'lrem', key);
    listShrank(db, key, list);
  }
  return removed;
}

function linsert(ctx: CommandContext, argv: string[]): Reply {
  let after: boolean;
  if (is(argv[2], 'AFTER')) after = true;
  else if (is(argv[2], 'BEFORE')) after = false;
  else fail(ERR_SYNTAX);
  const db = ctx.db;
  const key = argv[1];
  const list = getList(db, key);
  if (list === undefined) return 0;
  const value = argv[4];
  // converted before the pivot is searched, found or not
  list.growing(listFill(db), value.length, 1);
  const i = list.indexOf(argv[3]);
  if (i < 0) return -1;
  list.insertAt(after ? i + 1 : i, value, after);
  db.touch(key);
  db.notifyEvent('l', 'linsert', key);
  db.dirty?.(1);
  return list.length;
}

function lpos(ctx: CommandContext, argv: string[]): Reply {
  let rank = 1n;
  let count = -1;
  let maxlen = 0;
  for (let j = 3; j < argv.length; j++) {
    const more = argv.length - 1 - j;
    if (is(argv[j], 'RANK') && more > 0) {
      rank = rankLong(ctx, argv[++j]);
      if (rank === 0n) fail(ERR_RANK_ZERO);
    } else if (is(argv[j], 'COUNT') && more > 0) {
      count = positiveLong(argv[++j], "ERR COUNT can't be negative");
    } else if (is(argv[j], 'MAXLEN') && more > 0) {
      maxlen = positiveLong(argv[++j], "ERR MAXLEN can't be negative");
    } else fail(ERR_SYNTAX);
  }
  const fromTail = rank < 0n;
  // 7.0: RANK LONG_MIN negated stays LONG_MIN: every match counts from the first (from the tail),
  // and `matches - rank + 1` overflows, so COUNT never stops the scan
  const rankMin = rank === -LONG_MAX - 1n;
  const r = rankMin ? 1 : Number(fromTail ? -rank : rank);
  const list = readList(ctx.db, argv[1]);
  if (list === undefined) return count !== -1 ? [] : null;
  const len = list.length;
  const out: number[] = [];
  let matches = 0;
  const element = argv[2];
  const limit = maxlen === 0 ? len : Math.min(maxlen, len);
  for (let index = 0; index < limit; index++) {
    const offset = fromTail ? len - 1 - index : index;
    if (list.at(offset) !== element) continue;
    matches++;
    if (matches < r) continue;
    if (count === -1) return offset;
    out.push(offset);
    if (count !== 0 && !rankMin && matches - r + 1 >= count) break;
  }
  return count === -1 ? null : out;
}

// ---------------------------------------------------------------------------------------------
// LMOVE / RPOPLPUSH / LMPOP

/** t_list.c lmoveGenericCommand. */
function lmove(db: Db, source: string, destination: string, from: ListEnd, to: ListEnd): Reply {
  const list = getList(db, source);
  if (list === undefined || list.length === 0) return null;
  return lmoveServe(db, source, list, destination, from, to);
}

/**
 * LMPOP/BLMPOP's arguments from `numkeysIndex` (t_list.c lmpopGenericCommand): numkeys ("ERR
 * numkeys should be greater than 0"), the keys, LEFT|RIGHT, [COUNT count] ("ERR count should be
 * greater than 0"), each error in this order.
 */
export function parseMpop(argv: readonly string[], numkeysIndex: number): { keys: string[]; where: ListEnd; count: number } {
  const numkeys = parseInt64(argv[numkeysIndex]);
  if (numkeys === null || numkeys < 1n) fail('ERR numkeys should be greater than 0');
  const whereIndex = numkeysIndex + 1 + Number(numkeys);
  if (whereIndex >= argv.length) fail(ERR_SYNTAX);
  const where = listEnd(argv[whereIndex]);
  let count = -1;
  for (let j = whereIndex + 1; j < argv.length; j++) {
    const more = argv.length - 1 - j;
    if (count === -1 && is(argv[j], 'COUNT') && more > 0) {
      const v = parseInt64(argv[++j]);
      if (v === null || v < 1n) fail('ERR count should be greater than 0');
      count = Number(v);
    } else fail(ERR_SYNTAX);
  }
  return { keys: argv.slice(numkeysIndex + 1, whereIndex), where, count: count === -1 ? 1 : count };
}

/**
 * The first key (in order) holding a non-empty list: up to `count` elements popped from `where`
 * as `[key, [elements]]` (t_list.c listPopRangeAndReplyWithKey), or undefined when none holds
 * one. WRONGTYPE for a key of another type reached before.
 */
export function mpopServe(db: Db, keys: readonly string[], where: ListEnd, count: number): Reply | undefined {
  for (const key of keys) {
    const list = getList(db, key);
    if (list === undefined || list.length === 0) continue;
    const taken = list.popMany(where, count);
    listElementsRemoved(db, key, where, list, taken.length);
    // LMPOP/BLMPOP propagate as [LR]POP key count
    propagationOf(db)?.rewrite([where === 'left' ? 'LPOP' : 'RPOP', key, String(taken.length)]);
    return [key, taken];
  }
  return undefined;
}

function lmpop(ctx: CommandContext, argv: string[]): Reply {
  const { keys, where, count } = parseMpop(argv, 1);
  return mpopServe(ctx.db, keys, where, count) ?? NIL_ARRAY;
}

export const specs: CommandSpec[] = [
  { name: 'lpush', arity: -3, write: true, run: (ctx, argv) => push(ctx, argv, 'left', false) },
  { name: 'rpush', arity: -3, write: true, run: (ctx, argv) => push(ctx, argv, 'right', false) },
  { name: 'lpushx', arity: -3, write: true, run: (ctx, argv) => push(ctx, argv, 'left', true) },
  { name: 'rpushx', arity: -3, write: true, run: (ctx, argv) => push(ctx, argv, 'right', true) },
  { name: 'lpop', arity: -2, write: true, run: (ctx, argv) => pop(ctx, argv, 'left') },
  { name: 'rpop', arity: -2, write: true, run: (ctx, argv) => pop(ctx, argv, 'right') },
  { name: 'llen', arity: 2, write: false, run: llen },
  { name: 'lindex', arity: 3, write: false, run: lindex },
  { name: 'lset', arity: 4, write: true, run: lset },
  { name: 'lrange', arity: 4, write: false, run: lrange },
  { name: 'ltrim', arity: 4, write: true, run: ltrim },
  { name: 'lrem', arity: 4, write: true, run: lrem },
  { name: 'linsert', arity: 5, write: true, run: linsert },
  { name: 'lpos', arity: -3, write: false, run: lpos },
  {
    name: 'lmove',
    arity: 5,
    write: true,
    run: (ctx, argv) => {
      const from = listEnd(argv[3]);
      const to = listEnd(argv[4]);
      return lmove(ctx.db, argv[1], argv[2], from, to);
    },
  },
  { name: 'rpoplpush', arity: 3, write: true, run: (ctx, argv) => lmove(ctx.db, argv[1], argv[2], 'right', 'left') },
  { name: 'lmpop', arity: -4, write: true, run: lmpop },
];
