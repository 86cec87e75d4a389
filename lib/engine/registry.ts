/**
 * What the engine shares between connections: one `ServerState` per emulated server
 * (host:port, as ioredis-mock names its contexts), holding its databases (one `Keyspace` per
 * SELECT index), its pub/sub channels and its script cache; and the registry of open
 * connections (CLIENT LIST, INFO clients).
 *
 * Connections are held weakly: a client a test drops without disconnecting is collected like
 * any object (a real server would keep the socket; a test suite creating thousands of clients
 * must not run out of memory).
 */
import { idleTimeoutChanged } from './idle-timeout';
import { realNextTick } from '../clock/real-timers';
import { createHash } from 'crypto';
import { EventEmitter } from 'events';
import { Keyspace } from '../keyspace/keyspace';
import { type ConfigSnapshot, ServerConfig } from '../config/server-config';
import { type AclUsersSnapshot, aclStateOf } from './acl';
import type { ClockControl } from '../commands/server/mockclock';
import { ServerStats } from '../stats/server-stats';
import type { ClusterState } from './cluster';
import { Replication } from './replication';
import { watchMaxmemory } from './maxmemory';
import type { TrackingState } from './tracking';
import type { ClientPause } from './pause';
import type { Reply } from '../reply/reply';
import { Slowlog } from './slowlog';
import type { LatencyMonitor } from '../stats/latency-monitor';
import { performance } from 'perf_hooks';
import { StreamsMockError } from '../clock/clock';

/** Number of databases (Redis `databases` default): SELECT accepts 0 … 15. */
export const DATABASES = 16;

/**
 * One emulated server. Pub/sub is server-wide (as in Redis: PUBLISH reaches subscribers on
 * every db); the emitters have ioredis-mock's shape (`channels.instanceListeners`), so its
 * SUBSCRIBE/PUBLISH emulators and engine connections meet on them.
 */
/** A script running in slices on a server (see ServerState.busyScript). */
export interface BusyScript {
  /** The connection that runs it (not held back by it). */
  readonly conn: object;
  /** `performance.now()` when the script started. */
  readonly startedAt: number;
  /** Settles when the script has ended. */
  readonly done: Promise<void>;
  /**
   * Settles once `busy-reply-threshold` ms have passed since it started (checked between its
   * slices, on real time: no timer, so fake timers cannot hold it back); never when that is 0.
   */
  readonly thresholdPassed: Promise<void>;
  /** The BUSY error other connections get (EVAL: "…SCRIPT KILL…", FCALL: "…FUNCTION KILL…"). */
  readonly busyText?: string;
  /**
   * Stop it now (it is between two slices), its caller's EVAL/FCALL rejecting with `error`
   * (default "ERR the server was closed while the script ran"): the server shuts down or
   * closes, or the test that started it ended.
   */
  readonly abort?: (error?: Error) => void;
}

/**
 * Whether a script that started at `startedAt` (`performance.now()`) has run past the server's
 * `busy-reply-threshold` (CONFIG, ms of real time, default 5000; 0: never): from then other
 * clients get BUSY and the server serves them between the script's steps (scriptIsTimedout()).
 */
export function pastBusyReplyThreshold(server: ServerState, startedAt: number): boolean {
  const threshold = Number(server.config.get('busy-reply-threshold') ?? '5000');
  return threshold > 0 && performance.now() - startedAt >= threshold;
}

/** A connection subscribed to shard channels (SSUBSCRIBE). */
export interface ShardSubscriber {
  /** Deliver `[smessage, channel, message]` (byte strings). */
  deliverShardMessage(channel: string, message: string): void;
  /** Cluster mode: the node the subscriber is connected to (null: a single server). */
  readonly clusterNode: number | null;
}

