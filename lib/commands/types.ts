/**
 * The contract between command modules and the adapter. Command modules parse arguments,
 * call the pure model and shape replies; they never touch ioredis or ioredis-mock.
 */
import type { ServerConfig } from '../config/server-config';
import type { Stream } from '../model/stream';
import type { StreamId } from '../model/stream-id';
import type { KeyValue } from '../rdb/key-value';
import type { StringMark } from '../model/string-encoding';
import type { RedisVersion } from '../version';

import type { Reply } from '../reply/reply';

/** A typed reply (lib/reply/reply.ts): front ends encode it for their protocol. */
export type { Reply };

/** Key access for one client (key prefix applied by the adapter). */
export interface Db {
  /** The stream at `key`; undefined when missing; throws WRONGTYPE when the key holds another type. */
  getStream(key: string): Stream | undefined;
  /**
   * `getStream` as a read lookup (lookupKeyRead): a key found counts a keyspace hit (before
   * WRONGTYPE), a missing one a miss and the `keymiss` event (see `keyHit` / `keyMiss`).
   */
  readStream(key: string): Stream | undefined;
  /** True if the key exists (any type). */
  exists(key: string): boolean;
  /** Store a new empty stream at `key` (the key must be missing). */
  createStream(key: string): Stream;
  /** The key has new data for blocked readers (XADD, MKSTREAM, XGROUP DESTROY). Does not dirty WATCH. */
  signalReady(key: string): void;
  /** The key was modified (dirties WATCH); does not wake blocked readers. */
  touch(key: string): void;
  /** A keyspace event of class `t` (stream) happened on `key` (e.g. 'xadd', 'xgroup-create'). */
  notify(event: string, key: string): void;

  // Generic key access, for the families the engine owns (strings, keys, hashes, lists, sets,
  // sorted sets …). Keys, fields, members and values are byte strings (lib/bytes). Values are
  // the model's own: a string is a byte string; a hash, list, set or sorted set is its model
  // class (lib/model), whose `redisType` names its type (lib/keyspace/value-type.ts).

  /**
   * The value stored at `key` after lazy expiry (Redis lookupKey), or undefined. The object
   * itself, not a copy: a command that changes it in place then calls `touch(key)` (and
   * `signalReady(key)` when blocked pops may now be served). The lookup counts as an access of
   * the key (OBJECT IDLETIME) unless `noTouch` (Redis LOOKUP_NOTOUCH: TYPE, EXISTS, TTL, OBJECT).
   */
  lookup(key: string, noTouch?: boolean): unknown;
  /**
   * Store `value` at `key`, replacing any value of any type (Redis setKey / dbAdd): the TTL is
   * removed unless `keepTtl`; WATCH is dirtied and calls blocked on the key are signalled. A
   * string built or changed in place passes the encoding its command gives it (`mark`,
   * lib/model/string-encoding.ts); without one its encoding follows its content.
   */
  store(key: string, value: unknown, keepTtl?: boolean, mark?: StringMark): void;
  /** The encoding mark of the string at `key` (see `store`), undefined for none. Optional: without it every string's encoding follows its content. */
  stringMark?(key: string): StringMark | undefined;
  /**
   * While EXEC runs: the content of the string a queued command stored at `key` as its own argument
   * object (SET, MSET, GETSET, APPEND on a missing key …), undefined otherwise. Optional.
   */
  queuedArgvString?(key: string): string | undefined;
  /** Mark the string at `key` as changed in place (`mark`, see `store`) without storing anything: WATCH is not dirtied. */
  setStringMark?(key: string, mark: StringMark): void;
  /** Delete `key` (any type); true if it existed. Dirties WATCH, signals blocked calls. */
  remove(key: string): boolean;
  /** Absolute expiry of `key` in ms since the epoch, or undefined (no TTL or no key). */
  ttlAt(key: string): number | undefined;
  /**
   * Set the absolute expiry of an existing `key` (ms since the epoch); `exact`: the time as given
   * when it is past 2^53 ms (the number is then its nearest double).
   */
  setTtlAt(key: string, at: number, exact?: bigint): void;
  /** `ttlAt` exactly (Redis's long long): past 2^53 ms the time as it was set. */
  ttlAtExact?(key: string): bigint | undefined;
  /** Remove the TTL of `key`; true if it had one. */
  persist(key: string): boolean;
  /**
   * A keyspace notification (Redis notifyKeyspaceEvent): `type` is its class letter as in
   * notify-keyspace-events (`g` generic, `$` string, `l` list, `s` set, `h` hash, `z` sorted
   * set, `x` expired, `e` evicted, `t` stream, `m` key miss, `n` new key), `event` its name.
   */
  notifyEvent(type: string, event: string, key: string): void;
  /**
   * A read lookup (db.c lookupKeyRead, no LOOKUP_NOSTATS) found its key: INFO `keyspace_hits`.
   * Counted before any type check (a WRONGTYPE reply follows a hit); write lookups count nothing.
   * `count`: that many hits at once (MGET's, counted after its loop: one call, not one per key).
   */
  keyHit(count?: number): void;
  /**
   * A read lookup missed `key` (missing or expired): INFO `keyspace_misses` and the `keymiss`
   * event (class m), unless `notify` is false (LOOKUP_NONOTIFY: OBJECT).
   */
  keyMiss(key: string, notify?: boolean): void;
  /** Every key of this database (after lazy expiry), in no particular order. */
  keyNames(): string[];
  /**
   * A random double in [0, 1) from this keyspace's seeded generator (lib/keyspace/prng.ts), for
   * the commands whose Redis reply is random (SPOP, SRANDMEMBER …): the same choices on every run.
   * Optional: without it a command uses a module-wide seeded generator.
   */
  random?(): number;
  /**
   * Whether the client's ACL user may read every key with the command argv (Redis
   * ACLUserCheckCmdWithUnrestrictedKeyAccess: SORT refuses its BY and GET patterns otherwise).
   * Optional: without it every key is readable.
   */
  fullKeyReadAccess?(argv: readonly string[]): boolean;

