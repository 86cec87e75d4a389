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
import type { StringMark } from '../model/string-encoding';
import type { AccessPolicy } from '../config/server-config';
import { ChurnMap } from '../model/churn-map';
import { isPast } from '../model/expiry-time';
import { seedValue } from './mock-seed';

/** The LFU counter of a new key (server.h LFU_INIT_VAL). */
export const LFU_INIT_VAL = 5;

/** evict.c LFUGetTimeInMinutes: the minute of `ms` in 16 bits. */
function lfuMinutes(ms: number): number {
  return Math.floor(ms / 60000) & 65535;
}

/** evict.c LFUDecrAndReturn: the counter of LFU word `word` (minute << 8 | counter) decayed at `now`. */
export function lfuDecayed(word: number, now: number, decayTime: number): number {
  const ldt = Math.floor(word / 256);
  const counter = word & 255;
  const minutes = lfuMinutes(now);
  const elapsed = minutes >= ldt ? minutes - ldt : 65535 - ldt + minutes;
  const periods = decayTime > 0 ? Math.floor(elapsed / decayTime) : 0;
  if (periods === 0) return counter;
  return periods > counter ? 0 : counter - periods;
}

/** evict.c LFULogIncr: the counter after one access (logarithmic, probabilistic). */
function lfuLogIncr(counter: number, logFactor: number): number {
  if (counter === 255) return 255;
  const baseval = Math.max(0, counter - LFU_INIT_VAL);
  const p = 1 / (baseval * logFactor + 1);
  return Math.random() < p ? counter + 1 : counter;
}

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
  /**
   * The time of the command running now: the cell's `ms` is the keyspace clock's last reading
   * (ms; the keyspace writes it at each reading), undefined before the first. A key's last access
   * (OBJECT IDLETIME) is recorded with it, read without a call and without reading the clock
   * again. Optional: without it every access is recorded at `now()`.
   */
  readonly commandTime?: { readonly ms: number | undefined };
  /** `key` expired (lazily, on access, or actively, by `expireDue`) and was deleted. */
  expired?(key: string): void;
  /**
   * The earliest TTL of the store is now `at` (ms), or there is none (undefined): the owner
   * (re)arms its active-expiry timer, which calls `expireDue()` when `at` has come.
   */
  nextExpiry?(at: number | undefined): void;
  /**
   * Active expiry of hash fields (7.4 HFE) removed `fields` (in expiry order) from the hash at
   * `key`; `deleted`: that emptied the hash and the key was deleted.
   */
  fieldsExpired?(key: string, fields: string[], deleted: boolean): void;
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

/** Slots of the key index: a key, or a hole left by a deleted key. */
type Slot = string | undefined;

/**
 * An entry of a min-heap of TTLs: [time, key, seq]. `seq` (the order the TTL was set) breaks ties,
 * so keys due at the same ms expire in the order their TTLs were set (a binary heap alone is not
 * stable).
 */
type HeapEntry = [number, string, number];

/** The next `seq` of a heap entry (process-wide: SWAPDB moves entries between stores). */
let heapSeq = 0;

function heapLess(a: HeapEntry, b: HeapEntry): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[2] < b[2]);
}

function heapOrder(a: HeapEntry, b: HeapEntry): number {
  return a[0] - b[0] || a[2] - b[2];
}

/** Push onto a binary min-heap of [time, key, seq]. */
function heapPush(h: HeapEntry[], entry: HeapEntry): void {
  h.push(entry);
  let i = h.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!heapLess(h[i], h[parent])) break;
    [h[parent], h[i]] = [h[i], h[parent]];
    i = parent;
  }
}

/** Remove the least entry of a binary min-heap of [time, key, seq]. */
function heapPop(h: HeapEntry[]): void {
  const last = h.pop()!;
  if (h.length === 0) return;
  h[0] = last;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < h.length && heapLess(h[l], h[m])) m = l;
    if (r < h.length && heapLess(h[r], h[m])) m = r;
    if (m === i) break;
    [h[m], h[i]] = [h[i], h[m]];
    i = m;
  }
}

