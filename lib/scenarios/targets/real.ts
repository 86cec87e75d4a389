/**
 * Real-server target: each scenario client is its own ioredis connection to `url`.
 *
 * It never touches data or server state it did not create:
 * - the database named in the URL (default 0) must be empty when the run starts and before
 *   each scenario; otherwise `prepare()`/`open()` throw a NotEmptyDatabaseError, unless the
 *   caller allowed emptying it (`flush`: FLUSHDB of that database only). That database is
 *   handed to the run: no other client should write to it meanwhile;
 * - every key a scenario command names (as the server's `COMMAND GETKEYS` reports it) is
 *   deleted when the scenario ends, so the database is left as empty as it was found;
 * - a scenario with a command that reaches beyond that database or the server's data
 *   (./reach.ts: FLUSHALL, SWAPDB, SELECT, MOVE, COPY … DB, scripts and functions, CONFIG SET,
 *   CLIENT KILL/PAUSE/UNBLOCK, CLIENT TRACKING … REDIRECT, …) is skipped with the reason, unless `allowWholeServer` is given; then it
 *   runs only on a server verified empty (every database, no functions) with no other client
 *   connected; right before each whole-server command and afterwards the target checks that no
 *   client connected meanwhile (INFO stats `total_connections_received`, CLIENT LIST): if one did,
 *   the command is not sent (RaceAbortError: the run stops), the result is `race` (never `pass`)
 *   and only the keys the scenario named are deleted; if none did, everything on the server is
 *   the scenario's, so it is emptied (FLUSHALL, FUNCTION FLUSH). Changed CONFIG parameters are
 *   set back however the scenario ends;
 * - an exception thrown inside ioredis outside any promise while a scenario runs (it used to end
 *   the process, leaving the keys) fails the commands in flight; the clean-up runs as after any
 *   failure. Subscribe-family commands are sent in lower case, as ioredis's methods send them;
 * - a database the server does not have (`/16`) is refused (BadUrlError), not run in database 0;
 * - SHUTDOWN, DEBUG, MIGRATE, MONITOR, replication, persistence, MODULE, ACL and CLUSTER changes
 *   are never sent: such a scenario is always skipped, and each command is checked again, with its
 *   captured arguments resolved, just before it is sent.
 * `advance` sleeps in real time. After an `async` step the target polls
 * `CLIENT LIST ID <id>` until that connection shows the blocked flag `b`.
 */
import type IORedis from 'ioredis';
import { StreamsMockError } from '../../clock/clock';
import { compareVersions, clientsOf, sameServerLine, type Scenario } from '../format';
import { commandReach, scenarioReach, type Reach } from './reach';
import { realClearTimeout, realSetTimeout } from '../../clock/real-timers';
import { clientNamed, RaceAbortError, sleep, type PendingCall, type Target, type TargetSession } from './target';

export interface RealTargetOptions {
  /** Server URL, e.g. `redis://127.0.0.1:6399/0`. */
  url: string;
  /**
   * Run only scenarios with `source: "recorded"` on a server of their recording's line (same
   * <major>.<minor> as `recordedOn`; replay mode). The recorder turns this off.
   * @default true
   */
  recordedOnly?: boolean;
  /** @default 5000 */
  callTimeoutMs?: number;
  /** Longest wait for an async command to block, in ms. @default 2000 */
  blockWaitMs?: number;
  /**
   * Allow emptying the URL's database (FLUSHDB) when it holds keys at the start of the run or
   * of a scenario. Without it a non-empty database is refused.
   * @default false
   */
  flush?: boolean;
  /**
   * Run scenarios that reach beyond the URL's database or the server's data (FLUSHALL, SELECT,
   * scripts, CONFIG SET, …), but only on a server verified empty with no other client connected;
   * a client connecting while one runs makes its result `race`. Commands in the `never` class
   * (SHUTDOWN, DEBUG, MIGRATE, …) are never sent either way.
   * @default false
   */
  allowWholeServer?: boolean;
  /**
   * While a scenario runs, SIGINT and SIGTERM first clean up as after any failure (the keys it
   * created are deleted, a whole-server run's CONFIG is set back), then end the process with
   * 130 / 143, as the signal would. For a process of its own (the CLI); a library caller keeps its
   * own signal handling.
   * @default false
   */
  cleanUpOnSignals?: boolean;
}

