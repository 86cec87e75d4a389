/**
 * One keyspace (an ioredis-mock host:port/db): its store, its clock, the emulated Redis
 * version and its blocked calls. All clients of the keyspace share these.
 */
import { BlockingQueue } from '../blocking/blocking';
import { acceptClock } from '../clock/accept';
import { Clock, ClockTimer, StreamsMockError, invalidNow, readNow, scheduleChecked } from '../clock/clock';
import { ServerConfig } from '../config/server-config';
import { globalClock } from '../clock/global-clock';
import { microsWithin } from '../clock/real-clock';
import { DEFAULT_REDIS_VERSION, RedisVersion, parseRedisVersion } from '../version';
import { KeyStore } from './store';
import { redisTypeOf } from './value-type';
import { KeySizes } from '../stats/key-sizes';
import { firstPastMs, isPast } from '../model/expiry-time';

export interface KeyspaceOptions {
  /**
   * The clock for stream IDs, idle times, BLOCK timeouts and key TTLs: createFakeClock(),
   * globalClock, realClock, a @sinonjs/fake-timers clock (adapted), or your own `Clock`.
   * @default globalClock — follows the global Date/setTimeout (so jest fake timers drive it)
   */
  clock?: Clock | FakeTimersClockLike;
  /**
   * Redis version to emulate ('7.0', '7.2', '7.4', '8.0', '8.2', '8.4', '8.6', '8.8', '8.10').
   * @default '8.10'
   */
  redisVersion?: RedisVersion | `${RedisVersion}.${number}`;
}

/** A @sinonjs/fake-timers clock (`createClock()`, `install()`): accepted and adapted. */
export interface FakeTimersClockLike {
  now: number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: never): void;
}

/** A connection's WATCH state as the keyspace sees it: set dirty when a watched key is modified. */
export interface KeyWatcher {
  dirty: boolean;
  /** A watched key was modified: mark dirty (and stop watching, as multi.c touchWatchedKey). */
  touched(): void;
}

/** What a refused clock change tells the caller to do. */
const CLOCK_CHANGE_FIX = ' (their BLOCK timeouts run on the clock they started on): set the clock before any call blocks, or pass the same clock';

export class Keyspace {
  /** The clock and version in force (this database's own, else those of the one it follows). */
  private currentClock: Clock = globalClock;
  private currentVersion: RedisVersion = DEFAULT_REDIS_VERSION;
  /** Given for this database (`streams` option, setClock/setRedisVersion), or null: it follows. */
  private ownClock: Clock | null = null;
  private ownVersion: RedisVersion | null = null;
  /** The database whose clock and version this one uses while it has none of its own (db 0 of its server), or null. */
  private followed: Keyspace | null = null;
  /** The databases that follow this one. */
  private readonly followers: Keyspace[] = [];
  /** Time snapshot while a MULTI/EXEC runs (Redis freezes command time for the transaction). */
  private frozenNow: number | null = null;
  /** The microseconds within `frozenNow`'s ms when it was taken (`snapshotMicros`). */
  private frozenMicros = 0;
  /** Keyspace-event listeners: (event, fullKey). */
  private readonly eventListeners = new Set<(event: string, key: string) => void>();
  readonly blocking: BlockingQueue;
  readonly store: KeyStore;
  /** WATCHing connections per full key (Redis `db->watched_keys`). */
  readonly watchers = new Map<string, Set<KeyWatcher>>();

  constructor(
    /** The keyspace's name: `host:port/db`, as ioredis-mock names its contexts. */
    readonly id = '',
    /** The database index (SELECT), for `__keyspace@<db>__` notifications and CLIENT LIST. */
    readonly dbIndex = 0,
    /**
     * CONFIG GET/SET values (Redis: per server). The engine's server state gives every
     * database of one host:port the same object.
     */
    readonly config = new ServerConfig(),
  ) {
    this.store = new KeyStore({
      now: () => this.now(),
      modified: (key) => this.touchWatchedKey(key),
      streamRemoved: (key) => this.blocking.signal(key),
      streamArrived: (key) => this.blocking.signal(key),
      expiryChanged: (key) => this.blocking.armExpiry(key),
      commandTime: this.lastNow,
      expired: (key) => this.onExpired?.(key),
      fieldsExpired: (key, fields, deleted) => this.onFieldsExpired?.(key, fields, deleted),
      nextExpiry: (at) => this.armActiveExpiry(at),
    }, this.config.nodeLimits, this.config.access);
    this.blocking = new BlockingQueue(() => this.currentClock, {
      at: (key) => this.store.expiryOf(key),
      probe: (key) => void this.store.hasKey(key),
    });
  }

