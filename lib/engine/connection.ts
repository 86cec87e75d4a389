/**
 * One client connection to the emulated server: the state Redis keeps per client (`client` in
 * server.h) and the order in which its commands run. Every front end (the ioredis adapter, the
 * RESP server, the Upstash REST handler, the scenario replayer) hands argv to
 * `Connection.execute` and encodes the typed reply it gets back.
 *
 * This class holds the state and the entry points; each concern is a module of
 * lib/engine/connection/, functions of the connection (no object or closure per command):
 *
 * - order.ts: commands run in the order submitted; one submitted while an earlier one is blocked
 *   waits behind it, as on a real connection; a busy script; CLIENT REPLY OFF/SKIP.
 * - dispatch.ts: processCommand → call: the checks in Redis's order, then the engine's own
 *   commands (lib/engine/commands), the stream and family commands (lib/commands) and
 *   ioredis-mock's built-ins (run on its emulators, replies typed as Redis types them).
 * - lane.ts: the ioredis methods' short path for stream commands.
 * - transactions.ts: MULTI/EXEC/DISCARD/WATCH/UNWATCH (multi.c).
 * - pubsub.ts: subscriptions and push messages (pubsub.c).
 * - stats.ts: commandstats, errorstats, SLOWLOG, the timing sample of each command.
 * - acl-checks.ts: AUTH and the ACL checks; server-state.ts: BUSY, CLIENT PAUSE, maxmemory,
 *   min-replicas, replica, cluster refusals; propagation.ts: the replication frame;
 *   scripting.ts: a Lua script's redis.call; monitor.ts: MONITOR; builtin-host.ts: the bridge to
 *   ioredis-mock's emulators.
 *
 * Errors: an error reply rejects with `CommandError` (its message is Redis's full text);
 * a closed connection rejects with `Error('Connection is closed.')`, as ioredis says it.
 * Nothing throws synchronously.
 */
import { ensureIdleCheck } from './idle-timeout';
import type { Db } from '../commands/types';
import type { CommandError } from '../errors';
import type { Keyspace, KeyspaceOptions } from '../keyspace/keyspace';
import type { WatchState } from './watch';
import { PushReply, type Reply } from '../reply/reply';
import { StreamsMockError } from '../clock/clock';
import { predates, supports } from '../version';
import { makeDb, serverEventSink } from './db';
import { defaultEmulators, type EmulatorTable } from './emulators';
import { ServerState, nextClientId, openRegistered, register, registeredById, serverFor, unregister } from './registry';
import type { ReplicaFeed } from './replication';
import { type AclUser, aclStateOf } from './acl';
import { type ClientTracking, setConnectionLookup } from './tracking';
import { builtinFullName } from './command-timing';
import { validClientName } from './commands/connection';
import { EngineBuiltinHost } from './connection/builtin-host';
import { aclAllows, authenticate, checkBuiltinAcl } from './connection/acl-checks';
import { checkCommand, commandFullName, runCommand } from './connection/dispatch';
import { runLane, type StreamLane } from './connection/lane';
import { afterBusy, connectionClosedError, occupy, runReplying, startNow } from './connection/order';
import { stopMonitoring } from './connection/monitor';
import { forcePropagation } from './connection/propagation';
import * as pubsub from './connection/pubsub';
import { endScriptSelect, scriptCall, scriptCallRefused } from './connection/scripting';
import { checkServerState } from './connection/server-state';
import { addBuiltinDirty, builtinTimingWeight, counted, recordBuiltin } from './connection/stats';
import * as tx from './connection/transactions';

export { builtinArg, builtinArity, parsedKeyspaceEvents } from './connection/builtin-host';
export { connectionClosedError, refuseWhileBusy } from './connection/order';
export { BUSY_TEXT } from './connection/server-state';
export { streamLane, type StreamLane } from './connection/lane';

/** Where a connection's keys live, and how it starts. */
export interface ConnectionOptions {
  /** Server host as ioredis-mock names its contexts. @default 'localhost' */
  host?: string;
  /** Server port. @default 6379 */
  port?: number;
  /** Database index (SELECT). @default 0 */
  db?: number;
  /** RESP protocol the connection starts with (HELLO may change it). @default 2 */
  protocol?: 2 | 3;
  /** The server's `requirepass`: when set, commands other than AUTH/HELLO/QUIT/RESET answer
   *  NOAUTH until authenticated. @default null (no password: every connection is authenticated) */
  password?: string | null;
  /** Keyspace options (clock, redisVersion) applied like the `streams` client option. */
  streams?: KeyspaceOptions;
  /** The database whose keyspace `streams` configures. @default db (the ioredis front end: the
   *  `db` option, which its handshake SELECTs after the connection started in db 0) */
  streamsDb?: number;
  // ---- extensions (see ENGINE-API.md) ----
  /** Initial client name (CLIENT SETNAME). */
  name?: string | null;
  /** `notify-keyspace-events` flags for events this connection causes (ioredis-mock's
   *  per-client `notifyKeyspaceEvents` option). @default '' */
  notifyKeyspaceEvents?: string;
  /** ioredis-mock's command emulators to run built-ins on. @default the installed ioredis-mock's */
  emulators?: EmulatorTable;
  /** `this` for the emulators: an object shaped like an ioredis-mock instance (the ioredis
   *  front end passes the instance itself). @default a host of the connection's own */
  builtinHost?: object;
  /** CLIENT LIST `addr` / `laddr` (the RESP server knows the socket's). */
  addr?: string;
  laddr?: string;
  /** Cluster mode: the index of the node (master) this connection is connected to; keys of
   *  other nodes' slots answer MOVED. Undefined: every slot is local (CROSSSLOT still applies). */
  clusterNode?: number;
  /**
   * The connection serves an HTTP front end (the Upstash handler), not a RESP socket: a command
   * named `POST` or `Host:` is an unknown command there, not the RESP port's guard against
   * cross-protocol scripting that closes the connection. @default false
   */
  httpFront?: boolean;
  /**
   * The front end pairs each reply with the oldest command still waiting for one (ioredis's
   * command queue), so it cannot carry a command the server does not answer: CLIENT REPLY OFF and
   * SKIP are then refused with a StreamsMockError of this text before they run or are queued
   * (dispatch.ts checkBeforeRunning) instead of silencing replies. @default undefined (CLIENT REPLY OFF/SKIP silence replies)
   */
  clientReplyRefusal?: string;
}