/** A server's CONFIG and ACL users at one moment (ServerState.settingsSnapshot). */
export interface SettingsSnapshot {
  readonly config: ConfigSnapshot;
  /** `config.changes` when the snapshot was taken or last restored. */
  configChanges: number;
  readonly users: AclUsersSnapshot;
  /** The ACL state's `changes` when the snapshot was taken or last restored. */
  aclChanges: number;
}

export class ServerState {
  private readonly dbs = new Map<number, Keyspace>();
  /** Channel name → listeners (ioredis-mock `context.channels`). */
  readonly channels = new EventEmitter();
  /** Pattern → listeners (ioredis-mock `context.patternChannels`). */
  readonly patternChannels = new EventEmitter();
  /**
   * Shard channel (byte string) → its SSUBSCRIBE subscribers (Redis 7.0 server.pubsubshard_channels;
   * a non-cluster server has one shard). Separate from `channels`: SPUBLISH reaches only these.
   */
  readonly shardChannels = new Map<string, Set<ShardSubscriber>>();
  /** SCRIPT LOAD / EVAL cache: lower-case SHA1 hex → script body (byte string). */
  readonly scripts = new Map<string, string>();
  /** CONFIG GET/SET values of this server (every database shares them). */
  readonly config = new ServerConfig();
  /** INFO counters: dirty, commandstats, errorstats, Stats section (lib/stats/server-stats.ts). */
  readonly stats = new ServerStats(0);
  /** INFO run_id / master_replid: 40 hex characters, fixed per host:port. */
  readonly runId: string;
  readonly replId: string;
  // ---- set by a network front end (the RESP server) ----
  /** The TCP port it listens on (INFO tcp_port; 0 without one). */
  tcpPort = 0;
  /** Server start on its clock (INFO uptime), or null (uptime 0). */
  startedAt: number | null = null;
  /** MOCKCLOCK's control of the clock, or null (MOCKCLOCK is then an unknown command). */
  clockControl: ClockControl | null = null;
  /**
   * The Lua script that has outlived its first slice and keeps this server busy (set by
   * lib/scripting/lua.ts), or null: the other connections wait for it, and get BUSY after
   * `busy-reply-threshold` ms (Connection.execute / enqueue).
   */
  busyScript: BusyScript | null = null;
  /** CONFIG `timeout` is set (not 0): idle connections are closed (./idle-timeout.ts). */
  idleTimeoutOn = false;
  /** The connection whose MOCKCLOCK is moving the clock now (active while its command runs). */
  clockMover: object | null = null;
  /**
   * Pub/sub messages published for ioredis clients and not delivered yet (ioredis-mock's listeners
   * deliver through `process.nextTick`: lib/engine/commands/pubsub.ts publishMessage collects
   * them here), or null. They are delivered on Node's own nextTick, or before the next command of
   * any client of this server if that comes first — as a subscriber's socket has the message
   * before the publisher's next reply (`await publish(); await ping()` finds it delivered).
   */
  pendingDeliveries: (() => void)[] | null = null;

  /** Deliver the pending pub/sub messages now, in publish order (a listener's throw stays uncaught). */
  deliverPending(): void {
    const queue = this.pendingDeliveries;
    if (queue === null) return;
    this.pendingDeliveries = null;
    for (const deliver of queue) {
      try {
        deliver();
      } catch (err) {
        realNextTick(() => {
          throw err;
        });
      }
    }
  }
  /**
   * The databases waiting for a TTL (a key's or a hash field's: Keyspace.onExpiryArmed). Before
   * each command the connection runs `expireDue()` when this is not empty.
   */
  readonly expiryArmed = new Set<Keyspace>();