/** The first index of the ascending `live` whose value is ≥ `slot` (= how many are below it). */
function lowerBound(live: Int32Array, slot: number): number {
  let lo = 0;
  let hi = live.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (live[mid] < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The SCAN cursor layout: `cursor = generation * SLOT_BITS + slot`, where `slot` (< 2^32) is the
 * next position in the key index (`slots`) and `generation` (< GENERATIONS) counts the index's
 * renumberings — a compaction that drops the holes, or a reset (FLUSHDB/FLUSHALL, SWAPDB) —
 * modulo 2^20, so every cursor stays below 2^52, exact in a double (SCAN prints it as
 * an unsigned decimal, as Redis does). A cursor of the current generation continues at its
 * slot; one of the previous generation is mapped through `previousLive` to the first key kept
 * at or after its old slot; any older or foreign cursor starts a new iteration. 0 is both the
 * start and the end of an iteration (a step never returns slot 0 of generation 0).
 */
const SLOT_BITS = 2 ** 32;
const GENERATIONS = 2 ** 20;

export class KeyStore {
  /*
   * The per-key tables are ChurnMaps, not Maps: a key set and deleted over and over (a lock, a
   * job's key, a cache entry with a TTL) on a db of 1M keys kept every deleted entry in V8's
   * bucket chain, each lookup of that key walking them all (SET+DEL 70 µs at 1M keys, 8 µs at 1k).
   * Iteration order is insertion order, except that a key deleted and set again soon keeps its
   * first place (Redis's KEYS order is its hash table's, not insertion).
   */
  private readonly raw = new ChurnMap<unknown>();
  private readonly expiry = new ChurnMap<number>();
  /** Expiry times past 2^53 ms as they were set (`expiry` holds their nearest double): see exactExpiryOf. */
  private readonly exactExpiry = new Map<string, bigint>();
  /**
   * Last access of each key (ms on the keyspace clock): OBJECT IDLETIME; while the policy is an
   * LFU one (`access.lfu`), its LFU word instead: minute << 8 | counter (Redis's `lru` field).
   */
  private readonly accessed = new ChurnMap<number>();
  /** True when `accessed` holds LFU words (converted when the policy changes: `syncAccessMode`). */
  private accessLfu = false;
  /** Strings whose OBJECT ENCODING their last writer decided (lib/model/string-encoding.ts); cleared by a fresh value. */
  private readonly marks = new ChurnMap<StringMark>();
  /**
   * TTLs as a binary min-heap of [at, key, seq] (active expiry). An entry whose key has another
   * TTL (or none) by now is stale and skipped; the heap is rebuilt when stale entries dominate.
   */
  private heap: HeapEntry[] = [];
  /**
   * Hashes with field TTLs (7.4 HFE) by their earliest field expiry: a min-heap of [at, key, seq],
   * Redis's `db->hexpires`. `fieldAt` holds the `at` of each key's live entry; an entry with
   * another `at` is stale and skipped (the hash was re-timed, persisted, replaced or deleted).
   */
  private fieldHeap: HeapEntry[] = [];
  private readonly fieldAt = new ChurnMap<number>();
  /** The earliest TTL last reported through `hooks.nextExpiry` (undefined: none armed). */
  private reportedExpiry: number | undefined;
  /**
   * The key index of SCAN and RANDOMKEY, built on first use: every key in a slot, a deleted
   * key's slot left as a hole (so a SCAN cursor, a slot number, never skips a key present for
   * the whole iteration); compacted when holes outnumber keys (a new generation: cursors of
   * the previous one are translated, older ones restart).
   */
  private slots: Slot[] | null = null;
  private slotOf: ChurnMap<number> | null = null;
  private holes = 0;
  private generation = 0;
  /** Sorted old slot numbers of the keys kept by the last compaction (previous generation's cursors). */
  private previousLive: Int32Array | null = null;
  /**
   * SCAN visits slots below this: the index length when the last iteration started (cursor 0),
   * renumbered with the slots at compaction. Keys added during an iteration are then not
   * returned by it, so a loop that writes a key per key it sees ends (Redis's dictScan ends too:
   * a new key lands at a random bucket, often behind the cursor). It only grows within a
   * generation (a later SCAN 0, of any client, raises it), so an iteration reaches every slot
   * that existed when it started.
   */
  private scanLimit = 0;

  constructor(
    private readonly hooks: StoreHooks,
    /** The keyspace's stream node limits (CONFIG); every stream stored here reads them. */
    private readonly nodeLimits?: Readonly<NodeLimits>,
    /** LRU or LFU bookkeeping (CONFIG maxmemory-policy); without it, LRU. */
    private readonly access: Readonly<AccessPolicy> = { lfu: false, logFactor: 10, decayTime: 1 },
  ) {
    const time = (this.commandTime = hooks.commandTime ?? { ms: undefined });
    this.accessNow = () => time.ms ?? hooks.now();
  }

  /**
   * Set by a connection with CLIENT NO-TOUCH on while its command runs (not TOUCH): reads do not
   * count as accesses (db.c lookupKey LOOKUP_NOTOUCH).
   */
  noTouch = false;

  /** Record an access of `key` (db.c lookupKey: LRU time, or updateLFU) when getRaw's usual case does not apply. */
  private recordAccessSlow(key: string): void {
    if (this.noTouch) return;
    this.syncAccessMode();
    if (!this.accessLfu) {
      this.accessed.set(key, this.accessNow());
      return;
    }
    const now = this.accessNow();
    const word = this.accessed.get(key);
    const counter = word === undefined ? LFU_INIT_VAL : lfuLogIncr(lfuDecayed(word, now, this.access.decayTime), this.access.logFactor);
    this.accessed.set(key, lfuMinutes(now) * 256 + counter);
  }

  /**
   * After a switch between LRU and LFU policies, rewrite every key's access record in the new
   * form (Redis reinterprets the old bits, "LRU and LFU data will take some time to adjust"):
   * LFU counters start at LFU_INIT_VAL, LRU times at now.
   */
  private syncAccessMode(): void {
    const lfu = this.access.lfu;
    if (lfu === this.accessLfu) return;
    this.accessLfu = lfu;
    const now = this.accessNow();
    const value = lfu ? lfuMinutes(now) * 256 + LFU_INIT_VAL : now;
    for (const key of this.accessed.keys()) this.accessed.set(key, value);
  }

  /** A new value at `key` (createObject / dbSetValue): LRU now; LFU a fresh counter, or the old one kept on overwrite. */
  private recordWrite(key: string, existed: boolean): void {
    if (!this.access.lfu && !this.accessLfu) {
      this.accessed.set(key, this.accessNow());
      return;
    }
    this.syncAccessMode();
    if (!this.accessLfu) this.accessed.set(key, this.accessNow());
    else if (!existed || !this.accessed.has(key)) this.accessed.set(key, lfuMinutes(this.accessNow()) * 256 + LFU_INIT_VAL);
  }

  /** OBJECT FREQ: the LFU counter of `key` decayed to now (LFU policies only), undefined when missing. */
  lfuCounter(key: string): number | undefined {
    if (!this.raw.has(key)) return undefined;
    this.syncAccessMode();
    const word = this.accessed.get(key);
    if (!this.accessLfu) return LFU_INIT_VAL;
    return word === undefined ? LFU_INIT_VAL : lfuDecayed(word, this.hooks.now(), this.access.decayTime);
  }

  /**
   * RESTORE … IDLETIME / FREQ (object.c objectSetLRUOrLFU): under an LFU policy `freq` (0 … 255)
   * becomes the counter; else `idleSeconds` sets the last access that many seconds ago. A value
   * of -1 is not given. True when something was set.
   */
  setAccess(key: string, idleSeconds: number, freq: number): boolean {
    if (!this.raw.has(key)) return false;
    this.syncAccessMode();
    const now = this.accessNow();
    if (this.accessLfu) {
      if (freq < 0) return false;
      this.accessed.set(key, lfuMinutes(now) * 256 + freq);
      return true;
    }
    if (idleSeconds < 0) return false;
    this.accessed.set(key, now - idleSeconds * 1000);
    return true;
  }

  /** Every key, expired ones not yet dropped included (eviction candidates). */
  allKeys(): string[] {
    return this.raw.keyList();
  }

  /** The keys with a TTL and their expiry (ms), for volatile eviction policies. */
  volatileEntries(): IterableIterator<[string, number]> {
    return this.expiry.entries();
  }

  /** The eviction score of `key` under an LRU (its last access, ms) or LFU policy (its decayed counter). */
  evictionScore(key: string): number {
    this.syncAccessMode();
    const word = this.accessed.get(key) ?? 0;
    return this.accessLfu ? lfuDecayed(word, this.hooks.now(), this.access.decayTime) : word;
  }

  /**
   * CLIENT PAUSE WRITE/ALL in force (db.c expireIfNeeded, PAUSE_ACTION_EXPIRE): a key past its TTL
   * reads as missing but is not deleted (DBSIZE counts it, no `expired` event, INFO expired_keys
   * unchanged), and active expiry waits for the end of the pause.
   */
  expiryPaused = false;

  /**
   * Drop `key` if its TTL has passed on the keyspace clock. True when it has passed but the key
   * is kept (`expiryPaused`): the caller treats it as missing.
   */
  private expireIfDue(key: string): boolean {
    if (this.expiry.size === 0) return false; // no TTL anywhere: the usual case, no lookup
    const at = this.expiry.get(key);
    if (at !== undefined && isPast(at, this.hooks.now())) {
      if (this.expiryPaused) return true;
      this.expireKey(key);
    }
    return false;
  }

  /** Delete `key` because its TTL passed, and report it (keyspace event `expired`). */
  private expireKey(key: string): void {
    const existed = this.raw.has(key);
    this.remove(key);
    if (existed) this.hooks.expired?.(key);
  }

  /**
   * Hash field expiration (7.4) seen from the generic key commands (EXISTS, KEYS, SCAN, INFO …):
   * the hash at `key` loses its due fields here, and the key goes with the last one, with the
   * events of active expiry (`hooks.fieldsExpired`: `hexpired`, `del`), as Redis's active expiry
   * would have done by then (the engine runs the due expiries before each command, so this only
   * meets fields that came due while the command runs). Not while expiry is paused (CLIENT PAUSE:
   * Redis deletes no field then, and its key commands do not look at fields).
   */
  private expireFieldsIfDue(key: string): void {
    if (RedisHash.volatileHashes <= 0 || this.expiryPaused) return;
    const v = this.raw.get(key);
    if (!(v instanceof RedisHash) || v.volatileCount === 0) return;
    const now = this.hooks.now();
    const next = v.nextExpiry();
    if (next === undefined || !isPast(next, now)) return;
    this.expireHashFields(key, now);
  }

  private remove(key: string): void {
    this.expiry.delete(key);
    if (!this.raw.has(key)) return;
    const old = this.raw.get(key);
    this.raw.delete(key);
    this.accessed.delete(key);
    if (this.marks.size > 0) this.marks.delete(key);
    this.unindex(key);
    this.hooks.modified(key);
    if (old instanceof Stream) this.hooks.streamRemoved(key);
  }

  /** The time a key access is recorded with (ms): the command's time, else `hooks.now()`. */
  private readonly accessNow: () => number;
  /** `hooks.commandTime`, or a cell that stays empty (every access then reads `hooks.now()`). */
  private readonly commandTime: { readonly ms: number | undefined };

  /** The stored value without expiring it (for observers inside a write). */
  peekRaw(key: string): unknown {
    return this.raw.get(key);
  }

  /**
   * The stored value itself (no copy), after lazy expiry; records the access (OBJECT IDLETIME)
   * unless `noTouch` (Redis LOOKUP_NOTOUCH: `peekLive`).
   */
  getRaw(key: string, noTouch?: boolean): unknown {
    // expireIfDue's and the access record's usual cases written out: every read of every
    // command comes here, and V8 compiles functions as small as those with TurboFan within a
    // test file's first commands
    if (this.expiry.size !== 0 && this.expireIfDue(key)) return undefined;
    const v = this.raw.table.get(key);
    if (v !== undefined && noTouch !== true) {
      // db.c lookupKey: the LRU time (recordAccessSlow: LFU, NO-TOUCH)
      if (!this.access.lfu && !this.accessLfu && !this.noTouch) this.accessed.set(key, this.commandTime.ms ?? this.accessNow());
      else this.recordAccessSlow(key);
    }
    return v;
  }

  /** The stored value after lazy expiry, without recording an access (Redis LOOKUP_NOTOUCH). */
  peekLive(key: string): unknown {
    if (this.expireIfDue(key)) return undefined;
    return this.raw.get(key);
  }

  /** When `key` was last read or written (ms on the keyspace clock), or undefined when missing (or under an LFU policy). */
  accessedAt(key: string): number | undefined {
    if (!this.raw.has(key)) return undefined;
    this.syncAccessMode();
    return this.accessLfu ? undefined : this.accessed.get(key);
  }

  hasKey(key: string): boolean {
    if (this.expireIfDue(key)) return false;
    this.expireFieldsIfDue(key);
    return this.raw.has(key);
  }

  /** Store a value (streams by reference); a string with the encoding `mark` its writer gave it, if any. */
  setRaw(key: string, val: unknown, mark?: StringMark): void {
    if (val === undefined) return this.remove(key); // never stored (the tables hold no undefined)
    if (val instanceof Stream && this.nodeLimits) val.entries.limits = this.nodeLimits;
    const old = this.raw.get(key);
    this.raw.set(key, val);
    if (mark !== undefined) this.marks.set(key, mark);
    else if (this.marks.size > 0) this.marks.delete(key);
    this.recordWrite(key, old !== undefined);
    if (old === undefined && this.slots !== null) this.indexKey(key);
    this.hooks.modified(key);
    if (old instanceof Stream && old !== val) this.hooks.streamRemoved(key);
    if (val instanceof Stream && old !== val) this.hooks.streamArrived(key);
    if (val instanceof RedisHash && val.volatileCount !== 0) this.noteHashFields(key);
  }

  deleteKey(key: string): void {
    this.remove(key);
  }

  /** Mark the value at `key`, if any, as `mark` decided its encoding (no write: WATCH untouched). */
  markString(key: string, mark: StringMark): void {
    // unshared again (dbUnshareStringValue of a raw string): its grown allocation stays
    if (mark === 'raw' && typeof this.marks.get(key) === 'object') return;
    if (this.raw.has(key)) this.marks.set(key, mark);
  }

  /** How the string at `key` got its encoding when not by its content (lib/model/string-encoding.ts). */
  stringMarkOf(key: string): StringMark | undefined {
    return this.marks.size === 0 ? undefined : this.marks.get(key);
  }

  /** Delete `key` if it holds an empty list, set, sorted set or hash (see isEmptyAggregate). */
  dropIfEmptyAggregate(key: string): void {
    if (this.raw.has(key) && isEmptyAggregate(this.raw.get(key))) this.remove(key);
  }

  /** Report an in-place change of `key` (a stream command modified it): dirties WATCH. */
  markModified(key: string): void {
    this.hooks.modified(key);
    if (RedisHash.volatileHashes > 0) this.noteHashFields(key);
  }

  /** Keys holding a stream (for flush notifications and debugging). */
  streamKeys(): string[] {
    return [...this.raw].filter(([, v]) => v instanceof Stream).map(([k]) => k);
  }

  /** Remove every key and TTL; reports each stream removed. */
  clearAll(): void {
    const keys = this.raw.keyList();
    const streams = new Set(this.streamKeys());
    this.raw.clear();
    this.expiry.clear();
    this.exactExpiry.clear();
    this.accessed.clear();
    this.marks.clear();
    this.fieldHeap = [];
    this.fieldAt.clear();
    this.resetIndexes();
    for (const key of keys) {
      this.hooks.modified(key);
      if (streams.has(key)) this.hooks.streamRemoved(key);
    }
  }

  /** Every key (byte strings) after lazy expiry, in insertion order. */
  keyNames(): string[] {
    const out: string[] = [];
    for (const key of this.raw.keyList()) {
      if (this.expireIfDue(key)) continue;
      this.expireFieldsIfDue(key);
      if (this.raw.has(key)) out.push(key);
    }
    return out;
  }

  /** Number of keys (expired keys not yet dropped included, as Redis's DBSIZE). */
  get size(): number {
    return this.raw.size;
  }

  /**
   * Set the absolute expiry of `key` (ms since the epoch). `exact`: the time as given when it is
   * past 2^53 ms (the number is then the nearest double; TTL replies and GT/LT use the exact one).
   */
  setExpiry(key: string, at: number, exact?: bigint): void {
    at = +at;
    this.expiry.set(key, at);
    if (exact !== undefined && !Number.isSafeInteger(at)) this.exactExpiry.set(key, exact);
    else if (this.exactExpiry.size !== 0) this.exactExpiry.delete(key);
    if (this.hooks.nextExpiry) this.pushExpiry(at, key);
    this.hooks.expiryChanged(key);
  }

  /** Remove the TTL of `key`; true if it had one. */
  removeExpiry(key: string): boolean {
    if (!this.expiry.delete(key)) return false;
    if (this.exactExpiry.size !== 0) this.exactExpiry.delete(key);
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
    set: (key: string, val: unknown) => {
      // ioredis-mock's shapes as a server holds them: its stream arrays become streams, empty
      // containers and its XREAD bookkeeping keys are not stored (./mock-seed.ts)
      const seeded = seedValue(typeof key === 'string' ? key : String(key), val);
      if (seeded.kind === 'none') this.remove(bytesOf(key));
      else this.setRaw(bytesOf(key), seeded.kind === 'stream' ? seeded.value : copyValue(seeded.value));
    },
  });

  /** ioredis-mock-compatible shared expires object, on the keyspace clock (keys as the emulators hold them). */
  readonly expires: SharedExpires = Object.freeze({
    clear: () => {
      this.expiry.clear();
    this.exactExpiry.clear();
      this.heap = [];
      this.reportNextExpiry();
    },
    get: (key: string) => this.expiry.get(bytesOf(key)),
    set: (key: string, timestamp: number) => this.setExpiry(bytesOf(key), timestamp),
    has: (key: string) => this.expiry.has(bytesOf(key)),
    isExpired: (key: string) => {
      const at = this.expiry.get(bytesOf(key));
      return at !== undefined && isPast(at, this.hooks.now());
    },
    delete: (key: string) => void this.removeExpiry(bytesOf(key)),
  });

  /**
   * Exchange every key and TTL with `other` (SWAPDB). Waiters on stream keys of either side are
   * signalled, and every key is reported modified (WATCH).
   */
  swapWith(other: KeyStore): void {
    if (other === this) return;
    const [myHeap, theirHeap] = [this.heap, other.heap];
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
    const myExact = new Map(this.exactExpiry);
    this.exactExpiry.clear();
    for (const [k, v] of other.exactExpiry) this.exactExpiry.set(k, v);
    other.exactExpiry.clear();
    for (const [k, v] of myExact) other.exactExpiry.set(k, v);
    const myMarks = new Map(this.marks);
    this.marks.clear();
    for (const [k, v] of other.marks) this.marks.set(k, v);
    other.marks.clear();
    for (const [k, v] of myMarks) other.marks.set(k, v);
    this.syncAccessMode();
    other.syncAccessMode();
    const myAccess = new Map(this.accessed);
    this.accessed.clear();
    for (const [k, v] of other.accessed) this.accessed.set(k, v);
    other.accessed.clear();
    for (const [k, v] of myAccess) other.accessed.set(k, v);
    this.resetIndexes();
    other.resetIndexes();
    fill(this, theirs, mine[0]);
    fill(other, mine, theirs[0]);
    // the heaps go with the keys (their entries' seqs keep the order TTLs were set in)
    this.heap = theirHeap;
    other.heap = myHeap;
    [this.fieldHeap, other.fieldHeap] = [other.fieldHeap, this.fieldHeap];
    const myFieldAt = new Map(this.fieldAt);
    this.fieldAt.clear();
    for (const [k, v] of other.fieldAt) this.fieldAt.set(k, v);
    other.fieldAt.clear();
    for (const [k, v] of myFieldAt) other.fieldAt.set(k, v);
    this.rebuildFieldHeap();
    other.rebuildFieldHeap();
    this.rebuildHeap();
    other.rebuildHeap();
  }

  /** True when `key` has a TTL that has passed on the keyspace clock (not yet dropped). */
  isExpired(key: string): boolean {
    const at = this.expiry.get(key);
    return at !== undefined && isPast(at, this.hooks.now());
  }

  /** Absolute expiry time of a full key in ms, if it has a TTL. */
  expiryOf(key: string): number | undefined {
    return this.expiry.get(key);
  }

  /**
   * `expiryOf` exactly, as Redis's long long holds it: past 2^53 ms the time as it was set (when
   * it was given exactly), else the stored number.
   */
  exactExpiryOf(key: string): bigint | undefined {
    const at = this.expiry.get(key);
    if (at === undefined) return undefined;
    if (Number.isSafeInteger(at)) return BigInt(at);
    const exact = this.exactExpiry.get(key);
    return exact !== undefined && Number(exact) === at ? exact : BigInt(at);
  }

  // -------------------------------------------------------------------------------------------
  // Active expiry (Redis activeExpireCycle, here exact: every key goes when its TTL passes)

  private pushExpiry(at: number, key: string): void {
    const h = this.heap;
    heapPush(h, [at, key, heapSeq++]);
    // stale entries (TTL changed or removed since) dominate: rebuild from the live TTLs
    if (h.length > 64 && h.length > 2 * this.expiry.size) this.rebuildHeap();
    else if (this.reportedExpiry === undefined || at < this.reportedExpiry) this.reportNextExpiry();
  }

  private popExpiry(): void {
    heapPop(this.heap);
  }

  /** Drop stale entries from the top; the earliest live TTL, or undefined. */
  private earliestExpiry(): number | undefined {
    const h = this.heap;
    while (h.length > 0) {
      const [at, key] = h[0];
      if (this.expiry.get(key) === at && this.raw.has(key)) return at;
      this.popExpiry();
    }
    return undefined;
  }

  private rebuildHeap(): void {
    // each live TTL keeps the seq it was set with (the latest entry of its key)
    const seqOf = new Map<string, number>();
    for (const [at, key, seq] of this.heap) if (this.expiry.get(key) === at && (seqOf.get(key) ?? -1) < seq) seqOf.set(key, seq);
    this.heap = [...this.expiry].map(([key, at]) => [at, key, seqOf.get(key) ?? heapSeq++] as HeapEntry).sort(heapOrder);
    this.reportNextExpiry();
  }

  /** The pause ended (`expiryPaused` cleared): active expiry resumes, at once for keys already due. */
  resumeExpiry(): void {
    this.expiryPaused = false;
    this.reportedExpiry = undefined;
    this.reportNextExpiry();
  }

  private reportNextExpiry(): void {
    if (!this.hooks.nextExpiry) return;
    const keyAt = this.earliestExpiry();
    const fieldAt = this.fieldHeap.length === 0 ? undefined : this.earliestFieldExpiry();
    const at = fieldAt === undefined || (keyAt !== undefined && keyAt <= fieldAt) ? keyAt : fieldAt;
    if (at === this.reportedExpiry) return;
    this.reportedExpiry = at;
    this.hooks.nextExpiry(at);
  }

  /**
   * One active expire cycle (expire.c activeExpireCycle) at the keyspace clock's time: first the
   * hashes with due fields (activeExpireHashFieldCycle runs before the keys of a database), each
   * losing all its due fields at once (`hooks.fieldsExpired`), in the order of their earliest due
   * field; then every key whose TTL has passed (`hooks.expired`), in TTL order. Redis takes keys
   * in its hash table's order, which depends on a per-process seed; TTL order (ties: the order
   * the TTLs were set) is the order the events would have come in had the clock moved gradually.
   * Then the next TTL is reported. The owner runs it when its active-expiry timer fires and
   * before each command once the earliest TTL has passed.
   */
  expireDue(): void {
    if (this.expiryPaused) return; // re-armed by resumeExpiry
    const now = this.hooks.now();
    this.reportedExpiry = undefined;
    if (this.fieldHeap.length !== 0) {
      for (let at = this.earliestFieldExpiry(); at !== undefined && isPast(at, now); at = this.earliestFieldExpiry()) {
        const key = this.fieldHeap[0][1];
        heapPop(this.fieldHeap);
        this.fieldAt.delete(key);
        this.expireHashFields(key, now);
      }
    }
    for (let at = this.earliestExpiry(); at !== undefined && isPast(at, now); at = this.earliestExpiry()) {
      const key = this.heap[0][1];
      this.popExpiry();
      this.expireKey(key);
    }
    this.reportNextExpiry();
  }

  // -------------------------------------------------------------------------------------------
  // Active expiry of hash fields (t_hash.c hashTypeDbActiveExpire; here exact: a hash loses each
  // field when its TTL passes, and the key goes with the last one)

  /** Register the earliest field TTL of the hash at `key`, if it has one (after any write to it). */
  private noteHashFields(key: string): void {
    if (!this.hooks.nextExpiry) return;
    const v = this.raw.get(key);
    if (!(v instanceof RedisHash) || v.volatileCount === 0) return;
    const at = v.nextExpiry();
    if (at === undefined || this.fieldAt.get(key) === at) return;
    this.fieldAt.set(key, at);
    heapPush(this.fieldHeap, [at, key, heapSeq++]);
    if (this.fieldHeap.length > 64 && this.fieldHeap.length > 2 * this.fieldAt.size) this.rebuildFieldHeap();
    if (this.reportedExpiry === undefined || at < this.reportedExpiry) this.reportNextExpiry();
  }

  /** Drop stale entries from the top of the field heap; the earliest live one's time, or undefined. */
  private earliestFieldExpiry(): number | undefined {
    const h = this.fieldHeap;
    while (h.length > 0) {
      const [at, key] = h[0];
      if (this.fieldAt.get(key) === at) return at;
      heapPop(h);
    }
    return undefined;
  }

  private rebuildFieldHeap(): void {
    // a hash still due when it was last registered keeps that registration's seq
    const seqOf = new Map<string, number>();
    for (const [at, key, seq] of this.fieldHeap) if (this.fieldAt.get(key) === at) seqOf.set(key, seq);
    this.fieldAt.clear();
    this.fieldHeap = [];
    if (RedisHash.volatileHashes <= 0) return;
    for (const [key, v] of this.raw) {
      if (!(v instanceof RedisHash) || v.volatileCount === 0) continue;
      const at = v.nextExpiry();
      if (at !== undefined) this.fieldAt.set(key, at);
    }
    this.fieldHeap = [...this.fieldAt].map(([key, at]) => [at, key, seqOf.get(key) ?? heapSeq++] as HeapEntry).sort(heapOrder);
  }

  /** hashTypeActiveExpire: remove the due fields of the hash at `key` (the key with the last one). */
  private expireHashFields(key: string, now: number): void {
    if (this.expireIfDue(key)) return;
    const v = this.raw.get(key);
    if (!(v instanceof RedisHash) || v.volatileCount === 0) return;
    const gone = v.expireDue(now);
    if (gone.length !== 0) {
      const deleted = v.size === 0;
      if (deleted) this.remove(key);
      else this.hooks.modified(key);
      this.hooks.fieldsExpired?.(key, gone, deleted);
    }
    if (this.raw.get(key) === v) this.noteHashFields(key);
  }

  // -------------------------------------------------------------------------------------------
  // Key index: SCAN cursors and RANDOMKEY

  private buildIndex(): Slot[] {
    const slots: Slot[] = this.raw.keyList();
    this.slots = slots;
    const slotOf = (this.slotOf = new ChurnMap<number>());
    for (let i = 0; i < slots.length; i++) slotOf.set(slots[i] as string, i);
    this.holes = 0;
    this.scanLimit = slots.length;
    return slots;
  }

  private indexKey(key: string): void {
    this.slotOf!.set(key, this.slots!.length);
    this.slots!.push(key);
  }

  private unindex(key: string): void {
    if (this.slots === null) return;
    const slot = this.slotOf!.get(key);
    if (slot === undefined) return;
    this.slotOf!.delete(key);
    this.slots[slot] = undefined;
    this.holes++;
    if (this.holes > 64 && this.holes > this.raw.size) this.compact();
  }

  /** Drop the holes (a new generation; cursors of the previous one stay valid through `previousLive`). */
  private compact(): void {
    const old = this.slots!;
    const live = new Int32Array(old.length - this.holes);
    const slots: Slot[] = [];
    for (let i = 0; i < old.length; i++) {
      const key = old[i];
      if (key === undefined) continue;
      live[slots.length] = i;
      this.slotOf!.set(key, slots.length);
      slots.push(key);
    }
    this.slots = slots;
    this.holes = 0;
    this.previousLive = live;
    this.scanLimit = lowerBound(live, this.scanLimit);
    this.generation = (this.generation + 1) % GENERATIONS;
  }

  private resetIndexes(): void {
    this.slots = null;
    this.slotOf = null;
    this.holes = 0;
    this.previousLive = null;
    this.generation = (this.generation + 1) % GENERATIONS;
    this.heap = [];
    this.reportNextExpiry();
  }

  /** The slot a SCAN cursor continues at (-1 for a cursor of an older generation: start again). */
  private slotOfCursor(cursor: number): number {
    const generation = Math.floor(cursor / SLOT_BITS);
    const slot = cursor % SLOT_BITS;
    if (generation === this.generation) return slot;
    const live = this.previousLive;
    if (live === null || generation !== (this.generation + GENERATIONS - 1) % GENERATIONS) return -1;
    // the first kept key at or after the old slot
    return lowerBound(live, slot);
  }

  /**
   * One SCAN step (db.c scanGenericCommand over the key index): from `cursor` (0 = start),
   * examine up to `count` keys (and at most 10 × `count` slots, holes included), returning the
   * keys found (expired ones deleted and left out) and the next cursor (0 = done). Every key
   * present for the whole iteration is returned exactly once; keys added meanwhile are not
   * (slots at or past the scan limit are not visited: `scanLimit`). `cursor` is a number below
   * 2^52 (one this method returned, or any other: a cursor the store never gave either
   * continues at some slot or ends the iteration).
   */
  scan(cursor: number, count: number): { cursor: number; keys: string[] } {
    const slots = this.slots ?? this.buildIndex();
    let slot = cursor === 0 ? -1 : this.slotOfCursor(cursor);
    if (slot < 0) {
      // a new iteration (or one restarted: its cursor's generation is gone)
      slot = 0;
      this.scanLimit = slots.length;
    }
    const limit = Math.min(this.scanLimit, slots.length);
    const found: string[] = [];
    let examined = 0;
    let visited = 0;
    const maxVisits = count * 10;
    while (slot < limit && examined < count && visited < maxVisits) {
      const key = slots[slot++];
      visited++;
      if (key === undefined) continue;
      examined++;
      found.push(key);
    }
    // expired keys go now (they may compact the index: the cursor is taken after)
    const keys = this.expiry.size === 0 ? found : found.filter((k) => !this.expireIfDue(k) && this.raw.has(k));
    const current = this.slots!;
    if (current !== slots) slot = Math.max(0, this.slotOfCursor(this.generationCursor(slot, slots)));
    if (slot >= current.length || slot >= this.scanLimit) return { cursor: 0, keys };
    return { cursor: this.generation * SLOT_BITS + slot, keys };
  }

  /** The cursor of `slot` in index `slots` before a compaction that happened during one scan step. */
  private generationCursor(slot: number, slots: Slot[]): number {
    return slots === this.slots ? this.generation * SLOT_BITS + slot : ((this.generation + GENERATIONS - 1) % GENERATIONS) * SLOT_BITS + slot;
  }

  /**
   * A random key (db.c dbRandomKey: an expired key picked is deleted and another picked), or
   * undefined when the store is empty. O(1) on average (holes are at most half the slots).
   */
  randomKey(): string | undefined {
    for (;;) {
      if (this.raw.size === 0) return undefined;
      const slots = this.slots ?? this.buildIndex();
      const key = slots[Math.floor(Math.random() * slots.length)];
      if (key === undefined) continue;
      const at = this.expiry.get(key);
      if (at !== undefined && isPast(at, this.hooks.now())) {
        this.expireKey(key);
        continue;
      }
      return key;
    }
  }
}
