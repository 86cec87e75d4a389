/**
 * An ID-ordered map (the PELs): a sorted array of small sorted chunks, i.e. a B+ tree of height
 * two. Invariant: no chunk is empty, except that an empty map may keep one empty chunk. Lookups bisect the chunks by their first key, then the chunk (O(log n)); an insert or a
 * delete moves at most one chunk's worth of slots, plus, when a chunk splits or empties, the
 * chunk list (amortised over at least CHUNK/2 operations). Appending past the greatest key —
 * what deliveries do — is a push. Iteration walks the chunks: O(1) per step.
 *
 * Written for the PEL's pattern and budget (sorted-btree's general delete runs its range editor,
 * several times the cost of a whole XACK); the method names follow sorted-btree's, which the
 * PELs used before. Pure: no clock.
 */
import { StreamId, compareIds } from './stream-id';

/** Most keys a chunk holds before it splits in two. */
const CHUNK = 128;

interface Chunk<V> {
  keys: StreamId[];
  values: V[];
}

/** In a sorted key array, the first index whose key is >= `key` (`strict`: > `key`). */
function lowerBound(keys: readonly StreamId[], key: StreamId, strict: boolean): number {
  let a = 0;
  let b = keys.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    const c = compareIds(keys[mid], key);
    if (c < 0 || (strict && c === 0)) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** A visitor of map entries; returning `false` ends the walk. */
export type IdMapVisitor<V> = (key: StreamId, value: V) => boolean | void;

export class IdMap<V> {
  private chunks: Chunk<V>[] = [];
  private count = 0;

  /** Number of keys. */
  get size(): number {
    return this.count;
  }

  /** Index of the last chunk whose first key is <= `key` (0 when `key` precedes them all). */
  private chunkFor(key: StreamId): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareIds(chunks[mid].keys[0], key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  get(key: StreamId): V | undefined {
    if (this.count === 0) return undefined;
    const chunks = this.chunks;
    const lastChunk = chunks[chunks.length - 1];
    const lastKeys = lastChunk.keys;
    const lastKey = lastKeys[lastKeys.length - 1];
    // the newest or the oldest key given as the stored ID object (XACK of the ID just
    // delivered, or of the oldest pending): no compare, no bisection
    if (key === lastKey) return lastChunk.values[lastKeys.length - 1];
    if (key === chunks[0].keys[0]) return chunks[0].values[0];
    // past the greatest key (a delivery of a new entry asks this): one compare, not a bisection
    if (compareIds(key, lastKey) > 0) return undefined;
    return this.find(key);
  }

  /** `get` by bisection. */
  private find(key: StreamId): V | undefined {
    const chunk = this.chunks[this.chunkFor(key)];
    const i = lowerBound(chunk.keys, key, false);
    return i < chunk.keys.length && compareIds(chunk.keys[i], key) === 0 ? chunk.values[i] : undefined;
  }

  has(key: StreamId): boolean {
    if (this.count === 0) return false;
    const chunk = this.chunks[this.chunkFor(key)];
    const i = lowerBound(chunk.keys, key, false);
    return i < chunk.keys.length && compareIds(chunk.keys[i], key) === 0;
  }

  /** Insert or replace. */
  set(key: StreamId, value: V): void {
    const chunks = this.chunks;
    const last = chunks[chunks.length - 1];
    if (!last) {
      chunks.push({ keys: [key], values: [value] });
      this.count++;
      return;
    }
    if (this.count === 0 || compareIds(last.keys[last.keys.length - 1], key) < 0) {
      // past the greatest key: append
      if (last.keys.length < CHUNK) {
        last.keys.push(key);
        last.values.push(value);
      } else {
        chunks.push({ keys: [key], values: [value] });
      }
      this.count++;
      return;
    }
    const c = this.chunkFor(key);
    const chunk = chunks[c];
    const i = lowerBound(chunk.keys, key, false);
    if (i < chunk.keys.length && compareIds(chunk.keys[i], key) === 0) {
      chunk.keys[i] = key;
      chunk.values[i] = value;
      return;
    }
    chunk.keys.splice(i, 0, key);
    chunk.values.splice(i, 0, value);
    this.count++;
    if (chunk.keys.length > CHUNK) {
      const half = chunk.keys.length >> 1;
      chunks.splice(c + 1, 0, { keys: chunk.keys.splice(half), values: chunk.values.splice(half) });
    }
  }

  /** Remove `key`; false when absent. */
  delete(key: StreamId): boolean {
    if (this.count === 0) return false;
    const chunks = this.chunks;
    const last = chunks[chunks.length - 1];
    const lastKeys = last.keys;
    // the newest or the oldest key given as the stored ID object (the usual XACK): no bisection
    if (key === lastKeys[lastKeys.length - 1]) {
      lastKeys.pop();
      last.values.pop();
      this.count--;
      if (lastKeys.length === 0 && this.count > 0) chunks.pop();
      return true;
    }
    const first = chunks[0];
    if (key === first.keys[0]) {
      first.keys.shift();
      first.values.shift();
      this.count--;
      if (first.keys.length === 0 && this.count > 0) chunks.shift();
      return true;
    }
    return this.deleteFound(key);
  }

  /** `delete` by bisection. */
  private deleteFound(key: StreamId): boolean {
    const c = this.chunkFor(key);
    const chunk = this.chunks[c];
    const i = lowerBound(chunk.keys, key, false);
    if (i >= chunk.keys.length || compareIds(chunk.keys[i], key) !== 0) return false;
    if (i === chunk.keys.length - 1) {
      chunk.keys.pop();
      chunk.values.pop();
    } else {
      chunk.keys.splice(i, 1);
      chunk.values.splice(i, 1);
    }
    this.count--;
    // An emptied chunk leaves the list, except the last one of an empty map, kept for the next
    // insert (a PEL emptied by each XACK refills at once).
    if (chunk.keys.length === 0 && this.count > 0) this.chunks.splice(c, 1);
    return true;
  }

  minKey(): StreamId | undefined {
    return this.count === 0 ? undefined : this.chunks[0].keys[0];
  }

  maxKey(): StreamId | undefined {
    if (this.count === 0) return undefined;
    const last = this.chunks[this.chunks.length - 1];
    return last.keys[last.keys.length - 1];
  }

  /** The first pair whose key is >= `key` (`strict`: > `key`), as chunk and slot; null past the end. */
  private seek(key: StreamId, strict: boolean): [number, number] | null {
    if (this.count === 0) return null;
    let c = this.chunkFor(key);
    let i = lowerBound(this.chunks[c].keys, key, strict);
    if (i === this.chunks[c].keys.length) {
      c++;
      i = 0;
    }
    return c < this.chunks.length ? [c, i] : null;
  }

  /** `[key, value]` of the first key >= `key`, or undefined. */
  getPairOrNextHigher(key: StreamId): [StreamId, V] | undefined {
    const at = this.seek(key, false);
    if (!at) return undefined;
    const chunk = this.chunks[at[0]];
    return [chunk.keys[at[1]], chunk.values[at[1]]];
  }

  /** `[key, value]` of the first key > `key`, or undefined. */
  nextHigherPair(key: StreamId): [StreamId, V] | undefined {
    const at = this.seek(key, true);
    if (!at) return undefined;
    const chunk = this.chunks[at[0]];
    return [chunk.keys[at[1]], chunk.values[at[1]]];
  }

  /**
   * Visit the pairs with key >= `from` in ascending order until `visit` returns false. `visit`
   * must not change the map. O(log n) to start, O(1) per step.
   */
  forEachFrom(from: StreamId, visit: IdMapVisitor<V>): void {
    const at = this.seek(from, false);
    if (!at) return;
    const chunks = this.chunks;
    for (let c = at[0], i = at[1]; c < chunks.length; c++, i = 0) {
      const { keys, values } = chunks[c];
      for (; i < keys.length; i++) if (visit(keys[i], values[i]) === false) return;
    }
  }

  keysArray(): StreamId[] {
    const out: StreamId[] = [];
    for (const chunk of this.chunks) for (const k of chunk.keys) out.push(k);
    return out;
  }

  valuesArray(): V[] {
    const out: V[] = [];
    for (const chunk of this.chunks) for (const v of chunk.values) out.push(v);
    return out;
  }

  /** Values in key order. */
  *values(): Generator<V> {
    for (const chunk of this.chunks) yield* chunk.values;
  }
}