  /**
   * The last time read (a command's time): key accesses are recorded with it (OBJECT IDLETIME).
   * A cell the store reads too (StoreHooks.commandTime).
   */
  private readonly lastNow: { ms: number | undefined } = { ms: undefined };
  /** The active-expiry timer on the keyspace clock, and the TTL it is armed for. */
  private expiryTimer: ClockTimer | null = null;
  private expiryTimerAt: number | undefined;

  /**
   * Called when a key expires, lazily (a command touched it after its TTL) or actively (its
   * TTL passed on the keyspace clock): the server publishes the `expired` keyspace event.
   */
  onExpired: ((key: string) => void) | undefined;

  /**
   * Called when active expiry removed `fields` of the hash at `key` (7.4 hash field expiration;
   * `deleted`: the key went with them): the server publishes `hexpired` (and `del`).
   */
  onFieldsExpired: ((key: string, fields: string[], deleted: boolean) => void) | undefined;

  /**
   * Called when this keyspace gets an earliest TTL to watch for (`armed`), or has none left: the
   * server keeps the set of such keyspaces, whose due expiries run before each command.
   */
  onExpiryArmed: ((ks: Keyspace, armed: boolean) => void) | undefined;

  /** The earliest TTL the active expiry waits for (ms), or undefined; tells `onExpiryArmed`. */
  private setExpiryAt(at: number | undefined): void {
    const was = this.expiryTimerAt;
    this.expiryTimerAt = at;
    if ((was === undefined) !== (at === undefined)) this.onExpiryArmed?.(this, at !== undefined);
  }

  /**
   * Arm the active-expiry timer for the earliest TTL `at` (ms), or cancel it (undefined). It fires
   * at `at + 1`, the first ms the key is expired (db.c keyIsExpired: now > when); then every key
   * whose TTL has passed is deleted (Redis's active expiry: a key goes, and `expired` is
   * published, without any command touching it). On the keyspace clock: a fake clock's timers
   * never become real ones; a real timer is unref'd (it never keeps a process or a jest worker
   * alive). A clock that cannot schedule leaves expiry to the commands
   * (`expireDueNow` before each one, lazy expiry on access).
   */
  private armActiveExpiry(at: number | undefined): void {
    if (at === this.expiryTimerAt && this.expiryTimer !== null) return;
    this.expiryTimer?.cancel();
    this.expiryTimer = null;
    this.setExpiryAt(at);
    if (at === undefined) return;
    const clock = this.currentClock;
    let timer: ClockTimer;
    try {
      timer = scheduleChecked(clock, () => {
        if (this.expiryTimer !== timer) return;
        this.expiryTimer = null; // spent: not cancelled again
        this.runActiveExpiry();
      }, Math.max(0, firstPastMs(at) - readNow(clock)));
    } catch {
      return; // a clock that cannot schedule (library misuse): keys still expire before commands and on access
    }
    timer.unref?.();
    this.expiryTimer = timer;
  }

  /** One active expire cycle now: the timer is spent, every due key and hash field goes, blocked readers are served. */
  private runActiveExpiry(): void {
    this.expiryTimer?.cancel();
    this.expiryTimer = null;
    this.setExpiryAt(undefined);
    try {
      this.store.expireDue();
    } finally {
      this.blocking.flush();
    }
  }

  /**
   * Before a command (server.c beforeSleep → activeExpireCycle): when the clock has passed the
   * earliest TTL — moved by a jump that fired no timer (a manual clock's `setSystemTime`, a
   * clock moved without running its timers) — run the expiries due by now, with their events,
   * as a server's expire cycle would have before it read the command. One comparison when
   * nothing is due. Not inside a transaction or script of this keyspace (time is frozen there;
   * Redis runs no expire cycle inside one).
   */
  expireDueNow(): void {
    const at = this.expiryTimerAt;
    if (at === undefined || this.frozenNow !== null) return;
    let now: number;
    try {
      now = readNow(this.currentClock);
    } catch {
      return; // a clock that answers no valid time: the command itself reports it
    }
    if (isPast(at, now)) this.runActiveExpiry();
  }

  /** Every key modification (the engine's client-side caching invalidates it: lib/engine/tracking.ts). */
  onModified: ((key: string) => void) | undefined;

  /** Per-key memory accounting (used_memory), created by the first `memoryBytes()` read. */
  private keySizes: KeySizes | undefined;

  /** Bytes of this database's keys and values (lib/stats/memory-model.ts), kept per key. */
  memoryBytes(): number {
    if (this.keySizes === undefined) this.keySizes = new KeySizes((k) => this.store.peekRaw(k), this.store.allKeys());
    return this.keySizes.total;
  }

  /** Store writes so far (a front end counts a command's key writes for INFO's dirty counter). */
  modifications = 0;