/** The URL's database holds keys the target did not create (and `flush` was not given). */
export class NotEmptyDatabaseError extends Error {
  constructor(url: string, db: number, keys: number) {
    super(
      `[ioredis-mock-streams] database ${db} of ${redactUrl(url)} holds ${keys} key${keys === 1 ? '' : 's'}; ` +
        'the real-server target needs an empty database (it creates keys and deletes them afterwards). ' +
        'Point --url at an empty database (e.g. redis://host:port/15) or pass --flush to delete every key of this one first.',
    );
    this.name = 'NotEmptyDatabaseError';
  }
}

/** The URL without a password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** A `--url` the target cannot use: one line, no stack (the CLI prints it and exits with code 2). */
export class BadUrlError extends Error {
  constructor(message: string) {
    super(`[ioredis-mock-streams] ${message}`);
    this.name = 'BadUrlError';
  }
}

/**
 * The database a `redis://` / `rediss://` URL selects: `/<n>` (a trailing `/` allowed) or
 * `?db=<n>`, default 0. The connections are opened with this number explicitly, so the database
 * checked is the database used.
 * @throws BadUrlError for another scheme, a path that is not a database number, or no host
 */
export function urlDatabase(url: string): number {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BadUrlError(`--url ${JSON.stringify(url)} is not a URL; expected redis://host:port[/db]`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new BadUrlError(`--url must start with redis:// or rediss://, got ${JSON.stringify(redactUrl(url))}`);
  if (!u.hostname) throw new BadUrlError(`--url ${JSON.stringify(redactUrl(url))} names no host`);
  const fromPath = /^\/?(?:(\d{1,5})\/?)?$/.exec(u.pathname);
  if (!fromPath) throw new BadUrlError(`the database in --url must be a number (redis://host:port/15), got path ${JSON.stringify(u.pathname)}`);
  const query = u.searchParams.get('db');
  if (query !== null && !/^\d{1,5}$/.test(query)) throw new BadUrlError(`db=${JSON.stringify(query)} in --url is not a database number`);
  if (query !== null && fromPath[1] !== undefined && Number(query) !== Number(fromPath[1])) {
    throw new BadUrlError(`--url names database ${fromPath[1]} in its path and ${query} in db=`);
  }
  return Number(fromPath[1] ?? query ?? 0);
}

/** Snapshot of the server taken before a whole-server scenario. */
interface WholeServerWatch {
  connectionsBefore: number;
  config: Map<string, string>;
}

/**
 * The project's ioredis, required when a real server is first used: the CLI's other commands
 * (`serve`, `replay` on the fake, `--help`) run without it (a project on node-redis, or one that
 * installs no peer dependencies).
 * @throws StreamsMockError when ioredis is not installed
 */
function ioredisClass(): typeof IORedis {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('ioredis') as { default?: typeof IORedis } & typeof IORedis;
    return mod.default ?? mod;
  } catch (err) {
    if ((err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
    throw new StreamsMockError('talking to a real Redis server (record, replay --url) needs the ioredis package: npm install --save-dev ioredis');
  }
}

/**
 * The server at `--url` could not be reached (refused, unknown host, closed or silent
 * connection): one line with the cause, no stack (the CLI prints it and exits with code 2).
 */
export class ServerUnreachableError extends Error {
  constructor(url: string, cause: string) {
    super(`[ioredis-mock-streams] the server at ${redactUrl(url)} could not be reached (${cause})`);
    this.name = 'ServerUnreachableError';
  }
}

/** The last connection error of each client (`connect`), for the cause of a dropped connection. */
const lastErrors = new WeakMap<IORedis, Error>();

/**
 * A command on a connection that has ended: ioredis answers "Stream isn't writeable and
 * enableOfflineQueue options is false"; this says the server could not be reached, and why.
 */
function ended(url: string, client: IORedis): ServerUnreachableError | undefined {
  if (client.status !== 'end' && client.status !== 'close') return undefined;
  return new ServerUnreachableError(url, `the connection was closed${lastErrors.has(client) ? `: ${lastErrors.get(client)!.message}` : ''}`);
}

/** Longest wait for a connection to be ready (a port that accepts but never answers). */
const CONNECT_TIMEOUT_MS = 10_000;

function connect(url: string, db: number, name: string): Promise<IORedis> {
  const IORedisClass = ioredisClass();
  const client = new IORedisClass(url, {
    db,
    lazyConnect: true,
    connectionName: name,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    // Fixtures hold RESP2 replies: ioredis 6 speaks RESP3 by default (ioredis 5 ignores this).
    ...({ protocol: 2 } as object),
  });
  // Errors surface through the rejected commands; keep the emitter from throwing, but
  // remember the last one: it says why a connection attempt failed (e.g. ECONNREFUSED).
  let lastError: Error | undefined;
  client.on('error', (e: Error) => {
    lastError = e;
    lastErrors.set(client, e);
  });
  let timer: ReturnType<typeof realSetTimeout> | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = realSetTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
  });
  const ready = Promise.race([client.connect(), silent]).finally(() => realClearTimeout(timer));
  return ready.then(
    async () => {
      // ioredis selects `db` on connecting but only emits an error when SELECT fails (the
      // connection then stays on database 0): select it again and refuse a database the server
      // does not have.
      try {
        await client.call('SELECT', String(db));
      } catch (e) {
        client.disconnect();
        throw new BadUrlError(`database ${db} in --url does not exist on ${redactUrl(url)} (SELECT ${db}: ${(e as Error).message})`);
      }
      return client;
    },
    (e: Error) => {
      client.disconnect();
      throw new ServerUnreachableError(url, lastError?.message ?? e.message);
    },
  );
}

