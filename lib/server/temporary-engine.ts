/**
 * TEMPORARY — a stand-in for `lib/engine`'s `createConnection` (ENGINE-API.md), written so the
 * RESP server can be built and tested before the engine lands on main. Delete this file and
 * import from `../engine` once it does; the server uses nothing here beyond the ENGINE-API
 * surface plus `serverStateFor()` (which the engine's `ServerState` must offer in some form:
 * stats, config, pub/sub, INFO data — see the notes in the report).
 *
 * How it works: each connection keeps one hidden ioredis-mock client (the package's class, so
 * the adapter's wrapping applies: keyspace clock, WRONGTYPE guard, TYPE of streams, Lua) per
 * database it has SELECTed; all hidden clients of a host:port/db share that keyspace, exactly as
 * ioredis fake clients do. Stream commands bypass ioredis and run through the dispatcher, so
 * their replies stay typed (maps, status replies). Other commands run on the hidden client and
 * their JS results are turned back into typed replies (status replies from a table). Connection
 * state (AUTH, HELLO/RESP3, SELECT, CLIENT, MULTI/EXEC/WATCH, pub/sub, QUIT/RESET) lives here.
 */
import { performance } from 'perf_hooks';
import { createHash, randomBytes } from 'crypto';
import RedisMockBase from 'ioredis-mock';
import { installStreams } from '../adapter/install';
import { decodeBytes, toByteString } from '../adapter/encoding';
import { storeKeyOfBytes } from '../adapter/keys';
import { dispatchCheckOnly, lookupCommand } from '../commands/dispatch';
import { LIST_BLOCKING_COMMANDS, runListPop } from '../commands/list-blocking';
import type { BlockRequest, CommandContext, Db } from '../commands/types';
import { isBlockRequest } from '../commands/types';
import { ClientQueue } from '../adapter/client-queue';
import { CommandError, ERR_NOT_INTEGER, ERR_SYNTAX, ERR_WRONGTYPE, errUnknownCommand, errUnknownSubcommand, errWrongArity } from '../errors';
import type { Keyspace } from '../keyspace/keyspace';
import { Stream } from '../model/stream';
import {
  DoubleReply,
  ErrorReply,
  MapReply,
  SetReply,
  NIL_ARRAY,
  OK,
  PONG,
  PushReply,
  QUEUED,
  type Reply,
  SimpleString,
  VerbatimReply,
  statusLines,
} from '../reply/reply';
import { ServerStats } from '../stats/server-stats';
import type { RedisVersion } from '../version';
import { commandReply, type CommandTableSource } from '../commands/server/command';
import { infoText, type InfoSource } from '../commands/server/info';
import { type ClockControl, mockclockReply } from '../commands/server/mockclock';
import { globMatch } from './glob';
import { clientInfoLine, type ClientListEntry } from '../commands/server/client-list';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Hidden = any;

const RedisMock: any = installStreams(RedisMockBase);
const STATE = Symbol.for('ioredis-mock-streams.state');

/** The Keyspace behind a hidden client (the adapter's per-instance state). */
function keyspaceOfHidden(h: Hidden): Keyspace {
  return h[STATE].keyspace as Keyspace;
}

/** Number of databases (Redis `databases` default). */
export const DATABASES = 16;

// ---------------------------------------------------------------------------------------------
// ENGINE-API surface

export interface ConnectionOptions {
  host?: string;
  port?: number;
  db?: number;
  protocol?: 2 | 3;
  password?: string | null;
  streams?: { clock?: unknown; redisVersion?: string | number };
  /** Peer and local address for CLIENT LIST/INFO (`ip:port`), and a file descriptor number. */
  peer?: { addr: string; laddr: string; fd: number };
}

/** Thrown (as a rejection) by `execute` on a closed connection. */
const CLOSED_MESSAGE = 'Connection is closed.';

/** Error raised before a command runs (arity, NOAUTH …): INFO counts it as rejected_calls. */
class RejectedError extends CommandError {}

function reject(message: string): never {
  throw new RejectedError(message);
}

// ---------------------------------------------------------------------------------------------
// Per-server state

interface DbHandle {
  readonly index: number;
  readonly ks: Keyspace;
  /** A hidden client used for keyspace-wide work (FLUSHDB of other dbs, DBSIZE). */
  readonly helper: Hidden;
  /** Store modifications so far (for the dirty counter of non-stream commands). */
  mods: number;
}