  /** A key was modified: every connection WATCHing it will see its EXEC fail (Redis `touchWatchedKey`). */
  touchWatchedKey(key: string): void {
    this.modifications++;
    if (this.keySizes !== undefined) this.keySizes.note(key);
    if (this.onModified !== undefined) this.onModified(key);
    if (this.watchers.size !== 0) {
      const set = this.watchers.get(key);
      if (set) for (const w of [...set]) w.touched();
    }
    // A push to a key that calls wait on (BLPOP, BZPOPMIN & co.): wake them (Redis
    // signalKeyAsReady for a list or sorted set; an empty one is never kept). Stream waiters are
    // signalled by the stream commands themselves.
    if (this.blocking.hasWaiters(key)) {
      const type = redisTypeOf(this.store.peekRaw(key));
      if (type === 'list' || type === 'zset') this.blocking.signal(key);
    }
  }

  get clock(): Clock {
    return this.currentClock;
  }

  get redisVersion(): RedisVersion {
    return this.currentVersion;
  }

  /** Apply options (shared by every client of this keyspace). */
  configure(options: KeyspaceOptions): void {
    if (options.clock !== undefined) this.setClock(options.clock);
    if (options.redisVersion !== undefined) this.setRedisVersion(options.redisVersion);
  }

  /**
   * Use `input` from now on (see KeyspaceOptions.clock), in this database and in those that follow
   * it without a clock of their own. Throws StreamsMockError for a bad clock, or when calls are
   * blocked where the clock would change.
   */
  setClock(input: Clock | FakeTimersClockLike): void {
    const clock = acceptClock(input);
    this.changeClock(clock);
    this.ownClock = clock;
  }

  setRedisVersion(version: RedisVersion | string): void {
    const parsed = parseRedisVersion(version);
    this.ownVersion = parsed;
    this.applyVersion(parsed);
  }

  /**
   * Use the clock and version of `db` (db 0 of the same server) while this database has none of
   * its own: a client that SELECTs another database keeps the server's clock and Redis version.
   */
  follow(db: Keyspace): void {
    if (db === this || this.followed !== null) return;
    this.followed = db;
    db.followers.push(this);
    if (this.ownVersion === null) this.applyVersion(db.currentVersion);
    if (this.ownClock === null && this.blocking.size === 0) this.applyClock(db.currentClock);
  }

  /** The clock given for this database itself, or null (it uses the followed database's or the global one). */
  get configuredClock(): Clock | null {
    return this.ownClock;
  }

  /** The Redis version given for this database itself, or null (the followed database's or the default). */
  get configuredVersion(): RedisVersion | null {
    return this.ownVersion;
  }

  private applyVersion(version: RedisVersion): void {
    this.currentVersion = version;
    for (const f of this.followers) if (f.ownVersion === null) f.applyVersion(version);
  }

  /** `clock` in force here and in the followers without their own; refused while calls are blocked where it changes. */
  private changeClock(clock: Clock): void {
    if (clock !== this.currentClock && this.blocking.size > 0) {
      throw new StreamsMockError(`cannot change the clock while calls are blocked in this keyspace${CLOCK_CHANGE_FIX}`);
    }
    for (const f of this.followers) {
      if (f.ownClock === null && clock !== f.currentClock && f.blocking.size > 0) {
        throw new StreamsMockError(`cannot change the clock while calls are blocked in database ${f.dbIndex}, which uses this keyspace's clock${CLOCK_CHANGE_FIX}`);
      }
    }
    this.applyClock(clock);
  }

  private applyClock(clock: Clock): void {
    const changed = clock !== this.currentClock;
    this.currentClock = clock;
    if (changed && this.expiryTimerAt !== undefined) {
      // the armed TTL moves to the new clock's timers
      const at = this.expiryTimerAt;
      this.expiryTimer?.cancel();
      this.expiryTimer = null;
      this.armActiveExpiry(at);
    }
    for (const f of this.followers) if (f.ownClock === null) f.applyClock(clock);
  }

  /** Current command time in ms. Throws StreamsMockError when the clock answers no valid time. */
  now(): number {
    const frozen = this.frozenNow;
    if (frozen !== null) return (this.lastNow.ms = frozen);
    // readNow(this.currentClock) written out: every command reads the clock here, and V8 compiles
    // a function as small as readNow with TurboFan within a test file's first commands
    const value: unknown = this.currentClock.now();
    if (typeof value !== 'number' || !(value >= 0 && value <= Number.MAX_SAFE_INTEGER)) invalidNow(value);
    return (this.lastNow.ms = Math.floor(value));
  }

