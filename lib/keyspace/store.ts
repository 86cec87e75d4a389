/**
 * The key/value store behind one ioredis-mock keyspace (host:port/db). It replaces
 * ioredis-mock's own shared data so that: streams are stored as live objects (ioredis-mock
 * hands back shallow copies, which would lose the model's methods), key expiry follows the
 * keyspace clock instead of the real Date, and every deletion, overwrite or flush is reported
 * to the blocking machinery (ioredis-mock's FLUSHALL emits nothing).
 *
 * Keys are byte strings (lib/bytes: one char per byte), so `x\xff` and `x\xfe` are two keys.
 *
 * For ioredis-mock's emulators it offers the shape of their data and expires objects
 * (get/set/has/delete/keys/clear and get/set/has/isExpired/delete/clear): those views take a key
 * as the emulators hold it (a JS string, written as UTF-8, or a Buffer) and give keys back as
 * UTF-8 text, and copy non-stream values on get/set exactly as ioredis-mock does.
 */
import { bytesOf, utf8Of } from '../bytes/index';
import { Stream } from '../model/stream';
import { RedisHash } from '../model/hash';
import type { NodeLimits } from '../model/stream-entries';

export interface StoreHooks {
  /** Current keyspace time in ms. */
  now(): number;
  /** A key's value was written, replaced or deleted (for WATCH). */
  modified(key: string): void;
  /** A stream value left `key` (deleted, expired, overwritten, flushed, renamed away). */
  streamRemoved(key: string): void;
  /** A stream value was stored at `key` by a generic command (RENAME/COPY destination, RESTORE). */
  streamArrived(key: string): void;
  /** A TTL was set or removed on `key`. */
  expiryChanged(key: string): void;
}

/**
 * An empty list, set, sorted set or hash: Redis never keeps one (the key goes away with its last
 * element). ioredis-mock creates them before filling them and writes them back when emptied,
 * so the adapter drops them after each of its commands (`dropIfEmptyAggregate`).
 */
export function isEmptyAggregate(val: unknown): boolean {
  if (Array.isArray(val)) return val.length === 0;
  if (val instanceof Set || val instanceof Map) return val.size === 0;
  return typeof val === 'object' && val !== null && !Buffer.isBuffer(val) && !(val instanceof Stream) && Object.keys(val).length === 0;
}

function copyValue(val: unknown): unknown {
  if (val instanceof Stream) return val;
  // a value of the engine's model (lib/model, e.g. RedisSet) is shared, as a stream is
  if (typeof val === 'object' && val !== null && 'redisType' in val) return val;
  if (Array.isArray(val)) return val.slice();
  if (Buffer.isBuffer(val)) return Buffer.from(val);
  if (val instanceof Set) return new Set(val);
  if (val instanceof Map) return new Map(val);
  if (typeof val === 'object' && val !== null) return { ...val };
  return val;
}

/** ioredis-mock's shared-data interface. */
export interface SharedData {
  clear(): void;
  delete(key: string): void;
  get(key: string): unknown;
  has(key: string): boolean;
  keys(prefix?: string): string[];
  set(key: string, val: unknown): void;
}

/** ioredis-mock's shared-expires interface (absolute unix ms). */
export interface SharedExpires {
  clear(): void;
  get(key: string): number | undefined;
  set(key: string, timestamp: number): void;
  has(key: string): boolean;
  isExpired(key: string): boolean;
  delete(key: string): void;
}

export class KeyStore {
  private readonly raw = new Map<string, unknown>();
  private readonly expiry = new Map<string, number>();

  constructor(
    private readonly hooks: StoreHooks,
    /** The keyspace's stream node limits (CONFIG); every stream stored here reads them. */
    private readonly nodeLimits?: Readonly<NodeLimits>,
  ) {}

  /** Drop `key` if its TTL has passed on the keyspace clock. */
  private expireIfDue(key: string): void {
    if (this.expiry.size === 0) return; // no TTL anywhere: the usual case, no lookup
    const at = this.expiry.get(key);
    if (at !== undefined && at <= this.hooks.now()) this.remove(key);
  }

  /**
   * Hash field expiration (7.4) seen from the generic key commands (EXISTS, KEYS, SCAN, INFO …):
   * the hash at `key` loses its due fields here, and the key goes with the last one, as Redis's
   * active expiry would have done by then. No `hexpired`/`del` event is sent
   * from here (the store has no connection to publish on); the hash commands remove due fields
   * with their events (lib/commands/hash-common.ts).
   */
  private expireFieldsIfDue(key: string): void {
    if (RedisHash.volatileHashes <= 0) return;
    const v = this.raw.get(key);
    if (!(v instanceof RedisHash) || v.volatileCount === 0) return;
    const now = this.hooks.now();
    const next = v.nextExpiry();
    if (next === undefined || next > now) return;
    v.expireDue(now);
    if (v.size === 0) this.remove(key);
  }

  private remove(key: string): void {
    this.expiry.delete(key);
    if (!this.raw.has(key)) return;
    const old = this.raw.get(key);
    this.raw.delete(key);
    this.hooks.modified(key);
    if (old instanceof Stream) this.hooks.streamRemoved(key);
  }

  /** The stored value without expiring it (for observers inside a write). */
  peekRaw(key: string): unknown {
    return this.raw.get(key);
  }

  /** The stored value itself (no copy), after lazy expiry. */
  getRaw(key: string): unknown {
    this.expireIfDue(key);
    return this.raw.get(key);
  }

