/**
 * `Cluster` (the package's export, and `Redis.Cluster` of the fake): ioredis's own `Cluster`
 * class, unchanged, talking to in-process fake nodes. Each node connection ioredis opens goes
 * through a `Connector` of ours (an ioredis option) to an in-memory socket pair whose other end is
 * a RESP session of the fake server (lib/server/session.ts): no TCP port is opened. So slot
 * discovery (CLUSTER SLOTS), MOVED, CROSSSLOT, pipelines split per node, MULTI, scripts, pub/sub
 * and blocking reads run exactly as ioredis runs them against a real cluster.
 *
 * The first startup node names the cluster: `new Cluster([{ host: '127.0.0.1', port: 7000 }])`
 * makes (or joins) an emulated cluster of 3 masters announced as 127.0.0.1:7000, :7001, :7002
 * (slots 0-5460, 5461-10922, 10923-16383); a fake `new Redis({ port: 7000 })` shares its data
 * (db 0). Options: ioredis's ClusterOptions, plus `streams: { clock, redisVersion }` (the
 * keyspace's clock and emulated version), `masters` (default 3) and `warnUndeclaredKeys` (warn
 * when a script touches a key it did not declare).
 */
import { Duplex } from 'stream';
import { StreamsMockError } from '../clock/clock';
import { realNextTick } from '../clock/real-timers';
import { ClusterState } from '../engine/cluster';
import { createConnection, serverFor, type ServerState } from '../engine/index';
import { Session } from '../server/session';
import { clientCreated } from '../adapter/client-registry';

/** The keyspace of a fake Cluster instance (read by `streamsKeyspace`). */
export const CLUSTER_KEYSPACE = Symbol.for('ioredis-mock-streams.clusterKeyspace');

/* eslint-disable @typescript-eslint/no-explicit-any */

interface Registered {
  readonly state: ServerState;
  readonly cluster: ClusterState;
}

/** Emulated clusters by every `host:port` they announce. */
const byAddress = new Map<string, Registered>();

/**
 * The emulated cluster announced at `host:port`, made on first use. `masters` undefined joins the
 * one already there (duplicate(), a second client of it); a number of masters other than its own
 * rebuilds it with that many (a later test asking for another topology gets it; clients of the
 * old one then see MOVED for the slots their node lost).
 */
function register(host: string, port: number, masters: number | undefined): Registered {
  const found = byAddress.get(`${host}:${port}`);
  if (found && (masters === undefined || found.cluster.nodes.length === masters)) return found;
  if (found) for (const n of found.cluster.nodes) byAddress.delete(`${host}:${n.port}`);
  masters ??= 3;
  const ports = Array.from({ length: masters }, (_, i) => port + i);
  const state = serverFor('localhost', port);
  const cluster = new ClusterState(masters, host, ports);
  state.cluster = cluster;
  const entry = { state, cluster };
  for (const p of ports) byAddress.set(`${host}:${p}`, entry);
  return entry;
}

/** The client end of an in-memory socket pair (what ioredis reads and writes). */
class MemorySocket extends Duplex {
  peer: MemorySocket | null = null;
  readonly connecting = false;
  remoteAddress = '127.0.0.1';
  remotePort = 0;
  localAddress = '127.0.0.1';
  localPort = 0;
  /** Chunks written and not yet delivered to the peer (null: the end), in order. */
  private outgoing: (Buffer | null)[] = [];
  constructor() {
    super({ allowHalfOpen: true });
  }
  override _read(): void {}
  /**
   * What is written reaches the peer on a later tick, never inside write(), as over TCP: ioredis
   * 5.3 writes a command and only then queues it for its reply, so a reply delivered inside
   * write() found no command waiting and was lost (the command never settled).
   */
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.send(Buffer.isBuffer(chunk) ? Buffer.from(chunk) : chunk);
    cb();
  }
  override _final(cb: (err?: Error | null) => void): void {
    this.send(null);
    cb();
  }
  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.deliver(); // what was written before the destroy still arrives
    const peer = this.peer;
    this.peer = null;
    if (peer && !peer.destroyed) {
      peer.push(null);
      peer.destroy();
    }
    cb(err);
  }
  private send(chunk: Buffer | null): void {
    if (this.outgoing.push(chunk) === 1) realNextTick(() => this.deliver());
  }
  private deliver(): void {
    const chunks = this.outgoing;
    if (chunks.length === 0) return;
    this.outgoing = [];
    const peer = this.peer;
    for (const chunk of chunks) if (peer && !peer.destroyed) peer.push(chunk);
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

let nextPort = 50000;

/** A fake Cluster's node connections (read by lib/runners/test-lifecycle.ts). */
const NODE_CONNECTIONS = Symbol.for('ioredis-mock-streams.nodeConnections');

/** ioredis's `Connector` option: connects a node client to the fake node it names. */
class FakeNodeConnector {
  private socket: MemorySocket | null = null;
  /** The engine connection of the last connect() (the test lifecycle ends its blocked reads). */
  conn: object | null = null;
  constructor(private readonly options: { host?: string; port?: number }) {}

  check(): boolean {
    return true;
  }

  connect(): Promise<MemorySocket> {
    const host = this.options.host ?? 'localhost';
    const port = this.options.port ?? 6379;
    const entry = byAddress.get(`${host}:${port}`) ?? (host === 'localhost' ? byAddress.get(`127.0.0.1:${port}`) : undefined);
    if (!entry) {
      const err = Object.assign(new Error(`connect ECONNREFUSED ${host}:${port}`), { code: 'ECONNREFUSED' });
      return Promise.reject(err);
    }
    const node = entry.cluster.nodes.findIndex((n) => n.port === port);
    const client = new MemorySocket();
    const server = new MemorySocket();
    client.peer = server;
    server.peer = client;
    client.remotePort = port;
    client.localPort = nextPort++;
    server.localPort = port;
    server.remotePort = client.localPort;
    const conn = createConnection({
      host: 'localhost',
      port: entry.state.port,
      addr: `127.0.0.1:${client.localPort}`,
      laddr: `${host}:${port}`,
      clusterNode: node,
    });
    const session = new Session(server as any, conn, { stats: entry.state.stats });
    conn.buffers = () => session.buffers();
    this.conn = conn;
    entry.state.stats.connectionOpened();
    this.socket = client;
    return Promise.resolve(client);
  }

  disconnect(): void {
    const s = this.socket;
    this.socket = null;
    if (s && !s.destroyed) s.end();
  }
}

/** ioredis's real Cluster class: the project's ioredis, else the one bundled with ioredis-mock. */
function ioredisClusterClass(): any {
  // `<ioredis>/built/cluster` (not `ioredis`): jest.mock('ioredis') / vi.mock replace the
  // package's main module with this fake; the Cluster class and the Redis class it builds its
  // node clients from are other files, left real.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { installedIoredisDir } = require('../adapter/command-table') as typeof import('../adapter/command-table');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`${installedIoredisDir()}/built/cluster`).default;
}

function firstNode(startupNodes: unknown): { host: string; port: number } {
  const list = Array.isArray(startupNodes) ? startupNodes : [startupNodes];
  const first = list[0] as unknown;
  if (first === undefined || first === null) return { host: '127.0.0.1', port: 6379 };
  if (typeof first === 'number') return { host: '127.0.0.1', port: first };
  if (typeof first === 'string') {
    if (/^\d+$/.test(first)) return { host: '127.0.0.1', port: Number(first) };
    const u = first.includes('://') ? new URL(first) : new URL(`redis://${first}`);
    return { host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) };
  }
  const o = first as { host?: string; port?: number | string };
  return { host: o.host ?? '127.0.0.1', port: Number(o.port ?? 6379) };
}