  /**
   * Before a command (server.c beforeSleep → activeExpireCycle): every database whose earliest
   * TTL the clock has passed runs its due expiries, in database order (Redis's cycle walks the
   * databases one after the other), with their events, INFO counters and replication frames,
   * outside the command. Nothing while a script keeps the server busy (Redis runs no expire
   * cycle then).
   */
  expireDue(): void {
    if (this.busyScript !== null) return;
    const armed = this.expiryArmed;
    if (armed.size === 1) {
      for (const ks of armed) ks.expireDueNow();
      return;
    }
    for (const ks of [...armed].sort((a, b) => a.dbIndex - b.dbIndex)) ks.expireDueNow();
  }
  /**
   * What SHUTDOWN does once its checks passed, set by a network front end (`serve`: the server
   * closes); null in-process (lib/engine/commands/server.ts shutdownServer: connections closed,
   * data, scripts and functions gone).
   */
  shutdownHook: (() => void) | null = null;
  /**
   * Publishes a keyspace event no connection caused (a key expiring, actively or lazily) on
   * database `db`: set by the engine's connections (lib/engine/connection.ts), which own pub/sub.
   */
  eventSink: ((db: number, type: string, event: string, key: string) => void) | null = null;
  /**
   * Redis Cluster mode (lib/engine/cluster.ts): the masters sharing this server's db 0, or null
   * (a single server). Set by a front end that serves a cluster (`serve({ cluster })`).
   */
  declare cluster: ClusterState | null; // a short-path accessor (shortPathAccessors below)
  private clusterState: ClusterState | null = null;
  /**
   * Warn (console.warn, once per script and key) when a script reads or writes a key it did not
   * declare in KEYS: a cluster may place that key on another node. Off by default; on with
   * `serve({ warnUndeclaredKeys: true })`, the fake Cluster's option of that name, or the
   * environment variable IOREDIS_MOCK_STREAMS_WARN_UNDECLARED_KEYS=1 (every server).
   */
  warnUndeclaredKeys = false;
  /**
   * The replication stream (lib/engine/replication.ts): null until a replica attaches (SYNC);
   * commands then propagate to it.
   */
  declare replication: Replication | null; // a short-path accessor (shortPathAccessors below)
  private replicationState: Replication | null = null;
  /** REPLICAOF host port: the master this server replicates (nothing is fetched), or null. */
  declare master: { host: string; port: number } | null; // a short-path accessor (shortPathAccessors below)
  private masterAddress: { host: string; port: number } | null = null;

  /** The replication stream, created on first use (a replica attaches). */
  replicationStream(): Replication {
    return (this.replication ??= new Replication(
      () => Number(this.config.get('repl-ping-replica-period') ?? '10'),
      () => this.keyspace(0).redisVersion,
      () => this.master === null,
    ));
  }

  /**
   * server.pre_command_oom_state: whether the server was over `maxmemory` (after evicting) when
   * the command now running started (lib/engine/maxmemory.ts); a script's first write of a
   * denyoom command is refused then.
   */
  preCommandOom = false;
  /** SLOWLOG entries (lib/engine/slowlog.ts). */
  readonly slowlog = new Slowlog();
  private latencyMonitor: LatencyMonitor | null = null;
  /** LATENCY's samples (lib/stats/latency-monitor.ts, loaded on first use), taken while `latency-monitor-threshold` is set. */
  get latency(): LatencyMonitor {
    this.latencyMonitor ??= new (require('../stats/latency-monitor') as typeof import('../stats/latency-monitor')).LatencyMonitor();
    return this.latencyMonitor;
  }
  /** CLIENT PAUSE in force (lib/engine/pause.ts), or null. */
  declare clientPause: ClientPause | null; // a short-path accessor (shortPathAccessors below)
  private pauseState: ClientPause | null = null;
  /** Client-side caching (CLIENT TRACKING): created by the first connection that turns it on. */
  declare tracking: TrackingState | null; // a short-path accessor (shortPathAccessors below)
  private trackingState: TrackingState | null = null;
  /** Connections in MONITOR mode (lib/engine/connection/monitor.ts), or null when none. */
  declare monitors: Set<{ push(msg: Reply): void; readonly clusterNode: number | null }> | null; // a short-path accessor (shortPathAccessors below)
  private monitorSet: Set<{ push(msg: Reply): void; readonly clusterNode: number | null }> | null = null;

