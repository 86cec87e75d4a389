/**
 * Per-key memory accounting of one database (lib/stats/memory-model.ts `keyBytes`), incremental:
 * a modified key (every write, deletion, expiry, flush reports one: Keyspace.touchWatchedKey) is
 * only noted; its size is refigured when the total is next read (INFO memory, a maxmemory check),
 * at O(1) per key noted since. Created on the first read: until then no write pays anything, and
 * the first read sizes every key once.
 */
import { ChurnMap } from '../model/churn-map';
import { keyBytes } from './memory-model';

export class KeySizes {
  private readonly sizes = new ChurnMap<number>();
  private dirty = new Set<string>();
  private sum = 0;

  constructor(
    /** The value at `key` now (undefined: no key), without touching it (no expiry, no LRU). */
    private readonly peek: (key: string) => unknown,
    keys: Iterable<string>,
  ) {
    for (const k of keys) this.dirty.add(k);
  }

  /** `key` was written, replaced or deleted. */
  note(key: string): void {
    this.dirty.add(key);
  }

  /** Bytes of every key and value of the database. */
  get total(): number {
    if (this.dirty.size !== 0) this.refresh();
    return this.sum;
  }

  /** Bytes counted for `key` (0: no key). */
  of(key: string): number {
    if (this.dirty.size !== 0) this.refresh();
    return this.sizes.get(key) ?? 0;
  }

  private refresh(): void {
    const dirty = this.dirty;
    this.dirty = new Set();
    for (const key of dirty) {
      const old = this.sizes.get(key) ?? 0;
      const value = this.peek(key);
      const now = value === undefined ? 0 : keyBytes(key, value);
      if (now === 0) {
        if (old !== 0) this.sizes.delete(key);
      } else this.sizes.set(key, now);
      this.sum += now - old;
    }
  }
}