  hasKey(key: string): boolean {
    this.expireIfDue(key);
    this.expireFieldsIfDue(key);
    return this.raw.has(key);
  }

  /** Store a value (streams by reference). */
  setRaw(key: string, val: unknown): void {
    if (val instanceof Stream && this.nodeLimits) val.entries.limits = this.nodeLimits;
    const old = this.raw.get(key);
    this.raw.set(key, val);
    this.hooks.modified(key);
    if (old instanceof Stream && old !== val) this.hooks.streamRemoved(key);
    if (val instanceof Stream && old !== val) this.hooks.streamArrived(key);
  }

  deleteKey(key: string): void {
    this.remove(key);
  }

  /** Delete `key` if it holds an empty list, set, sorted set or hash (see isEmptyAggregate). */
  dropIfEmptyAggregate(key: string): void {
    if (this.raw.has(key) && isEmptyAggregate(this.raw.get(key))) this.remove(key);
  }

  /** Report an in-place change of `key` (a stream command modified it): dirties WATCH. */
  markModified(key: string): void {
    this.hooks.modified(key);
  }

  /** Keys holding a stream (for flush notifications and debugging). */
  streamKeys(): string[] {
    return [...this.raw].filter(([, v]) => v instanceof Stream).map(([k]) => k);
  }

  /** Remove every key and TTL; reports each stream removed. */
  clearAll(): void {
    const keys = [...this.raw.keys()];
    const streams = new Set(this.streamKeys());
    this.raw.clear();
    this.expiry.clear();
    for (const key of keys) {
      this.hooks.modified(key);
      if (streams.has(key)) this.hooks.streamRemoved(key);
    }
  }

  /** Every key (byte strings) after lazy expiry, in insertion order. */
  keyNames(): string[] {
    const out: string[] = [];
    for (const key of [...this.raw.keys()]) {
      this.expireIfDue(key);
      this.expireFieldsIfDue(key);
      if (this.raw.has(key)) out.push(key);
    }
    return out;
  }

  /** Number of keys (expired keys not yet dropped included, as Redis's DBSIZE). */
  get size(): number {
    return this.raw.size;
  }

  /** Set the absolute expiry of `key` (ms since the epoch). */
  setExpiry(key: string, at: number): void {
    this.expiry.set(key, +at);
    this.hooks.expiryChanged(key);
  }

  /** Remove the TTL of `key`; true if it had one. */
  removeExpiry(key: string): boolean {
    if (!this.expiry.delete(key)) return false;
    this.hooks.expiryChanged(key);
    return true;
  }

  /** ioredis-mock-compatible shared data object (keys as the emulators hold them). */
  readonly data: SharedData = Object.freeze({
    clear: () => this.clearAll(),
    delete: (key: string) => this.remove(bytesOf(key)),
    get: (key: string) => copyValue(this.getRaw(bytesOf(key))),
    has: (key: string) => this.hasKey(bytesOf(key)),
    keys: (prefix?: string) => {
      const out: string[] = [];
      const bytePrefix = prefix ? bytesOf(prefix) : '';
      for (const key of this.keyNames()) if (!bytePrefix || key.startsWith(bytePrefix)) out.push(utf8Of(key));
      return out;
    },
    set: (key: string, val: unknown) => this.setRaw(bytesOf(key), copyValue(val)),
  });

  /** ioredis-mock-compatible shared expires object, on the keyspace clock (keys as the emulators hold them). */
  readonly expires: SharedExpires = Object.freeze({
    clear: () => this.expiry.clear(),
    get: (key: string) => this.expiry.get(bytesOf(key)),
    set: (key: string, timestamp: number) => this.setExpiry(bytesOf(key), timestamp),
    has: (key: string) => this.expiry.has(bytesOf(key)),
    isExpired: (key: string) => {
      const at = this.expiry.get(bytesOf(key));
      return at !== undefined && at <= this.hooks.now();
    },
    delete: (key: string) => void this.removeExpiry(bytesOf(key)),
  });

  /**
   * Exchange every key and TTL with `other` (SWAPDB). Waiters on stream keys of either side are
   * signalled, and every key is reported modified (WATCH).
   */
  swapWith(other: KeyStore): void {
    if (other === this) return;
    const mine = [new Map(this.raw), new Map(this.expiry)] as const;
    const theirs = [new Map(other.raw), new Map(other.expiry)] as const;
    const fill = (store: KeyStore, [raw, expiry]: readonly [Map<string, unknown>, Map<string, number>], before: Map<string, unknown>) => {
      store.raw.clear();
      store.expiry.clear();
      for (const [k, v] of raw) store.raw.set(k, v);
      for (const [k, v] of expiry) store.expiry.set(k, v);
      for (const key of new Set([...before.keys(), ...raw.keys()])) {
        store.hooks.modified(key);
        const was = before.get(key);
        const now = raw.get(key);
        if (was instanceof Stream && was !== now) store.hooks.streamRemoved(key);
        if (now instanceof Stream && was !== now) store.hooks.streamArrived(key);
        if (expiry.has(key)) store.hooks.expiryChanged(key);
      }
    };
    fill(this, theirs, mine[0]);
    fill(other, mine, theirs[0]);
  }

  /** True when `key` has a TTL that has passed on the keyspace clock (not yet dropped). */
  isExpired(key: string): boolean {
    const at = this.expiry.get(key);
    return at !== undefined && at <= this.hooks.now();
  }

  /** Absolute expiry time of a full key in ms, if it has a TTL. */
  expiryOf(key: string): number | undefined {
    return this.expiry.get(key);
  }
}