/**
 * Subscribe-family commands as real ioredis expects their names: it files a subscription under
 * the command's name as given, and `call('SUBSCRIBE', …)` in capitals makes it throw a TypeError
 * inside its reply handler (SubscriptionSet.add), outside any promise. Lower case is the name its
 * own methods send; Redis reads command names case-insensitively, and the replies do not echo it.
 */
const SUBSCRIBE_FAMILY = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe']);

export class RealTarget implements Target {
  readonly kind = 'real' as const;
  readonly callTimeoutMs: number;
  private readonly url: string;
  /** The database the URL selects (validated in the constructor). */
  private readonly db: number;
  private readonly recordedOnly: boolean;
  private readonly blockWaitMs: number;
  private readonly flush: boolean;
  private readonly allowWholeServer: boolean;
  private readonly cleanUpOnSignals: boolean;
  private admin: IORedis | undefined;
  private adminId: number | undefined;
  private version: string | undefined;
  /** Keys named by the current scenario's commands: deleted when it ends. */
  private readonly created = new Set<string>();
  /** Set by skipReason for a whole-server scenario it lets run; used by the next open(). */
  private watch: { scenario: Scenario; snapshot: WholeServerWatch } | undefined;

  /** @throws BadUrlError when `opts.url` is not a usable redis:// URL (see urlDatabase) */
  constructor(opts: RealTargetOptions) {
    this.url = opts.url;
    this.db = urlDatabase(opts.url);
    this.recordedOnly = opts.recordedOnly ?? true;
    this.callTimeoutMs = opts.callTimeoutMs ?? 5000;
    this.blockWaitMs = opts.blockWaitMs ?? 2000;
    this.flush = opts.flush ?? false;
    this.allowWholeServer = opts.allowWholeServer ?? false;
    this.cleanUpOnSignals = opts.cleanUpOnSignals ?? false;
  }

  /**
   * Checks, before anything runs, that the URL's database is empty (or empties it if `flush`).
   * @throws NotEmptyDatabaseError, or a connection error
   */
  async prepare(): Promise<void> {
    await this.ensureEmpty();
  }

  private async ensureEmpty(): Promise<void> {
    const admin = await this.adminClient();
    const keys = (await admin.call('DBSIZE')) as number;
    if (keys === 0) return;
    if (!this.flush) throw new NotEmptyDatabaseError(this.url, this.db, keys);
    await admin.call('FLUSHDB');
  }

  /**
   * Remember the keys `argv` names (the server's own key specs), to delete them afterwards; kept
   * as latin1 strings, one character per byte, so that a key that is not UTF-8 text is deleted too.
   */
  private async track(argv: readonly (string | Buffer)[]): Promise<void> {
    try {
      const keys = (await (await this.adminClient()).callBuffer('COMMAND', 'GETKEYS', ...argv)) as Buffer[];
      for (const k of keys) this.created.add(k.toString('latin1'));
    } catch {
      // no key arguments, or arguments the server rejects: the command creates nothing
    }
  }

  private async deleteCreated(): Promise<void> {
    const keys = [...this.created];
    this.created.clear();
    const admin = await this.adminClient();
    for (let i = 0; i < keys.length; i += 500) await admin.call('UNLINK', ...keys.slice(i, i + 500).map((k) => Buffer.from(k, 'latin1')));
  }

