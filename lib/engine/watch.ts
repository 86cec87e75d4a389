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
