/**
 * `ioredis-mock-streams/server`: the fake as a real Redis server on a loopback TCP port, for
 * any client (node-redis, redis-cli, a worker in a child process, another language), with the
 * clock under control — the miniredis idea for Redis Streams.
 *
 * Each socket gets its own engine connection on the same keyspace machinery as the ioredis
 * fake (clock, version, blocking, MULTI/WATCH/EXEC, Lua, keyspace notifications, pub/sub):
 * RESP2 and RESP3 (HELLO), pipelined and inline requests, AUTH, SELECT, CLIENT, INFO, COMMAND.
 * In-process ioredis fake clients created with `{ port: server.port }` (host `localhost`) share
 * its data.
 *
 * @example
 * import { serve } from 'ioredis-mock-streams/server';
 * const server = await serve();                  // any free port on 127.0.0.1
 * const client = createClient({ url: server.url }); // node-redis
 * // … a reader on another connection sends XREADGROUP … BLOCK 5000
 * await server.waitForBlocked();                 // it reached the server and waits
 * await server.tick(5_000);                      // it now answers nil
 * await server.close();
 */
import * as net from 'net';
import { AdjustableClock } from '../clock/adjustable-clock';
import { type Clock, StreamsMockError, readNow } from '../clock/clock';
import { FakeClock } from '../clock/fake-clock';
import { realSetImmediate } from '../clock/real-timers';
import { type CountWait, waitForCount } from '../clock/wait-for-count';
import { CommandError } from '../errors';
import { DATABASES } from '../engine/index';
import { parseRedisVersion, type RedisVersion } from '../version';
import type { ClockControl } from '../commands/server/mockclock';
import { createConnection, openConnections, serverFor } from '../engine/index';
import { Session } from './session';
import { ClusterState } from '../engine/cluster';
import { ConfigSetError, ServerConfig } from '../config/server-config';
import { lookupParam } from '../config/params';

export interface ServeOptions {
  /**
   * TCP port; 0 picks a free one (read it from `server.port`).
   * @default 0
   */
  port?: number;
  /**
   * Interface to listen on.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * Redis version to emulate ('7.0' … '8.10'); INFO and HELLO report it (7.0 → 7.0.15).
   * @default '8.10'
   */
  redisVersion?: RedisVersion | string;
  /**
   * The clock of every database of the server. Default: wall time that `tick()`/`setTime()`
   * (and `MOCKCLOCK`) can move, running on its own in between. Pass `createFakeClock()` for a
   * clock that moves only when told, or `realClock` for untouchable wall time.
   */
  clock?: Clock;
  /**
   * Require AUTH with this password (user `default`): the server's `requirepass`, which CONFIG
   * GET answers and CONFIG SET changes (the same as `config: { requirepass }`).
   * @default none
   */
  password?: string;
  /**
   * Answer `MOCKCLOCK GET|TICK|SET` (clock control for other processes). When false, MOCKCLOCK
   * is an unknown command, as on a real server.
   * @default true
   */
  clockCommand?: boolean;
  /**
   * `proto-max-bulk-len`: the largest bulk string a request may carry, in bytes (at least
   * 1048576, as CONFIG SET checks it; CONFIG GET answers it, CONFIG SET changes it later, for open
   * connections too; the same as `config: { 'proto-max-bulk-len': … }`).
   * @default 536870912 (512 MiB)
   */
  maxBulkLen?: number;
  /**
   * Redis Cluster mode: serve one keyspace as this many masters (`true` = 3), each on a port
   * of its own (`port`, port+1, … when `port` is given, else free ones), slots as
   * `redis-cli --cluster create` assigns them (3 masters: 0-5460, 5461-10922, 10923-16383).
   * Each port answers for its own slots (MOVED for another node's key), CROSSSLOT for keys of
   * several slots, CLUSTER SLOTS/SHARDS/NODES/INFO …, so ioredis `Cluster` and node-redis
   * `createCluster` connect to it unchanged (give them `server.nodes`). Only db 0.
   * @default off (a single server)
   */
  cluster?: boolean | number;
  /**
   * Warn (console.warn, once per script and key) when a Lua script touches a key it did not
   * declare in KEYS, which a cluster may place on another node.
   * @default false
   */
  warnUndeclaredKeys?: boolean;
  /**
   * CONFIG parameters at start-up, as redis-server takes them from its config file or its
   * `--name value` arguments (`{ 'notify-keyspace-events': 'KEA', 'enable-debug-command':
   * 'yes', save: '' }`; several words in one value, space-separated: `save: '900 1'`). Immutable
   * parameters are set too; CONFIG GET answers them and CONFIG SET changes the mutable ones later.
   * Not here: `port`, `bind` and `cluster-enabled` (the `port`, `host` and `cluster` options),
   * `daemonize yes`, `unixsocket`, and `databases` other than 16 (the fake does not do them).
   * @throws StreamsMockError for an unknown parameter or a value Redis refuses (its reason)
   * @default none
   */
  config?: Readonly<Record<string, string>>;
}