  // Keyspace-wide access for the generic key commands (lib/commands/keys.ts, object.ts).
  // Optional so that a minimal front end can leave them out: those commands then fall back to
  // `keyNames()` (DBSIZE, RANDOMKEY, SCAN) or throw a StreamsMockError (SWAPDB).

  /** Number of keys, keys whose TTL has passed but are not deleted yet included (Redis DBSIZE). */
  size?(): number;
  /** A random key (an expired one picked is deleted and another picked), or undefined when empty. */
  randomKey?(): string | undefined;
  /**
   * One SCAN step: from `cursor` (0 = start; a number below 2^52 this method returned, any other
   * is accepted) examine up to `count` keys; returns the keys found (expired ones left out) and
   * the next cursor (0 = done). Every key present for the whole iteration is returned once.
   */
  scan?(cursor: number, count: number): { cursor: number; keys: string[] };
  /** When `key` was last accessed (ms on the keyspace clock; Redis's LRU), undefined when missing. */
  accessedAt?(key: string): number | undefined;
  /** OBJECT FREQ: the LFU counter of `key` (decayed to now), undefined when missing. */
  lfuCounter?(key: string): number | undefined;
  /**
   * RESTORE … IDLETIME / FREQ (object.c objectSetLRUOrLFU): under an LFU policy `freq` sets the
   * counter, else `idleSeconds` the last access; -1 for one not given.
   */
  setAccess?(key: string, idleSeconds: number, freq: number): void;
  /**
   * Exchange the contents of databases `index1` and `index2` of this server (SWAPDB; both in
   * range, checked by the caller): keys and TTLs; WATCHes of both are dirtied, blocked calls
   * on their keys signalled. Connections stay on their database index.
   */
  swapDb?(index1: number, index2: number): void;

  // Whole-key access for the keyspace commands (DUMP, RESTORE, COPY) and CONFIG. Optional so
  // that a minimal front end can leave them out: those commands then throw a StreamsMockError.

  /** The value at `key` with its type (after lazy expiry), or undefined when the key is missing. */
  getValue?(key: string): KeyValue | undefined;
  /**
   * Store `value` at `key`, replacing whatever is there, with absolute expiry `expireAt` (ms since
   * the epoch; undefined = no TTL). Dirties WATCH; wakes blocked readers when a stream arrives.
   */
  setValue?(key: string, value: KeyValue, expireAt?: number): void;
  /** Delete `key` (any type); true if it existed. */
  deleteKey?(key: string): boolean;
  /** Absolute expiry of `key` in ms since the epoch, or undefined when it has no TTL. */
  expireAt?(key: string): number | undefined;
  /** The database `index` of the same server (COPY … DB), or undefined when unreachable. */
  selectDb?(index: number): Db | undefined;
  /** This database's index on its server (ioredis `db` option). */
  readonly dbIndex?: number;
  /** The configuration (CONFIG GET/SET) of the server this keyspace belongs to. */
  readonly config?: ServerConfig;
  /** Cluster mode: the port of the node the connection talks to (CONFIG GET port); absent outside a cluster. */
  readonly nodePort?: number;

  /**
   * The command changed the dataset `n` times (Redis `server.dirty += n`; INFO persistence
   * `rdb_changes_since_last_save`). Optional: front ends without INFO may leave it out.
   */
  dirty?(n: number): void;
  /**
   * `n` hash fields were deleted because their TTL passed (a lazy expiry, or a time in the past
   * given to HEXPIRE, HGETEX, HSETEX …): INFO `expired_subkeys` (t_hash.c stat_expired_subkeys).
   * Optional: front ends without INFO may leave it out.
   */
  subkeysExpired?(n: number): void;
  /**
   * A value was handed to the lazyfree thread (INFO `lazyfreed_objects`: lazyfree.c freeObjAsync).
   * Optional: front ends without INFO may leave it out.
   */
  lazyfreed?(): void;
  /** CONFIG RESETSTAT: zero the server's INFO statistics (commandstats, errorstats, Stats). */
  resetStats?(): void;
  /**
   * The replication stream while a replica is attached, else null (or absent): a command that
   * Redis propagates in another form than as sent says so here (lib/engine/replication.ts).
   */
  propagation?(): Propagation | null;
}