/**
 * An in-process server starts with its first connection (`serve` sets its own start): INFO's
 * uptime counts from then and LASTSAVE answers it until a save, as a fresh redis-server answers
 * its start time (server.lastsave = time at init), on db 0's clock.
 */
function serverStarts(server: ServerState): void {
  let now: number;
  try {
    now = server.keyspace(0).clock.now();
  } catch {
    return; // a clock that answers no time (library misuse, reported by the first command)
  }
  server.startedAt = now;
  server.stats.saved(now);
}

export class Connection {
  /** CLIENT ID: unique, increasing, per process. */
  readonly id: number;
  /** CLIENT SETNAME (null: no name). */
  name: string | null;
  /** The emulated server (host:port). */
  readonly server: ServerState;
  /** This connection's own `notifyKeyspaceEvents` option (see `notifyKeyspaceEvents`). */
  private ownNotifyFlags: string;
  /** CLIENT SETINFO LIB-NAME / LIB-VER, CLIENT NO-EVICT / NO-TOUCH. */
  libName = '';
  libVer = '';
  noEvict = false;
  noTouch = false;
  /** CLIENT LIST addr/laddr. */
  readonly addr: string;
  readonly laddr: string;
  /** Keyspace-clock ms when created and when a command last ran (CLIENT LIST age/idle). */
  readonly createdAt: number;
  /** @internal Time of the last command (CLIENT LIST idle), recorded when a command ran. */
  lastInteractionAt: number | undefined;
  /** Full name of the last command (CLIENT LIST `cmd`), e.g. `client|info`. */
  lastCommand = 'NULL';
  /**
   * What the front end holds for this connection (CLIENT LIST `qbuf`: bytes received and not yet
   * parsed; `omem`: reply bytes not yet written to the socket). Set by the RESP server; an
   * in-process client holds nothing (0).
   */
  buffers: (() => { qbuf: number; omem: number; argvMem?: number }) | undefined = undefined;