  /**
   * True while no server-wide state asks for the general path's checks, the one flag the short
   * path of a command (`Connection.runLane`) reads: no cluster, no replica attached, not a
   * replica itself (REPLICAOF: READONLY, MASTERDOWN), no CLIENT PAUSE, no `maxmemory`, no
   * min-replicas-to-write in force, no CLIENT TRACKING, no MONITOR, the default
   * `slowlog-log-slower-than`. Recomputed whenever one of them changes (the accessors of `shortPathAccessors`,
   * CONFIG SET and CONFIG RESETSTAT's reset through the config's listeners).
   */
  shortPath = true;

  private updateShortPath(): void {
    const config = this.config;
    this.shortPath =
      this.clusterState === null &&
      this.replicationState === null &&
      this.masterAddress === null &&
      this.pauseState === null &&
      this.trackingState === null &&
      this.monitorSet === null &&
      config.maxmemory === 0 &&
      !config.replicasLacking &&
      config.slowlogSlowerThan === 10000 &&
      config.latencyMonitorThreshold === 0 &&
      !this.idleTimeoutOn;
  }

  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    this.runId = createHash('sha1').update(`run ${host}:${port}`).digest('hex');
    this.replId = createHash('sha1').update(`repl ${host}:${port}`).digest('hex');
    // many subscribers per channel are normal in tests
    this.channels.setMaxListeners(0);
    this.patternChannels.setMaxListeners(0);
    this.config.listeners.add((name) => {
      if (name === null || name === 'timeout') {
        this.idleTimeoutOn = this.config.get('timeout') !== '0';
        idleTimeoutChanged(this);
      }
    });
    this.config.listeners.add(() => this.updateShortPath());
    // INFO latencystats: what runs while latency-tracking is no is left out (a reset config: yes)
    this.config.listeners.add((name) => {
      if (name === null || name === 'latency-tracking') this.stats.setLatencyTracking(this.config.get('latency-tracking') !== 'no');
    });
    watchMaxmemory(this);
    this.config.setServerDefault('port', String(port)); // CONFIG GET port: this server's port
    this.config.computed.set('replicaof', () => (this.master === null ? '' : `${this.master.host} ${this.master.port}`));
  }

  /**
   * What CONFIG and the ACL users are now, for `restoreSettings` (the per-test reset of the
   * test-runner entries: taken when a test starts). `previous`, a snapshot of this server taken or
   * restored earlier, is returned as it is when neither has changed since: nothing is copied.
   */
  settingsSnapshot(previous?: SettingsSnapshot): SettingsSnapshot {
    const acl = aclStateOf(this);
    if (previous !== undefined && previous.configChanges === this.config.changes && previous.aclChanges === acl.changes) return previous;
    return { config: this.config.snapshot(), configChanges: this.config.changes, users: acl.snapshotUsers(), aclChanges: acl.changes };
  }

  /**
   * CONFIG and the ACL users back to `snapshot` (see `settingsSnapshot`): each parameter that
   * differs set again as CONFIG SET sets it, the users of the snapshot given back their state
   * then (connections authenticated as one keep it), users made since removed with their clients
   * closed, as ACL DELUSER does. The ACL LOG is emptied, as the reset always did. `snapshot` then
   * describes the server again (a later `settingsSnapshot(snapshot)` copies nothing).
   */
  restoreSettings(snapshot: SettingsSnapshot): void {
    const acl = aclStateOf(this);
    acl.log = [];
    acl.denied.auth = acl.denied.cmd = acl.denied.key = acl.denied.channel = 0;
    if (snapshot.configChanges !== this.config.changes) {
      this.config.restore(snapshot.config);
      snapshot.configChanges = this.config.changes;
    }
    // (after CONFIG: `requirepass` restored sets the default user's password, which the users' snapshot then gives back)
    if (snapshot.aclChanges !== acl.changes) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the ACL command module loads with the first ACL command
      (require('./commands/acl') as typeof import('./commands/acl')).restoreAclUsers(this, snapshot.users);
      snapshot.aclChanges = acl.changes;
    }
  }

  /** The keyspace of database `db` (created on first use). */
  keyspace(db: number): Keyspace {
    let ks = this.dbs.get(db);
    if (!ks) {
      ks = new Keyspace(`${this.host}:${this.port}/${db}`, db, this.config); // CONFIG is per server
      const expiredIn = ks;
      ks.onExpired = (key) => {
        this.stats.expiredKeys++; // deleteExpiredKeyAndPropagate: INFO expired_keys (lazy and active)
        this.eventSink?.(expiredIn.dbIndex, 'x', 'expired', key);
        this.replication?.expired(expiredIn.dbIndex, key, this.config.get('lazyfree-lazy-expire') === 'yes');
      };
      // t_hash.c hashTypeExpire (active expiry): hexpired, del when emptied; each field an HDEL
      ks.onFieldsExpired = (key, fields, deleted) => {
        this.stats.expiredSubkeys += fields.length; // t_hash.c: stat_expired_subkeys per field
        this.eventSink?.(expiredIn.dbIndex, 'h', 'hexpired', key);
        if (deleted) this.eventSink?.(expiredIn.dbIndex, 'g', 'del', key);
        this.replication?.fieldsExpired(expiredIn.dbIndex, key, fields);
      };
      ks.onModified = (key) => this.tracking?.keyModified(key);
      ks.onExpiryArmed = (armedKs, armed) => {
        if (armed) this.expiryArmed.add(armedKs);
        else this.expiryArmed.delete(armedKs);
      };
      this.dbs.set(db, ks);
      // one server, one clock and Redis version: a database no client configured uses db 0's
      if (db !== 0) ks.follow(this.keyspace(0));
    }
    return ks;
  }

  /** The databases created so far. */
  keyspaces(): IterableIterator<Keyspace> {
    return this.dbs.values();
  }
}

