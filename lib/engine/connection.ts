/**
 * One client connection to the emulated server: the state Redis keeps per client (`client` in
 * server.h) and the order in which its commands run. Every front end (the ioredis adapter, the
 * RESP server, the Upstash REST handler, the scenario replayer) hands argv to
 * `Connection.execute` and encodes the typed reply it gets back.
 *
 * - Order: commands run in the order submitted; one submitted while an earlier one is blocked
 *   (XREAD/XREADGROUP BLOCK) waits behind it, as on a real connection.
 * - MULTI/EXEC/DISCARD/WATCH/UNWATCH (multi.c): commands between MULTI and EXEC are checked
 *   (unknown command, arity, NOAUTH) and queued; EXEC runs them atomically with one time
 *   snapshot, BLOCK answering nil, blocked readers served after it; a queue-time error makes
 *   EXEC answer EXECABORT; a modified WATCHed key makes it answer the nil array.
 * - QUIT answers OK after every earlier command, then the connection is closed; SELECT, HELLO,
 *   AUTH, CLIENT, PING, ECHO, RESET act on this state (lib/engine/commands/).
 * - Commands: the engine's own (lib/engine/commands), the stream commands (lib/commands) and
 *   ioredis-mock's built-ins (run on its emulators, replies typed as Redis types them).
 *
 * Errors: an error reply rejects with `CommandError` (its message is Redis's full text);
 * a closed connection rejects with `Error('Connection is closed.')`, as ioredis says it.
 * Nothing throws synchronously.
 */
import { commandSpec, olderArity } from '../commands/command-data';
import { dispatch, dispatchCheckOnly, lookupCommand } from '../commands/dispatch';
import type { BlockRequest, CommandContext, CommandHandler, CommandResult, CommandSpec, Db } from '../commands/types';
import { isBlockRequest } from '../commands/types';
import { CommandError, errUnknownCommand, errUnknownSubcommand, errWrongArity } from '../errors';
import type { Keyspace, KeyspaceOptions } from '../keyspace/keyspace';
import { WatchState } from './watch';
import { ErrorReply, NIL_ARRAY, PushReply, QUEUED, type Reply } from '../reply/reply';
import { StreamsMockError } from '../clock/clock';
import { type RedisVersion, commandSince, predates, supports } from '../version';
import { DENIED_IN_SCRIPTS, ERR_ARITY_FROM_SCRIPT, ERR_NOT_ALLOWED_FROM_SCRIPT, ERR_UNKNOWN_FROM_SCRIPT } from './script-rules';
import { runBuiltin } from './emulated/builtins';
import { callWithinLimit } from './emulated/large-args';
import { bytesOf as toByteString, utf8Of as decodeBytes } from '../bytes/index';
import { storeKeyOfBytes } from './emulated/keys';
import { builtinError, typedBuiltinReply } from './builtin-replies';
import type { ConnectionCommandSpec } from './command-types';
import { CONNECTION_COMMANDS } from './commands/index';
import { makeDb, serverEventSink } from './db';
import { BUILTIN_KINDS, COMMAND_KINDS, COMMAND_KINDS_MAX, builtinFullName, sampledWeight, timingWeight } from './command-timing';
import { ALLOWED_WHEN_SUBSCRIBED } from './commands/pubsub';
import { defaultEmulators, type EmulatorTable } from './emulators';
import { ServerState, nextClientId, openRegistered, register, registeredById, serverFor, unregister } from './registry';
import { commandStatsName, dirtyOfBuiltin, RejectedCommandError } from '../stats/command-stats';
import type { CommandStats, ServerStats } from '../stats/server-stats';
import { performance } from 'perf_hooks';
import { setTimeout as realSetTimeout, clearTimeout as realClearTimeout } from 'timers';
import type { BusyScript } from './registry';
import type { ReplicaFeed, Replication } from './replication';
import { redirectionError } from './cluster';
import { ACL_DENIED_AUTH, ACL_OK, type AclLogEntry, type AclUser, aclErrorMessage, aclStateOf, checkCommand } from './acl';

/** ACL LOG entry of a denial (loads the ACL command module, which owns the log's client info). */
function aclDeniedLog(conn: Connection, reason: number, context: AclLogEntry['context'], object: string, username: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/acl') as typeof import('./commands/acl')).aclDeniedLog(conn, reason, context, object, username);
}

/** A blocked call CLIENT UNBLOCK … TIMEOUT ended: a failed call in 7.0's commandstats, no error reply. */
// (not an Error: one made while the module loads would keep the objects of its stack alive)
const UNBLOCKED_BY_TIMEOUT = Symbol('unblocked by CLIENT UNBLOCK TIMEOUT');
import { NOREPLICAS_TEXT, OOM_TEXT, isDenyOom, isScriptCommand, isWriteCommand, performEvictions, scriptIsDenyOom } from './maxmemory';

/** Commands flagged no_multi (7.0.15 and the post-7.4 build), by arity: refused inside MULTI (processCommand). */
const NO_MULTI = new Map([['save', 1], ['sync', 1], ['psync', -3], ['shutdown', -1]]);
const ERR_NO_MULTI = 'ERR Command not allowed inside a transaction';

/** Commands 7.0–7.2 still run inside MULTI when out of memory (server.c processCommand). */
const MULTI_OOM_EXEMPT = new Set(['exec', 'discard', 'quit', 'reset']);

/** A command refused when out of memory: DENYOOM, or a script whose flags make it so. */
function deniedOnOom(server: ServerState, argv: string[]): boolean {
  return isDenyOom(argv) || (isScriptCommand(argv) && scriptIsDenyOom(server, argv));
}
import { type ClientTracking, type TrackingState, setConnectionLookup } from './tracking';
import { mustWait } from './pause';

/** server.c processCommand while a script is busy (7.0.15 and the 8.x sources). */
export const BUSY_TEXT = 'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.';

/** Commands a busy server still runs once busy-reply-threshold has passed (CMD_ALLOW_BUSY). */
function allowedWhileBusy(argv: string[]): boolean {
  const name = String(argv[0]).toLowerCase();
  if (name === 'script' || name === 'function') return String(argv[1] ?? '').toLowerCase() === 'kill' || String(argv[1] ?? '').toLowerCase() === 'stats';
  return name === 'auth' || name === 'hello' || name === 'multi' || name === 'discard' || name === 'watch' || name === 'unwatch' || name === 'reset' || name === 'client' || name === 'quit';
}

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
}

const CLOSED_MESSAGE = 'Connection is closed.';
const ERR_NOAUTH = 'NOAUTH Authentication required.';
const ERR_EXECABORT = 'EXECABORT Transaction discarded because of previous errors.';
const ERR_READONLY = "READONLY You can't write against a read only replica.";
const ERR_MASTERDOWN = "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.";

/** The error every call of a closed connection rejects with (ioredis's text). */
export function connectionClosedError(): Error {
  return new Error(CLOSED_MESSAGE);
}

function arityOk(arity: number, argc: number): boolean {
  return arity >= 0 ? argc === arity : argc >= -arity;
}

/** A byte string for ioredis-mock's emulators: the UTF-8 text when it is valid, else a Buffer. */
export function builtinArg(s: string): string | Buffer {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  const text = decodeBytes(s);
  return Buffer.from(text, 'utf8').toString('latin1') === s ? text : Buffer.from(s, 'latin1');
}

/** A reply CLIENT REPLY OFF/SKIP silenced: front ends write nothing for it (as NO_REPLY). */
const SILENCED: PushReply = new PushReply([]);

/** Container commands among the built-ins (their full name carries the subcommand). */
const BUILTIN_CONTAINERS = new Set(['config', 'object', 'command', 'memory', 'cluster', 'debug']);

/** Event classes of `notify-keyspace-events` (Redis notify.c; `A` = all of g$lshzxetd). */
const EVENT_CLASSES = 'g$lshzxetdmn';
const parsedEvents = new Map<string, { K: Record<string, boolean>; E: Record<string, boolean> }>();
/** ioredis-mock's `keyspaceEvents` shape for a flags string: per K/E, which classes are on. */
export function parsedKeyspaceEvents(flags: string): { K: Record<string, boolean>; E: Record<string, boolean> } {
  let out = parsedEvents.get(flags);
  if (!out) {
    const on: Record<string, boolean> = {};
    for (const c of EVENT_CLASSES) on[c] = flags.includes(c) || (flags.includes('A') && 'g$lshzxetd'.includes(c));
    const off = Object.fromEntries([...EVENT_CLASSES].map((c) => [c, false]));
    out = { K: flags.includes('K') ? on : off, E: flags.includes('E') ? on : off };
    parsedEvents.set(flags, out);
  }
  return out;
}