  // ---- internal state: read and written by the modules of lib/engine/connection/ only ----
  /** @internal The current database's keyspace (`keyspace`). */
  ks: Keyspace;
  /** @internal The RESP protocol (`protocol`). */
  resp: 2 | 3;
  /** @internal AUTH done, or not needed (`isAuthenticated`). */
  authenticated: boolean;
  /** The ACL user this connection is authenticated as (CLIENT LIST `user`, ACL WHOAMI). */
  user: AclUser;
  /** @internal (`closed`) */
  isClosed = false;
  /**
   * @internal Closed because its server shut down (SHUTDOWN): the server is gone, so a front end
   * does not send the commands it interrupted again on a new connection (ioredis's resend).
   */
  closedByShutdown = false;
  /** @internal Closed by its own QUIT (not by its server: CLIENT KILL, SHUTDOWN …). */
  closedByQuit = false;
  /**
   * @internal Closed by processCommand's guard against cross-protocol scripting (a command named
   * `POST` or `Host:`, securityWarningCommand): nothing more is written to it, not even the
   * replies of commands before it still due (Redis frees it CLIENT_CLOSE_ASAP, whose pending
   * replies are never written).
   */
  closedBySecurityWarning = false;
  /** @internal False for an HTTP front end's connection (ConnectionOptions.httpFront). */
  private readonly guardsCrossProtocol: boolean;
  /** @internal A blocked command (or a pipeline waiting on one) holds the connection. */
  occupied = false;
  /** @internal Commands submitted behind it, in order. */
  waiting: (() => void)[] | null = null;
  /**
   * @internal How many times `dropWaiting` emptied the queue: a front end's sequence (a pipeline)
   * that sees it change stops running its commands (the rest of a pipeline held by a blocked
   * call of a test that ended).
   */
  queueDrops = 0;
  /** @internal Set while `close()` settles the waiting commands. */
  closing = false;
  /** @internal Blocked calls of this connection. */
  blockedCalls = 0;
  /** @internal MULTI: queued argv (null outside MULTI) and whether a queue-time error happened. */
  multiQueue: string[][] | null = null;
  /** @internal */
  multiErrored = false;
  /** @internal The blocked call now ending was unblocked by CLIENT UNBLOCK … TIMEOUT (7.0 stats). */
  timeoutUnblocked = false;
  /**
   * @internal failed_calls the command now ending adds besides its outcome: error replies nested
   * in a script's result (see lua.ts countNestedErrors); read and reset by recordCommand.
   */
  nestedFailedCalls = 0;
  /** @internal WATCHed keys (null: none). */
  watchState: WatchState | null = null;
  private emulatorTable: EmulatorTable | undefined;
  private host: object | undefined;
  private dbCache: Db | undefined;
  /** @internal `onPush` listeners. */
  pushListeners: Set<(msg: Reply) => void> | undefined;
  /** @internal SUBSCRIBE channels and PSUBSCRIBE patterns (byte strings), in subscription order. */
  channelSubs: Set<string> | undefined;
  /** @internal */
  patternSubs: Set<string> | undefined;
  /** @internal SSUBSCRIBE shard channels (byte strings), in subscription order. */
  shardSubs: Set<string> | undefined;
  /** Cluster mode: the node this connection talks to (null: every slot is local). */
  readonly clusterNode: number | null;
  /** READONLY (cluster mode), ASKING (the next command only). */
  clusterReadonly = false;
  clusterAsking = false;
  /** CLIENT TRACKING state (null: off); lib/engine/tracking.ts. */
  tracking: ClientTracking | null = null;
  /**
   * A front end that keeps pub/sub itself (ioredis clients) delivers `__redis__:invalidate`
   * messages redirected to this connection (CLIENT TRACKING … REDIRECT): keys, or null for a flush.
   */
  redirectSink: ((keys: string[] | null) => void) | null = null;
  /**
   * The channels and patterns (byte strings) of the subscriptions a front end keeps for this
   * connection itself (the ioredis front end's in-process SUBSCRIBE/PSUBSCRIBE, on ioredis-mock's
   * channel tables): CLIENT LIST/INFO (`flags=P`, `sub`, `psub`), CLIENT KILL TYPE pubsub|normal,
   * INFO's pubsub_clients and ACL SETUSER's check of the channels a user loses see them as a
   * server sees that client's.
   */
  frontEndSubscriptions: (() => { readonly channels: readonly string[]; readonly patterns: readonly string[] }) | null = null;
  /** Drops the subscriptions of `frontEndSubscriptions` (RESET unsubscribes the connection from everything). */
  frontEndUnsubscribeAll: (() => void) | null = null;
  /**
   * Set by a front end while the connection has subscriptions of `frontEndSubscriptions` (or shard
   * channels): as a server's subscribed client, a RESP2 connection then refuses every command but
   * (P|S)(UN)SUBSCRIBE, PING, QUIT and RESET ("ERR Can't execute …"). A client that refuses them
   * itself once subscribed (ioredis) still sends what it sent before the confirmation came.
   */
  frontEndSubscriber = false;
  /**
   * CLIENT REPLY state (networking.c clientCommand, server.c call): `off` silences every reply
   * until CLIENT REPLY ON; `skipNext` (set by SKIP, not while off) silences the next command's
   * reply (`skip`). Pub/sub pushes are not replies: they are still delivered.
   */
  replyOff = false;
  replySkipNext = false;
  /** @internal ConnectionOptions.clientReplyRefusal (null: CLIENT REPLY OFF/SKIP silence replies). */
  readonly clientReplyRefusal: string | null;
  /** Set once SYNC/PSYNC made this connection a replica: the replication stream it receives. */
  replicaFeed: ReplicaFeed | null = null;
  /** The running command's reply is skipped (CLIENT REPLY SKIP before it); CLIENT REPLY ON clears it. */
  replySkip = false;
  /** @internal The caller's database while a script runs on another one (SELECT inside the script). */
  dbBeforeScriptSelect: number | null = null;
  private closeListeners: Set<() => void> | undefined;
  /** MONITOR mode (./connection/monitor.ts): every command of the server is pushed to it. */
  monitoring = false;

  constructor(options: ConnectionOptions = {}) {
    this.server = serverFor(options.host ?? 'localhost', options.port ?? 6379);
    // Any index ioredis-mock accepts (tests isolate keyspaces with high ones); SELECT keeps
    // Redis's range 0 … 15.
    const db = options.db ?? 0;
    if (!Number.isInteger(db) || db < 0) throw new StreamsMockError(`db must be a non-negative integer, got ${String(db)}`);
    this.ks = this.server.keyspace(db);
    const streamsDb = options.streamsDb ?? db;
    if (!Number.isInteger(streamsDb) || streamsDb < 0) throw new StreamsMockError(`db must be a non-negative integer, got ${String(streamsDb)}`);
    if (options.streams) (streamsDb === db ? this.ks : this.server.keyspace(streamsDb)).configure(options.streams);
    if (this.server.startedAt === null) serverStarts(this.server);
    this.id = nextClientId();
    // ioredis's handshake sets it with CLIENT SETNAME, which refuses a name with spaces or special characters
    const name = options.name ?? null;
    this.name = name !== null && validClientName(name, supports(this.ks.redisVersion, 'clientAttrCString')) ? name : null;
    this.guardsCrossProtocol = options.httpFront !== true;
    this.clientReplyRefusal = options.clientReplyRefusal ?? null;
    this.resp = options.protocol === 3 ? 3 : 2;
    const acl = aclStateOf(this.server);
    if (options.password != null) acl.setRequirePass(options.password);
    this.user = acl.defaultUser;
    this.authenticated = this.user.nopass && this.user.enabled;
    this.ownNotifyFlags = options.notifyKeyspaceEvents ?? '';
    this.server.eventSink ??= serverEventSink(this.server);
    this.emulatorTable = options.emulators;
    this.host = options.builtinHost;
    this.addr = options.addr ?? `127.0.0.1:${40000 + (this.id % 20000)}`;
    this.laddr = options.laddr ?? `${this.server.host === 'localhost' ? '127.0.0.1' : this.server.host}:${this.server.port}`;
    this.createdAt = this.ks.clock.now();
    this.clusterNode = options.clusterNode ?? null;
    register(this);
    if (this.server.idleTimeoutOn) ensureIdleCheck(this.server);
  }