/**
 * The server-wide states the short path depends on, as accessors on the prototype (one shape):
 * reading gives the private slot, setting stores it and recomputes `shortPath`.
 */
function shortPathAccessors(accessors: Record<'cluster' | 'replication' | 'master' | 'clientPause' | 'tracking' | 'monitors', string>): void {
  for (const [name, slot] of Object.entries(accessors)) {
    Object.defineProperty(ServerState.prototype, name, {
      get(this: Record<string, unknown>) {
        return this[slot];
      },
      set(this: Record<string, unknown> & { updateShortPath(): void }, value: unknown) {
        this[slot] = value;
        this.updateShortPath();
      },
      configurable: true,
    });
  }
}
shortPathAccessors({ cluster: 'clusterState', replication: 'replicationState', master: 'masterAddress', clientPause: 'pauseState', tracking: 'trackingState', monitors: 'monitorSet' });

const servers = new Map<string, ServerState>();

/**
 * The names of this machine's loopback addresses a default redis-server (`bind 127.0.0.1 -::1`)
 * answers on: `localhost`, `127.0.0.1` and `::1` on one port are one server (one keyspace, one
 * ACL table), as on a real machine; so are `0.0.0.0` (`0`) and `::` (Linux connects a socket given
 * the unspecified address to this machine: `redis-cli -h 0.0.0.0` reaches a server bound to
 * 127.0.0.1, `-h ::` one bound to ::1).
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '0.0.0.0', '0', '::', '[::]']);

/** The host name a server is registered under: the loopback names are one (`localhost`). */
export function canonicalHost(host: string): string {
  const lower = host.toLowerCase();
  return LOOPBACK.has(lower) || lower === 'localhost.' ? 'localhost' : host;
}