  /**
   * The clock's time now (ms), even inside an atomic unit, whose `now()` is its snapshot: Redis
   * 7.0's mstime() inside a script (TTL, PTTL, relative expire times, `XADD *` IDs and delivery
   * times go on with the clock while key expiry stays at the script's start; 7.2 froze them all).
   * Throws StreamsMockError when the clock answers no valid time.
   */
  liveNow(): number {
    return this.frozenNow === null ? this.now() : readNow(this.currentClock);
  }

  /**
   * The time snapshot of an atomic unit: its ms (`now()` inside it; `lastNow` too unless
   * `setLastNow` is false) and the wall clock's microseconds within that ms (TIME's, Redis: the
   * one ustime() of cmd_time_snapshot; 0 on a clock that is not wall time).
   */
  private takeSnapshot(setLastNow = true): void {
    const ms = readNow(this.currentClock);
    this.frozenNow = ms;
    if (setLastNow) this.lastNow.ms = ms;
    this.frozenMicros = microsWithin(this.currentClock, ms);
  }

  /** Inside an atomic unit: the microseconds within its snapshot's ms that TIME reports (0–999). */
  get snapshotMicros(): number {
    return this.frozenMicros;
  }

  /** Inside an atomic unit (a script, EXEC): `now()` is its time snapshot. */
  get inAtomicSection(): boolean {
    return this.frozenNow !== null;
  }

  /** Run `fn` as one atomic unit: one time snapshot, blocked readers served after it. */
  atomically<T>(fn: () => T): T {
    const outer = this.frozenNow === null;
    if (outer) this.takeSnapshot();
    this.blocking.hold();
    try {
      return fn();
    } finally {
      if (outer) this.frozenNow = null;
      this.blocking.release();
    }
  }

  /**
   * `atomically` for a body that may end later (a Lua script that runs in slices): one time
   * snapshot and blocked readers held from now until the returned function is called (once).
   */
  beginAtomic(): () => void {
    const outer = this.frozenNow === null;
    if (outer) this.takeSnapshot(false);
    this.blocking.hold();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (outer) this.frozenNow = null;
      this.blocking.release();
    };
  }

  get inTransaction(): boolean {
    return this.frozenNow !== null;
  }

  onEvent(listener: (event: string, key: string) => void): () => void {
    this.eventListeners.add(listener);
    return () => void this.eventListeners.delete(listener);
  }

  emitEvent(event: string, key: string): void {
    if (this.eventListeners.size === 0) return; // the usual case: no iterator
    for (const l of this.eventListeners) l(event, key);
  }

  /**
   * Back to the default clock (global), version (8.10) and configuration. `keepBlocked`: the keys
   * go as with FLUSHALL (see `flushKeys`) instead of `reset`'s release of every blocked call.
   * `keepConfig`: CONFIG (and with it the ACL users) is left as it is (the per-test reset gives
   * the server's back itself: ServerState.restoreSettings).
   */
  restoreDefaults(options: { keepBlocked?: boolean; keepConfig?: boolean } = {}): void {
    if (options.keepBlocked) this.flushKeys();
    else this.reset();
    if (!options.keepConfig) this.config.reset();
    if (options.keepBlocked && this.hasBlockedOnClock()) {
      // calls still blocked here wait on this clock (their BLOCK timeouts): it stays, as
      // setClock would refuse to move them; the version goes back to the default
      this.ownVersion = null;
      this.applyVersion(this.followed?.currentVersion ?? DEFAULT_REDIS_VERSION);
      return;
    }
    const followed = this.followed;
    // (not refused for a follower's blocked calls: a reset releases them too, database by database)
    this.applyClock(followed?.currentClock ?? globalClock);
    this.ownClock = null;
    this.ownVersion = null;
    this.applyVersion(followed?.currentVersion ?? DEFAULT_REDIS_VERSION);
  }

  /** Whether calls are blocked here or in a database that uses this one's clock. */
  private hasBlockedOnClock(): boolean {
    return this.blocking.size > 0 || this.followers.some((f) => f.ownClock === null && f.blocking.size > 0);
  }

  /** Empty the keyspace: release blocked calls, drop every key. The clock is left as is. */
  reset(): void {
    this.blocking.releaseAll(new Error('Connection is closed.'));
    this.store.clearAll();
  }

  /**
   * Drop every key as FLUSHALL does to blocked calls (compared on 7.0.15 and the post-7.4 build):
   * a blocked BLPOP, BZPOPMIN or XREAD stays blocked and is served by the next write to its key;
   * a blocked XREADGROUP, whose stream and group are gone, fails at once ("UNBLOCKED the stream
   * key no longer exists" before 7.2, NOGROUP after). The clock is left as is.
   */
  flushKeys(): void {
    this.store.clearAll();
    this.blocking.flush();
  }
}