/** Parameters `ServeOptions.config` refuses: what the fake does through other options or not at all. */
function unsupportedStartupConfig(name: string, value: string): string | null {
  const n = name.toLowerCase();
  if (n === 'port') return 'give the port option (serve --port)';
  if (n === 'bind') return 'give the host option (serve --host)';
  if (n === 'cluster-enabled' && value.toLowerCase() === 'yes') return 'give the cluster option (serve --cluster N)';
  if (n === 'daemonize' && value.toLowerCase() === 'yes') return 'the fake does not daemonize: run it in the background';
  if (n === 'unixsocket' && value !== '') return 'the fake listens on TCP only';
  if (n === 'databases' && value !== String(DATABASES)) return `the fake has ${DATABASES} databases`;
  return null;
}

/**
 * `ServeOptions.config` as CONFIG's pairs, checked on a configuration of its own (nothing is set
 * anywhere when one is refused).
 * @throws StreamsMockError naming the parameter and Redis's reason
 */
function startupConfig(config: Readonly<Record<string, string>> | undefined, version: RedisVersion): [string, string][] {
  if (config === undefined || config === null) return [];
  if (typeof config !== 'object') throw new StreamsMockError(`serve: config must be an object of CONFIG parameters and values, got ${typeof config}`);
  const pairs = Object.entries(config).map(([name, value]): [string, string] => {
    if (typeof value !== 'string') throw new StreamsMockError(`serve: config ${name} must be a string (its words space-separated), got ${typeof value}`);
    const refused = unsupportedStartupConfig(name, value);
    if (refused !== null) throw new StreamsMockError(`serve: config ${name}: ${refused}`);
    return [name, value];
  });
  // one parameter named twice (another case, an alias): the last wins, as the last line of a
  // redis-server configuration does (checked on 7.0.15); CONFIG SET would refuse the pair
  const byParam = new Map<string, [string, string]>();
  for (const pair of pairs) byParam.set(lookupParam(pair[0])?.def.name ?? pair[0], pair);
  for (const pair of byParam.values()) {
    try {
      new ServerConfig().set([pair], version, true);
    } catch (err) {
      if (!(err instanceof ConfigSetError)) throw err;
      // redis-server's words: "Bad directive or wrong number of arguments", or the value's reason
      const reason = err.message.startsWith('ERR Unknown option') ? 'Bad directive or wrong number of arguments' : (/\) - (.*)$/.exec(err.message)?.[1] ?? err.message);
      throw new StreamsMockError(`serve: config ${pair[0]} ${JSON.stringify(pair[1])}: ${reason}`);
    }
  }
  return [...byParam.values()];
}

const SERVE_OPTIONS = ['port', 'host', 'redisVersion', 'clock', 'password', 'clockCommand', 'maxBulkLen', 'cluster', 'warnUndeclaredKeys', 'config'];

/**
 * The options' shapes (a value of the wrong type would otherwise surface later, at the first
 * connection or request, where nothing can report it).
 * @throws StreamsMockError naming the option and what it takes
 */