/** Server-wide state of one emulated server (host:port). TEMPORARY: the engine's ServerState. */
export class TempServerState {
  readonly stats: ServerStats;
  readonly startMs: number;
  readonly runId = randomBytes(20).toString('hex');
  readonly replId = randomBytes(20).toString('hex');
  /** CONFIG values (name → value) for the settings this server knows. */
  readonly config = new Map<string, string>();
  /** EVAL/SCRIPT LOAD cache (sha1 → script), shared by every connection. */
  readonly scripts: Record<string, unknown> = {};
  readonly channels = new Map<string, Set<TempConnection>>();
  readonly patterns = new Map<string, Set<TempConnection>>();
  readonly connections = new Set<TempConnection>();
  private readonly dbs = new Map<number, DbHandle>();
  /** Set by the front end: the listening TCP port (INFO tcp_port), clock control for MOCKCLOCK. */
  tcpPort = 0;
  clockControl: ClockControl | null = null;
  /** Password required by AUTH (null: none). */
  password: string | null = null;
  streams: { clock?: unknown; redisVersion?: string | number } = {};

  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    this.startMs = Date.now();
    this.stats = new ServerStats(this.startMs);
    for (const [k, v] of DEFAULT_CONFIG) this.config.set(k, v);
  }

  /** The database `index` (created on first use, on the server's clock and version). */
  db(index: number): DbHandle {
    let h = this.dbs.get(index);
    if (!h) {
      const helper = this.newHidden(index);
      const ks = keyspaceOfHidden(helper);
      const handle: DbHandle = { index, ks, helper, mods: 0 };
      // Every store write: count it (dirty of ioredis-mock commands) and wake list waiters.
      helper.context.modifiedKeyEvents.on('modified', (key: string) => {
        handle.mods++;
        if (ks.blocking.hasWaiters(key)) {
          const v = ks.store.getRaw(key);
          if (Array.isArray(v) && v.length > 0) ks.blocking.signal(key);
        }
      });
      this.dbs.set(index, (h = handle));
    }
    return h;
  }

  /** The databases created so far. */
  createdDbs(): DbHandle[] {
    return [...this.dbs.values()].sort((a, b) => a.index - b.index);
  }

  newHidden(db: number): Hidden {
    const h = new RedisMock({ host: this.host, port: this.port, db, streams: this.streams, lazyConnect: false });
    h.shaScripts = this.scripts;
    return h;
  }

  get version(): RedisVersion {
    return this.db(0).ks.redisVersion;
  }

  now(): number {
    return this.db(0).ks.clock.now();
  }

  /** Publish to channel subscribers and pattern subscribers; returns the receivers. */
  publish(channel: string, message: string): number {
    let n = 0;
    for (const c of this.channels.get(channel) ?? []) {
      c.push(new PushReply(['message', channel, message]));
      n++;
    }
    for (const [pattern, subs] of this.patterns) {
      if (!globMatch(pattern, channel)) continue;
      for (const c of subs) {
        c.push(new PushReply(['pmessage', pattern, channel, message]));
        n++;
      }
    }
    return n;
  }

  /** Keyspace notification of class `cls` (notify-keyspace-events), as notify.c sends it. */
  notifyKeyspaceEvent(cls: string, event: string, key: string, db: number): void {
    const flags = this.config.get('notify-keyspace-events') ?? '';
    if (!flags || !(flags.includes(cls) || (flags.includes('A') && 'g$lshzxetd'.includes(cls)))) return;
    if (flags.includes('K')) this.publish(`__keyspace@${db}__:${key}`, event);
    if (flags.includes('E')) this.publish(`__keyevent@${db}__:${event}`, key);
  }

  /** The INFO data of this server. */
  infoSource(): InfoSource {
    const conns = [...this.connections].filter((c) => !c.closed);
    const blockingKeys = new Map<string, boolean>();
    let blocked = 0;
    const dbs = this.createdDbs();
    for (const h of dbs) {
      for (const [key, requests] of h.ks.blocking.waitingKeys()) {
        const id = `${h.index}:${key}`;
        const nokey = requests.some((r) => r.unblockOnNoKey === true);
        blockingKeys.set(id, (blockingKeys.get(id) ?? false) || nokey);
      }
    }
    for (const c of conns) if (c.blocked) blocked++;
    const keyspace = dbs
      .map((h) => {
        const keys = h.helper.data.keys() as string[];
        let expires = 0;
        let ttlSum = 0;
        const now = h.ks.now();
        for (const k of keys) {
          const at = h.ks.store.expiryOf(k);
          if (at !== undefined) {
            expires++;
            ttlSum += Math.max(0, at - now);
          }
        }
        return { db: h.index, keys: keys.length, expires, avgTtl: expires ? Math.floor(ttlSum / expires) : 0 };
      })
      .filter((d) => d.keys > 0);
    return {
      version: this.version,
      nowMs: this.now(),
      startMs: this.startMs,
      tcpPort: this.tcpPort,
      runId: this.runId,
      replId: this.replId,
      processId: process.pid,
      executable: process.execPath,
      clients: {
        connected: conns.length,
        blocked,
        pubsub: conns.filter((c) => c.subscriptionCount > 0).length,
        watching: conns.filter((c) => c.watchCount > 0).length,
        totalWatchedKeys: conns.reduce((n, c) => n + c.watchCount, 0),
        totalBlockingKeys: blockingKeys.size,
        totalBlockingKeysOnNokey: [...blockingKeys.values()].filter(Boolean).length,
        maxclients: Number(this.config.get('maxclients') ?? 10000),
      },
      stats: this.stats,
      pubsubChannels: this.channels.size,
      pubsubPatterns: this.patterns.size,
      keyspace,
      scripts: Object.keys(this.scripts).length,
      config: this.config,
    };
  }
}

const DEFAULT_CONFIG: [string, string][] = [
  ['notify-keyspace-events', ''],
  ['maxclients', '10000'],
  ['stream-node-max-bytes', '4096'],
  ['stream-node-max-entries', '100'],
  ['appendonly', 'no'],
  ['save', ''],
  ['databases', '16'],
  ['proto-max-bulk-len', '536870912'],
  ['maxmemory', '0'],
  ['maxmemory-policy', 'noeviction'],
  ['hz', '10'],
  ['timeout', '0'],
  ['port', '0'],
  ['bind', '127.0.0.1'],
  ['requirepass', ''],
];

const servers = new Map<string, TempServerState>();

/** The state of the emulated server host:port (created on first use). */
export function serverStateFor(host: string, port: number): TempServerState {
  const id = `${host}:${port}`;
  let s = servers.get(id);
  if (!s) servers.set(id, (s = new TempServerState(host, port)));
  return s;
}

/** Forget a server's state (its keys stay in ioredis-mock's contexts until flushed). */
export function dropServerState(host: string, port: number): void {
  servers.delete(`${host}:${port}`);
}

let lastClientId = 0;
const open = new Set<TempConnection>();

/** Every open connection, in id order. */
export function openConnections(): Iterable<TempConnection> {
  return [...open].filter((c) => !c.closed).sort((a, b) => a.id - b.id);
}

export function createConnection(options: ConnectionOptions = {}): TempConnection {
  return new TempConnection(options);
}

// ---------------------------------------------------------------------------------------------
// Replies of ioredis-mock commands

/** Commands whose `OK`-like results are status replies in Redis. */
const STATUS_COMMANDS = new Set([
  'set', 'setex', 'psetex', 'mset', 'rename', 'ltrim', 'lset', 'hmset', 'type', 'restore', 'slaveof',
  'replicaof', 'readonly', 'readwrite', 'bgsave', 'bgrewriteaof', 'save', 'flushall', 'flushdb', 'migrate',
  'pfmerge', 'shutdown', 'swapdb', 'asking', 'failover',
]);