/**
 * Blocking commands that carry `noscript` up to 7.0 (checked on redis-server 7.0.15; BLMPOP and
 * BZMPOP never did); from 7.2 a script runs them without blocking (redis#11568).
 */
const NOSCRIPT_BEFORE_7_2 = new Set(['blpop', 'brpop', 'brpoplpush', 'blmove', 'bzpopmin', 'bzpopmax']);

/**
 * The `this` of ioredis-mock's emulators for a connection without an ioredis-mock instance:
 * key views of the connection's current keyspace, the server's pub/sub channels.
 */
class EngineBuiltinHost {
  subscriberMode = false;
  connected = true;
  dirty = false;
  readonly watching = new Set<string>();
  readonly customCommands = {};
  readonly shaScripts = {};
  constructor(private readonly conn: Connection) {}
  get data(): unknown {
    return this.conn.keyViews().data;
  }
  get expires(): unknown {
    return this.conn.keyViews().expires;
  }
  get channels(): unknown {
    return this.conn.server.channels;
  }
  get patternChannels(): unknown {
    return this.conn.server.patternChannels;
  }
  get options(): object {
    // keys reach the emulators whole (the front end applied any keyPrefix)
    return { keyPrefix: '', notifyKeyspaceEvents: this.conn.notifyKeyspaceEvents };
  }
  /** ioredis-mock's parsed notify-keyspace-events flags (its emulators read them). */
  get keyspaceEvents(): { K: Record<string, boolean>; E: Record<string, boolean> } {
    return parsedKeyspaceEvents(this.conn.notifyKeyspaceEvents);
  }
  publish(channel: string, message: string): unknown {
    return this.conn.emulators.publish.call(this, channel, message);
  }
  /** ioredis-mock delivers pub/sub messages as events of the instance. */
  emit(event: string, ...args: unknown[]): boolean {
    this.conn.deliverMessage(event, args);
    return true;
  }
  flushall(): unknown {
    return this.conn.emulators.flushall.call(this);
  }
  rpoplpush(...args: unknown[]): unknown {
    return this.conn.emulators.rpoplpush.apply(this, args);
  }
  disconnect(): void {
    this.conn.close();
  }
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
  /** Time of the last command (CLIENT LIST idle), recorded when a command ran. */
  private lastInteractionAt: number | undefined;
  /** Full name of the last command (CLIENT LIST `cmd`), e.g. `client|info`. */
  lastCommand = 'NULL';
  /**
   * What the front end holds for this connection (CLIENT LIST `qbuf`: bytes received and not yet
   * parsed; `omem`: reply bytes not yet written to the socket). Set by the RESP server; an
   * in-process client holds nothing (0).
   */
  buffers: (() => { qbuf: number; omem: number }) | undefined = undefined;

  private ks: Keyspace;
  private resp: 2 | 3;
  private authenticated: boolean;
  /** The ACL user this connection is authenticated as (CLIENT LIST `user`, ACL WHOAMI). */
  user: AclUser;
  private isClosed = false;
  /** A blocked command (or a pipeline waiting on one) holds the connection. */
  private occupied = false;
  /** Commands submitted behind it, in order. */
  private waiting: (() => void)[] | null = null;
  /** Set while `close()` settles the waiting commands. */
  private closing = false;
  /** Blocked calls of this connection. */
  private blockedCalls = 0;
  /** MULTI: queued argv (null outside MULTI) and whether a queue-time error happened. */
  private multiQueue: string[][] | null = null;
  private multiErrored = false;
  /** The blocked call now ending was unblocked by CLIENT UNBLOCK … TIMEOUT (7.0 stats). */
  private timeoutUnblocked = false;
  private watchState: WatchState | null = null;
  private emulatorTable: EmulatorTable | undefined;
  private host: object | undefined;
  private dbCache: Db | undefined;
  private pushListeners: Set<(msg: Reply) => void> | undefined;
  /** SUBSCRIBE channels and PSUBSCRIBE patterns (byte strings), in subscription order. */
  private channelSubs: Set<string> | undefined;
  private patternSubs: Set<string> | undefined;
  /** SSUBSCRIBE shard channels (byte strings), in subscription order. */
  private shardSubs: Set<string> | undefined;
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