/**
 * What a command asks of the replication stream (Redis rewriteClientCommandVector, alsoPropagate,
 * preventCommandPropagation, forceCommandPropagation). By default a command that changed the
 * dataset propagates as sent; only the commands Redis propagates otherwise use this.
 */
export interface Propagation {
  /** Propagate the running command as `argv` instead of as sent (rewriteClientCommandVector). */
  rewrite(argv: string[]): void;
  /** Propagate `argv` in the command's database, ahead of the command itself (alsoPropagate). */
  also(argv: string[]): void;
  /** Do not propagate the running command itself (preventCommandPropagation). */
  prevent(): void;
  /** Propagate the running command even without a change of the dataset (forceCommandPropagation). */
  force(): void;
  /**
   * The running command found `fields` of the hash at `key` expired and removed them: an HDEL per
   * field (propagateHashFieldDeletion), ahead of the command.
   */
  expiredFields(key: string, fields: readonly string[]): void;
  /** The database the running command propagates in. */
  readonly db: number;
}


export type { KeyValue } from '../rdb/key-value';

/** Everything one execution of a command may read. */
export interface CommandContext {
  /** Command time snapshot in ms since the epoch (Redis `commandTimeSnapshot`). */
  readonly now: number;
  /** The emulated Redis version. */
  readonly version: RedisVersion;
  readonly db: Db;
  /** False inside MULTI/EXEC and scripts: BLOCK answers at once (Redis CLIENT_DENY_BLOCKING). */
  readonly canBlock: boolean;
  /** True when a blocked command is re-executed after a wake-up. */
  readonly isRetry: boolean;
  /** True when a Lua script runs the command (`redis.call`/`redis.pcall`); absent = false. */
  readonly inScript?: boolean;
  /** True when the server is a cluster node (`serve --cluster`, in-process Cluster); absent = false. */
  readonly clusterEnabled?: boolean;
}

/** Returned by XREAD/XREADGROUP when they must wait; the blocking machinery owns it. */
export interface BlockRequest {
  readonly kind: 'block';
  /** Keys (as given, without prefix) whose changes re-run the command. */
  readonly keys: string[];
  /** BLOCK argument in ms; 0 = wait forever. The deadline is fixed when the command first blocks. */
  readonly timeoutMs: number;
  /** Absolute ms at which to re-run even without a signal (XREADGROUP CLAIM), or null. */
  readonly wakeAt: number | null;
  /**
   * Re-execute with the original arguments; a BlockRequest result means "keep waiting".
   * `signalledKey` (without prefix) is the key whose signal caused the re-run (7.0 serves only
   * that key); undefined for a timer wake-up.
   */
  retry(ctx: CommandContext, signalledKey?: string): Reply | BlockRequest;
  /**
   * True when a deletion or type change of a key must wake the call (XREADGROUP: Redis
   * `unblock_on_nokey`; INFO `total_blocking_keys_on_nokey` counts such keys). Absent = false.
   */
  readonly unblockOnNoKey?: boolean;
  /** The reply at the deadline (or when released); absent = the nil array (XREAD, BLPOP). WAIT: 0. */
  readonly timeoutReply?: Reply;
  /**
   * XREAD: each stream key → the ID the call waits for entries after (`$` as it resolved). Read by
   * the test lifecycle to name a reader that entries written after a reset can no longer reach.
   */
  readonly waitsAfter?: ReadonlyMap<string, StreamId>;
}

export type CommandResult = Reply | BlockRequest;

export function isBlockRequest(r: unknown): r is BlockRequest {
  return typeof r === 'object' && r !== null && !Array.isArray(r) && (r as BlockRequest).kind === 'block';
}

/** argv includes the command name at index 0 (as Redis counts arity). */
export type CommandHandler = (ctx: CommandContext, argv: string[]) => CommandResult;

export interface CommandSpec {
  /** Lower-case name, e.g. 'xadd'. */
  readonly name: string;
  /** Redis arity: positive = exact, negative = at least |arity| (command name included). */
  readonly arity: number;
  /** Whether the command writes (used for MULTI/replica rules and docs). */
  readonly write: boolean;
  readonly run?: CommandHandler;
  /** Container commands (XGROUP, XINFO): subcommand name (lower-case) → spec. */
  readonly subcommands?: Record<string, { arity: number; run: CommandHandler }>;
}