let ClusterClass: any;

/** The fake `Cluster` class (built on first use: it loads ioredis's Cluster). */
export function fakeClusterClass(): any {
  if (ClusterClass) return ClusterClass;
  const Base = ioredisClusterClass();
  ClusterClass = class Cluster extends Base {
    constructor(startupNodes: unknown, options: any = {}) {
      const { streams, masters, warnUndeclaredKeys, ...rest } = options ?? {};
      if (masters !== undefined && (!Number.isInteger(masters) || masters < 1 || masters > 1000)) {
        throw new StreamsMockError(`Cluster: masters must be an integer 1-1000, got ${String(masters)}`);
      }
      const first = firstNode(startupNodes);
      const host = first.host === 'localhost' ? '127.0.0.1' : first.host;
      const entry = register(host, first.port, masters);
      if (streams) entry.state.keyspace(0).configure(streams);
      if (warnUndeclaredKeys !== undefined) entry.state.warnUndeclaredKeys = warnUndeclaredKeys === true;
      const nodes = (Array.isArray(startupNodes) ? startupNodes : [startupNodes]).length > 0 ? startupNodes : [{ host, port: first.port }];
      super(nodes, {
        ...rest,
        // kept in the options (ioredis ignores it): duplicate() and the test lifecycle read it
        ...(streams ? { streams } : {}),
        redisOptions: { ...(rest.redisOptions ?? {}), Connector: FakeNodeConnector },
      });
      // streamsKeyspace(cluster): the cluster's keyspace (db 0)
      Object.defineProperty(this, CLUSTER_KEYSPACE, { value: entry.state.keyspace(0) });
      // ioredis's ClusterSubscriber builds its own node client with a few options picked by
      // name (no Connector): hand it ours before it connects (it is created lazy).
      const subscriber = (this as any).subscriber;
      if (subscriber && typeof subscriber.selectSubscriber === 'function') {
        const select = subscriber.selectSubscriber;
        subscriber.selectSubscriber = function (this: any, ...args: unknown[]) {
          const out = select.apply(this, args);
          const client = this.subscriber;
          if (client && !(client.connector instanceof FakeNodeConnector)) client.connector = new FakeNodeConnector(client.options);
          return out;
        };
      }
      // the jest/vitest lifecycle closes a client created during a test once the test is over
      clientCreated(this);
    }

    /**
     * The engine connections of the cluster's node clients (its subscriber's too): the test
     * lifecycle ends their blocked reads when the test that created the cluster ends.
     */
    [NODE_CONNECTIONS](): object[] {
      const out: object[] = [];
      let clients: any[] = [];
      try {
        clients = [...(this as any).nodes('all'), (this as any).subscriber?.subscriber];
      } catch {
        return out;
      }
      for (const c of clients) {
        const conn = c?.connector instanceof FakeNodeConnector ? c.connector.conn : null;
        if (conn !== null) out.push(conn);
      }
      return out;
    }

    /** ioredis's duplicate() builds its base class: build this one (fake nodes, same cluster). */
    duplicate(overrideStartupNodes: unknown[] = [], overrideOptions: object = {}): any {
      const startupNodes = overrideStartupNodes.length > 0 ? overrideStartupNodes : (this as any).startupNodes.slice(0);
      return new ClusterClass(startupNodes, { ...(this as any).options, ...overrideOptions });
    }
  };
  return ClusterClass;
}
