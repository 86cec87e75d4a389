/**
 * A minimal in-memory harness for command-module unit tests: runs argv through the dispatcher
 * against a Map keyspace, with an explicit `now`. (End-to-end tests use the ioredis-mock
 * adapter instead; see __tests__/helpers/redis.ts.)
 */
import { dispatch } from '../../lib/commands/dispatch';
import type { BlockRequest, CommandContext, CommandResult, Db } from '../../lib/commands/types';
import { isBlockRequest } from '../../lib/commands/types';
import { toResp2Plain } from '../../lib/reply/reply';
import { CommandError, ERR_WRONGTYPE } from '../../lib/errors';
import { Stream } from '../../lib/model/stream';
import { DEFAULT_REDIS_VERSION, RedisVersion } from '../../lib/version';
import { ServerConfig } from '../../lib/config/server-config';

/** A command result in RESP2 form; a BlockRequest's re-runs answer in RESP2 form too. */
export function plainResult(out: CommandResult): CommandResult {
  if (!isBlockRequest(out)) return toResp2Plain(out) as CommandResult;
  const request: BlockRequest = { ...out, retry: (ctx, key) => plainResult(out.retry(ctx, key)) as ReturnType<BlockRequest['retry']> };
  return request;
}

export class Harness {
  /** The databases of this harness's server by index (this one included), sharing `now`, config. */
  private readonly server: Map<number, Harness>;
  private readonly root: Harness;
  /** Last access of each key (ms), for OBJECT IDLETIME / FREQ. */
  readonly accessed = new Map<string, number>();
  /** INFO rdb_changes_since_last_save as the commands counted it. */
  dirtyCount = 0;
  /** INFO lazyfreed_objects as the commands counted it. */
  lazyfreedCount = 0;
  readonly config: ServerConfig;

  /** A harness for database 0; `sibling(i)` gives database `i` of the same server. */
  constructor(
    readonly index = 0,
    root?: Harness,
  ) {
    this.root = root ?? this;
    this.server = root ? root.server : new Map();
    this.server.set(index, this);
    this.config = root ? root.config : new ServerConfig();
    Object.defineProperties(this.db, { dbIndex: { value: index }, config: { value: this.config } });
  }

  /** Database `index` of the same server (created on first use; `now` and `version` are the root's). */
  sibling(index: number): Harness {
    return this.server.get(index) ?? new Harness(index, this.root);
  }

  readonly keys = new Map<string, unknown>();
  readonly signals: string[] = [];
  readonly events: [string, string][] = [];
  /** Keyspace notifications of every class, as `[type, event, key]`. */
  readonly notifications: [string, string, string][] = [];
  /** INFO keyspace_hits / keyspace_misses as the read lookups counted them (Db keyHit / keyMiss). */
  keyspaceHits = 0;
  keyspaceMisses = 0;
  /** Absolute TTLs (ms) by key. */
  readonly ttls = new Map<string, number>();
  /** Expire times past 2^53 ms as set (`ttls` holds their nearest double), as the keyspace keeps them. */
  readonly exactTtls = new Map<string, bigint>();
  private ownNow = 1_700_000_000_000;
  private ownVersion: RedisVersion = DEFAULT_REDIS_VERSION;
  get now(): number {
    return this.root === this ? this.ownNow : this.root.now;
  }
  set now(v: number) {
    if (this.root === this) this.ownNow = v;
    else this.root.now = v;
  }
  get version(): RedisVersion {
    return this.root === this ? this.ownVersion : this.root.version;
  }
  set version(v: RedisVersion) {
    if (this.root === this) this.ownVersion = v;
    else this.root.version = v;
  }
  canBlock = true;