/** Commands whose array reply is a map / a set in RESP3 (t_hash.c, t_set.c). */
const MAP_COMMANDS = new Set(['hgetall']);
const SET_COMMANDS = new Set(['smembers', 'sinter', 'sunion', 'sdiff']);
/** Commands answering a double (RESP3 `,`; RESP2 bulk string). */
const DOUBLE_COMMANDS = new Set(['zscore', 'zincrby']);

/** A JS value from an ioredis-mock command as a typed reply. */
function fromMock(name: string, v: unknown): Reply {
  if (MAP_COMMANDS.has(name) && v !== null && typeof v === 'object') {
    const flat = fromPlain(name, v);
    return Array.isArray(flat) ? new MapReply(flat) : flat;
  }
  if (SET_COMMANDS.has(name) && Array.isArray(v)) return new SetReply(v.map((x) => fromPlain('', x)));
  if (DOUBLE_COMMANDS.has(name) && (typeof v === 'string' || Buffer.isBuffer(v))) {
    const text = Buffer.isBuffer(v) ? v.toString('latin1') : v;
    return new DoubleReply(Number(text), text);
  }
  return fromPlain(name, v);
}

function fromPlain(name: string, v: unknown): Reply {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) {
    const s = v.toString('latin1');
    return STATUS_COMMANDS.has(name) && (name !== 'set' || s === 'OK') ? new SimpleString(s) : s;
  }
  if (typeof v === 'string') {
    return STATUS_COMMANDS.has(name) && (name !== 'set' || v === 'OK') ? new SimpleString(v) : toByteString(v);
  }
  if (typeof v === 'number') return Number.isInteger(v) ? v : toByteString(String(v));
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Array.isArray(v)) return v.map((x) => fromPlain('', x));
  if (v instanceof Map) return [...v].flatMap(([k, x]) => [fromPlain('', k), fromPlain('', x)]);
  if (typeof v === 'object') return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => [toByteString(k), fromPlain('', x)]);
  return toByteString(String(v));
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

// ---------------------------------------------------------------------------------------------
// The connection

const CONTAINERS = new Set(['xgroup', 'xinfo', 'config', 'client', 'command', 'object', 'script', 'function', 'memory', 'pubsub', 'acl', 'latency', 'slowlog', 'module', 'cluster', 'mockclock']);

/** Redis's full command name for stats: `xgroup|create`, `get`. */
function fullName(argv: readonly string[]): string {
  const name = argv[0].toLowerCase();
  if (CONTAINERS.has(name) && argv.length > 1) return `${name}|${argv[1].toLowerCase()}`;
  return name;
}

const SUBSCRIBE_CONTEXT_ALLOWED = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe', 'ping', 'quit', 'reset']);
const NOT_QUEUED_IN_MULTI = new Set(['exec', 'discard', 'multi', 'watch', 'quit', 'reset']);

/** Commands handled here (connection state and server-level), with Redis's arity. */
const OWN_COMMANDS: Record<string, number> = {
  ping: -1, echo: 2, quit: -1, reset: 1, hello: -1, auth: -2, select: 2, client: -2, multi: 1, exec: 1,
  discard: 1, watch: -2, unwatch: 1, info: -1, config: -2, command: -1, time: 1, debug: -2,
  function: -2, script: -2, subscribe: -2, psubscribe: -1, unsubscribe: -1, punsubscribe: -1, publish: 3,
  pubsub: -2, flushall: -1, flushdb: -1, dbsize: 1, lastsave: 1, save: 1, bgsave: -1, wait: 3, swapdb: 3,
  mockclock: -2, ...LIST_BLOCKING_COMMANDS,
};

export class TempConnection {
  readonly id = ++lastClientId;
  name: string | null = null;
  protocol: 2 | 3;
  db: number;
  closed = false;
  private blockedCalls = 0;
  readonly createdMs = Date.now();
  lastCommandMs = Date.now();
  lastCommand = 'NULL';
  libName = '';
  libVer = '';
  private authenticated: boolean;
  private multiQueue: string[][] | null = null;
  private multiError = false;
  private readonly subscriptions = new Set<string>();
  private readonly psubscriptions = new Set<string>();
  private readonly hiddenByDb = new Map<number, Hidden>();
  private readonly listeners = new Set<(msg: Reply) => void>();
  private readonly queue = new ClientQueue();
  private readonly server: TempServerState;
  private readonly dbViews = new Map<number, Db>();
  readonly peer: { addr: string; laddr: string; fd: number };

  constructor(options: ConnectionOptions) {
    this.server = serverStateFor(options.host ?? 'localhost', options.port ?? 6379);
    if (options.streams) this.server.streams = options.streams;
    if (options.password !== undefined) this.server.password = options.password;
    this.protocol = options.protocol ?? 2;
    this.db = options.db ?? 0;
    this.authenticated = !this.server.password;
    this.peer = options.peer ?? { addr: '127.0.0.1:0', laddr: '127.0.0.1:0', fd: -1 };
    this.server.connections.add(this);
    open.add(this);
    this.server.db(this.db); // apply keyspace options now
  }

  /** True while a command of this connection waits (BLOCK, BLPOP …). */
  get blocked(): boolean {
    return this.blockedCalls > 0;
  }

  get subscriptionCount(): number {
    return this.subscriptions.size + this.psubscriptions.size;
  }

  get watchCount(): number {
    let n = 0;
    for (const h of this.hiddenByDb.values()) n += h.watching.size;
    return n;
  }

  get inMulti(): boolean {
    return this.multiQueue !== null;
  }

  get requiresAuth(): boolean {
    return !this.authenticated && Boolean(this.server.password);
  }

