/**
 * Real-server target: each scenario client is its own ioredis connection to `url`.
 *
 * It never destroys data it did not create:
 * - the database named in the URL (default 0) must be empty when the run starts and before
 *   each scenario; otherwise `prepare()`/`open()` throw a NotEmptyDatabaseError, unless the
 *   caller allowed emptying it (`flush`: FLUSHDB of that database only);
 * - every key a scenario command names (as the server's `COMMAND GETKEYS` reports it) is
 *   deleted when the scenario ends, so the database is left as empty as it was found;
 * - a scenario that reaches other databases (FLUSHALL, SWAPDB, SELECT, MOVE, COPY … DB) is
 *   skipped unless every other database of the server is empty.
 * `advance` sleeps in real time. After an `async` step the target polls
 * `CLIENT LIST ID <id>` until that connection shows the blocked flag `b`.
 */
import IORedis from 'ioredis';
import { compareVersions, clientsOf, sameServerLine, type Scenario } from '../format';
import { clientNamed, sleep, type PendingCall, type Target, type TargetSession } from './target';

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

/** Commands that reach databases other than the connection's own. */
function crossDatabaseCommand(scenario: Scenario): string | undefined {
  for (const step of scenario.steps) {
    if (!('cmd' in step)) continue;
    const [name, ...args] = step.cmd.map((a) => (typeof a === 'string' ? a.toUpperCase() : ''));
    if (['FLUSHALL', 'SWAPDB', 'SELECT', 'MOVE'].includes(name)) return name;
    if (name === 'COPY' && args.includes('DB')) return 'COPY … DB';
  }
  return undefined;
}

function connect(url: string, name: string): Promise<IORedis> {
  const client = new IORedis(url, {
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
  });
  return client.connect().then(
    () => client,
    (e: Error) => {
      client.disconnect();
      throw new Error(`cannot connect to ${url}: ${lastError?.message ?? e.message}`);
    },
  );
}

export class RealTarget implements Target {
  readonly kind = 'real' as const;
  readonly callTimeoutMs: number;
  private readonly url: string;
  private readonly recordedOnly: boolean;
  private readonly blockWaitMs: number;
  private readonly flush: boolean;
  private admin: IORedis | undefined;
  private version: string | undefined;
  /** Keys named by the current scenario's commands: deleted when it ends. */
  private readonly created = new Set<string>();

  constructor(opts: RealTargetOptions) {
    this.url = opts.url;
    this.recordedOnly = opts.recordedOnly ?? true;
    this.callTimeoutMs = opts.callTimeoutMs ?? 5000;
    this.blockWaitMs = opts.blockWaitMs ?? 2000;
    this.flush = opts.flush ?? false;
  }

  /** The database number the URL selects. */
  private get db(): number {
    try {
      return Number(new URL(this.url).pathname.replace(/^\//, '') || '0') || 0;
    } catch {
      return 0;
    }
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

  /** Remember the keys `argv` names (the server's own key specs), to delete them afterwards. */
  private async track(argv: readonly string[]): Promise<void> {
    try {
      const keys = (await (await this.adminClient()).call('COMMAND', 'GETKEYS', ...argv)) as string[];
      for (const k of keys) this.created.add(k);
    } catch {
      // no key arguments, or arguments the server rejects: the command creates nothing
    }
  }

  private async deleteCreated(): Promise<void> {
    const keys = [...this.created];
    this.created.clear();
    const admin = await this.adminClient();
    for (let i = 0; i < keys.length; i += 500) await admin.call('UNLINK', ...keys.slice(i, i + 500));
  }

  private async adminClient(): Promise<IORedis> {
    if (!this.admin) this.admin = await connect(this.url, 'scenario-admin');
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

  async skipReason(scenario: Scenario): Promise<string | null> {
    if (this.recordedOnly && scenario.source !== 'recorded') return `source is "${scenario.source}", not "recorded"`;
    const version = await this.serverVersion();
    // A recording holds one server's answers; a server of another line may answer otherwise.
    if (this.recordedOnly && scenario.recordedOn !== undefined && !sameServerLine(scenario.recordedOn, version)) {
      return `recorded on ${scenario.recordedOn}${scenario.server ? ` (${scenario.server})` : ''}, server is ${version}`;
    }
    if (compareVersions(scenario.redisVersion, version) > 0) return `needs Redis ${scenario.redisVersion}, server is ${version}`;
    const crossDb = crossDatabaseCommand(scenario);
    if (crossDb !== undefined) {
      const info = (await (await this.adminClient()).call('INFO', 'keyspace')) as string;
      const others = [...info.matchAll(/^db(\d+):keys=(\d+)/gm)].filter(([, db, n]) => Number(db) !== this.db && Number(n) > 0).map(([, db]) => `db${db}`);
      if (others.length > 0) return `sends ${crossDb}, which reaches other databases, and ${others.join(', ')} of the server hold keys`;
    }
    return null;
  }

  async open(scenario: Scenario): Promise<TargetSession> {
    const admin = await this.adminClient();
    await this.ensureEmpty();
    this.created.clear();
    const clients = new Map<string, { conn: IORedis; id: number }>();
    try {
      for (const name of clientsOf(scenario)) {
        const conn = await connect(this.url, `scenario-${name}`);
        clients.set(name, { conn, id: (await conn.call('CLIENT', 'ID')) as number });
      }
    } catch (e) {
      for (const { conn } of clients.values()) conn.disconnect();
      throw e;
    }
    const blockWaitMs = this.blockWaitMs;
    const get = (name: string) => clientNamed(clients, name);
    return {
      call: async (client, argv) => {
        const { conn } = get(client);
        await this.track(argv);
        const [command, ...args] = argv;
        return conn.call(command, ...args);
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
      close: async (): Promise<void> => {
        // disconnect() drops the socket at once, which also ends commands still blocked.
        for (const { conn } of clients.values()) conn.disconnect();
        await this.deleteCreated();
      },
    };
  }

  async dispose(): Promise<void> {
    this.admin?.disconnect();
    this.admin = undefined;
  }
}