  constructor(options: ConnectionOptions = {}) {
    this.server = serverFor(options.host ?? 'localhost', options.port ?? 6379);
    // Any index ioredis-mock accepts (tests isolate keyspaces with high ones); SELECT keeps
    // Redis's range 0 … 15.
    const db = options.db ?? 0;
    if (!Number.isInteger(db) || db < 0) throw new StreamsMockError(`db must be a non-negative integer, got ${String(db)}`);
    this.ks = this.server.keyspace(db);
    if (options.streams) this.ks.configure(options.streams);
    this.id = nextClientId();
    this.name = options.name ?? null;
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

  /** Commands queued by MULTI so far (CLIENT LIST `multi`). */
  get multiLength(): number {
    return this.multiQueue?.length ?? -1;
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

  // -------------------------------------------------------------------------------------------
  // Running commands

  /**
   * Execute one command as sent on this connection (argv[0] is the name; every element a byte
   * string). Resolves with the typed reply; an error reply rejects with `CommandError`.
   */
  execute(argv: string[]): Promise<Reply> {
    const busy = this.server.busyScript;
    if (busy !== null && busy.conn !== this) return this.afterBusy(busy, argv, () => this.runReplying(argv));
    if (!this.occupied && this.waiting === null) return this.startNow(() => this.runReplying(argv));
    return this.enqueue(() => this.runReplying(argv));
  }

  /**
   * `execute(argv)` without a promise when it can run now (the RESP server's fast path): the
   * reply, a promise when the command blocks (it then holds the connection), or `undefined` when
   * something is ahead (blocked call, queued commands, a busy script, closing): then use
   * `execute`. Throws `CommandError` for error replies, as `run`.
   */
  executeNow(argv: string[]): Reply | Promise<Reply> | undefined {
    if (this.occupied || this.waiting !== null || this.closing || this.server.busyScript !== null) return undefined;
    const out = this.runReplying(argv);
    if (out instanceof Promise) this.occupy(out);
    return out;
  }

  /**
   * CLIENT REPLY state (networking.c clientCommand, server.c call): `off` silences every reply
   * until CLIENT REPLY ON; `skipNext` (set by SKIP, not while off) silences the next command's
   * reply (`skip`). Pub/sub pushes are not replies: they are still delivered.
   */
  replyOff = false;
  replySkipNext = false;
  /** Set once SYNC/PSYNC made this connection a replica: the replication stream it receives. */
  replicaFeed: ReplicaFeed | null = null;
  /** The running command's reply is skipped (CLIENT REPLY SKIP before it); CLIENT REPLY ON clears it. */
  replySkip = false;

  /** `run`, with the reply silenced as CLIENT REPLY OFF/SKIP decide (a silenced reply is NO_REPLY). */
  private runReplying(argv: string[]): Reply | Promise<Reply> {
    if (!this.replyOff && !this.replySkip) {
      const first = this.run(argv);
      // resetClient: the command just run was CLIENT REPLY SKIP, the next one's reply goes
      if (this.replySkipNext) {
        this.replySkipNext = false;
        this.replySkip = true;
      }
      return first;
    }
    let out: Reply | Promise<Reply>;
    let failed: unknown;
    let threw = false;
    try {
      out = this.run(argv);
    } catch (err) {
      threw = true;
      failed = err;
      out = SILENCED;
    }
    const silenced = this.replyOff || this.replySkip;
    if (this.replySkip) this.replySkip = false;
    if (this.replySkipNext) {
      this.replySkip = true;
      this.replySkipNext = false;
    }
    if (!silenced) {
      if (threw) throw failed;
      return out;
    }
    return out instanceof Promise ? out.then(() => SILENCED, () => SILENCED) : SILENCED;
  }

  /**
   * Run `start` in connection order (for front ends: pipelines, their own reply encodings).
   * `start` runs at once when nothing is ahead, else after everything submitted before it; a
   * Promise it returns holds the connection until it settles. Throws become rejections.
   */
  enqueue<T>(start: () => T | Promise<T>): Promise<T> {
    const busy = this.server.busyScript;
    if (busy !== null && busy.conn !== this) return this.afterBusy(busy, null, start);
    if (!this.occupied && this.waiting === null) return this.startNow(start);
    return new Promise<T>((resolve, reject) => {
      (this.waiting ??= []).push(() => {
        this.startNow(start).then(resolve, reject);
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
    if (out instanceof Promise) this.occupy(out);
    return out;
  }

  /**
   * `runReady(argv)` on the short path of the client methods: `lane` is a stream command the
   * front end resolved once (`streamLane`), `argv[0]` its lower-case name. Same reply, errors,
   * INFO counts and CLIENT LIST fields as `runReady`, with one dispatch instead of the general
   * one; whatever the short path does not cover takes the general path (a closed connection,
   * AUTH pending, MULTI, RESP2 subscriber mode, a container command, a wrong arity, a command the
   * emulated version lacks). Call only when `ready` is true.
   */
  runLane(lane: StreamLane, argv: string[]): Reply | Promise<Reply> {
    const ks = this.ks;
    const version = ks.redisVersion;
    if (lane.version !== version) resolveLane(lane, version);
    const handler = lane.handler;
    if (
      handler === null ||
      this.isClosed ||
      !this.authenticated ||
      !this.user.unrestricted ||
      this.multiQueue !== null ||
      this.channelSubs !== undefined ||
      this.patternSubs !== undefined ||
      this.shardSubs !== undefined ||
      this.server.cluster !== null ||
      this.server.replication !== null ||
      this.server.config.maxmemory !== 0 ||
      this.server.config.replicasLacking ||
      this.server.tracking !== null ||
      this.server.config.slowlogSlowerThan !== 10000 ||
      (lane.arity >= 0 ? argv.length !== lane.arity : argv.length < -lane.arity)
    ) {
      return this.runReady(argv);
    }
    const name = lane.name;
    const weight = sampledWeight(lane.stats);
    const start = weight === 0 ? 0 : performance.now();
    this.lastCommand = name;
    const now = ks.now();
    this.lastInteractionAt = now;
    let result: Reply | BlockRequest;
    try {
      result = handler({ now, version, db: this.streamDb, canBlock: !ks.inTransaction, isRetry: false }, argv);
    } catch (err) {
      this.recordCommand(argv, start, weight, err);
      throw err;
    } finally {
      ks.blocking.flush();
    }
    if (!isBlockRequest(result)) {
      // recordOutcome(name, start, weight, undefined) with the lane's commandstats record
      const stats = this.server.stats;
      if (lane.record === null || lane.recordOf !== stats || lane.recordGeneration !== stats.generation) {
        lane.record = stats.commandRecord(name);
        lane.recordOf = stats;
        lane.recordGeneration = stats.generation;
      }
      stats.commandOk(lane.record, weight === 0 ? 0 : Math.round((performance.now() - start) * 1000) * weight);
      return result;
    }
    const blocked = this.countedLater(argv, start, weight, this.block(ks, result, argv));
    this.occupy(blocked);
    return blocked;
  }

  /**
   * The error processCommand would give argv before running or queueing it (unknown command,
   * wrong arity, unknown subcommand), or null: what MULTI checks at queue time.
   */
  checkCommand(argv: string[]): string | null {
    const name = String(argv[0]).toLowerCase();
    const conn = CONNECTION_COMMANDS.get(name);
    return this.commandCheckError(name, argv, conn, !conn && lookupCommand(name) !== undefined);
  }

  /**
   * A command submitted while another connection's script keeps the server busy: it waits for
   * the script to end; once `busy-reply-threshold` ms (CONFIG, default 5000; 0: never) have
   * passed since the script started, it answers BUSY, or runs when Redis allows it then
   * (SCRIPT KILL, FUNCTION KILL/STATS, AUTH, HELLO, MULTI, …: CMD_ALLOW_BUSY), as server.c
   * processCommand does while scriptIsTimedout().
   */
  private afterBusy<T>(busy: BusyScript, argv: string[] | null, start: () => T | Promise<T>): Promise<T> {
    const threshold = Number(this.server.config.get('busy-reply-threshold') ?? '5000');
    const elapsed = performance.now() - busy.startedAt;
    if (threshold > 0 && elapsed >= threshold) {
      if (argv !== null && allowedWhileBusy(argv)) return this.startNow(start);
      // server.c rejectCommand: inside MULTI the refusal flags the transaction (EXEC aborts)
      if (argv !== null) {
        try {
          this.reject(String(argv[0]).toLowerCase(), busy.busyText ?? BUSY_TEXT);
        } catch (err) {
          return Promise.reject(err);
        }
      }
      return Promise.reject(new CommandError(busy.busyText ?? BUSY_TEXT));
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const proceed = () => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) realClearTimeout(timer);
        (argv !== null ? (this.execute(argv) as Promise<unknown> as Promise<T>) : this.enqueue(start)).then(resolve, reject);
      };
      const timer = threshold > 0 ? realSetTimeout(proceed, Math.max(0, threshold - elapsed)) : undefined;
      busy.done.then(proceed, proceed);
    });
  }

  private startNow<T>(start: () => T | Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(connectionClosedError());
    let out: T | Promise<T>;
    try {
      out = start();
    } catch (err) {
      return Promise.reject(err);
    }
    if (out instanceof Promise) {
      this.occupy(out);
      return out;
    }
    return Promise.resolve(out);
  }

  private occupy(p: Promise<unknown>): void {
    this.occupied = true;
    const release = () => {
      this.occupied = false;
      this.drain();
    };
    p.then(release, release);
  }

  private drain(): void {
    const waiting = this.waiting;
    if (waiting === null) return;
    while (!this.occupied && waiting.length > 0) waiting.shift()!();
    if (waiting.length === 0 && this.waiting === waiting) this.waiting = null;
  }

  /**
   * Run argv now, at the head of the connection's order (front ends call it from inside
   * `enqueue`, or when `ready`). Returns the reply, or a promise when the command blocks;
   * throws `CommandError` for error replies.
   */
  run(argv: string[]): Reply | Promise<Reply> {
    if (this.isClosed) throw connectionClosedError();
    if (this.noTouch) return this.runNoTouch(argv);
    return this.counted(argv, this.runCommand);
  }

  /** `run` with CLIENT NO-TOUCH on: reads leave keys' LRU/LFU as they were, except TOUCH's (db.c lookupKey). */
  private runNoTouch(argv: string[]): Reply | Promise<Reply> {
    const store = this.ks.store;
    store.noTouch = String(argv[0]).toLowerCase() !== 'touch';
    try {
      return this.counted(argv, this.runCommand);
    } finally {
      store.noTouch = false;
    }
  }

  /**
   * Run `body` (a method of this connection, so that no closure is made per command) for argv
   * and record it in the server's INFO statistics (commandstats, errorstats, commands
   * processed): when it answers, fails, or is refused before running.
   */
  private counted(argv: string[], body: (this: Connection, argv: string[]) => Reply | Promise<Reply>): Reply | Promise<Reply> {
    const repl = this.server.replication;
    if (repl !== null && repl.active) return this.propagating(repl, argv, () => this.countedPlain(argv, body));
    return this.countedPlain(argv, body);
  }

  /**
   * Run `body` (one command: argv) as a frame of the replication stream (Redis call()): the
   * command propagates when it changed the dataset (lib/engine/replication.ts); blocked calls
   * its writes wake are served after the unit was fed to the replicas, each as a unit of its own.
   * A script that outlives its first slice keeps the frame open until it ends.
   */
  private propagating<T extends Reply | Promise<Reply> | CommandResult>(repl: Replication, argv: string[], body: () => T): T {
    const ks = this.ks;
    const name = String(argv[0]).toLowerCase();
    const changesBefore = this.server.stats.changes;
    const outer = repl.enterCommand(ks.dbIndex, name);
    const end = () => repl.leaveCommand(outer, argv, name, this.server.stats.changes !== changesBefore, this.ks.dbIndex);
    ks.blocking.hold();
    let deferred = false;
    try {
      const out = body();
      const busy = this.server.busyScript;
      if (out instanceof Promise && busy !== null && busy.conn === this) {
        deferred = true;
        out.then(end, end).finally(() => ks.blocking.release());
      }
      return out;
    } finally {
      if (!deferred) {
        try {
          end();
        } finally {
          ks.blocking.release();
        }
      }
    }
  }

  /** The running command propagates to replicas even if it changed nothing (forceCommandPropagation). */
  forcePropagation(): void {
    const repl = this.server.replication;
    if (repl !== null && repl.active) repl.force();
  }

  private countedPlain(argv: string[], body: (this: Connection, argv: string[]) => Reply | Promise<Reply>): Reply | Promise<Reply> {
    const tracking = this.server.tracking;
    if (tracking !== null) return this.countedTracked(tracking, argv, body);
    return this.timed(argv, body);
  }

  /** Run `body` and count it in INFO (commandstats, errorstats; a blocked call when it settles). */
  private timed(argv: string[], body: (this: Connection, argv: string[]) => Reply | Promise<Reply>): Reply | Promise<Reply> {
    const weight = timingWeight(argv[0]);
    const start = weight === 0 ? 0 : performance.now();
    let out: Reply | Promise<Reply>;
    try {
      out = body.call(this, argv);
    } catch (err) {
      this.recordCommand(argv, start, weight, err);
      throw err;
    }
    if (out instanceof Promise) return this.countedLater(argv, start, weight, out);
    this.recordCommand(argv, start, weight, undefined);
    return out;
  }

  /** `counted` while connections track keys (CLIENT TRACKING): the command is the server's current one. */
  private countedTracked(tracking: TrackingState, argv: string[], body: (this: Connection, argv: string[]) => Reply | Promise<Reply>): Reply | Promise<Reply> {
    const saved = tracking.enter(this, argv);
    let ran = false;
    try {
      const out = this.timed(argv, body);
      ran = out !== QUEUED;
      return out;
    } catch (err) {
      ran = err instanceof CommandError && !(err instanceof RejectedCommandError);
      throw err;
    } finally {
      tracking.leave(this, argv, ran, saved);
    }
  }

  /** Record a command that answers later (blocked) once it settles; returns `out`. */
  private countedLater(argv: string[], start: number, weight: number, out: Promise<Reply>): Promise<Reply> {
    out.then(
      () => {
        // 7.0 counts a call unblocked by CLIENT UNBLOCK … TIMEOUT in failed_calls (no error reply)
        const failed = this.timeoutUnblocked;
        this.timeoutUnblocked = false;
        this.recordCommand(argv, start, weight, failed ? UNBLOCKED_BY_TIMEOUT : undefined);
      },
      (err) => this.recordCommand(argv, start, weight, err),
    );
    return out;
  }

  /**
   * Timing of a built-in the ioredis front end runs on ioredis-mock's emulator itself (not
   * through `run`): the weight to hand `recordBuiltin` (see `timingWeight`; 0: do not time it).
   * `name`: the lower-case command name.
   */
  builtinTimingWeight(name: string): number {
    let known = BUILTIN_KINDS.get(name);
    if (known === undefined) {
      known = { subNamed: commandStatsName([name, 'x'], false) !== name, seen: 0 };
      if (BUILTIN_KINDS.size < COMMAND_KINDS_MAX) BUILTIN_KINDS.set(name, known);
    }
    return sampledWeight(known);
  }

  /**
   * Count a built-in the ioredis front end ran itself in INFO (commands processed, commandstats,
   * errorstats) as `run` counts the ones it runs: `name` lower case, `firstArg` its first
   * argument (OBJECT's subcommand), `start` `performance.now()` before it ran (when `weight`
   * is not 0), `err` what it threw (a wrong arity counts as a rejected call, as Redis refuses it
   * before running).
   */
  recordBuiltin(name: string, firstArg: unknown, start: number, weight: number, err: unknown): void {
    if (err !== undefined && !(err instanceof CommandError)) return;
    // the adapter's arity check throws a plain CommandError: a refusal before running all the same
    const rejected = err instanceof CommandError && err.message.startsWith('ERR wrong number of arguments');
    this.recordOutcome(builtinFullName(name, firstArg), start, weight, err, rejected);
  }

  /**
   * A built-in the ioredis front end ran itself (after `builtinTimingWeight`): CLIENT LIST `cmd`
   * (`object|encoding` for a container's subcommand) and `idle`.
   */
  noteBuiltin(name: string, firstArg: unknown): void {
    this.noteCommand(builtinFullName(name, firstArg));
  }

  /** commandstats / errorstats of one call of `full` (its INFO name); see `recordCommand`. */
  private recordOutcome(full: string, start: number, weight: number, err: unknown, rejected = false): void {
    const usec = weight === 0 ? 0 : Math.round((performance.now() - start) * 1000) * weight;
    if (err === undefined) this.server.stats.commandDone(full, usec, 'ok');
    else if (err === UNBLOCKED_BY_TIMEOUT) this.server.stats.commandDone(full, usec, 'failed');
    else this.server.stats.commandDone(full, usec, rejected || err instanceof RejectedCommandError ? 'rejected' : 'failed', (err as CommandError).message);
  }

  /**
   * INFO `rdb_changes_since_last_save` for a built-in the ioredis front end ran itself: the
   * `server.dirty` increment of `name` (lower case) with `argc` arguments (name included) that
   * made `writes` keyspace modifications (see `dirtyOfBuiltin`), as `run` adds it.
   */
  addBuiltinDirty(name: string, argc: number, writes: number): void {
    if (writes > 0) this.server.stats.addDirty(dirtyOfBuiltin(name, argc, writes));
  }

  /** `weight`: see `timingWeight` (0: the call was not timed; its usec count as 0). */
  private recordCommand(argv: string[], start: number, weight: number, err: unknown): void {
    if (err !== undefined && err !== UNBLOCKED_BY_TIMEOUT && !(err instanceof CommandError)) return; // closed connection, library errors
    const raw = argv[0];
    // name → (lower-case name, kind), cached by the name as sent (usually already lower case)
    let known = COMMAND_KINDS.get(raw);
    if (known === undefined) {
      const name = String(raw).toLowerCase();
      const spec = CONNECTION_COMMANDS.get(name) ?? lookupCommand(name);
      const kind = spec ? (spec.subcommands ? 'container' : 'command') : this.hasBuiltin(name) ? 'command' : 'unknown';
      // Redis's full name gets `|subcommand` for containers (ours, and ioredis-mock's OBJECT …)
      const subNamed = kind !== 'unknown' && commandStatsName([name, 'x'], kind === 'container') !== name;
      known = { name, kind, subNamed, seen: 0 };
      // built-ins depend on the emulator table: not cached; nor are names past the cache's bound
      if (spec && COMMAND_KINDS.size < COMMAND_KINDS_MAX) COMMAND_KINDS.set(raw, known);
    }
    if (this.multiQueue !== null && err === undefined && known.name !== 'multi') return; // QUEUED
    const stats = this.server.stats;
    // a command of a later version is unknown to this one: errorstats only (no cmdstat line)
    if (known.kind === 'unknown' || (err !== undefined && this.absentHere(known.name))) {
      if (err instanceof CommandError) stats.errorReply(err.message);
      return;
    }
    this.recordOutcome(known.subNamed ? commandStatsName(argv, true) : known.name, start, weight, err);
    // SLOWLOG (lib/engine/slowlog.ts): commands that ran, EXEC itself excepted
    const config = this.server.config;
    if (config.slowlogSlowerThan !== 10000 && known.name !== 'exec' && !(err instanceof RejectedCommandError)) {
      const usec = weight === 0 ? 0 : Math.round((performance.now() - start) * 1000);
      this.server.slowlog.push(argv, usec, this.ks.clock.now(), this.addr, this.name ?? '', config.slowlogSlowerThan, config.slowlogMaxLen);
    }
  }

  private runCommand(argv: string[]): Reply | Promise<Reply> {
    if (!Array.isArray(argv) || argv.length === 0) {
      throw new StreamsMockError('execute(argv): argv must be a non-empty array whose first element is the command name');
    }
    const name = String(argv[0]).toLowerCase();
    const conn = CONNECTION_COMMANDS.get(name);
    const stream = conn ? undefined : lookupCommand(name);
    this.lastCommand = this.lookedUpName(name, argv, conn, stream);
    if (!this.authenticated && !conn?.noAuth) return this.reject(name, ERR_NOAUTH);
    if (this.multiQueue !== null && NO_MULTI.has(name) && arityOk(NO_MULTI.get(name)!, argv.length)) return this.reject(name, ERR_NO_MULTI);
    if (!this.user.unrestricted) this.checkAcl(name, argv, conn, stream !== undefined, false);
    if (this.server.cluster !== null) this.checkCluster(name, argv, conn, stream !== undefined);
    if (this.server.config.maxmemory !== 0 && this.outOfMemoryFor(name, argv, conn, stream !== undefined)) return this.reject(name, OOM_TEXT);
    if (this.server.config.replicasLacking && this.writeRefused(name, argv, conn, stream)) return this.reject(name, NOREPLICAS_TEXT);
    if (this.resp === 2 && this.inSubscriberMode && !ALLOWED_WHEN_SUBSCRIBED.has(name)) {
      const container = conn?.subcommands !== undefined || stream?.subcommands !== undefined || BUILTIN_CONTAINERS.has(name);
      const sub = argv.length > 1 && container ? `|${String(argv[1]).toLowerCase()}` : '';
      return this.reject(name, `ERR Can't execute '${name}${sub}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`);
    }
    if (this.server.master !== null && this.writesOnReplica(name)) return this.reject(name, ERR_READONLY);
    if (this.server.master !== null && this.deniedWhileStale(name)) return this.reject(name, ERR_MASTERDOWN);
    if (this.server.clientPause !== null && this.pausedFor(name, argv, conn, stream !== undefined)) return this.afterPause(argv);
    if (this.multiQueue !== null && !conn?.immediate) return this.queueInMulti(name, argv, conn, stream !== undefined);
    if (conn) return this.runConnectionCommand(conn, name, argv);
    if (stream) return this.runStream(argv, true);
    // Unknown command, arity: refused before running (rejected_calls in INFO)
    const refused = this.commandCheckError(name, argv, undefined, false);
    if (refused !== null) this.reject(name, refused);
    return this.runBuiltin(name, argv);
  }

  /** CLIENT PAUSE: argv (past the unknown-command and arity checks) waits for the pause to end. */
  private pausedFor(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean): boolean {
    if (this.refusedAnyway(name, argv, conn, isStream)) return false; // refused at once
    return mustWait(this.server, argv, this.multiQueue);
  }

  /** A paused command: blocked (CLIENT LIST b, INFO blocked_clients) until the pause ends, then run. */
  private afterPause(argv: string[]): Promise<Reply> {
    this.blockedCalls++;
    return new Promise<void>((resolve) => this.server.clientPause!.waiting.push(resolve)).then(() => {
      this.blockedCalls--;
      if (this.isClosed) throw connectionClosedError();
      return this.runCommand(argv);
    });
  }

  /**
   * processCommand on a read-only replica (REPLICAOF host port, replica-read-only yes): a write
   * command, or an EXEC whose queue holds one, is refused with READONLY.
   */
  /**
   * processCommand on a replica whose link is down (always, here: REPLICAOF connects nowhere) with
   * replica-serve-stale-data no: commands without the `stale` flag, or an EXEC queueing one, are
   * refused with MASTERDOWN. Container commands (CONFIG, CLIENT …) are let through: the table has
   * no per-subcommand flags (their admin subcommands are `stale` in Redis).
   */
  private deniedWhileStale(name: string): boolean {
    if (this.server.config.get('replica-serve-stale-data') !== 'no') return false;
    const denied = (n: string) => {
      const flags = commandSpec(n.toLowerCase())?.flags;
      return flags !== undefined && flags.length > 0 && !flags.includes('stale');
    };
    if (name === 'exec') return this.multiQueue !== null && this.multiQueue.some((a) => denied(String(a[0])));
    return denied(name);
  }

  private writesOnReplica(name: string): boolean {
    if (this.server.config.get('replica-read-only') !== 'yes') return false;
    const writes = (n: string) => commandSpec(n.toLowerCase())?.flags.includes('write') ?? false;
    if (name === 'exec') return this.multiQueue !== null && this.multiQueue.some((a) => writes(String(a[0])));
    return writes(name);
  }

  /**
   * processCommand's maxmemory step (lib/engine/maxmemory.ts): evict as the policy says; true
   * when the server is still over the limit and argv must be refused: a denyoom command, EXEC of
   * a transaction holding one, a script whose flags lack allow-oom and no-writes, and before 7.4
   * any command but EXEC, DISCARD, QUIT and RESET inside MULTI. A command refused for another
   * reason first (unknown, arity) is left to that check; nothing is evicted while a script is busy.
   */
  private outOfMemoryFor(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean): boolean {
    if (this.server.busyScript !== null) return false;
    if (this.refusedAnyway(name, argv, conn, isStream)) return false;
    const oom = performEvictions(this.server);
    this.server.preCommandOom = oom;
    if (!oom) return false;
    const queue = this.multiQueue;
    if (queue !== null && !MULTI_OOM_EXEMPT.has(name) && predates(this.ks.redisVersion, '7.4')) return true;
    if (name === 'exec') return queue !== null && queue.some((q) => deniedOnOom(this.server, q));
    return deniedOnOom(this.server, argv);
  }

  /**
   * processCommand's maxmemory and good-replicas refusals for a built-in the ioredis front end
   * runs itself (lower-case `name`, `argc` counting it, its first argument): throws OOM or
   * NOREPLICAS as `run` would refuse it (a wrong arity is left to the built-in's own check).
   */
  checkServerState(name: string, argc: number, firstArg: unknown): void {
    const config = this.server.config;
    if (config.maxmemory === 0 && !config.replicasLacking) return;
    const arity = builtinArity(name);
    if (arity !== undefined && !arityOk(arity, argc)) return;
    const argv = firstArg === undefined ? [name] : [name, Buffer.isBuffer(firstArg) ? firstArg.toString('latin1') : String(firstArg)];
    if (config.maxmemory !== 0 && this.server.busyScript === null) {
      const oom = performEvictions(this.server);
      this.server.preCommandOom = oom;
      if (oom && isDenyOom(argv)) this.reject(name, OOM_TEXT);
    }
    if (config.replicasLacking && isWriteCommand(this.server, argv, commandSpec(name)?.flags.includes('write'))) this.reject(name, NOREPLICAS_TEXT);
  }

  /**
   * processCommand's good-replicas step: with `min-replicas-to-write` set (the fake has no
   * replica) a write command, EXEC of a transaction holding one, or a script whose flags lack
   * no-writes is refused (NOREPLICAS). Unknown commands and wrong arities answer their own errors.
   */
  private writeRefused(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, stream: CommandSpec | undefined): boolean {
    if (this.refusedAnyway(name, argv, conn, stream !== undefined)) return false;
    const writes = (a: string[]) => {
      const n = a[0].toLowerCase();
      return isWriteCommand(this.server, a, lookupCommand(n)?.write || commandSpec(n)?.flags.includes('write'));
    };
    if (name === 'exec') return this.multiQueue !== null && this.multiQueue.some(writes);
    return writes(argv);
  }

  /**
   * Cluster mode (processCommand → getNodeByQuery): after the unknown-command and arity checks,
   * a command with keys answers CROSSSLOT when they hash to different slots, MOVED when their
   * slot is another node's; EXEC checks the whole queue (and discards the transaction on
   * refusal); inside MULTI a refused command flags the transaction (EXECABORT at EXEC).
   */
  private checkCluster(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean): void {
    const cluster = this.server.cluster!;
    this.clusterAsking = false; // ASKING lasts one command (no slot migrates here)
    let commands: string[][];
    if (name === 'exec') {
      if (this.multiQueue === null) return;
      commands = this.multiQueue;
    } else {
      if (this.refusedAnyway(name, argv, conn, isStream)) return; // refused as usual
      commands = [argv];
    }
    const err = redirectionError(cluster, this.clusterNode, commands);
    if (err === null) return;
    if (name === 'exec') {
      this.discardTransaction();
      throw new RejectedCommandError(err.message);
    }
    this.reject(name, err.message);
  }

  /**
   * CLIENT LIST `cmd` as processCommand sets it before any check (`c->lastcmd`, checked on
   * 7.0.15 and a build after 7.4): the command looked up for argv — `name|sub` for a
   * container's subcommand, the container itself without a subcommand argument — or NULL when
   * none is found (unknown command or subcommand, or one the emulated version lacks).
   */
  private lookedUpName(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, stream: CommandSpec | undefined): string {
    const version = this.ks.redisVersion;
    let subcommands: Record<string, { since?: RedisVersion } | { arity: number }> | undefined;
    if (conn) {
      if (predates(version, conn.since)) return 'NULL';
      subcommands = conn.subcommands;
    } else if (stream) {
      if (predates(version, commandSince(name))) return 'NULL';
      subcommands = stream.subcommands;
    } else {
      if (!this.hasBuiltin(name)) return 'NULL';
      return commandStatsName(argv, false); // OBJECT ENCODING → object|encoding
    }
    if (!subcommands || argv.length < 2) return name;
    const sub = String(argv[1]).toLowerCase();
    const spec = Object.prototype.hasOwnProperty.call(subcommands, sub) ? subcommands[sub] : undefined;
    return spec && !predates(version, 'since' in spec ? spec.since : undefined) ? `${name}|${sub}` : 'NULL';
  }

  /** True when command `name` (lower case) is newer than the emulated version. */
  private absentHere(name: string): boolean {
    const version = this.ks.redisVersion;
    const conn = CONNECTION_COMMANDS.get(name);
    return predates(version, conn ? conn.since : commandSince(name));
  }

  /** The full name (`name` or `container|sub`) processCommand looks argv up as, or null when unknown here. */
  commandFullName(name: string, argv: string[]): string | null {
    const conn = CONNECTION_COMMANDS.get(name);
    const full = this.lookedUpName(name, argv, conn, conn ? undefined : lookupCommand(name));
    return full === 'NULL' ? null : full;
  }

  /**
   * Whether this connection's user may run argv (ACLCheckAllUserCommandPerm, arity not checked:
   * redis.acl_check_cmd), or null when no command of that name exists.
   */
  aclAllows(argv: string[]): boolean | null {
    const name = String(argv[0]).toLowerCase();
    const full = this.commandFullName(name, argv);
    if (full === null || (!CONNECTION_COMMANDS.has(name) && lookupCommand(name) === undefined && !this.hasBuiltin(name))) return null;
    return this.user.unrestricted || checkCommand(this.user, full, argv, this.ks.redisVersion).result === ACL_OK;
  }

  /** A front end ran `name` itself (ioredis-mock's built-ins): CLIENT LIST `cmd` and `idle`. */
  noteCommand(name: string): void {
    this.lastCommand = name;
    this.lastInteractionAt = this.ks.clock.now();
  }

  /** Keyspace-clock ms when a command last ran (CLIENT LIST idle). */
  get lastInteraction(): number {
    return this.lastInteractionAt ?? this.createdAt;
  }

  /**
   * processCommand's ACL check (after the unknown-command and arity checks): a denied command
   * is logged (ACL LOG) and refused with NOPERM; `inExec`: execCommand's re-check of a queued
   * command (its own text, the error in place).
   */
  private checkAcl(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean, inExec: boolean): void {
    if (this.refusedAnyway(name, argv, conn, isStream)) return;
    const full = inExec ? this.lookedUpName(name, argv, conn, isStream ? lookupCommand(name) : undefined) : this.lastCommand;
    if (full === 'NULL') return;
    const version = this.ks.redisVersion;
    const verdict = checkCommand(this.user, full, argv, version);
    if (verdict.result === ACL_OK) return;
    const object = verdict.index === 0 ? full : argv[verdict.index];
    aclDeniedLog(this, verdict.result, inExec || this.multiQueue !== null ? 'multi' : 'toplevel', object, this.user.name);
    if (inExec) {
      const reason = verdict.result === 1 ? 'no permission to execute the command or subcommand' : verdict.result === 2 ? 'no permission to touch the specified keys' : 'no permission to access one of the channels used as arguments';
      throw new CommandError(`NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. This command is no longer allowed for the following reason: ${reason}`);
    }
    this.reject(name, `NOPERM ${aclErrorMessage(version, verdict.result, this.user, full, argv[verdict.index], false)}`);
  }

  /** script.c scriptCall's ACL check of a redis.call (context `lua` in ACL LOG). */
  private checkScriptAcl(name: string, argv: string[]): void {
    const full = this.commandFullName(name, argv);
    if (full === null) return;
    const version = this.ks.redisVersion;
    const verdict = checkCommand(this.user, full, argv, version);
    if (verdict.result === ACL_OK) return;
    aclDeniedLog(this, verdict.result, 'lua', verdict.index === 0 ? full : argv[verdict.index], this.user.name);
    if (predates(version, '7.2')) {
      const what = verdict.result === 1 ? "can't run this command or subcommand" : verdict.result === 2 ? "can't access at least one of the keys mentioned in the command arguments" : "can't publish to the channel mentioned in the command";
      throw new CommandError(`ERR The user executing the script ${what}`);
    }
    throw new CommandError(`ERR ACL failure in script: ${aclErrorMessage(version, verdict.result, this.user, full, argv[verdict.index], false)}`);
  }

  /** A command refused before running (processCommand's rejectCommand): flags MULTI. */
  private reject(name: string, message: string): never {
    if (name === 'exec' && this.multiQueue !== null) {
      this.discardTransaction();
      throw new CommandError(`EXECABORT Transaction discarded because of: ${message.replace(/^ERR /, '')}`);
    }
    if (this.multiQueue !== null) this.multiErrored = true;
    throw new RejectedCommandError(message);
  }

  /**
   * True when processCommand refuses argv for a reason checked first (unknown command, arity,
   * unknown subcommand): the cluster, pause, maxmemory and good-replicas steps leave it to that error.
   */
  private refusedAnyway(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean): boolean {
    try {
      return this.commandCheckError(name, argv, conn, isStream) !== null;
    } catch {
      return true;
    }
  }

  /** The error processCommand gives before running or queueing argv, or null. */
  private commandCheckError(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean): string | null {
    const version = this.ks.redisVersion;
    if (isStream) {
      try {
        dispatchCheckOnly(version, argv);
        return null;
      } catch (err) {
        if (err instanceof CommandError) return err.message;
        throw err;
      }
    }
    if (conn) {
      if (predates(version, conn.since)) return errUnknownCommand(argv[0], argv.slice(1));
      if (!arityOk(conn.arity, argv.length)) return errWrongArity(name);
      if (conn.subcommands) {
        const sub = conn.subcommands[argv[1].toLowerCase()];
        if (!sub || predates(version, sub.since)) return errUnknownSubcommand(argv[1], argv[0]);
        if (!arityOk(sub.arity, argv.length)) return errWrongArity(`${name}|${argv[1].toLowerCase()}`);
      }
      return null;
    }
    if (!this.hasBuiltin(name)) {
      if (builtinArity(name) !== undefined) throw new StreamsMockError(`${name.toUpperCase()} is not emulated (neither ioredis-mock nor this library has it)`);
      return errUnknownCommand(argv[0], argv.slice(1));
    }
    const arity = builtinArity(name);
    if (arity !== undefined && !arityOk(arity, argv.length)) return errWrongArity(name);
    return null;
  }

  private queueInMulti(name: string, argv: string[], conn: ConnectionCommandSpec | undefined, isStream: boolean): Reply {
    const error = this.commandCheckError(name, argv, conn, isStream);
    if (error !== null) this.reject(name, error);
    this.multiQueue!.push(argv);
    return QUEUED;
  }

  private runConnectionCommand(spec: ConnectionCommandSpec, name: string, argv: string[]): Reply | Promise<Reply> {
    const error = this.commandCheckError(name, argv, spec, false);
    if (error !== null) this.reject(name, error);
    // CLIENT LIST cmd: set by runCommand (inside EXEC it stays exec, as in Redis)
    const run = spec.subcommands ? spec.subcommands[argv[1].toLowerCase()].run : spec.run;
    this.lastInteractionAt = this.ks.clock.now();
    try {
      return run!(this, argv);
    } finally {
      this.ks.blocking.flush();
    }
  }

  /** The command context of a stream command on the current keyspace. */
  private context(isRetry: boolean): CommandContext {
    const ks = this.ks;
    const now = ks.now();
    if (!isRetry) this.lastInteractionAt = now;
    return { now, version: ks.redisVersion, db: this.streamDb, canBlock: !ks.inTransaction, isRetry, clusterEnabled: this.server.cluster !== null };
  }

  /** Run a stream command; blocks (returns a promise) on a BLOCK that must wait. */
  private runStream(argv: string[], refusals = false): Reply | Promise<Reply> {
    const ks = this.ks;
    let result: Reply | BlockRequest;
    // Unknown (in this version), arity, subcommand: refused before running (INFO rejected_calls)
    let handler: CommandHandler;
    try {
      handler = dispatchCheckOnly(ks.redisVersion, argv);
    } catch (err) {
      if (refusals && err instanceof CommandError) this.reject(argv[0].toLowerCase(), err.message);
      throw err;
    }
    try {
      result = handler(this.context(false), argv);
    } finally {
      ks.blocking.flush();
    }
    if (!isBlockRequest(result)) return result;
    return this.block(ks, result, argv);
  }

  private block(ks: Keyspace, request: BlockRequest, argv: string[]): Promise<Reply> {
    this.blockedCalls++;
    const p = ks.blocking.block(this, request.keys.map(storeKeyOfBytes), request, (req, key) => {
      const retry = () => req.retry(this.context(true), key === undefined ? undefined : toByteString(key));
      const tracking = this.server.tracking;
      const serve = tracking === null ? retry : () => tracking.served(this, retry);
      const repl = this.server.replication;
      return repl !== null && repl.active ? this.propagating(repl, argv, serve) : serve();
    });
    const done = () => {
      this.blockedCalls--;
    };
    p.then(done, done);
    return p;
  }

  /** True when ioredis-mock (or the clock's TTL family) has `name`. */
  private hasBuiltin(name: string): boolean {
    return builtinArity(name) !== undefined && typeof this.emulators[name] === 'function';
  }

  /** Run one of ioredis-mock's commands on its emulator; the reply typed as Redis types it. */
  private runBuiltin(name: string, argv: string[]): Reply | Promise<Reply> {
    if (!this.hasBuiltin(name)) {
      if (builtinArity(name) !== undefined) throw new StreamsMockError(`${name.toUpperCase()} is not emulated (neither ioredis-mock nor this library has it)`);
      throw new CommandError(errUnknownCommand(argv[0], argv.slice(1)));
    }
    const ks = this.ks;
    this.lastInteractionAt = ks.clock.now();
    const args = argv.slice(1).map(builtinArg);
    const writesBefore = ks.modifications;
    let value: unknown;
    try {
      const emulator = this.emulators[name];
      const host = this.builtinHost;
      // Redis's checks, the keyspace clock, errors as Redis's (./emulated/builtins.ts); long argument
      // lists refused (./emulated/large-args.ts)
      value = runBuiltin(ks, name, args, (all) => callWithinLimit(name, all, (a) => emulator.apply(host, a)));
    } catch (err) {
      throw builtinError(err);
    } finally {
      this.addBuiltinDirty(name, argv.length, ks.modifications - writesBefore);
      ks.blocking.flush();
    }
    if (value instanceof Promise) {
      return value.then(
        (v) => typedBuiltinReply(name, args, v),
        (err) => Promise.reject(builtinError(err)),
      );
    }
    return typedBuiltinReply(name, args, value);
  }

  /**
   * One `redis.call`/`redis.pcall` of a Lua script running on this connection (script.c
   * scriptCall): argv are byte strings (full keys); stream commands
   * answer nil instead of blocking. Throws CommandError with the script texts for unknown,
   * wrong-arity and not-allowed commands, and the command's own error replies.
   */
  scriptCall(argv: string[]): Reply {
    const repl = this.server.replication;
    if (repl !== null && repl.active) return this.propagating(repl, argv, () => this.scriptCallPlain(argv));
    return this.scriptCallPlain(argv);
  }

  private scriptCallPlain(argv: string[]): Reply {
    const ks = this.ks;
    if (this.tracking !== null) this.server.tracking?.remember(this, argv);
    const name = argv[0].toLowerCase();
    if (!this.user.unrestricted) this.checkScriptAcl(name, argv);
    const spec = lookupCommand(name);
    if (spec) {
      if (predates(ks.redisVersion, commandSince(name))) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
      // Redis looks a container's subcommand up with the command itself (argc >= 2).
      let arity = olderArity(name, ks.redisVersion) ?? spec.arity;
      if (spec.subcommands && argv.length >= 2) {
        const sub = spec.subcommands[argv[1].toLowerCase()];
        if (!sub) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
        arity = sub.arity;
      }
      if (!arityOk(arity, argv.length)) throw new CommandError(ERR_ARITY_FROM_SCRIPT);
      if (DENIED_IN_SCRIPTS.has(name)) throw new CommandError(ERR_NOT_ALLOWED_FROM_SCRIPT); // CONFIG
      if (NOSCRIPT_BEFORE_7_2.has(name) && predates(ks.redisVersion, '7.2')) throw new CommandError(ERR_NOT_ALLOWED_FROM_SCRIPT);
      const ctx: CommandContext = { now: ks.now(), version: ks.redisVersion, db: this.streamDb, canBlock: false, isRetry: false, inScript: true, clusterEnabled: this.server.cluster !== null };
      const result = dispatch(ctx, argv);
      return isBlockRequest(result) ? NIL_ARRAY : result;
    }
    // Redis checks, in order: unknown command, arity, then the no-script flag (script.c scriptCall).
    const conn = CONNECTION_COMMANDS.get(name);
    if (conn) {
      if (predates(ks.redisVersion, conn.since)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
      if (!arityOk(conn.arity, argv.length)) throw new CommandError(ERR_ARITY_FROM_SCRIPT);
      let run = conn.run;
      let noScript = conn.noScript;
      if (conn.subcommands) {
        // Redis looks a container's subcommand up with the command itself (argc >= 2)
        const sub = Object.prototype.hasOwnProperty.call(conn.subcommands, argv[1].toLowerCase()) ? conn.subcommands[argv[1].toLowerCase()] : undefined;
        if (!sub || predates(ks.redisVersion, sub.since)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
        if (!arityOk(sub.arity, argv.length)) throw new CommandError(ERR_ARITY_FROM_SCRIPT);
        run = sub.run;
        noScript ||= sub.noScript;
      }
      if (noScript) throw new CommandError(ERR_NOT_ALLOWED_FROM_SCRIPT);
      // the script's own database from here on; the caller's comes back when the script ends
      if (name === 'select') this.dbBeforeScriptSelect ??= this.ks.dbIndex;
      const out = run!(this, argv);
      if (out instanceof Promise) throw new StreamsMockError(`${name} cannot run inside a script`);
      return out;
    }
    const arity = builtinArity(name);
    const arityWrong = arity !== undefined && !arityOk(arity, argv.length);
    if (DENIED_IN_SCRIPTS.has(name)) throw new CommandError(arityWrong ? ERR_ARITY_FROM_SCRIPT : ERR_NOT_ALLOWED_FROM_SCRIPT);
    if (!this.hasBuiltin(name)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
    if (arityWrong) throw new CommandError(ERR_ARITY_FROM_SCRIPT);
    const out = this.runBuiltin(name, argv);
    if (out instanceof Promise) throw new StreamsMockError(`${name} cannot run inside a script`);
    return out;
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

  /** The caller's database while a script runs on another one (SELECT inside the script). */
  private dbBeforeScriptSelect: number | null = null;

  /** A script ended: its SELECT does not outlive it (Redis runs it on a client of its own). */
  endScriptSelect(): void {
    if (this.dbBeforeScriptSelect === null) return;
    this.selectDb(this.dbBeforeScriptSelect);
    this.dbBeforeScriptSelect = null;
  }

  /** SELECT: switch to database `db` (0 … 15). */
  selectDb(db: number): void {
    if (db === this.ks.dbIndex) return;
    this.ks = this.server.keyspace(db);
    this.dbCache = undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Transactions

  /** MULTI. */
  beginMulti(): void {
    this.multiQueue = [];
    this.multiErrored = false;
  }

  /** DISCARD (and EXEC's end): leave MULTI, forget queued commands, UNWATCH. */
  discardTransaction(): void {
    this.multiQueue = null;
    this.multiErrored = false;
    this.unwatchAll();
  }

  /** EXEC: run the queued commands atomically (see the module doc). */
  exec(): Reply | Promise<Reply> {
    const queued = this.multiQueue!;
    if (this.multiErrored) {
      this.discardTransaction();
      throw new CommandError(ERR_EXECABORT);
    }
    this.multiQueue = null;
    const replies = this.transaction(() =>
      queued.map((argv, i) => {
        this.execIndex = i;
        try {
          return this.runQueued(argv);
        } finally {
          this.execIndex = -1;
        }
      }),
    );
    if (replies === null) return NIL_ARRAY;
    return replies.some((r) => r instanceof Promise) ? Promise.all(replies) : (replies as Reply[]);
  }

  /** One command inside EXEC: its reply, or its error reply in place. */
  private runQueued(argv: string[]): Reply | Promise<Reply> {
    try {
      const out = this.counted(argv, this.runQueuedCommand);
      return out instanceof Promise ? out.catch(errorReplyOf) : out;
    } catch (err) {
      return errorReplyOf(err);
    }
  }

  /** What EXEC runs for one queued command: a connection, stream or built-in command. */
  private runQueuedCommand(argv: string[]): Reply | Promise<Reply> {
    const name = argv[0].toLowerCase();
    const conn = CONNECTION_COMMANDS.get(name);
    if (!this.user.unrestricted) this.checkAcl(name, argv, conn, !conn && lookupCommand(name) !== undefined, true);
    if (conn) return this.runConnectionCommand(conn, name, argv);
    if (lookupCommand(name)) return this.runStream(argv);
    return this.runBuiltin(name, argv);
  }

  /**
   * Run `body` as a transaction of this connection (EXEC; the ioredis front end's `multi()`):
   * null when a WATCHed key was modified (or expired since WATCH), else `body()` run atomically
   * (one time snapshot, BLOCK answers nil, blocked readers served after it). Always UNWATCHes.
   */
  transaction<T>(body: () => T): T | null {
    if (this.watchFailed()) {
      this.unwatchAll();
      return null;
    }
    this.unwatchAll();
    return this.ks.atomically(body);
  }

  /** WATCH full keys (byte strings) of the current keyspace. */
  watchKeys(keys: string[]): void {
    (this.watchState ??= new WatchState()).watch(this.ks, keys.map(storeKeyOfBytes));
  }

  /** UNWATCH every key. */
  unwatchAll(): void {
    const state = this.watchState;
    if (!state) return;
    this.watchState = null;
    state.release();
  }

  /** EXEC must fail: a watched key was modified, or expired after WATCH (isWatchedKeyExpired). */
  private watchFailed(): boolean {
    return this.watchState !== null && this.watchState.failed();
  }

  // -------------------------------------------------------------------------------------------
  // Authentication, protocol, pub/sub

  get isAuthenticated(): boolean {
    return this.authenticated;
  }

  /** Check AUTH/HELLO AUTH credentials (ACL users). Returns true when accepted; a refusal is logged (ACL LOG). */
  authenticate(username: string, password: string): boolean {
    const acl = aclStateOf(this.server);
    const user = acl.users.get(username);
    if (user === undefined || !user.checkPassword(password)) {
      aclDeniedLog(this, ACL_DENIED_AUTH, this.multiQueue !== null ? 'multi' : 'toplevel', 'AUTH', username);
      return false;
    }
    this.user = user;
    this.authenticated = true;
    return true;
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

  setProtocol(resp: 2 | 3): void {
    this.resp = resp;
  }

  /** RESET: back to a fresh connection's state (networking.c clearClientConnectionState). */
  resetState(): void {
    this.discardTransaction();
    this.unsubscribeAll();
    this.selectDb(0);
    this.resp = 2;
    this.user = aclStateOf(this.server).defaultUser;
    this.authenticated = this.user.nopass && this.user.enabled;
    this.name = null;
    this.noEvict = false;
    this.noTouch = false;
    this.replyOff = false;
    this.replySkipNext = false;
    this.server.tracking?.disable(this);
  }

  /**
   * Out-of-band messages for this connection (pub/sub `message`/`pmessage`) as push replies.
   * @returns a function that removes the listener
   */
  onPush(listener: (msg: Reply) => void): () => void {
    (this.pushListeners ??= new Set()).add(listener);
    return () => void this.pushListeners?.delete(listener);
  }

  /** Deliver an out-of-band reply to the push listeners. */
  push(msg: Reply): void {
    if (!this.pushListeners || this.isClosed) return;
    for (const l of this.pushListeners) l(msg);
  }

  /**
   * 7.0: messages this connection's own PUBLISH already pushed to it (lib/engine/commands/pubsub.ts
   * publishToSelf), as `kind\0items…`: their later delivery through the emitters is dropped.
   */
  selfEchoes: string[] | undefined;

  /** A pub/sub message from the server's channel emitters (`message`/`pmessage` events). */
  deliverMessage(event: string, args: unknown[]): void {
    const kind = event.replace(/Buffer$/, '');
    if (kind !== 'message' && kind !== 'pmessage') return;
    const items = [kind, ...args].map((a) => (Buffer.isBuffer(a) ? a.toString('latin1') : toByteString(a)));
    if (this.selfEchoes !== undefined && this.selfEchoes[0] === items.join('\0')) {
      this.selfEchoes.shift();
      if (this.selfEchoes.length === 0) this.selfEchoes = undefined;
      return;
    }
    this.push(new PushReply(items));
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
    return this.subscriptionCount > 0 || (this.shardSubs?.size ?? 0) > 0;
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
    const subs = (this.shardSubs ??= new Set());
    if (subs.has(channel)) return;
    subs.add(channel);
    const table = this.server.shardChannels;
    let set = table.get(channel);
    if (!set) table.set(channel, (set = new Set()));
    set.add(this);
  }

  /** SUNSUBSCRIBE one shard channel. */
  shardUnsubscribe(channel: string): void {
    if (!this.shardSubs?.delete(channel)) return;
    if (this.shardSubs.size === 0) this.shardSubs = undefined;
    const table = this.server.shardChannels;
    const set = table.get(channel);
    if (!set) return;
    set.delete(this);
    if (set.size === 0) table.delete(channel);
  }

  /** An SPUBLISH message: `[smessage, channel, message]` (pubsub.c, 7.0). */
  deliverShardMessage(channel: string, message: string): void {
    this.push(new PushReply(['smessage', channel, message]));
  }

  /** Subscribe to a channel or pattern (byte string) on the server's emitters. */
  subscribe(name: string, pattern: boolean): void {
    const subs = pattern ? (this.patternSubs ??= new Set()) : (this.channelSubs ??= new Set());
    if (subs.has(name)) return;
    subs.add(name);
    const emulator = this.emulators[pattern ? 'psubscribe' : 'subscribe'];
    // ioredis-mock keys its subscriptions by the argument itself: a Buffer (a non-UTF-8 name)
    // must be the same object on UNSUBSCRIBE
    const arg = builtinArg(name);
    if (typeof arg !== 'string') (this.subscribedArgs ??= new Map()).set(`${pattern ? 'p' : 'c'}${name}`, arg);
    if (typeof emulator === 'function') emulator.call(this.builtinHost, arg);
  }

  /** The Buffer each non-UTF-8 channel/pattern was subscribed with ('c'|'p' + name → it). */
  private subscribedArgs: Map<string, Buffer> | undefined;

  /** Unsubscribe from a channel or pattern. */
  unsubscribe(name: string, pattern: boolean): void {
    const subs = pattern ? this.patternSubs : this.channelSubs;
    if (!subs?.delete(name)) return;
    const emulator = this.emulators[pattern ? 'punsubscribe' : 'unsubscribe'];
    const id = `${pattern ? 'p' : 'c'}${name}`;
    const arg = this.subscribedArgs?.get(id) ?? builtinArg(name);
    this.subscribedArgs?.delete(id);
    if (typeof emulator === 'function') emulator.call(this.builtinHost, arg);
  }

  private unsubscribeAll(): void {
    for (const name of this.subscriptions(false)) this.unsubscribe(name, false);
    for (const name of this.subscriptions(true)) this.unsubscribe(name, true);
    for (const name of this.shardSubscriptions()) this.shardUnsubscribe(name);
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

  private closeListeners: Set<() => void> | undefined;

  /**
   * Close: blocked calls of this connection reject with "Connection is closed.", commands
   * waiting behind them too; MULTI and WATCH are dropped. Idempotent.
   */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    unregister(this);
    this.multiQueue = null;
    this.unwatchAll();
    this.unsubscribeAll();
    this.server.tracking?.disable(this);
    this.pushListeners = undefined;
    if (this.blockedCalls > 0) this.ks.blocking.releaseClient(this, connectionClosedError());
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) {
      this.closing = true;
      try {
        for (const start of waiting) start();
      } finally {
        this.closing = false;
      }
    }
    const listeners = this.closeListeners;
    this.closeListeners = undefined;
    if (listeners) for (const l of listeners) l();
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

/**
 * A stream command as a client method sends it (see `Connection.runLane`): its handler in the
 * version it was last resolved for, and its INFO timing sample. Made once per method.
 */
export interface StreamLane {
  /** Lower-case name, a name of the stream command table (lib/commands/index.ts). */
  readonly name: string;
  /** Redis arity (command name included; negative: at least). */
  readonly arity: number;
  /** The version `handler` was resolved for. */
  version: RedisVersion | undefined;
  /** The handler; null when the general path must run it (a container, absent from `version`). */
  handler: CommandHandler | null;
  /** The name's INFO commandstats entry of the general path (shared: one timing sample per name). */
  stats: { seen: number };
  /** The commandstats record last counted into, of server stats `recordOf` at `recordGeneration`. */
  record: CommandStats | null;
  recordOf: ServerStats | null;
  recordGeneration: number;
}

/**
 * The lane of stream command `name` (lower case).
 * @throws StreamsMockError when `name` is not a stream command
 */
export function streamLane(name: string): StreamLane {
  const spec = lookupCommand(name);
  if (spec === undefined || spec.name !== name) throw new StreamsMockError(`streamLane(${name}): not a stream command name in lower case`);
  return { name, arity: spec.arity, version: undefined, handler: null, stats: { seen: 0 }, record: null, recordOf: null, recordGeneration: 0 };
}

function resolveLane(lane: StreamLane, version: RedisVersion): void {
  const spec = lookupCommand(lane.name)!;
  lane.handler = !predates(version, commandSince(lane.name)) && !spec.subcommands && spec.run ? spec.run : null;
  lane.version = version;
  if (lane.handler !== null) {
    // the entry recordCommand caches for this spelling: one timing sample per name on both paths
    let known = COMMAND_KINDS.get(lane.name);
    if (known === undefined) {
      known = { name: lane.name, kind: 'command', subNamed: false, seen: 0 };
      if (COMMAND_KINDS.size < COMMAND_KINDS_MAX) COMMAND_KINDS.set(lane.name, known);
    }
    lane.stats = known;
  }
}

/** An error thrown inside EXEC as its reply in place; library errors propagate. */
function errorReplyOf(err: unknown): ErrorReply {
  if (err instanceof CommandError) return new ErrorReply(err.message);
  throw err;
}

/** Redis's arity of a command ioredis's table knows. */
export function builtinArity(name: string): number | undefined {
  return commandSpec(name)?.arity;
}

/**
 * Create a connection on the keyspace host:port/db: same keyspace machinery, clock, version,
 * blocking, WATCH, scripts and notifications as the ioredis fake clients of it.
 * Throws `StreamsMockError` for malformed options.
 */
export function createConnection(options: ConnectionOptions = {}): Connection {
  return new Connection(options);
}

setConnectionLookup((id) => registeredById(id) as Connection | null, () => openConnections());

/** Every open connection (CLIENT LIST, INFO clients), in id order. */
export function openConnections(): Iterable<Connection> {
  return openRegistered() as IterableIterator<Connection>;
}