  // -------------------------------------------------------------------------------------------
  // Public state

  /**
   * `notify-keyspace-events` flags for events this connection causes: the server's (CONFIG SET
   * notify-keyspace-events, for every connection of the server) once it has been set, else this
   * connection's own option (ioredis-mock's per-client `notifyKeyspaceEvents`). Assigning sets
   * the connection's own option.
   */
  get notifyKeyspaceEvents(): string {
    return this.server.config.notifyKeyspaceEvents ?? this.ownNotifyFlags;
  }

  set notifyKeyspaceEvents(flags: string) {
    this.ownNotifyFlags = flags;
  }

  /** The connection's own `notifyKeyspaceEvents` option, whatever CONFIG SET says. */
  get ownNotifyKeyspaceEvents(): string {
    return this.ownNotifyFlags;
  }

  /**
   * True when a push this connection's own command produces is written where it is produced
   * (7.0: inside EXEC's array, before a script's reply) rather than after the reply (7.2+;
   * FEATURE_SINCE.selfPushAfterReply). The RESP front end places them (lib/server/session.ts).
   */
  get pushesInline(): boolean {
    return !supports(this.ks.redisVersion, 'selfPushAfterReply');
  }

  /** While EXEC runs: the index of the queued command running (-1 otherwise). */
  execIndex = -1;

  /**
   * Set by a front end while a command runs behind others of one batch whose replies are not
   * written yet (several commands in one RESP read, an ioredis pipeline): Redis's
   * clientHasPendingReplies, read by SCRIPT DEBUG ("must be called outside a pipeline").
   */
  repliesPending = false;

  /** SCRIPT DEBUG's mode (eval.c ldbEnable/ldbDisable): an EVAL in 'yes'/'sync' would start Redis's Lua debugger. */
  luaDebug: 'no' | 'yes' | 'sync' = 'no';

  /** While EXEC runs: how many commands it runs (-1 otherwise; CLIENT LIST `multi=`, flag `x`). */
  execLength = -1;

  /** While EXEC runs: the commands it runs (CLIENT LIST `multi-mem`), null otherwise. */
  execQueued: string[][] | null = null;

  /**
   * While EXEC runs: per keyspace, the strings a queued command stored as its own argument object
   * (key → content; OBJECT REFCOUNT 2 while the transaction still holds that argv), null otherwise
   * (./connection/transactions.ts recordArgvStrings).
   */
  execArgvStrings: Map<Keyspace, Map<string, string>> | null = null;

  /**
   * 7.0: messages this connection's own PUBLISH already pushed to it (lib/engine/commands/pubsub.ts
   * publishToSelf), as `kind\0items…`: their later delivery through the emitters is dropped.
   */
  selfEchoes: string[] | undefined;

  /** Current RESP protocol (HELLO 2/3 changes it). */
  get protocol(): 2 | 3 {
    return this.resp;
  }

  /** Current database index (SELECT changes it). */
  get db(): number {
    return this.ks.dbIndex;
  }

