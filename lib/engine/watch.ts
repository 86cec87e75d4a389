/**
 * WATCH (multi.c): the keys one connection watches and whether one of them was modified since.
 * A keyspace marks every watcher of a key dirty when the key is modified (Keyspace
 * `touchWatchedKey`); EXEC then fails (answers the nil array), as it does when a watched key
 * expired after WATCH (isWatchedKeyExpired).
 */
import type { KeyWatcher, Keyspace } from '../keyspace/keyspace';

/** WATCH state of one connection (Redis `c->watched_keys` + CLIENT_DIRTY_CAS). */
export class WatchState implements KeyWatcher {
  dirty = false;
  /** [keyspace, full key, expired when watched] */
  readonly keys: [Keyspace, string, boolean][] = [];

  /** WATCH full keys (byte strings) of `ks`; a key already watched there is skipped. */
  watch(ks: Keyspace, keys: readonly string[]): void {
    if (this.dirty) return; // multi.c watchCommand: no point in watching once dirty
    for (const key of keys) {
      if (this.keys.some(([k, name]) => k === ks && name === key)) continue;
      let set = ks.watchers.get(key);
      if (!set) ks.watchers.set(key, (set = new Set()));
      set.add(this);
      this.keys.push([ks, key, ks.store.isExpired(key)]);
    }
  }

  /** Stop watching every key (UNWATCH). */
  release(): void {
    for (const [ks, key] of this.keys) {
      const set = ks.watchers.get(key);
      if (!set) continue;
      set.delete(this);
      if (set.size === 0) ks.watchers.delete(key);
    }
  }

  /**
   * A watched key was modified (multi.c touchWatchedKey): dirty, and every key unwatched at once
   * ("no point in getting here again": CLIENT LIST shows watch=0 from then on).
   */
  touched(): void {
    if (wholeDatabaseTouch) return; // FLUSHDB/FLUSHALL/SWAPDB: touchAllWatchedKeysInDb decided
    this.dirty = true;
    this.release();
    this.keys.length = 0;
  }

  /** EXEC must fail: a watched key was modified, or expired after WATCH. */
  failed(): boolean {
    if (this.dirty) return true;
    return this.keys.some(([ks, key, expiredAtWatch]) => !expiredAtWatch && ks.store.isExpired(key));
  }
}

/** Set while FLUSHDB/FLUSHALL/SWAPDB empty or exchange databases: their key-by-key touches are ignored. */
let wholeDatabaseTouch = false;

/**
 * FLUSHDB, FLUSHALL (`replacedWith` null) and SWAPDB (each side with the other) as multi.c
 * touchAllWatchedKeysInDb, then `change` (the emptying or the exchange): the watchers of a key
 * that exists in `emptied` (expired or not), or in `replacedWith`, become dirty but keep their
 * keys (CLIENT LIST `watch=` unchanged, unlike a single key's touch), except where nothing
 * changed logically: a key already expired at WATCH that is now gone (or, SWAPDB, replaced by
 * an expired one) stays clean, and a missing key replaced by an expired one counts as expired
 * at WATCH. Checked on redis-server 7.0.15 and the post-7.4 build (EXEC nil/OK, watch=).
 */
export function touchAllWatchedKeysInDbs(pairs: readonly [emptied: Keyspace, replacedWith: Keyspace | null][], change: () => void): void {
  for (const [emptied, replacedWith] of pairs) {
    if (emptied.watchers.size === 0) continue;
    for (const [key, set] of emptied.watchers) {
      const existsInEmptied = emptied.store.peekRaw(key) !== undefined;
      const existsInReplaced = replacedWith !== null && replacedWith.store.peekRaw(key) !== undefined;
      if (!existsInEmptied && !existsInReplaced) continue;
      for (const w of set) {
        if (!(w instanceof WatchState)) continue;
        const entry = w.keys.find(([ks, name]) => ks === emptied && name === key);
        if (entry === undefined) continue;
        if (entry[2]) {
          if (!existsInReplaced) {
            entry[2] = false; // an expired key now deleted: no logical change
            continue;
          }
          if (replacedWith!.store.isExpired(key)) continue; // expired, and still expired
        } else if (!existsInEmptied && replacedWith!.store.isExpired(key)) {
          entry[2] = true; // a missing key replaced by an expired one
          continue;
        }
        w.dirty = true;
      }
    }
  }
  wholeDatabaseTouch = true;
  try {
    change();
  } finally {
    wholeDatabaseTouch = false;
  }
}
