/**
 * What the list commands share (t_list.c helpers): the list at a key, creating one (dbAdd), the
 * housekeeping after elements are popped (`listElementsRemoved`) and the LEFT/RIGHT argument.
 */
import { bytesOf } from '../bytes/index';
import { ERR_SYNTAX, ERR_WRONGTYPE, fail } from '../errors';
import { RedisList, type ListEnd } from '../model/list';
import { is } from './args';
import type { Db } from './types';

/**
 * getList for a read command (lookupKeyRead): a missing key counts a keyspace miss and sends
 * `keymiss` (class m), a key found a hit (WRONGTYPE too).
 */
export function readList(db: Db, key: string): RedisList | undefined {
  const v = db.lookup(key);
  if (v === undefined) {
    db.keyMiss(key);
    return undefined;
  }
  db.keyHit();
  return v instanceof RedisList ? v : getList(db, key);
}

/**
 * The list at `key` (the stored object: change it in place), undefined when the key is missing;
 * WRONGTYPE when it holds another type. A list still in ioredis-mock's shape (an Array written
 * by one of its commands, e.g. SORT … STORE) is adopted as a RedisList, TTL kept.
 */
export function getList(db: Db, key: string): RedisList | undefined {
  const v = db.lookup(key);
  if (v === undefined) return undefined;
  if (v instanceof RedisList) return v;
  if (!Array.isArray(v)) fail(ERR_WRONGTYPE); // every other type (see lib/keyspace/value-type.ts)
  const adopted = RedisList.of(v.map(bytesOf), listFill(db));
  db.store(key, adopted, true);
  return adopted;
}

/** `list-max-listpack-size` (the quicklist fill; -2 when the front end has no CONFIG). */
export function listFill(db: Db): number {
  return db.config?.listMaxListpackSize ?? -2;
}

/**
 * Store a new list at the missing `key` (db.c dbAdd: wakes calls blocked on the key, keyspace
 * event `new`).
 */
export function addList(db: Db, key: string, list: RedisList): void {
  db.store(key, list);
  db.signalReady(key);
  db.notifyEvent('n', 'new', key);
}

/**
 * t_list.c listElementsRemoved, after `count` elements were popped from `where` of the list at
 * `key`: event `lpop`/`rpop`, the key deleted (event `del`) when the list is empty else a
 * quicklist → listpack check, WATCH dirtied, `count` changes (none when `countDirty` is false:
 * 7.0 serving a blocked BLPOP/BRPOP/BLMOVE).
 */
export function listElementsRemoved(db: Db, key: string, where: ListEnd, list: RedisList, count: number, countDirty = true): void {
  db.notifyEvent('l', where === 'left' ? 'lpop' : 'rpop', key);
  listShrank(db, key, list);
  if (countDirty) db.dirty?.(count);
}

/**
 * The list at `key` lost elements (POP, LTRIM, LREM, after their own event): the key deleted
 * (event `del`) when the list is empty, else the quicklist → listpack check and WATCH dirtied.
 */
export function listShrank(db: Db, key: string, list: RedisList): void {
  if (list.length === 0) {
    db.remove(key);
    db.notifyEvent('g', 'del', key);
  } else {
    list.shrinking(listFill(db));
    db.touch(key);
  }
}

/** t_list.c getListPositionFromObjectOrReply: LEFT or RIGHT (any case), else a syntax error. */
export function listEnd(arg: string): ListEnd {
  if (is(arg, 'LEFT')) return 'left';
  if (is(arg, 'RIGHT')) return 'right';
  return fail(ERR_SYNTAX);
}

/**
 * t_list.c lmoveHandlePush: push `value` at `where` of the list at `destination` (created when
 * missing), event `lpush`/`rpush`, WATCH dirtied.
 */
export function lmovePush(db: Db, destination: string, dest: RedisList | undefined, value: string, where: ListEnd): void {
  const fill = listFill(db);
  if (dest === undefined) {
    const created = new RedisList();
    created.growing(fill, value.length, 1);
    created.push(value, where);
    addList(db, destination, created);
  } else {
    dest.growing(fill, value.length, 1);
    dest.push(value, where);
    db.touch(destination);
  }
  db.notifyEvent('l', where === 'left' ? 'lpush' : 'rpush', destination);
}

/**
 * t_list.c lmoveGenericCommand once the source holds a non-empty list: the destination's type is
 * checked (WRONGTYPE) before anything moves; pop from `from`, push at `to`, then the source's
 * housekeeping (one change unless not `countDirty`). Returns the moved element.
 */
export function lmoveServe(db: Db, source: string, list: RedisList, destination: string, from: ListEnd, to: ListEnd, countDirty = true): string {
  const dest = source === destination ? list : getList(db, destination);
  const value = list.pop(from) as string;
  lmovePush(db, destination, dest, value, to);
  listElementsRemoved(db, source, from, list, 1, countDirty);
  return value;
}
