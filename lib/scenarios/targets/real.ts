/**
 * Real-server target: each scenario client is its own ioredis connection to `url`.
 *
 * The database named in the URL (default 0) is emptied with FLUSHDB at the start of every
 * scenario. FLUSHDB rather than FLUSHALL, so that other databases of a shared server are
 * left alone; point the URL at a server (or database) reserved for fixtures all the same.
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
}

function connect(url: string, name: string): Promise<IORedis> {
  const client = new IORedis(url, {
    lazyConnect: true,
    connectionName: name,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
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
  private admin: IORedis | undefined;
  private version: string | undefined;

  constructor(opts: RealTargetOptions) {
    this.url = opts.url;
    this.recordedOnly = opts.recordedOnly ?? true;
    this.callTimeoutMs = opts.callTimeoutMs ?? 5000;
    this.blockWaitMs = opts.blockWaitMs ?? 2000;
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

  async skipReason(scenario: Scenario): Promise<string | null> {
    if (this.recordedOnly && scenario.source !== 'recorded') return `source is "${scenario.source}", not "recorded"`;
    const version = await this.serverVersion();
    // A recording holds one server's answers; a server of another line may answer otherwise.
    if (this.recordedOnly && scenario.recordedOn !== undefined && !sameServerLine(scenario.recordedOn, version)) {
      return `recorded on ${scenario.recordedOn}${scenario.server ? ` (${scenario.server})` : ''}, server is ${version}`;
    }
    if (compareVersions(scenario.redisVersion, version) > 0) return `needs Redis ${scenario.redisVersion}, server is ${version}`;
    return null;
  }

  async open(scenario: Scenario): Promise<TargetSession> {
    const admin = await this.adminClient();
    await admin.call('FLUSHDB');
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
      call: (client, argv) => {
        const [command, ...args] = argv;
        return get(client).conn.call(command, ...args);
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
      async close(): Promise<void> {
        // disconnect() drops the socket at once, which also ends commands still blocked.
        for (const { conn } of clients.values()) conn.disconnect();
      },
    };
  }

  async dispose(): Promise<void> {
    this.admin?.disconnect();
    this.admin = undefined;
  }
}