/** The server at host:port (created on first use). */
export function serverFor(host: string, port: number): ServerState {
  host = canonicalHost(host);
  const id = `${host}:${port}`;
  let s = servers.get(id);
  if (!s) {
    s = new ServerState(host, port);
    servers.set(id, s);
  }
  return s;
}

/** The keyspace host:port/db. */
export function keyspaceFor(host: string, port: number, db: number): Keyspace {
  return serverFor(host, port).keyspace(db);
}

/**
 * The server tables of every copy of the package loaded in this global scope (one jest test
 * file): after `jest.resetModules()` or inside `jest.isolateModules()` a test loads a second
 * copy with its own servers, which the setup file's reset (made by the first copy) must reach
 * too. Held weakly: a copy nobody uses any more is collected with its keyspaces.
 */
const COPIES = Symbol.for('ioredis-mock-streams.serverTables');
const copies: Set<WeakRef<Map<string, ServerState>>> = ((globalThis as { [COPIES]?: Set<WeakRef<Map<string, ServerState>>> })[COPIES] ??= new Set());
copies.add(new WeakRef(servers));

/** Every server created so far, by this copy of the package and by any other (see allKeyspaces). */
export function* allServers(): IterableIterator<ServerState> {
  for (const ref of [...copies]) {
    const table = ref.deref();
    if (table === undefined) {
      copies.delete(ref);
      continue;
    }
    yield* table.values();
  }
}

/**
 * Stop the scripts still running (in slices) on every server: each one's caller rejects with
 * StreamsMockError "… a script still running at the reset …" (`resetAllKeyspaces()` and the
 * per-test reset of the test-runner entries, at the end of a test).
 */
export function stopRunningScripts(): void {
  for (const server of allServers()) {
    const busy = server.busyScript;
    if (busy === null) continue;
    const ms = Math.round(performance.now() - busy.startedAt);
    busy.abort?.(new StreamsMockError(`a script still running at the reset of the keyspaces (the end of its test) was stopped after ${ms} ms: a script that never ends fails its test`));
  }
}

/**
 * Every keyspace created so far, by this copy of the package and by any other copy loaded in
 * the same global scope (each keyspace keeps its own copy's code): the jest setup's reset and
 * `resetAllKeyspaces()` walk them.
 */
export function* allKeyspaces(): IterableIterator<Keyspace> {
  for (const ref of [...copies]) {
    const table = ref.deref();
    if (table === undefined) {
      copies.delete(ref);
      continue;
    }
    for (const s of table.values()) yield* s.keyspaces();
  }
}

// ---------------------------------------------------------------------------------------------
// Open connections

/** The part of a connection the registry needs. */
export interface Registered {
  readonly id: number;
  readonly closed: boolean;
}

let lastId = 0;
const open = new Map<number, WeakRef<Registered>>();
const collected = new FinalizationRegistry<number>((id) => {
  const ref = open.get(id);
  if (ref && ref.deref() === undefined) open.delete(id);
});

/** The next CLIENT ID (unique, increasing, per process). */
export function nextClientId(): number {
  return ++lastId;
}

/** Record an open connection (weakly). */
export function register(conn: Registered): void {
  open.set(conn.id, new WeakRef(conn));
  collected.register(conn, conn.id, conn);
}

/** Forget a connection (closed). */
export function unregister(conn: Registered): void {
  open.delete(conn.id);
  collected.unregister(conn);
}

/** The open connection with CLIENT ID `id`, or null. */
export function registeredById(id: number): Registered | null {
  const conn = open.get(id)?.deref();
  return conn === undefined || conn.closed ? null : conn;
}

/** Every open connection still referenced, in id order. */
export function* openRegistered(): IterableIterator<Registered> {
  for (const [id, ref] of open) {
    const conn = ref.deref();
    if (conn === undefined) open.delete(id);
    else if (!conn.closed) yield conn;
  }
}