  private async adminClient(): Promise<IORedis> {
    if (!this.admin) {
      this.admin = await connect(this.url, this.db, 'scenario-admin');
      this.adminId = (await this.admin.call('CLIENT', 'ID')) as number;
    }
    const gone = ended(this.url, this.admin);
    if (gone) throw gone;
    return this.admin;
  }

  /** `redis_version` from INFO server, e.g. "7.0.15". */
  async serverVersion(): Promise<string> {
    if (this.version === undefined) {
      const info = (await (await this.adminClient()).call('INFO', 'server')) as string;
      const m = /^redis_version:(\S+)/m.exec(info);
      if (!m) throw new Error('[ioredis-mock-streams] INFO server has no redis_version');
      this.version = m[1];
    }
    return this.version;
  }

  /** The server's wall time in ms (TIME). */
  async serverTimeMs(): Promise<number> {
    const [sec, usec] = (await (await this.adminClient()).call('TIME')) as [string, string];
    return Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
  }

  /** INFO stats `total_connections_received`: every connection the server ever accepted. */
  private async connectionsReceived(): Promise<number> {
    const info = (await (await this.adminClient()).call('INFO', 'stats')) as string;
    return Number(/^total_connections_received:(\d+)/m.exec(info)?.[1] ?? NaN);
  }

  /** Connections other than `ours`, as `id=… addr=… name=…` texts. */
  private async otherClients(ours: ReadonlySet<number>): Promise<string[]> {
    const list = (await (await this.adminClient()).call('CLIENT', 'LIST')) as string;
    return list
      .split('\n')
      .filter((line) => line.trim() !== '')
      .filter((line) => !ours.has(Number(/\bid=(\d+)/.exec(line)?.[1])))
      .map((line) => ['id', 'addr', 'name', 'db'].map((k) => `${k}=${new RegExp(`\\b${k}=(\\S*)`).exec(line)?.[1] ?? ''}`).join(' '));
  }

  /**
   * Why a whole-server scenario cannot run now, or null with the snapshot taken. Order matters:
   * the connection counter is read first, so any client that connects after it is seen at the end,
   * and the data is checked last, when no other client is connected.
   */
  private async wholeServerCheck(): Promise<{ reason: string } | { snapshot: WholeServerWatch }> {
    const admin = await this.adminClient();
    const connectionsBefore = await this.connectionsReceived();
    const others = await this.otherClients(new Set([this.adminId!]));
    if (others.length > 0) return { reason: `${others.length} other client${others.length === 1 ? ' is' : 's are'} connected to the server (${others.slice(0, 3).join('; ')})` };
    const info = (await admin.call('INFO', 'keyspace')) as string;
    const withKeys = [...info.matchAll(/^db(\d+):keys=(\d+)/gm)].filter(([, , n]) => Number(n) > 0).map(([, d]) => `db${d}`);
    if (withKeys.length > 0) return { reason: `${withKeys.join(', ')} of the server hold${withKeys.length === 1 ? 's' : ''} keys` };
    const functions = (await admin.call('FUNCTION', 'LIST').catch(() => [])) as unknown[];
    if (functions.length > 0) return { reason: `the server holds ${functions.length} function librar${functions.length === 1 ? 'y' : 'ies'}` };
    const pairs = (await admin.call('CONFIG', 'GET', '*')) as string[];
    const config = new Map<string, string>();
    for (let i = 0; i + 1 < pairs.length; i += 2) config.set(pairs[i], pairs[i + 1]);
    return { snapshot: { connectionsBefore, config } };
  }

  async skipReason(scenario: Scenario): Promise<string | null> {
    this.watch = undefined;
    if (this.recordedOnly && scenario.source !== 'recorded') return `source is "${scenario.source}", not "recorded"`;
    const version = await this.serverVersion();
    // A recording holds one server's answers; a server of another line may answer otherwise.
    if (this.recordedOnly && scenario.recordedOn !== undefined && !sameServerLine(scenario.recordedOn, version)) {
      return `recorded on ${scenario.recordedOn}${scenario.server ? ` (${scenario.server})` : ''}, server is ${version}`;
    }
    if (compareVersions(scenario.redisVersion, version) > 0) return `needs Redis ${scenario.redisVersion}, server is ${version}`;
    const reach = scenarioReach(scenario.steps as { cmd?: readonly string[] }[], this.db);
    if (reach.kind === 'never') return `sends ${reach.what}, which the CLI never sends to a real server`;
    if (reach.kind === 'server') {
      const what = `sends ${reach.what}, which reaches beyond database ${this.db}`;
      if (!this.allowWholeServer) return `${what}; --allow-whole-server runs it on an empty server with no other client`;
      const check = await this.wholeServerCheck();
      if ('reason' in check) return `${what}, and ${check.reason}`;
      this.watch = { scenario, snapshot: check.snapshot };
    }
    return null;
  }