  readonly db: Db = {
    getStream: (key) => {
      const v = this.keys.get(key);
      if (v === undefined) return undefined;
      if (!(v instanceof Stream)) throw new CommandError(ERR_WRONGTYPE);
      return v;
    },
    readStream: (key) => {
      const v = this.db.lookup(key);
      if (v === undefined) {
        this.db.keyMiss(key);
        return undefined;
      }
      this.db.keyHit();
      if (!(v instanceof Stream)) throw new CommandError(ERR_WRONGTYPE);
      return v;
    },
    exists: (key) => this.keys.has(key),
    createStream: (key) => {
      const s = new Stream();
      this.keys.set(key, s);
      return s;
    },
    signalReady: (key) => void this.signals.push(key),
    touch: () => undefined,
    notify: (event, key) => void this.events.push([event, key]),
    lookup: (key, noTouch) => {
      const at = this.ttls.get(key);
      if (at !== undefined && at <= this.now) {
        this.keys.delete(key);
        this.ttls.delete(key);
        this.accessed.delete(key);
        this.notifications.push(['x', 'expired', key]);
      }
      const v = this.keys.get(key);
      if (v !== undefined && !noTouch) this.accessed.set(key, this.now);
      return v;
    },
    store: (key, value, keepTtl) => {
      this.keys.set(key, value);
      this.accessed.set(key, this.now);
      if (!keepTtl) this.ttls.delete(key);
    },
    remove: (key) => {
      if (this.db.lookup(key, true) === undefined) return false;
      this.ttls.delete(key);
      this.accessed.delete(key);
      return this.keys.delete(key);
    },
    ttlAt: (key) => (this.keys.has(key) ? this.ttls.get(key) : undefined),
    setTtlAt: (key, at, exact) => {
      this.ttls.set(key, at);
      if (exact !== undefined) this.exactTtls.set(key, exact);
      else this.exactTtls.delete(key);
    },
    ttlAtExact: (key) => {
      const at = this.keys.has(key) ? this.ttls.get(key) : undefined;
      if (at === undefined) return undefined;
      const exact = this.exactTtls.get(key);
      return exact !== undefined && Number(exact) === at ? exact : BigInt(at);
    },
    persist: (key) => this.ttls.delete(key),
    notifyEvent: (type, event, key) => void this.notifications.push([type, event, key]),
    keyHit: (count = 1) => void (this.keyspaceHits += count),
    keyMiss: (key, notify = true) => {
      this.keyspaceMisses++;
      if (notify) this.notifications.push(['m', 'keymiss', key]);
    },
    keyNames: () => [...this.keys.keys()].filter((k) => this.db.lookup(k, true) !== undefined),
    size: () => this.keys.size,
    accessedAt: (key) => (this.keys.has(key) ? this.accessed.get(key) : undefined),
    selectDb: (index) => this.sibling(index).db,
    swapDb: (a, b) => {
      const x = this.sibling(a);
      const y = this.sibling(b);
      for (const field of ['keys', 'ttls', 'accessed'] as const) {
        const mine = new Map<string, unknown>(x[field]);
        (x[field] as Map<string, unknown>).clear();
        for (const [k, v] of y[field]) (x[field] as Map<string, unknown>).set(k, v);
        (y[field] as Map<string, unknown>).clear();
        for (const [k, v] of mine) (y[field] as Map<string, unknown>).set(k, v);
      }
    },
    dirty: (n) => void (this.dirtyCount += n),
    lazyfreed: () => void this.lazyfreedCount++,
  };

  ctx(): CommandContext {
    return { now: this.now, version: this.version, db: this.db, canBlock: this.canBlock, isRetry: false };
  }

  /**
   * Run a command; returns the reply in its RESP2 form (`toResp2Plain`: what a RESP2 client
   * sees, e.g. XREAD's map as `[key, entries]` pairs, `+OK` as 'OK', nils as null) or the
   * BlockRequest, or throws CommandError. `runTyped` returns the typed reply itself.
   */
  run(...argv: (string | number)[]): CommandResult {
    return plainResult(this.runTyped(...argv));
  }

  runTyped(...argv: (string | number)[]): CommandResult {
    return dispatch(this.ctx(), argv.map(String));
  }

  /** Run a command expected to fail; returns the error text. */
  error(...argv: (string | number)[]): string {
    try {
      this.run(...argv);
    } catch (e) {
      if (e instanceof CommandError) return e.message;
      throw e;
    }
    throw new Error(`expected ${argv.join(' ')} to fail`);
  }
}