  onPush(listener: (msg: Reply) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Deliver an out-of-band message (pub/sub). */
  push(msg: Reply): void {
    for (const l of this.listeners) l(msg);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const err = new Error(CLOSED_MESSAGE);
    for (const h of this.server.createdDbs()) h.ks.blocking.releaseClient(this, err);
    this.queue.rejectPending(err);
    this.unsubscribeAll();
    for (const h of this.hiddenByDb.values()) h.disconnect();
    this.server.connections.delete(this);
    open.delete(this);
  }

  execute(argv: string[]): Promise<Reply> {
    if (this.closed) return Promise.reject(new Error(CLOSED_MESSAGE));
    if (argv.length === 0) return Promise.reject(new CommandError('ERR empty command'));
    const p = this.queue.submit(
      () => this.timed(argv),
      (out) => out instanceof Promise,
    ) as Promise<Reply>;
    p.catch(() => undefined);
    return p;
  }

  /** Run one command and record its statistics. */
  private timed(argv: string[]): Reply | Promise<Reply> {
    const start = performance.now();
    const name = fullName(argv);
    this.lastCommandMs = Date.now();
    this.lastCommand = name;
    const known = this.knows(argv[0].toLowerCase());
    const record = (err?: unknown) => {
      const usec = Math.round((performance.now() - start) * 1000);
      if (err === undefined) {
        if (known) this.server.stats.commandDone(name, usec, 'ok');
      } else if (known) {
        this.server.stats.commandDone(name, usec, err instanceof RejectedError ? 'rejected' : 'failed', errorText(err));
      } else {
        this.server.stats.errorReply(errorText(err));
      }
    };
    let out: Reply | Promise<Reply>;
    try {
      out = this.run(argv);
    } catch (e) {
      record(e);
      throw e;
    }
    if (out instanceof Promise) {
      return out.then(
        (r) => {
          record();
          return r;
        },
        (e) => {
          if (errorText(e) !== CLOSED_MESSAGE) record(e);
          throw e;
        },
      );
    }
    record();
    return out;
  }

  private knows(name: string): boolean {
    return name in OWN_COMMANDS || lookupCommand(name) !== undefined || this.hasBuiltin(name);
  }

  private hasBuiltin(name: string): boolean {
    const h = this.hidden();
    return typeof h[name] === 'function' && /^[a-z]+$/.test(name) && !['connect', 'disconnect', 'duplicate', 'pipeline', 'call', 'callbuffer', 'defineCommand', 'exec', 'multi'].includes(name);
  }

  private hidden(db = this.db): Hidden {
    let h = this.hiddenByDb.get(db);
    if (!h) {
      h = this.server.newHidden(db);
      this.hiddenByDb.set(db, h);
      this.server.db(db);
    }
    return h;
  }

  /** Key access for stream commands on database `db` (dirty counted, events published). */
  private streamDb(db: number): Db {
    let view = this.dbViews.get(db);
    if (view) return view;
    const { ks } = this.server.db(db);
    const server = this.server;
    view = {
      getStream(key) {
        const v = ks.store.getRaw(storeKeyOfBytes(key));
        if (v === undefined) return undefined;
        if (v instanceof Stream) return v;
        throw new CommandError(ERR_WRONGTYPE);
      },
      exists: (key) => ks.store.hasKey(storeKeyOfBytes(key)),
      createStream(key) {
        const s = new Stream();
        ks.store.setRaw(storeKeyOfBytes(key), s);
        return s;
      },
      signalReady: (key) => ks.blocking.signal(storeKeyOfBytes(key)),
      touch: (key) => ks.store.markModified(storeKeyOfBytes(key)),
      notify: (event, key) => {
        ks.emitEvent(event, storeKeyOfBytes(key));
        server.notifyKeyspaceEvent('t', event, key, db);
      },
      dirty: (n) => server.stats.addDirty(n),
    };
    this.dbViews.set(db, view);
    return view;
  }

  private ctx(isRetry: boolean, db = this.db): CommandContext {
    const { ks } = this.server.db(db);
    return {
      now: ks.now(),
      version: ks.redisVersion,
      db: this.streamDb(db),
      canBlock: !ks.inTransaction && !isRetry,
      isRetry,
    };
  }

  /** Wait on a BlockRequest (this connection is blocked until it settles). */
  private block(db: number, request: BlockRequest, retry: (req: BlockRequest, key?: string) => Reply | BlockRequest): Promise<Reply> {
    const { ks } = this.server.db(db);
    this.blockedCalls++;
    const p = ks.blocking.block(this, request.keys.map(storeKeyOfBytes), request, retry);
    const done = () => {
      this.blockedCalls--;
    };
    p.then(done, done);
    return p;
  }

  // -------------------------------------------------------------------------------------------

  private run(argv: string[]): Reply | Promise<Reply> {
    const name = argv[0].toLowerCase();
    if (this.requiresAuth && !['auth', 'hello', 'quit', 'reset'].includes(name)) reject('NOAUTH Authentication required.');
    if (this.protocol === 2 && this.subscriptionCount > 0 && !SUBSCRIBE_CONTEXT_ALLOWED.has(name)) {
      reject(
        `ERR Can't execute '${fullName(argv)}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`,
      );
    }
    if (this.multiQueue && !NOT_QUEUED_IN_MULTI.has(name)) {
      try {
        this.checkCommand(argv);
      } catch (e) {
        this.multiError = true;
        throw e;
      }
      this.multiQueue.push(argv);
      return QUEUED;
    }
    return this.runOne(argv);
  }

  /** Unknown command / arity checks (server.c processCommand), without running. */
  private checkCommand(argv: string[]): void {
    const name = argv[0].toLowerCase();
    const own = OWN_COMMANDS[name];
    if (own !== undefined) {
      if (own >= 0 ? argv.length !== own : argv.length < -own) reject(errWrongArity(name));
      return;
    }
    if (lookupCommand(name)) {
      try {
        dispatchCheckOnly(this.server.db(this.db).ks.redisVersion, argv);
      } catch (e) {
        reject(errorText(e));
      }
      return;
    }
    if (!this.hasBuiltin(name)) reject(errUnknownCommand(argv[0], argv.slice(1)));
    const arity = BUILTIN_ARITY[name];
    if (arity !== undefined && (arity >= 0 ? argv.length !== arity : argv.length < -arity)) reject(errWrongArity(name));
  }

  private runOne(argv: string[]): Reply | Promise<Reply> {
    const name = argv[0].toLowerCase();
    this.checkCommand(argv);
    switch (name) {
      case 'ping':
        if (argv.length > 2) reject(errWrongArity('ping'));
        if (this.protocol === 2 && this.subscriptionCount > 0) return ['pong', argv[1] ?? ''];
        return argv.length === 2 ? argv[1] : PONG;
      case 'echo':
        return argv[1];
      case 'quit':
        setImmediateSafe(() => this.close());
        return OK;
      case 'reset':
        return this.reset();
      case 'hello':
        return this.hello(argv);
      case 'auth':
        return this.auth(argv);
      case 'select': {
        const n = parseIntStrict(argv[1]);
        if (n === null) throw new CommandError(ERR_NOT_INTEGER);
        if (n < 0 || n >= DATABASES) throw new CommandError('ERR DB index is out of range');
        this.db = n;
        this.hidden(n);
        return OK;
      }
      case 'client':
        return this.client(argv);
      case 'multi':
        if (this.multiQueue) throw new CommandError('ERR MULTI calls can not be nested');
        this.multiQueue = [];
        this.multiError = false;
        return OK;
      case 'discard':
        if (!this.multiQueue) throw new CommandError('ERR DISCARD without MULTI');
        this.multiQueue = null;
        this.unwatchAll();
        return OK;
      case 'exec':
        return this.exec();
      case 'watch':
        if (this.multiQueue) throw new CommandError('ERR WATCH inside MULTI is not allowed');
        this.hidden().watch(...argv.slice(1).map(decodeBytes));
        return OK;
      case 'unwatch':
        this.unwatchAll();
        return OK;
      case 'info':
        return this.info(argv);
      case 'config':
        return this.configCommand(argv);
      case 'command':
        return commandReply(argv, this.commandTable());
      case 'mockclock': {
        const control = this.server.clockControl;
        if (!control) reject(errUnknownCommand(argv[0], argv.slice(1)));
        return mockclockReply(argv, control);
      }
      case 'time': {
        const us = BigInt(this.server.db(this.db).ks.now()) * 1000n;
        return [String(us / 1000000n), String(us % 1000000n)];
      }
      case 'debug':
        throw new CommandError(
          'ERR DEBUG command not allowed. If the enable-debug-command option is set to "local", you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server.',
        );
      case 'function':
        if (argv[1].toLowerCase() === 'flush') return OK;
        if (argv[1].toLowerCase() === 'list') return [];
        throw new CommandError(errUnknownSubcommand(argv[1], 'function'));
      case 'script':
        return this.script(argv);
      case 'subscribe':
      case 'psubscribe':
      case 'unsubscribe':
      case 'punsubscribe':
        return this.pubsubCommand(name, argv.slice(1));
      case 'publish':
        return this.server.publish(argv[1], argv[2]);
      case 'pubsub':
        return this.pubsubIntrospection(argv);
      case 'flushall':
      case 'flushdb':
        return this.flush(name, argv);
      case 'dbsize':
        return (this.hidden().data.keys() as string[]).length;
      case 'lastsave':
        return Math.floor(this.server.stats.lastSaveMs / 1000);
      case 'save':
        this.server.stats.saved(this.server.now());
        return OK;
      case 'bgsave':
        this.server.stats.saved(this.server.now());
        return new SimpleString('Background saving started');
      case 'wait':
        return 0;
      case 'swapdb':
        throw new CommandError(errUnknownCommand(argv[0], argv.slice(1)));
      default:
        break;
    }
    if (name in LIST_BLOCKING_COMMANDS) return this.listPop(argv);
    if (lookupCommand(name)) return this.streamCommand(argv);
    return this.builtin(name, argv);
  }

  private streamCommand(argv: string[]): Reply | Promise<Reply> {
    const db = this.db;
    const { ks } = this.server.db(db);
    let handler;
    try {
      handler = dispatchCheckOnly(ks.redisVersion, argv);
    } catch (e) {
      reject(errorText(e));
    }
    let result;
    try {
      result = handler(this.ctx(false, db), argv);
    } finally {
      ks.blocking.flush();
    }
    if (!isBlockRequest(result)) return result;
    return this.block(db, result, (req, key) => req.retry(this.ctx(true, db), key === undefined ? undefined : toByteString(key)));
  }

  private listPop(argv: string[]): Reply | Promise<Reply> {
    const db = this.db;
    const { ks } = this.server.db(db);
    const lists = {
      get(key: string): string[] | undefined {
        const v = ks.store.getRaw(storeKeyOfBytes(key));
        if (v === undefined) return undefined;
        if (!Array.isArray(v)) throw new CommandError(ERR_WRONGTYPE);
        return v.map((x) => toByteString(x));
      },
      set(key: string, elements: string[]): void {
        const k = storeKeyOfBytes(key);
        if (elements.length === 0) ks.store.deleteKey(k);
        else ks.store.setRaw(k, elements.map(decodeBytes));
      },
    };
    const isList = (key: string) => Array.isArray(ks.store.getRaw(storeKeyOfBytes(key)));
    const before = this.server.db(db).mods;
    let result;
    try {
      result = runListPop({ lists, canBlock: !ks.inTransaction, now: ks.now() }, argv, isList);
    } finally {
      ks.blocking.flush();
    }
    if (this.server.db(db).mods > before) this.server.stats.addDirty(1);
    if (!isBlockRequest(result)) return result;
    return this.block(db, result, (req, key) => {
      const n = this.server.db(db).mods;
      const out = req.retry(this.ctx(true, db), key === undefined ? undefined : toByteString(key));
      if (this.server.db(db).mods > n) this.server.stats.addDirty(1);
      return out;
    });
  }

  /** An ioredis-mock command on the hidden client. */
  private builtin(name: string, argv: string[]): Reply | Promise<Reply> {
    if (!this.hasBuiltin(name)) reject(errUnknownCommand(argv[0], argv.slice(1)));
    const h = this.hidden();
    const handle = this.server.db(this.db);
    const fn = typeof h[`${name}Buffer`] === 'function' ? h[`${name}Buffer`] : h[name];
    const before = handle.mods;
    let out: unknown;
    try {
      out = fn.apply(h, argv.slice(1).map(decodeBytes));
    } catch (e) {
      throw this.mockError(e, argv);
    }
    const mods = handle.mods - before;
    const perElement = DIRTY_BY_ARGUMENTS[name];
    if (perElement && mods > 0) this.server.stats.addDirty(perElement(argv.length));
    else if (mods > 0) this.server.stats.addDirty(mods);
    const convert = (v: unknown) => fromMock(name, v);
    if (out instanceof Promise) return out.then(convert, (e) => Promise.reject(this.mockError(e, argv)));
    return convert(out);
  }

  private mockError(e: unknown, argv: string[]): CommandError {
    const msg = errorText(e);
    if (e instanceof TypeError && msg.startsWith('Unsupported command')) return new CommandError(errUnknownCommand(argv[0], argv.slice(1)));
    return e instanceof CommandError ? e : new CommandError(msg);
  }

  private exec(): Reply | Promise<Reply> {
    const queued = this.multiQueue;
    if (!queued) throw new CommandError('ERR EXEC without MULTI');
    this.multiQueue = null;
    if (this.multiError) {
      this.multiError = false;
      this.unwatchAll();
      throw new CommandError('EXECABORT Transaction discarded because of previous errors.');
    }
    if (this.watchDirty()) {
      this.unwatchAll();
      return NIL_ARRAY;
    }
    const { ks } = this.server.db(this.db);
    const started = ks.atomically(() =>
      queued.map((argv) => {
        try {
          const r = this.timed(argv);
          return r instanceof Promise ? r.then((v) => v, (e) => new ErrorReply(errorText(e))) : r;
        } catch (e) {
          return new ErrorReply(errorText(e));
        }
      }),
    );
    this.unwatchAll();
    if (started.some((r) => r instanceof Promise)) return Promise.all(started);
    return started as Reply[];
  }

  private watchDirty(): boolean {
    for (const h of this.hiddenByDb.values()) {
      if (h.dirty) return true;
      for (const key of h.watching) if (h.expires.has(key) && h.expires.isExpired(key)) return true;
    }
    return false;
  }

  private unwatchAll(): void {
    for (const h of this.hiddenByDb.values()) {
      h.watching.clear();
      h.dirty = false;
    }
  }

  private reset(): Reply {
    this.multiQueue = null;
    this.multiError = false;
    this.unwatchAll();
    this.unsubscribeAll();
    this.protocol = 2;
    this.db = 0;
    this.name = null;
    this.authenticated = !this.server.password;
    return new SimpleString('RESET');
  }

  private hello(argv: string[]): Reply {
    let proto = this.protocol;
    let i = 1;
    if (argv.length >= 2) {
      const v = parseIntStrict(argv[1]);
      if (v === null) throw new CommandError('ERR Protocol version is not an integer or out of range');
      if (v < 2 || v > 3) throw new CommandError('NOPROTO unsupported protocol version');
      proto = v as 2 | 3;
      i = 2;
    }
    let setname: string | null = null;
    for (; i < argv.length; i++) {
      const more = argv.length - 1 - i;
      const opt = argv[i].toLowerCase();
      if (opt === 'auth' && more >= 2) {
        this.checkPassword(argv[i + 1], argv[i + 2]);
        i += 2;
      } else if (opt === 'setname' && more >= 1) {
        setname = argv[++i];
        validateClientName(setname);
      } else {
        throw new CommandError(`ERR Syntax error in HELLO option '${argv[i]}'`);
      }
    }
    if (this.requiresAuth) {
      throw new CommandError('NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time');
    }
    if (setname !== null) this.name = setname === '' ? null : setname;
    this.protocol = proto;
    return new MapReply([
      'server', 'redis',
      'version', redisVersionString(this.server.version),
      'proto', proto,
      'id', this.id,
      'mode', 'standalone',
      'role', 'master',
      'modules', [],
    ]);
  }

  private checkPassword(user: string, pass: string): void {
    if (user !== 'default' || !this.server.password || pass !== this.server.password) {
      throw new CommandError('WRONGPASS invalid username-password pair or user is disabled.');
    }
    this.authenticated = true;
  }

  private auth(argv: string[]): Reply {
    if (argv.length > 3) throw new CommandError(ERR_SYNTAX);
    if (argv.length === 2 && !this.server.password) {
      throw new CommandError(
        'ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?',
      );
    }
    const [user, pass] = argv.length === 3 ? [argv[1], argv[2]] : ['default', argv[1]];
    if (!this.server.password) {
      // no password configured: the default user accepts any password (nopass)
      if (user !== 'default') throw new CommandError('WRONGPASS invalid username-password pair or user is disabled.');
      return OK;
    }
    this.checkPassword(user, pass);
    return OK;
  }

  /** A CLIENT LIST entry for this connection. */
  listEntry(): ClientListEntry {
    const now = Date.now();
    const flags = (this.blocked ? 'b' : '') + (this.multiQueue ? 'x' : '') + (this.subscriptionCount > 0 ? 'P' : '');
    return {
      id: this.id,
      addr: this.peer.addr,
      laddr: this.peer.laddr,
      fd: this.peer.fd,
      name: this.name ?? '',
      age: Math.floor((now - this.createdMs) / 1000),
      idle: Math.floor((now - this.lastCommandMs) / 1000),
      flags: flags || 'N',
      db: this.db,
      sub: this.subscriptions.size,
      psub: this.psubscriptions.size,
      multi: this.multiQueue ? this.multiQueue.length : -1,
      watch: this.watchCount,
      cmd: this.lastCommand,
      resp: this.protocol,
      libName: this.libName,
      libVer: this.libVer,
    };
  }

  private client(argv: string[]): Reply {
    const sub = argv[1].toLowerCase();
    const version = this.server.version;
    const n = argv.length;
    switch (sub) {
      case 'id':
        if (n !== 2) break;
        return this.id;
      case 'getname':
        if (n !== 2) break;
        return this.name;
      case 'setname':
        if (n !== 3) break;
        validateClientName(argv[2]);
        this.name = argv[2] === '' ? null : argv[2];
        return OK;
      case 'setinfo': {
        if (version === '7.0') throw new CommandError(errUnknownSubcommand(argv[1], 'client'));
        if (n !== 4) break;
        const attr = argv[2].toLowerCase();
        if (attr !== 'lib-name' && attr !== 'lib-ver') throw new CommandError(`ERR Unrecognized option '${argv[2]}'`);
        if (/[ \n\r]/.test(argv[3]) || /[^\x21-\x7e]/.test(argv[3])) {
          throw new CommandError(`ERR ${attr} cannot contain spaces, newlines or special characters.`);
        }
        if (attr === 'lib-name') this.libName = argv[3];
        else this.libVer = argv[3];
        return OK;
      }
      case 'info':
        if (n !== 2) break;
        return new VerbatimReply(`${clientInfoLine(this.listEntry(), version)}\n`);
      case 'list': {
        let conns = [...this.server.connections].filter((c) => !c.closed).sort((a, b) => a.id - b.id);
        if (n >= 4 && argv[2].toLowerCase() === 'id') {
          const ids = new Set<number>();
          for (const a of argv.slice(3)) {
            const v = parseIntStrict(a);
            if (v === null || v <= 0) throw new CommandError('ERR Invalid client ID');
            ids.add(v);
          }
          conns = conns.filter((c) => ids.has(c.id));
        } else if (n === 4 && argv[2].toLowerCase() === 'type') {
          const t = argv[3].toLowerCase();
          if (!['normal', 'master', 'replica', 'slave', 'pubsub'].includes(t)) throw new CommandError(`ERR Unknown client type '${argv[3]}'`);
          conns = conns.filter((c) => (t === 'pubsub' ? c.subscriptionCount > 0 : t === 'normal' ? c.subscriptionCount === 0 : false));
        } else if (n !== 2) {
          throw new CommandError(ERR_SYNTAX);
        }
        return new VerbatimReply(conns.map((c) => `${clientInfoLine(c.listEntry(), version)}\n`).join(''));
      }
      case 'unblock': {
        if (n !== 3 && n !== 4) break;
        const id = parseIntStrict(argv[2]);
        if (id === null) throw new CommandError(ERR_NOT_INTEGER);
        const mode = n === 4 ? argv[3].toLowerCase() : 'timeout';
        if (mode !== 'timeout' && mode !== 'error') throw new CommandError('ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR');
        const target = [...this.server.connections].find((c) => c.id === id);
        if (!target || !target.blocked) return 0;
        target.unblock(mode);
        return 1;
      }
      case 'kill': {
        // CLIENT KILL ID id | CLIENT KILL ip:port (old form)
        let killed = 0;
        if (n === 3) {
          const target = [...this.server.connections].find((c) => c.peer.addr === argv[2]);
          if (!target) throw new CommandError('ERR No such client');
          target.kill();
          return OK;
        }
        for (let i = 2; i + 1 < n; i += 2) {
          if (argv[i].toLowerCase() !== 'id') throw new CommandError(ERR_SYNTAX);
          const id = parseIntStrict(argv[i + 1]);
          for (const c of [...this.server.connections]) {
            if (c.id === id) {
              c.kill();
              killed++;
            }
          }
        }
        return killed;
      }
      case 'no-evict':
      case 'no-touch':
        if (n !== 3) break;
        if (!['on', 'off'].includes(argv[2].toLowerCase())) throw new CommandError(ERR_SYNTAX);
        return OK;
      case 'help':
        return statusLines(CLIENT_HELP);
      default:
        throw new CommandError(errUnknownSubcommand(argv[1], 'client'));
    }
    throw new CommandError(errWrongArity(`client|${sub}`));
  }

  /** CLIENT UNBLOCK: end the blocked call as a timeout (nil) or with an error. */
  unblock(mode: 'timeout' | 'error'): void {
    for (const h of this.server.createdDbs()) {
      h.ks.blocking.settleClient(this, mode === 'error' ? new CommandError('UNBLOCKED client unblocked via CLIENT UNBLOCK') : null);
    }
  }

  /** Set by the front end: closes the socket (CLIENT KILL). */
  onKill: (() => void) | null = null;

  kill(): void {
    this.close();
    this.onKill?.();
  }

  private info(argv: string[]): Reply {
    return new VerbatimReply(infoText(this.server.infoSource(), argv.slice(1)));
  }

  private configCommand(argv: string[]): Reply {
    // TEMPORARY minimal CONFIG until helper "rdb"'s CONFIG module lands.
    const sub = argv[1].toLowerCase();
    const cfg = this.server.config;
    if (sub === 'get') {
      if (argv.length < 3) throw new CommandError(`ERR wrong number of arguments for 'config|get' command`);
      const out: Reply[] = [];
      const seen = new Set<string>();
      for (const pattern of argv.slice(2)) {
        for (const [k, v] of cfg) {
          if (!seen.has(k) && globMatch(pattern, k, true)) {
            seen.add(k);
            out.push(k, k === 'port' ? String(this.server.tcpPort) : v);
          }
        }
      }
      return this.protocol === 3 ? new MapReply(out) : out;
    }
    if (sub === 'set') {
      if (argv.length < 4 || argv.length % 2 !== 0) throw new CommandError(`ERR wrong number of arguments for 'config|set' command`);
      for (let i = 2; i < argv.length; i += 2) {
        const k = argv[i].toLowerCase();
        if (!cfg.has(k) || ['stream-node-max-bytes', 'stream-node-max-entries', 'databases', 'port', 'bind'].includes(k)) {
          throw new CommandError(`ERR Unknown option or number of arguments for CONFIG SET - '${argv[i]}'`);
        }
      }
      for (let i = 2; i < argv.length; i += 2) cfg.set(argv[i].toLowerCase(), argv[i + 1]);
      return OK;
    }
    if (sub === 'resetstat') {
      if (argv.length !== 2) throw new CommandError(`ERR wrong number of arguments for 'config|resetstat' command`);
      this.server.stats.resetStats();
      return OK;
    }
    if (sub === 'rewrite') throw new CommandError('ERR The server is running without a config file');
    throw new CommandError(errUnknownSubcommand(argv[1], 'config'));
  }

  private script(argv: string[]): Reply {
    const sub = argv[1].toLowerCase();
    if (sub === 'load' && argv.length === 3) {
      const sha = createHash('sha1').update(Buffer.from(argv[2], 'latin1')).digest('hex');
      this.server.scripts[sha] = decodeBytes(argv[2]);
      return sha;
    }
    if (sub === 'exists' && argv.length >= 3) return argv.slice(2).map((s) => (this.server.scripts[s.toLowerCase()] !== undefined ? 1 : 0));
    if (sub === 'flush') {
      for (const k of Object.keys(this.server.scripts)) delete this.server.scripts[k];
      return OK;
    }
    throw new CommandError(errUnknownSubcommand(argv[1], 'script'));
  }

  private flush(name: 'flushall' | 'flushdb', argv: string[]): Reply {
    if (argv.length > 2 || (argv.length === 2 && !['sync', 'async'].includes(argv[1].toLowerCase()))) throw new CommandError(ERR_SYNTAX);
    const handles = name === 'flushall' ? this.server.createdDbs() : [this.server.db(this.db)];
    let removed = 0;
    for (const h of handles) {
      removed += (h.helper.data.keys() as string[]).length;
      h.ks.store.clearAll();
      h.ks.blocking.flush();
    }
    this.server.stats.addDirty(removed);
    return OK;
  }

  private pubsubCommand(name: string, args: string[]): Reply {
    const pattern = name.startsWith('p');
    const set = pattern ? this.psubscriptions : this.subscriptions;
    const registry = pattern ? this.server.patterns : this.server.channels;
    const replies: PushReply[] = [];
    const confirm = (kind: string, ch: Reply) => {
      replies.push(new PushReply([kind, ch, this.subscriptionCount]));
    };
    if (name.endsWith('unsubscribe') && name !== 'subscribe' && name !== 'psubscribe') {
      const targets = args.length ? args : [...set];
      if (targets.length === 0) confirm(name, null);
      for (const ch of targets) {
        set.delete(ch);
        const subs = registry.get(ch);
        subs?.delete(this);
        if (subs && subs.size === 0) registry.delete(ch);
        confirm(name, ch);
      }
    } else {
      for (const ch of args) {
        set.add(ch);
        let subs = registry.get(ch);
        if (!subs) registry.set(ch, (subs = new Set()));
        subs.add(this);
        confirm(name, ch);
      }
    }
    // One confirmation per channel: the front end writes each as its own reply.
    return replies;
  }

  private unsubscribeAll(): void {
    for (const ch of this.subscriptions) this.server.channels.get(ch)?.delete(this);
    for (const p of this.psubscriptions) this.server.patterns.get(p)?.delete(this);
    for (const [k, v] of [...this.server.channels]) if (v.size === 0) this.server.channels.delete(k);
    for (const [k, v] of [...this.server.patterns]) if (v.size === 0) this.server.patterns.delete(k);
    this.subscriptions.clear();
    this.psubscriptions.clear();
  }

  private pubsubIntrospection(argv: string[]): Reply {
    const sub = argv[1].toLowerCase();
    if (sub === 'channels') {
      const pattern = argv[2];
      return [...this.server.channels.keys()].filter((c) => pattern === undefined || globMatch(pattern, c));
    }
    if (sub === 'numsub') return argv.slice(2).flatMap((c) => [c, this.server.channels.get(c)?.size ?? 0]);
    if (sub === 'numpat') return this.server.patterns.size;
    throw new CommandError(errUnknownSubcommand(argv[1], 'pubsub'));
  }

  private commandTable(): CommandTableSource {
    const builtins = Object.keys(this.hidden()).filter((k) => this.hasBuiltin(k));
    return {
      version: this.server.version,
      names: [...new Set([...Object.keys(OWN_COMMANDS).filter((n) => n !== 'mockclock' || this.server.clockControl), ...builtins])],
    };
  }
}

const CLIENT_HELP = [
  'CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'GETNAME',
  '    Return the name of the current connection.',
  'ID',
  '    Return the ID of the current connection.',
  'INFO',
  '    Return information about the current client connection.',
  'KILL <ip:port>',
  '    Kill connection made from <ip:port>.',
  'LIST [options ...]',
  '    Return information about client connections.',
  'SETNAME <name>',
  '    Assign the name <name> to the current connection.',
  'UNBLOCK <clientid> [TIMEOUT|ERROR]',
  '    Unblock the specified blocked client.',
  'HELP',
  '    Print this help.',
];

/** `server.dirty` of commands that count their arguments, not their key writes (t_list.c, t_hash.c …). */
const DIRTY_BY_ARGUMENTS: Record<string, (argc: number) => number> = {
  lpush: (argc) => argc - 2,
  rpush: (argc) => argc - 2,
  lpushx: (argc) => argc - 2,
  rpushx: (argc) => argc - 2,
  hset: (argc) => (argc - 2) / 2,
  hmset: (argc) => (argc - 2) / 2,
  mset: (argc) => (argc - 1) / 2,
};

/** Arity of ioredis-mock commands from Redis's command table (ioredis ships it). */
// eslint-disable-next-line @typescript-eslint/no-var-requires
const BUILTIN_TABLE: Record<string, { arity: number } | undefined> = require('@ioredis/commands/built/commands.json');
const BUILTIN_ARITY: Record<string, number> = Object.fromEntries(
  Object.entries(BUILTIN_TABLE).map(([k, v]) => [k, v?.arity ?? -1]),
);

function validateClientName(name: string): void {
  if (/[^\x21-\x7e]/.test(name)) throw new CommandError('ERR Client names cannot contain spaces, newlines or special characters.');
}

function parseIntStrict(s: string): number | null {
  if (!/^-?\d{1,18}$/.test(s) || /^-?0\d/.test(s) || s === '-0') return null;
  return Number(s);
}

/** The `redis_version` a server of the emulated version reports. */
export function redisVersionString(v: RedisVersion): string {
  return v === '7.0' ? '7.0.15' : `${v}.0`;
}

function setImmediateSafe(fn: () => void): void {
  // QUIT closes after its +OK is written: a macrotask later (never nextTick, which fake timers fake).
  void Promise.resolve().then(() => Promise.resolve().then(fn));
}