function checkServeOptions(options: ServeOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new StreamsMockError(`serve(options): options must be an object ({ port, host, redisVersion, clock, … }), got ${Array.isArray(options) ? 'an array' : String(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!SERVE_OPTIONS.includes(name)) throw new StreamsMockError(`serve: unknown option ${JSON.stringify(name)} (known: ${SERVE_OPTIONS.join(', ')}; CONFIG parameters go in config: { … })`);
  }
  const o = options as Record<string, unknown>;
  if (o.host !== undefined && (typeof o.host !== 'string' || o.host === '')) {
    throw new StreamsMockError(`serve: host must be an interface address such as '127.0.0.1', got ${JSON.stringify(o.host)}`);
  }
  if (o.config !== undefined && (typeof o.config !== 'object' || o.config === null || Array.isArray(o.config))) {
    throw new StreamsMockError(`serve: config must be an object of CONFIG parameters and values ({ save: '' }), got ${Array.isArray(o.config) ? 'an array' : String(o.config)}`);
  }
  if (o.password !== undefined && typeof o.password !== 'string') throw new StreamsMockError(`serve: password must be a string, got ${typeof o.password}`);
  for (const flag of ['clockCommand', 'warnUndeclaredKeys']) {
    if (o[flag] !== undefined && typeof o[flag] !== 'boolean') throw new StreamsMockError(`serve: ${flag} must be true or false, got ${String(o[flag])}`);
  }
  if (o.maxBulkLen !== undefined && !(Number.isSafeInteger(o.maxBulkLen) && (o.maxBulkLen as number) >= 1048576)) {
    throw new StreamsMockError(`serve: maxBulkLen must be a whole number of bytes (proto-max-bulk-len, at least 1048576), got ${String(o.maxBulkLen)}`);
  }
  if (o.cluster !== undefined && typeof o.cluster !== 'boolean' && typeof o.cluster !== 'number') {
    throw new StreamsMockError(`serve: cluster must be true or a number of masters 1-1000, got ${String(o.cluster)}`);
  }
}

/**
 * `config` with the options that are CONFIG parameters on a real server: `password` is
 * `requirepass` (CONFIG GET answers it; CONFIG SET changes it), `maxBulkLen` is
 * `proto-max-bulk-len` (checked as CONFIG checks it: 1 MiB at least).
 * @throws StreamsMockError when config names the same parameter with another value
 */
function withOptionParams(options: ServeOptions): Readonly<Record<string, string>> | undefined {
  const params: [string, string | undefined][] = [
    ['requirepass', options.password],
    ['proto-max-bulk-len', options.maxBulkLen === undefined ? undefined : String(options.maxBulkLen)],
  ];
  let config = options.config;
  for (const [param, value] of params) {
    if (value === undefined) continue;
    const option = param === 'requirepass' ? 'password' : 'maxBulkLen';
    const given = config === undefined || config === null || typeof config !== 'object' ? undefined : Object.keys(config).find((k) => lookupParam(k)?.def.name === param);
    if (given !== undefined && config![given] !== value) {
      throw new StreamsMockError(`serve: the ${option} option and config ${given} say different things; give one of them`);
    }
    config = { ...config, [param]: value };
  }
  return config;
}

/** One node of a cluster server. */
export interface ClusterNodeAddress {
  readonly host: string;
  readonly port: number;
  readonly url: string;
}

/** A running server. */
export interface RedisServer {
  /** The interface it listens on, e.g. '127.0.0.1'. */
  readonly host: string;
  /** The TCP port it listens on. */
  readonly port: number;
  /** `redis://host:port` for clients (cluster mode: the first node's). */
  readonly url: string;
  /** Cluster mode: every master's address, in slot order (a single server: itself). */
  readonly nodes: readonly ClusterNodeAddress[];
  /** The emulated Redis version. */
  readonly redisVersion: RedisVersion;
  /** The clock of the server's databases. */
  readonly clock: Clock;
  /** Open client connections. */
  readonly connectionCount: number;
  /** Client connections blocked in a command (XREAD/XREADGROUP BLOCK, BLPOP …). */
  readonly blockedCount: number;
  /**
   * Resolves once at least `count` clients are blocked (at once if they already are): await it
   * after starting a blocking read on another connection, before moving the clock.
   * @param count whole number >= 0, @default 1
   * @param options.timeoutMs real ms to wait before rejecting, @default 2000 (as
   *   `streamsKeyspace(redis).waitForBlocked`; give more for a client in a process still starting)
   * @throws (rejects with) StreamsMockError for a bad count or timeoutMs, when `timeoutMs` passed
   *   first (the message says how many clients are blocked), or when the server closes first
   */
  waitForBlocked(count?: number, options?: { timeoutMs?: number }): Promise<void>;
  /** Server time in ms since the epoch. */
  now(): number;
  /**
   * Move the clock forward by `ms` (>= 0): BLOCK timeouts, XREADGROUP CLAIM wake-ups and key
   * expiries reached fire, in deadline order. Resolves with the new time once the replies they
   * produce have been handed to the sockets. Throws StreamsMockError for a clock that cannot
   * move (realClock, globalClock).
   */
  tick(ms: number): Promise<number>;
  /** Jump to `ms` since the epoch (forward or back); what becomes due fires. Resolves with the new time. */
  setTime(ms: number): Promise<number>;
  /** Delete every key of every database (FLUSHALL; blocked readers are woken as by FLUSHALL). */
  flushAll(): void;
  /** Stop listening, close every connection (blocked calls released), drop the data. Idempotent. */
  close(): Promise<void>;
  /**
   * Settles once the server has closed: by `close()`, or by a client's SHUTDOWN (as redis-server
   * exits then; the `serve` CLI exits with it).
   */
  readonly whenClosed: Promise<void>;
}

/** How `tick`/`setTime` move a clock; null for clocks that cannot move. */
function controlFor(clock: Clock): ClockControl | null {
  if (clock instanceof AdjustableClock) {
    return { now: () => clock.now(), tick: (ms) => clock.tick(ms), setTime: (ms) => clock.setTime(ms) };
  }
  if (clock instanceof FakeClock) {
    return {
      now: () => clock.now(),
      tick: (ms) => {
        clock.tick(ms);
        return clock.now();
      },
      setTime: (ms) => {
        clock.setSystemTime(ms);
        clock.tick(0);
        return clock.now();
      },
    };
  }
  return null;
}

/**
 * A control for a clock that cannot move: MOCKCLOCK GET works, TICK/SET answer an error reply
 * (`wire`) or throw StreamsMockError (the API).
 */
function fixedControl(clock: Clock, wire: boolean): ClockControl {
  const refuse = (): never => {
    if (wire) throw new CommandError(`ERR this server's clock (${clock.kind}) cannot be moved; start it with the default or a fake clock`);
    throw new StreamsMockError(`tick()/setTime() need a clock that can move (the default or createFakeClock()); this server runs on the ${clock.kind} clock`);
  };
  return { now: () => clock.now(), tick: refuse, setTime: refuse };
}

/**
 * Let the replies that a clock move produced reach the sockets: a macrotask later, through Node's
 * own setImmediate (../clock/real-timers.ts), which no fake timers replace.
 */
function settle(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}

/**
 * Start a RESP server on loopback. Resolves once it listens.
 * @throws StreamsMockError for bad options (an unknown option, a value of the wrong type, an
 *   unknown redisVersion, a clock without now/schedule, a CONFIG parameter Redis refuses)
 */
export async function serve(options: ServeOptions = {}): Promise<RedisServer> {
  checkServeOptions(options);
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 0;
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new StreamsMockError(`serve: port must be an integer 0-65535, got ${String(options.port)}`);
  }
  const redisVersion = parseRedisVersion(options.redisVersion ?? '8.10');
  const configPairs = startupConfig(withOptionParams(options), redisVersion);
  const clock: Clock = options.clock ?? new AdjustableClock();
  if (!clock || typeof clock.now !== 'function' || typeof clock.schedule !== 'function') {
    throw new StreamsMockError('serve: clock must implement now() and schedule(fn, ms); use createFakeClock()');
  }
  readNow(clock); // a clock answering no time fails here (StreamsMockError), not at each command
  const ownsClock = options.clock === undefined;
  const control = controlFor(clock);
  const sessions = new Set<Session>();
  const connections = new Set<{ blocked: boolean; closed: boolean }>();
  // every client of the server: its sockets' and in-process fake clients made with its port (as
  // INFO blocked_clients counts them)
  const blockedCount = () => {
    let n = 0;
    for (const c of openConnections()) if (c.server === state && !c.closed && c.blocked) n++;
    return n;
  };
  // waitForBlocked calls pending (rejected when the server closes)
  const blockedWaits = new Set<CountWait>();
  const masters = options.cluster === true ? 3 : options.cluster === false || options.cluster === undefined ? 0 : options.cluster;
  if (!Number.isInteger(masters) || masters < 0 || masters > 1000) {
    throw new StreamsMockError(`serve: cluster must be true or a number of masters 1-1000 (false or 0: a single server), got ${String(options.cluster)}`);
  }
  const listeners: net.Server[] = [];
  const ports: number[] = [];
  const listenCount = Math.max(1, masters);
  try {
    for (let i = 0; i < listenCount; i++) {
      const tcp = net.createServer({ allowHalfOpen: true });
      const wanted = requestedPort === 0 ? 0 : requestedPort + i;
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(wanted, host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      listeners.push(tcp);
      ports.push((tcp.address() as net.AddressInfo).port);
    }
  } catch (err) {
    for (const tcp of listeners) tcp.close();
    throw err;
  }
  const port = ports[0];
  // The keyspace id the ioredis fake uses for `new Redis({ port })`.
  const keyspaceHost = 'localhost';
  const state = serverFor(keyspaceHost, port);
  // A fresh server, even on a port an earlier one used: default CONFIG, zeroed statistics.
  state.config.reset();
  if (configPairs.length > 0) state.config.set(configPairs, redisVersion, true);
  state.stats.resetStats();
  state.tcpPort = port;
  state.startedAt = clock.now();
  state.stats.saved(clock.now());
  state.clockControl = options.clockCommand === false ? null : control ?? fixedControl(clock, true);
  // the address the nodes announce (CLUSTER SLOTS, MOVED): a wildcard host is reached on loopback
  const announced = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  state.cluster = masters > 0 ? new ClusterState(masters, announced, ports) : null;
  state.warnUndeclaredKeys = options.warnUndeclaredKeys === true;
  // Every database runs on the server's clock and version (configured as they are created).
  const streams = { clock, redisVersion };
  for (let db = 0; db < DATABASES; db++) state.keyspace(db).configure(streams);

  // proto-max-bulk-len as a number, kept in step with CONFIG (the parser reads it at each bulk)
  let maxBulkLen = Number(state.config.get('proto-max-bulk-len'));
  const onConfig = (name: string | null) => {
    if (name === null || name === 'proto-max-bulk-len') maxBulkLen = Number(state.config.get('proto-max-bulk-len'));
  };
  state.config.listeners.add(onConfig);

  listeners.forEach((tcp, node) => {
    const nodePort = ports[node];
    tcp.on('connection', (socket) => {
      // acceptCommonHandler: a client past maxclients gets the error and is closed (rejected_connections)
      if (sessions.size >= Number(state.config.get('maxclients') ?? 10000)) {
        state.stats.rejectedConnections++;
        socket.on('error', () => undefined);
        socket.end(masters > 0 ? '-ERR max number of clients + cluster connections reached\r\n' : '-ERR max number of clients reached\r\n');
        return;
      }
      state.stats.connectionOpened();
      socket.setNoDelay(true);
      const conn = createConnection({
        host: keyspaceHost,
        port,
        addr: `${socket.remoteAddress ?? '127.0.0.1'}:${socket.remotePort ?? 0}`,
        laddr: `${socket.localAddress ?? host}:${socket.localPort ?? nodePort}`,
        clusterNode: masters > 0 ? node : undefined,
      });
      const session = new Session(socket, conn, {
        stats: state.stats,
        // read at each bulk: CONFIG SET proto-max-bulk-len applies to open connections too
        maxBulkLen: () => maxBulkLen,
        onClose: () => {
          sessions.delete(session);
          connections.delete(conn);
        },
      });
      conn.buffers = () => session.buffers();
      sessions.add(session);
      connections.add(conn);
    });
    // A listening error after start (rare) must not crash the process.
    tcp.on('error', () => undefined);
  });
  const urlOf = (p: number) => `redis://${host.includes(':') ? `[${host}]` : host}:${p}`;

  let closed: Promise<void> | null = null;
  let closedNow!: () => void;
  const whenClosed = new Promise<void>((resolve) => (closedNow = resolve));
  const moveClock = async (move: (c: ClockControl) => number): Promise<number> => {
    const c = control ?? fixedControl(clock, false);
    const t = move(c);
    await settle();
    return t;
  };
  // SHUTDOWN from a client: the server closes (redis-server exits)
  const shutdownHook = () => void close();
  state.shutdownHook = shutdownHook;
  return {
    host,
    port,
    url: urlOf(port),
    nodes: ports.map((p) => ({ host, port: p, url: urlOf(p) })),
    redisVersion,
    clock,
    get connectionCount() {
      return sessions.size;
    },
    get blockedCount() {
      return blockedCount();
    },
    waitForBlocked: (count = 1, options = {}) => {
      if (!Number.isInteger(count) || count < 0) {
        return Promise.reject(new StreamsMockError(`waitForBlocked(count) needs an integer >= 0, got ${String(count)}`));
      }
      if (options === null || typeof options !== 'object' || Array.isArray(options)) {
        return Promise.reject(new StreamsMockError(`waitForBlocked(count, options): options must be an object such as { timeoutMs: 5000 }, got ${String(options)}`));
      }
      const unknown = Object.keys(options).find((k) => k !== 'timeoutMs');
      if (unknown !== undefined) return Promise.reject(new StreamsMockError(`waitForBlocked(count, options): unknown option ${JSON.stringify(unknown)} (the one option is timeoutMs)`));
      const timeoutMs = options.timeoutMs ?? 2000;
      if (!(typeof timeoutMs === 'number' && timeoutMs >= 0)) {
        return Promise.reject(new StreamsMockError(`waitForBlocked(count, { timeoutMs }) needs ms >= 0 (Infinity: no limit), got ${String(timeoutMs)}`));
      }
      if (blockedCount() >= count) return Promise.resolve();
      if (closed) return Promise.reject(new StreamsMockError('waitForBlocked(): the server is closed'));
      const wait = waitForCount(count, blockedCount, timeoutMs, `waitForBlocked(${count})`, (n) => `${n} client${n === 1 ? ' is' : 's are'} blocked`);
      blockedWaits.add(wait);
      const forget = () => void blockedWaits.delete(wait);
      wait.promise.then(forget, forget);
      return wait.promise;
    },
    now: () => clock.now(),
    tick: (ms) => moveClock((c) => c.tick(ms)),
    setTime: (ms) => moveClock((c) => c.setTime(ms)),
    flushAll: () => {
      for (const ks of state.keyspaces()) {
        ks.store.clearAll();
        ks.blocking.flush();
      }
    },
    whenClosed,
    close,
  };
  function close(): Promise<void> {
    closed ??= new Promise<void>((resolve) => {
      let open = listeners.length;
      for (const tcp of listeners) tcp.close(() => --open === 0 && resolve());
      if (state.shutdownHook === shutdownHook) state.shutdownHook = null;
      state.busyScript?.abort?.(); // a script running in slices stops (as SHUTDOWN NOSAVE)
      for (const s of [...sessions]) s.destroy();
      for (const ks of state.keyspaces()) ks.reset();
      for (const w of blockedWaits) w.cancel(new StreamsMockError('waitForBlocked(): the server was closed'));
      state.tcpPort = 0;
      state.config.listeners.delete(onConfig);
      state.clockControl = null;
      state.cluster = null;
      if (ownsClock && clock instanceof AdjustableClock) clock.cancelAll();
    }).then(closedNow);
    return closed;
  }
}

export { AdjustableClock } from '../clock/adjustable-clock';