  /** The keyspace of the current database. */
  get keyspace(): Keyspace {
    return this.ks;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** True while a command of this connection is blocked (CLIENT LIST flags=b). */
  get blocked(): boolean {
    return this.blockedCalls > 0;
  }

  /** True between MULTI and EXEC/DISCARD. */
  get inMulti(): boolean {
    return this.multiQueue !== null;
  }

  /**
   * Commands queued by MULTI so far (CLIENT LIST `multi`): while EXEC runs them, still their
   * count (execCommand keeps CLIENT_MULTI and mstate until the last one has run).
   */
  get multiLength(): number {
    return this.execLength >= 0 ? this.execLength : (this.multiQueue?.length ?? -1);
  }

  /**
   * Bytes of the commands MULTI queued (CLIENT LIST `multi-mem`, multi.c queueMultiCommand's
   * `argv_len_sums`: each argument's length plus a pointer, 8 bytes, per argument); kept while
   * EXEC runs them, 0 outside a transaction.
   */
  get multiMem(): number {
    const queued = this.execQueued ?? this.multiQueue;
    if (queued === null) return 0;
    let bytes = 0;
    for (const argv of queued) {
      bytes += 8 * argv.length;
      for (const arg of argv) bytes += arg.length;
    }
    return bytes;
  }

  /** Keys WATCHed (CLIENT LIST `watch`). */
  get watchCount(): number {
    return this.watchState?.keys.length ?? 0;
  }

  /** True when a command submitted now would run at once: nothing blocked or waiting ahead. */
  get ready(): boolean {
    return !this.occupied && this.waiting === null && this.server.busyScript === null;
  }

  /** True when WATCH has seen a modification (CLIENT LIST flags=d). */
  get watchDirty(): boolean {
    return this.watchState?.dirty ?? false;
  }

  /** ioredis-mock's emulators for built-ins. */
  get emulators(): EmulatorTable {
    return (this.emulatorTable ??= defaultEmulators());
  }

  /** `this` for the emulators. */
  get builtinHost(): object {
    return (this.host ??= new EngineBuiltinHost(this));
  }

  /** Keyspace-clock ms when a command last ran (CLIENT LIST idle). */
  get lastInteraction(): number {
    return this.lastInteractionAt ?? this.createdAt;
  }

  // -------------------------------------------------------------------------------------------
  // Running commands (./connection/order.ts, ./connection/dispatch.ts)

  /**
   * Execute one command as sent on this connection (argv[0] is the name; every element a byte
   * string). Resolves with the typed reply; an error reply rejects with `CommandError`.
   */
  execute(argv: string[]): Promise<Reply> {
    const busy = this.server.busyScript;
    if (busy !== null && busy.conn !== this) return afterBusy(this, busy, argv, () => runReplying(this, argv));
    if (!this.occupied && this.waiting === null) return startNow(this, () => runReplying(this, argv));
    return this.enqueue(() => runReplying(this, argv));
  }

  /**
   * `execute(argv)` without a promise when it can run now (the RESP server's fast path): the
   * reply, a promise when the command blocks (it then holds the connection), or `undefined` when
   * something is ahead (blocked call, queued commands, a busy script, closing): then use
   * `execute`. Throws `CommandError` for error replies, as `run`.
   */
  /**
   * Blocked calls of the server served so far (BlockingQueue.served): a front end compares it
   * around a command to know the command woke blocked clients, whose replies Redis writes first.
   */
  get servedBlocked(): number {
    return this.ks.blocking.served;
  }

  executeNow(argv: string[]): Reply | Promise<Reply> | undefined {
    if (this.occupied || this.waiting !== null || this.closing || this.server.busyScript !== null) return undefined;
    const out = runReplying(this, argv);
    if (out instanceof Promise) occupy(this, out);
    return out;
  }

  /**
   * Run `start` in connection order (for front ends: pipelines, their own reply encodings).
   * `start` runs at once when nothing is ahead, else after everything submitted before it; a
   * Promise it returns holds the connection until it settles. Throws become rejections.
   * `checksEachCommand`: `start` runs a sequence of commands (a pipeline) and checks each against
   * a busy script itself (`refuseWhileBusy`), so past busy-reply-threshold it runs (SCRIPT KILL in
   * it ends the script) instead of being refused whole.
   */
  enqueue<T>(start: () => T | Promise<T>, checksEachCommand = false): Promise<T> {
    const busy = this.server.busyScript;
    if (busy !== null && busy.conn !== this) return afterBusy(this, busy, null, start, checksEachCommand);
    if (!this.occupied && this.waiting === null) return startNow(this, start);
    return new Promise<T>((resolve, reject) => {
      (this.waiting ??= []).push(() => {
        startNow(this, start).then(resolve, reject);
      });
    });
  }

  /**
   * Run argv now when the connection is `ready` (the front end's synchronous fast path):
   * returns the reply, or a promise that holds the connection when the command blocks; throws
   * `CommandError` for error replies. Call only when `ready` is true.
   */
  runReady(argv: string[]): Reply | Promise<Reply> {
    const out = this.run(argv);
    if (out instanceof Promise) occupy(this, out);
    return out;
  }

  /**
   * Run argv now, at the head of the connection's order (front ends call it from inside
   * `enqueue`, or when `ready`). Returns the reply, or a promise when the command blocks;
   * throws `CommandError` for error replies.
   */
  run(argv: string[]): Reply | Promise<Reply> {
    if (this.isClosed) throw connectionClosedError();
    const first = argv[0]; // (a malformed argv is refused by runCommand)
    if (this.guardsCrossProtocol && typeof first === 'string' && (first.length === 4 || first.length === 5) && isCrossProtocolProbe(first)) return this.abortOnProbe();
    this.expireDueFirst();
    if (this.noTouch) return this.runNoTouch(argv);
    return counted(this, argv, runCommand);
  }

  /**
   * processCommand's first check (7.0.15 and later): a command named `POST` or `Host:` (an HTTP
   * request sent to Redis's port, a cross-protocol scripting attempt) closes the connection at
   * once, with no reply and nothing counted (securityWarningCommand); front ends write nothing
   * more to it.
   * @throws Error `Connection is closed.`, as any command of a closed connection
   */
  private abortOnProbe(): never {
    this.closedBySecurityWarning = true;
    this.close();
    throw connectionClosedError();
  }

  /** `run` with CLIENT NO-TOUCH on: reads leave keys' LRU/LFU as they were, except TOUCH's (db.c lookupKey). */
  private runNoTouch(argv: string[]): Reply | Promise<Reply> {
    const store = this.ks.store;
    store.noTouch = String(argv[0]).toLowerCase() !== 'touch';
    try {
      return counted(this, argv, runCommand);
    } finally {
      store.noTouch = false;
    }
  }

  /**
   * Before a command (every entry point that runs one: `run`, `runLane`, the built-ins a front
   * end runs itself): the expiries the clock has passed run first (ServerState.expireDue), as a
   * server's expire cycle runs between the commands it reads. One comparison when no TTL waits.
   */
  expireDueFirst(): void {
    const server = this.server;
    if (server.expiryArmed.size !== 0) server.expireDue();
    // pub/sub messages still waiting for their nextTick reach ioredis subscribers first (a
    // subscriber's socket has them before the publisher's next reply)
    this.deliverPendingMessages();
  }

  /**
   * The pub/sub messages published so far that wait for their nextTick (ServerState.pendingDeliveries),
   * delivered now: a front end calls it before it takes the next request (lib/server/session.ts).
   */
  deliverPendingMessages(): void {
    const server = this.server;
    if (server.pendingDeliveries !== null) server.deliverPending();
  }

  /**
   * The error processCommand would give argv before running or queueing it (unknown command,
   * wrong arity, unknown subcommand), or null: what MULTI checks at queue time.
   */
  checkCommand(argv: string[]): string | null {
    return checkCommand(this, argv);
  }

  /** The full name (`name` or `container|sub`) processCommand looks argv up as, or null when unknown here. */
  commandFullName(name: string, argv: string[]): string | null {
    return commandFullName(this, name, argv);
  }

  /**
   * One `redis.call`/`redis.pcall` of a Lua script running on this connection (script.c
   * scriptCall): argv are byte strings (full keys); stream commands
   * answer nil instead of blocking. Throws CommandError with the script texts for unknown,
   * wrong-arity and not-allowed commands, and the command's own error replies.
   */
  scriptCall(argv: string[]): Reply {
    return scriptCall(this, argv);
  }

  /** A redis.call the script's own checks refused (read-only script, OOM, cluster): counted as rejected in INFO. */
  scriptCallRefused(argv: string[], text: string): void {
    scriptCallRefused(this, argv, text);
  }

  /** A script ended: its SELECT does not outlive it (Redis runs it on a client of its own). */
  endScriptSelect(): void {
    endScriptSelect(this);
  }

  /** The running command propagates to replicas even if it changed nothing (forceCommandPropagation). */
  forcePropagation(): void {
    forcePropagation(this);
  }

  /**
   * processCommand's maxmemory and good-replicas refusals for a built-in the ioredis front end
   * runs itself (lower-case `name`, `argc` counting it, its first argument): throws OOM or
   * NOREPLICAS as `run` would refuse it (a wrong arity is left to the built-in's own check).
   */
  checkServerState(name: string, argc: number, firstArg: unknown): void {
    checkServerState(this, name, argc, firstArg);
  }

  /**
   * The ACL check of a built-in the front end runs itself (`name` lower case, argv with the name
   * first, byte strings).
   * @throws NOPERM (a RejectedCommandError) when the user may not run it or touch its channels
   */
  checkBuiltinAcl(name: string, argv: string[]): void {
    checkBuiltinAcl(this, name, argv);
  }

  // -------------------------------------------------------------------------------------------
  // Built-ins the ioredis front end runs itself: INFO and CLIENT LIST (./connection/stats.ts)

  /**
   * Timing of a built-in the ioredis front end runs on ioredis-mock's emulator itself (not
   * through `run`): the weight to hand `recordBuiltin` (see `timingWeight`; 0: do not time it).
   * `name`: the lower-case command name.
   */
  builtinTimingWeight(name: string): number {
    return builtinTimingWeight(name);
  }

  /**
   * Count a built-in the ioredis front end ran itself in INFO (commands processed, commandstats,
   * errorstats) as `run` counts the ones it runs: `name` lower case, `firstArg` its first
   * argument (OBJECT's subcommand), `start` `performance.now()` before it ran (when `weight`
   * is not 0), `err` what it threw (a wrong arity counts as a rejected call, as Redis refuses it
   * before running).
   */
  recordBuiltin(name: string, firstArg: unknown, start: number, weight: number, err: unknown): void {
    recordBuiltin(this, name, firstArg, start, weight, err);
  }

  /**
   * A built-in the ioredis front end ran itself (after `builtinTimingWeight`): CLIENT LIST `cmd`
   * (`object|encoding` for a container's subcommand) and `idle`.
   */
  noteBuiltin(name: string, firstArg: unknown): void {
    this.noteCommand(builtinFullName(name, firstArg));
  }

  /**
   * INFO `rdb_changes_since_last_save` for a built-in the ioredis front end ran itself: the
   * `server.dirty` increment of `name` (lower case) with `argc` arguments (name included) that
   * made `writes` keyspace modifications (see `dirtyOfBuiltin`), as `run` adds it.
   */
  addBuiltinDirty(name: string, argc: number, writes: number): void {
    addBuiltinDirty(this, name, argc, writes);
  }

  /**
   * A reply or push was written to this client now (a blocked call's reply, a pub/sub message
   * a front end delivered itself): an interaction, as Redis's writeToClient sets lastinteraction
   * (CLIENT LIST `idle`, CONFIG `timeout`).
   */
  noteWrite(): void {
    this.lastInteractionAt = this.ks.clock.now();
  }

  /** A front end ran `name` itself (ioredis-mock's built-ins): CLIENT LIST `cmd` and `idle`. */
  noteCommand(name: string): void {
    this.lastCommand = name;
    this.lastInteractionAt = this.ks.clock.now();
    if (this.server.idleTimeoutOn) ensureIdleCheck(this.server);
  }

  // -------------------------------------------------------------------------------------------
  // Keys

  /** Key access for stream commands and scripts (key arguments are full keys). */
  get streamDb(): Db {
    return (this.dbCache ??= makeDb(this, this.ks));
  }

  /** ioredis-mock-shaped `data`/`expires` views of the current keyspace. */
  keyViews(): { data: unknown; expires: unknown } {
    // the store's own views have ioredis-mock's shape; keys are full key names (a client's
    // keyPrefix is applied by its front end before the engine sees the command)
    return { data: this.ks.store.data, expires: this.ks.store.expires };
  }

  /** SELECT: switch to database `db` (0 … 15). */
  selectDb(db: number): void {
    if (db === this.ks.dbIndex) return;
    this.ks = this.server.keyspace(db);
    this.dbCache = undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Transactions (./connection/transactions.ts)

  /** MULTI. */
  beginMulti(): void {
    tx.beginMulti(this);
  }

  /** DISCARD (and EXEC's end): leave MULTI, forget queued commands, UNWATCH. */
  discardTransaction(): void {
    tx.discardTransaction(this);
  }

  /** EXEC: run the queued commands atomically. */
  exec(): Reply | Promise<Reply> {
    return tx.exec(this);
  }

  /** WATCH full keys (byte strings) of the current keyspace. */
  watchKeys(keys: string[]): void {
    tx.watchKeys(this, keys);
  }

  /** UNWATCH every key. */
  unwatchAll(): void {
    tx.unwatchAll(this);
  }

  // -------------------------------------------------------------------------------------------
  // Authentication, protocol (./connection/acl-checks.ts)

  get isAuthenticated(): boolean {
    return this.authenticated;
  }

  /**
   * Check AUTH/HELLO AUTH credentials (ACL users). Returns true when accepted; a refusal is logged
   * (ACL LOG, its object `command`: the command's name as typed, argv[0]).
   */
  authenticate(username: string, password: string, command = 'AUTH'): boolean {
    return authenticate(this, username, password, command);
  }

  /** Back to the default user, unauthenticated unless it needs no password (a deleted user's client). */
  deauthenticate(): void {
    this.user = aclStateOf(this.server).defaultUser;
    this.authenticated = false;
  }

  /** True when the default user has a password (requirepass). */
  get hasPassword(): boolean {
    return !aclStateOf(this.server).defaultUser.nopass;
  }

  /**
   * Whether this connection's user may run argv (ACLCheckAllUserCommandPerm, arity not checked:
   * redis.acl_check_cmd), or null when no command of that name exists.
   */
  aclAllows(argv: string[]): boolean | null {
    return aclAllows(this, argv);
  }

  setProtocol(resp: 2 | 3): void {
    this.resp = resp;
  }

  /** RESET: back to a fresh connection's state (networking.c clearClientConnectionState). */
  resetState(): void {
    this.discardTransaction();
    pubsub.unsubscribeAll(this);
    this.frontEndUnsubscribeAll?.();
    this.selectDb(0);
    this.resp = 2;
    this.user = aclStateOf(this.server).defaultUser;
    this.authenticated = this.user.nopass && this.user.enabled;
    this.name = null;
    // 7.0.15 keeps CLIENT NO-EVICT across RESET (7.2 clears it with NO-TOUCH, new then)
    if (!predates(this.keyspace.redisVersion, '7.2')) this.noEvict = false;
    this.noTouch = false;
    this.replyOff = false;
    this.replySkipNext = false;
    this.server.tracking?.disable(this);
    stopMonitoring(this);
  }

  // -------------------------------------------------------------------------------------------
  // Pub/sub (./connection/pubsub.ts)

  /**
   * Out-of-band messages for this connection (pub/sub `message`/`pmessage`) as push replies.
   * @returns a function that removes the listener
   */
  onPush(listener: (msg: Reply) => void): () => void {
    return pubsub.onPush(this, listener);
  }

  /** Deliver an out-of-band reply to the push listeners. */
  push(msg: Reply): void {
    pubsub.push(this, msg);
  }

  /** A pub/sub message from the server's channel emitters (`message`/`pmessage` events). */
  deliverMessage(event: string, args: unknown[]): void {
    pubsub.deliverMessage(this, event, args);
  }

  /** Channels (or patterns) this connection subscribed to, in order. */
  subscriptions(patterns: boolean): string[] {
    return [...((patterns ? this.patternSubs : this.channelSubs) ?? [])];
  }

  /** SUBSCRIBE/UNSUBSCRIBE count: channels + patterns (Redis clientSubscriptionsCount). */
  get subscriptionCount(): number {
    return (this.channelSubs?.size ?? 0) + (this.patternSubs?.size ?? 0);
  }

  /** Redis CLIENT_PUBSUB: any channel, pattern or shard channel subscribed. */
  get inSubscriberMode(): boolean {
    return this.subscriptionCount > 0 || (this.shardSubs?.size ?? 0) > 0 || this.frontEndSubscriber;
  }

  /** CLIENT LIST `sub` and `psub`: channels and patterns, the front end's included (`frontEndSubscriptions`). */
  get listedSubscriptions(): readonly [channels: number, patterns: number] {
    const own: [number, number] = [this.channelSubs?.size ?? 0, this.patternSubs?.size ?? 0];
    const kept = this.frontEndSubscriptions?.();
    return kept === undefined ? own : [own[0] + kept.channels.length, own[1] + kept.patterns.length];
  }

  /** The channels (or patterns) subscribed, the front end's included (`frontEndSubscriptions`). */
  listedSubscriptionNames(patterns: boolean): string[] {
    const own = this.subscriptions(patterns);
    const kept = this.frontEndSubscriptions?.();
    return kept === undefined ? own : [...own, ...(patterns ? kept.patterns : kept.channels)];
  }

  /** Redis CLIENT_PUBSUB as CLIENT LIST, CLIENT KILL TYPE and INFO see it: `inSubscriberMode` or a front end's subscription. */
  get listedAsSubscriber(): boolean {
    if (this.inSubscriberMode) return true;
    const [channels, patterns] = this.listedSubscriptions;
    return channels + patterns > 0;
  }

  /** SSUBSCRIBE/SUNSUBSCRIBE count: shard channels (Redis clientShardSubscriptionsCount). */
  get shardSubscriptionCount(): number {
    return this.shardSubs?.size ?? 0;
  }

  /** Shard channels this connection subscribed to, in order. */
  shardSubscriptions(): string[] {
    return [...(this.shardSubs ?? [])];
  }

  /** SSUBSCRIBE one shard channel (byte string) on the server's shard channel table. */
  shardSubscribe(channel: string): void {
    pubsub.shardSubscribe(this, channel);
  }

  /** SUNSUBSCRIBE one shard channel. */
  shardUnsubscribe(channel: string): void {
    pubsub.shardUnsubscribe(this, channel);
  }

  /** An SPUBLISH message: `[smessage, channel, message]` (pubsub.c, 7.0). */
  deliverShardMessage(channel: string, message: string): void {
    pubsub.push(this, new PushReply(['smessage', channel, message]));
  }

  /** Subscribe to a channel or pattern (byte string) on the server's emitters. */
  subscribe(name: string, pattern: boolean): void {
    pubsub.subscribe(this, name, pattern);
  }

  /** Unsubscribe from a channel or pattern. */
  unsubscribe(name: string, pattern: boolean): void {
    pubsub.unsubscribe(this, name, pattern);
  }

  // -------------------------------------------------------------------------------------------
  // Closing

  /** Called once when the connection closes (QUIT, CLIENT KILL, close()); returns an unsubscribe. */
  onClose(listener: () => void): () => void {
    if (this.isClosed) {
      listener();
      return () => undefined;
    }
    (this.closeListeners ??= new Set()).add(listener);
    return () => void this.closeListeners?.delete(listener);
  }

  /**
   * Close: blocked calls of this connection reject with "Connection is closed.", commands
   * waiting behind them too; MULTI and WATCH are dropped. Idempotent.
   */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    unregister(this);
    this.multiQueue = null;
    tx.unwatchAll(this);
    pubsub.unsubscribeAll(this);
    this.server.tracking?.disable(this);
    stopMonitoring(this);
    this.pushListeners = undefined;
    if (this.blockedCalls > 0) this.ks.blocking.releaseClient(this, connectionClosedError());
    this.dropWaiting();
    const listeners = this.closeListeners;
    this.closeListeners = undefined;
    if (listeners) for (const l of listeners) l();
  }

  /**
   * Reject every command waiting behind a blocked call (or a pipeline waiting on one) with
   * "Connection is closed.", as a closing client's queue is: on close(), and when the test
   * lifecycle ends a test whose client was blocked (what it queued behind the blocked call must
   * not run into the next test's keyspace).
   */
  dropWaiting(): void {
    this.queueDrops++;
    const waiting = this.waiting;
    this.waiting = null;
    if (!waiting) return;
    this.closing = true;
    try {
      for (const start of waiting) start();
    } finally {
      this.closing = false;
    }
  }

  /** Unblock a blocked call of this connection (CLIENT UNBLOCK): nil reply, or `error`. */
  unblock(error?: CommandError): boolean {
    if (this.blockedCalls === 0) return false;
    // redis-server 7.0.15 counts such a call in failed_calls; the 7.2+ blocking rework does not
    const timeout = error === undefined && predates(this.ks.redisVersion, '7.2');
    if (timeout) this.timeoutUnblocked = true;
    const done = this.ks.blocking.unblockClient(this, error);
    if (timeout && !done) this.timeoutUnblocked = false;
    return done;
  }
}

/** True for `post` and `host:` in any case (server.c processCommand's strcasecmp). */
function isCrossProtocolProbe(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'post' || lower === 'host:';
}

export interface Connection {
  /**
   * `runReady(argv)` on the short path of the client methods: `lane` is a stream command the
   * front end resolved once (`streamLane`), `argv[0]` its lower-case name. Same reply, errors,
   * INFO counts and CLIENT LIST fields as `runReady`, with one dispatch instead of the general
   * one; whatever the short path does not cover takes the general path (a closed connection,
   * AUTH pending, MULTI, RESP2 subscriber mode, a container command, a wrong arity, a command the
   * emulated version lacks). Call only when `ready` is true. (./connection/lane.ts, installed on
   * the prototype: no extra call per command.)
   */
  runLane(lane: StreamLane, argv: string[]): Reply | Promise<Reply>;
}
Connection.prototype.runLane = runLane;

/**
 * Create a connection on the keyspace host:port/db: same keyspace machinery, clock, version,
 * blocking, WATCH, scripts and notifications as the ioredis fake clients of it.
 * Throws `StreamsMockError` for malformed options.
 */
export function createConnection(options: ConnectionOptions = {}): Connection {
  return new Connection(options);
}

setConnectionLookup((id) => registeredById(id) as Connection | null, () => openConnections());

/** Every open connection of every server in the process, in id order. */
export function openConnections(): Iterable<Connection> {
  return openRegistered() as IterableIterator<Connection>;
}

/**
 * The open connections of the Redis process `conn` talks to, in id order: the same server
 * (host:port keyspace) and, in cluster mode, the same node — what CLIENT LIST, CLIENT KILL,
 * CLIENT UNBLOCK and INFO clients see on Redis, where each node is a process of its own.
 */
export function* nodeConnections(conn: Connection): IterableIterator<Connection> {
  const server = conn.server;
  const node = conn.clusterNode;
  for (const c of openConnections()) if (c.server === server && c.clusterNode === node) yield c;
}