  /**
   * Whether a client other than ours connected since `snapshot` was taken (`connected`: how many
   * connections the scenario opened itself): a text saying what was seen, or undefined.
   */
  private async otherClientSince(snapshot: WholeServerWatch, ours: ReadonlySet<number>, connected: number): Promise<string | undefined> {
    const received = (await this.connectionsReceived()) - snapshot.connectionsBefore - connected;
    const others = await this.otherClients(new Set([...ours, this.adminId!]));
    if (received <= 0 && others.length === 0) return undefined;
    const n = Math.max(received, others.length);
    const who = others.length > 0 ? ` (${others.slice(0, 3).join('; ')})` : '';
    return `${n} connection${n === 1 ? '' : 's'}${who}`;
  }

  /** Sets every CONFIG parameter that differs from the snapshot back; the failures, as texts. */
  private async restoreConfig(snapshot: WholeServerWatch): Promise<string[]> {
    const admin = await this.adminClient();
    const pairs = (await admin.call('CONFIG', 'GET', '*')) as string[];
    const failures: string[] = [];
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const before = snapshot.config.get(pairs[i]);
      if (before === undefined || before === pairs[i + 1]) continue;
      await admin.call('CONFIG', 'SET', pairs[i], before).catch((e: Error) => failures.push(`${pairs[i]} (${e.message})`));
    }
    return failures;
  }

  /**
   * After a whole-server scenario, whatever its ending: CONFIG parameters are set back to the
   * snapshot; then a race if any client connected while it ran (only the keys the scenario named
   * are deleted), else everything on the server is the scenario's, so it is emptied.
   */
  private async finishWholeServer(snapshot: WholeServerWatch, ours: ReadonlySet<number>, connected: number, refused: string | undefined): Promise<string | undefined> {
    const admin = await this.adminClient();
    const restoreFailures = await this.restoreConfig(snapshot);
    const notRestored = restoreFailures.length > 0 ? `; could not set CONFIG back: ${restoreFailures.join(', ')}` : '';
    const seen = refused === undefined ? await this.otherClientSince(snapshot, ours, connected) : undefined;
    if (refused !== undefined || seen !== undefined) {
      await this.deleteCreated();
      if (refused !== undefined) return `${refused}; only the keys the scenario named were deleted${notRestored}`;
      return (
        `another client connected to the server while the scenario ran (${seen}); ` +
        `its data may have been changed or removed by the scenario, so the result is not a pass, and only the keys the scenario named were deleted${notRestored}`
      );
    }
    this.created.clear();
    // Only the scenario's clients were connected since the server was seen empty: it all is theirs.
    await admin.call('FLUSHALL');
    await admin.call('FUNCTION', 'FLUSH').catch(() => undefined);
    if (restoreFailures.length > 0) return `could not set CONFIG back: ${restoreFailures.join(', ')}`;
    return undefined;
  }

  async open(scenario: Scenario): Promise<TargetSession> {
    const admin = await this.adminClient();
    const watch = this.watch?.scenario === scenario ? this.watch.snapshot : undefined;
    this.watch = undefined;
    await this.ensureEmpty();
    this.created.clear();
    // What the run may send: commands are checked again with their captured arguments resolved.
    const allowed: Reach['kind'] = watch ? 'server' : 'db';
    const clients = new Map<string, { conn: IORedis; id: number }>();
    try {
      for (const name of clientsOf(scenario)) {
        const conn = await connect(this.url, this.db, `scenario-${name}`);
        clients.set(name, { conn, id: (await conn.call('CLIENT', 'ID')) as number });
      }
    } catch (e) {
      for (const { conn } of clients.values()) conn.disconnect();
      throw e;
    }
    const blockWaitMs = this.blockWaitMs;
    const db = this.db;
    const get = (name: string) => clientNamed(clients, name);
    const ours = new Set([...clients.values()].map((c) => c.id));
    /** Set when a whole-server command was refused because another client connected: the run is over. */
    let refused: string | undefined;
    // An exception thrown inside the client library outside any promise (e.g. in its reply handler)
    // would end the process and leave the scenario's keys behind: while this run is open it fails
    // the commands in flight instead, and close() cleans up as after any failure.
    let broken: Error | undefined;
    const inFlight = new Set<(e: Error) => void>();
    const onUncaught = (e: unknown) => {
      broken = new Error(`[ioredis-mock-streams] the client library failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      for (const reject of inFlight) reject(broken);
      inFlight.clear();
    };
    process.on('uncaughtException', onUncaught);
    let closed = false;
    // Ctrl-C or a SIGTERM in the middle of a scenario (a long advance, a blocked call): the keys it
    // created go however it ends (README), then the process ends as the signal would have ended it
    const onSignal = (signal: NodeJS.Signals) => {
      onUncaught(new Error(`interrupted by ${signal}`));
      const code = signal === 'SIGINT' ? 130 : 143;
      void session
        .close()
        .catch(() => undefined)
        .then(() => this.dispose())
        .finally(() => process.exit(code));
    };
    if (this.cleanUpOnSignals) {
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }
    const session: TargetSession = {
      call: async (client, argv) => {
        const { conn } = get(client);
        if (broken) throw broken;
        const gone = ended(this.url, conn);
        if (gone) throw gone;
        if (refused) throw new RaceAbortError(refused);
        // bytes read as latin1: one character per byte, as the server parses them
        const reach = commandReach(argv.map((a) => (typeof a === 'string' ? a : a.toString('latin1'))), db);
        if (reach.kind === 'never' || (reach.kind === 'server' && allowed === 'db')) {
          throw new Error(`[ioredis-mock-streams] not sent to the real server: ${reach.what} reaches beyond database ${db}`);
        }
        if (reach.kind === 'server' && watch) {
          // Right before a whole-server command: no other client may have connected since the
          // server was seen empty (its data would be the command's victim).
          const seen = await this.otherClientSince(watch, ours, clients.size);
          if (seen !== undefined) {
            refused = `another client connected to the server while the scenario ran (${seen}), so ${reach.what} was not sent and the run stopped`;
            throw new RaceAbortError(refused);
          }
        }
        await this.track(argv);
        const [first, ...args] = argv;
        const command = typeof first === 'string' ? first : first.toString('utf8');
        const subscribe = SUBSCRIBE_FAMILY.has(command.toLowerCase());
        return new Promise<unknown>((resolve, reject) => {
          inFlight.add(reject);
          // bulk replies as Buffers: bytes that are not UTF-8 text are compared as they are
          (subscribe ? conn.call(command.toLowerCase(), ...args) : conn.callBuffer(command, ...args)).then(resolve, reject).finally(() => inFlight.delete(reject));
        });
      },
      advance: (ms) => sleep(ms),
      async settleAsync(client: string, pending: PendingCall): Promise<void> {
        const { id } = get(client);
        // Counted in sleeps, not Date.now(), which fake timers may have frozen.
        for (let waited = 0; !pending.settled && waited < blockWaitMs; waited += 2) {
          const line = (await admin.call('CLIENT', 'LIST', 'ID', String(id))) as string;
          const flags = /\bflags=(\S*)/.exec(line)?.[1] ?? '';
          if (flags.includes('b')) return;
          await sleep(2);
        }
      },
      close: async (): Promise<string | undefined> => {
        if (closed) return undefined;
        closed = true;
        try {
          // disconnect() drops the socket at once, which also ends commands still blocked.
          for (const { conn } of clients.values()) conn.disconnect();
          if (watch) {
            // Let the server see the disconnects before CLIENT LIST is read.
            for (let i = 0; i < 50 && (await this.otherClients(new Set([this.adminId!]))).some((l) => ours.has(Number(/id=(\d+)/.exec(l)?.[1]))); i++) await sleep(2);
            return await this.finishWholeServer(watch, ours, clients.size, refused);
          }
          await this.deleteCreated();
          return undefined;
        } finally {
          process.off('uncaughtException', onUncaught);
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      },
    };
    return session;
  }

  async dispose(): Promise<void> {
    this.admin?.disconnect();
    this.admin = undefined;
  }
}
