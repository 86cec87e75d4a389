/**
 * The replication stream a replica gets after SYNC (lib/engine/replication.ts): the same
 * commands, in the same forms (PEXPIREAT, SET … PXAT, SREM, LPOP …, XCLAIM, MULTI/EXEC around
 * units of several commands), from `serve` as from a real server. The real servers are shared:
 * their stream is filtered down to the commands naming this run's keys (a random prefix), and
 * timestamps and stream IDs are masked on both sides.
 */
import type * as net from 'net';
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { connectSocket, requestBytes } from './raw-client';
import { describeServeOnRealServers } from './serve-on-real-servers';

/** A replica connection: sends SYNC, skips the RDB payload, collects the commands it is fed. */
class Replica {
  readonly commands: string[][] = [];
  private buf = Buffer.alloc(0);
  private gotRdb = false;
  private rdbLength = -1;
  readonly ready: Promise<number>;

  private constructor(private readonly socket: net.Socket) {
    let resolveReady!: (n: number) => void;
    this.ready = new Promise((r) => (resolveReady = r));
    socket.on('data', (chunk: Buffer) => {
      this.buf = Buffer.concat([this.buf, chunk]);
      if (!this.gotRdb) {
        while (this.buf[0] === 10) this.buf = this.buf.subarray(1); // keepalive newlines before the payload
        const eol = this.buf.indexOf('\r\n');
        if (eol < 0) return;
        this.rdbLength = Number(this.buf.toString('latin1', 1, eol));
        if (this.buf.length < eol + 2 + this.rdbLength) return;
        this.gotRdb = true;
        const rdb = this.buf.subarray(eol + 2, eol + 2 + this.rdbLength);
        this.buf = this.buf.subarray(eol + 2 + this.rdbLength);
        resolveReady(rdb.length);
        expect(rdb.toString('latin1', 0, 5)).toBe('REDIS');
      }
      for (;;) {
        const parsed = parseCommand(this.buf);
        if (parsed === null) break;
        this.commands.push(parsed.argv);
        this.buf = this.buf.subarray(parsed.length);
      }
    });
    socket.write('SYNC\r\n');
  }

  static async attach(port: number, host = '127.0.0.1'): Promise<Replica> {
    const r = new Replica(await connectSocket(port, host));
    await r.ready;
    return r;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** `*n $len arg …` at the start of `buf`, or null when incomplete. */
function parseCommand(buf: Buffer): { argv: string[]; length: number } | null {
  let at = buf.indexOf('\r\n');
  if (at < 0) return null;
  const n = Number(buf.toString('latin1', 1, at));
  at += 2;
  const argv: string[] = [];
  for (let i = 0; i < n; i++) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const len = Number(buf.toString('latin1', at + 1, eol));
    if (buf.length < eol + 2 + len + 2) return null;
    argv.push(buf.toString('latin1', eol + 2, eol + 2 + len));
    at = eol + 2 + len + 2;
  }
  return { argv, length: at };
}

/** A plain RESP client: one command at a time. */
class Client {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buf = Buffer.concat([this.buf, chunk]);
      this.waiting?.();
    });
  }

  static async connect(port: number, host = '127.0.0.1'): Promise<Client> {
    return new Client(await connectSocket(port, host));
  }

  send(argv: string[]): void {
    this.socket.write(requestBytes(argv), 'latin1');
  }

  /** Send argv and wait for one reply line (or frame start); the reply itself is not parsed. */
  async call(argv: string[]): Promise<string> {
    this.buf = Buffer.alloc(0);
    this.send(argv);
    await this.replied();
    return this.buf.toString('latin1');
  }

  async replied(): Promise<void> {
    while (this.buf.indexOf('\r\n') < 0) await new Promise<void>((r) => (this.waiting = r));
    this.waiting = null;
  }

  close(): void {
    this.socket.destroy();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Run the script on the server at host:port in db 9 and return what a replica attached before
 * it received, restricted to this run's keys (prefix `p`), SELECT and PING left out, timestamps
 * and stream IDs masked.
 */
async function streamOf(port: number, host: string, p: string): Promise<string[][]> {
  const replica = await Replica.attach(port, host);
  const c = await Client.connect(port, host);
  const blocked = await Client.connect(port, host);
  const k = (name: string) => `${p}${name}`;
  try {
    await c.call(['SELECT', '9']);
    await blocked.call(['SELECT', '9']);
    const far = String(Math.floor(Date.now() / 1000) + 100000);
    const past = String(Math.floor(Date.now() / 1000) - 100);
    const script: string[][] = [
      ['SET', k('s'), 'v', 'EX', '100'],
      ['SET', k('s'), 'v', 'PX', '100000'],
      ['SET', k('s'), 'v', 'EXAT', far],
      ['SET', k('s'), 'v', 'pxat', `${far}000`],
      ['SETEX', k('s'), '100', 'v'],
      ['PSETEX', k('s'), '100000', 'v'],
      ['GETEX', k('s'), 'PERSIST'],
      ['GETEX', k('s')],
      ['GETEX', k('s'), 'EX', '100'],
      ['GETSET', k('s'), 'w'],
      ['EXPIRE', k('s'), '100'],
      ['PEXPIRE', k('s'), '200000', 'GT'],
      ['EXPIREAT', k('s'), far],
      ['PEXPIREAT', k('s'), `${far}000`],
      ['EXPIREAT', k('s'), past],
      ['SET', k('s'), 'v'],
      ['GETDEL', k('s')],
      ['GETDEL', k('s')],
      ['SET', k('f'), '1.5'],
      ['INCRBYFLOAT', k('f'), '1'],
      ['HSET', k('h'), 'f', '1'],
      ['HINCRBYFLOAT', k('h'), 'f', '0.5'],
      ['SADD', k('set'), 'a'],
      ['SPOP', k('set')],
      ['SADD', k('set'), 'a', 'b', 'c'],
      ['SPOP', k('set'), '5'],
      ['RPUSH', k('l'), 'a', 'b', 'c', 'd'],
      ['LMPOP', '1', k('l'), 'LEFT', 'COUNT', '2'],
      ['BLPOP', k('l'), '0'],
      ['BLMOVE', k('l'), k('l2'), 'right', 'left', '0'],
      ['ZADD', k('z'), '1', 'a', '2', 'b', '3', 'c'],
      ['ZMPOP', '1', k('z'), 'MAX', 'COUNT', '1'],
      ['BZPOPMIN', k('z'), '0'],
      ['BZMPOP', '0', '1', k('z'), 'MIN', 'COUNT', '5'],
      ['DEL', k('nothing')],
      ['MULTI'],
      ['SET', k('m1'), '1'],
      ['GET', k('m1')],
      ['INCR', k('m2')],
      ['EXEC'],
      ['MULTI'],
      ['SET', k('m3'), '1'],
      ['EXEC'],
      ['MULTI'],
      ['GET', k('m3')],
      ['EXEC'],
      ['EVAL', "redis.call('set', KEYS[1], 'x'); redis.call('incrbyfloat', KEYS[2], '2'); redis.call('get', KEYS[1])", '2', k('e1'), k('e2')],
      ['EVAL', "return redis.call('get', KEYS[1])", '1', k('e1')],
      ['XADD', k('x'), '*', 'f', 'v'],
      ['XADD', k('x'), '*', 'f', 'w'],
      ['XGROUP', 'CREATE', k('x'), 'g', '0'],
      ['XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', k('x'), '>'],
      ['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', k('x'), '>'],
      ['XADD', k('y'), '1-1', 'f', 'v'],
      ['XADD', k('y'), '1-2', 'f', 'v'],
      ['XADD', k('y'), '1-3', 'f', 'v'],
      ['XGROUP', 'CREATE', k('y'), 'g', '0'],
      ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', k('y'), '>'],
      ['XCLAIM', k('y'), 'g', 'c2', '0', '1-1'],
      ['XAUTOCLAIM', k('y'), 'g', 'c3', '0', '0-0', 'COUNT', '1'],
      ['XDEL', k('y'), '1-2'],
      ['XAUTOCLAIM', k('y'), 'g', 'c4', '0', '0-0', 'JUSTID'],
      ['XCLAIM', k('y'), 'g', 'c5', '0', '1-9', 'LASTID', '5-0'],
      ['XCLAIM', k('y'), 'g', 'c5', '0', '1-1', 'RETRYCOUNT', '7', 'JUSTID'],
    ];
    for (const argv of script) await c.call(argv);
    // an expired key a read finds: DEL; RESTORE with a relative TTL: ABSTTL; PUBLISH
    await c.call(['SET', k('le'), 'v', 'PX', '1']);
    await sleep(10);
    await c.call(['GET', k('le')]);
    const dumped = await c.call(['DUMP', k('set2')]);
    expect(dumped).toBe('$-1\r\n');
    await c.call(['SET', k('d'), 'v']);
    const dump = await c.call(['DUMP', k('d')]);
    const payload = dump.slice(dump.indexOf('\r\n') + 2, -2);
    await c.call(['RESTORE', k('r1'), '100000', payload]);
    await c.call(['RESTORE', k('r1'), '0', payload, 'REPLACE']);
    await c.call(['RESTORE', k('r1'), '1', payload, 'REPLACE', 'ABSTTL']);
    await c.call(['PUBLISH', k('chan'), 'hello']);
    // a blocked pop served by a push: the push, then the pop as its non-blocking form
    blocked.send(['BLMOVE', k('src'), k('dst'), 'LEFT', 'Right', '0']);
    await sleep(50);
    await c.call(['LPUSH', k('src'), 'x']);
    await blocked.replied();
    await c.call(['DEL', k('e1'), k('e2'), k('f'), k('h'), k('m1'), k('m2'), k('m3'), k('x'), k('l2'), k('dst'), k('d'), k('y')]);
    await sleep(100);
  } finally {
    c.close();
    blocked.close();
    replica.close();
  }
  return onlyOurs(replica.commands, p);
}

/**
 * The same for hash field expiration (7.4): HEXPIRE & co. as HPEXPIREAT with the fields set,
 * nothing when none was set, an HDEL per field a past time deletes, and an HDEL per field active
 * expiry removes.
 */
async function fieldExpiryStreamOf(port: number, host: string, p: string): Promise<string[][]> {
  const replica = await Replica.attach(port, host);
  const c = await Client.connect(port, host);
  const k = (name: string) => `${p}${name}`;
  try {
    await c.call(['SELECT', '9']);
    const far = String(Math.floor(Date.now() / 1000) + 100000);
    const script: string[][] = [
      ['HSET', k('h1'), 'f1', 'v1'],
      ['HEXPIREAT', k('h1'), far, 'NX', 'FIELDS', '1', 'f1'],
      ['HSET', k('h2'), 'f2', 'v2'],
      ['hpexpireat', k('h2'), `${far}000`, 'nx', 'fields', '1', 'f2'],
      ['HSET', k('h3'), 'f3', 'v3', 'f4', 'v4', 'f5', 'v5', 'f6', 'v6'],
      ['HPERSIST', k('h3'), 'FIELDS', '1', 'f5'],
      ['HEXPIRE', k('h3'), '100', 'FIELDS', '3', 'f3', 'f4', 'non_exists_field'],
      ['HPEXPIRE', k('h3'), '50000', 'GT', 'FIELDS', '1', 'f3'],
      ['HPEXPIRE', k('h3'), '5000', 'GT', 'FIELDS', '2', 'f3', 'f5'],
      ['HPERSIST', k('h3'), 'FIELDS', '1', 'f3'],
      ['HPEXPIRE', k('h3'), '0', 'FIELDS', '2', 'f6', 'f3'],
      ['HEXPIREAT', k('h3'), '1', 'FIELDS', '1', 'f4'],
      ['HSET', k('a'), 'x', '1', 'y', '2', 'z', '3'],
      ['HPEXPIRE', k('a'), '1', 'FIELDS', '2', 'x', 'y'],
    ];
    for (const argv of script) await c.call(argv);
    await sleep(300); // active expiry (every 100 ms on the real servers)
    await c.call(['DEL', k('h1'), k('h2'), k('h3'), k('a')]);
    await sleep(100);
  } finally {
    c.close();
    replica.close();
  }
  return onlyOurs(replica.commands, p);
}

/** The stream restricted to commands naming a key of prefix `p` (MULTI/EXEC kept around them). */
function onlyOurs(commands: string[][], p: string): string[][] {
  const out: string[][] = [];
  let group: string[][] | null = null;
  for (const argv of commands) {
    const name = argv[0].toUpperCase();
    if (name === 'SELECT' || name === 'PING') continue;
    if (name === 'MULTI') {
      group = [];
      continue;
    }
    if (name === 'EXEC' && group !== null) {
      if (group.length) out.push(['MULTI'], ...group, ['EXEC']);
      group = null;
      continue;
    }
    if (!argv.some((a) => a.startsWith(p))) continue;
    (group ?? out).push(argv.map((a) => a.replace(/^\d{13}(-\d+)?$/, (_, seq: string | undefined) => (seq ? '<id>' : '<ms>')).replace(p, '')));
  }
  return out;
}

describeServeOnRealServers(
  'the replication stream after SYNC',
  ({ url, version, fake }) => {
    it('carries the same commands, rewritten the same way', async () => {
      const real = new URL(url);
      const prefix = `repl-${process.pid}-${Math.floor(Math.random() * 1e9)}:`;
      const expected = await streamOf(Number(real.port || 6379), real.hostname, prefix);
      const actual = await streamOf(fake().port, '127.0.0.1', prefix);
      expect(expected.length).toBeGreaterThan(40);
      expect(actual).toEqual(expected);
    }, 20000);

    it('carries hash field expiration as the server does (7.4: HPEXPIREAT of the fields set, HDEL per field removed)', async () => {
      if (version === '7.0') return; // no hash field expiration before 7.4
      const real = new URL(url);
      const prefix = `repl-hfe-${process.pid}-${Math.floor(Math.random() * 1e9)}:`;
      const expected = await fieldExpiryStreamOf(Number(real.port || 6379), real.hostname, prefix);
      const actual = await fieldExpiryStreamOf(fake().port, '127.0.0.1', prefix);
      expect(expected.length).toBeGreaterThan(10);
      expect(actual).toEqual(expected);
    }, 20000);
  },
  'propagate',
);

describe('SYNC on serve', () => {
  let server: RedisServer;
  beforeEach(async () => {
    server = await serve({});
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends an RDB file of the dataset, then SELECT and each write; reads and failed writes are not sent', async () => {
    const c = await Client.connect(server.port);
    await c.call(['SET', 'before', 'x']);
    const replica = await Replica.attach(server.port);
    await c.call(['GET', 'before']);
    await c.call(['INCR', 'before']); // an error: nothing changed
    await c.call(['SELECT', '3']);
    await c.call(['SET', 'a', '1']);
    await c.call(['SELECT', '0']);
    await c.call(['DEL', 'before']);
    await sleep(20);
    expect(replica.commands).toEqual([['SELECT', '3'], ['SET', 'a', '1'], ['SELECT', '0'], ['DEL', 'before']]);
    replica.close();
    c.close();
  });

  it('stops feeding a detached replica, and a server that became a replica (REPLICAOF) refuses writes', async () => {
    const c = await Client.connect(server.port);
    const replica = await Replica.attach(server.port);
    expect(await c.call(['REPLICAOF', 'localhost', '9999'])).toBe('+OK\r\n');
    expect(await c.call(['SET', 'k', 'v'])).toBe("-READONLY You can't write against a read only replica.\r\n");
    expect(await c.call(['REPLICAOF', 'NO', 'ONE'])).toBe('+OK\r\n');
    await c.call(['SET', 'k', 'v']);
    await sleep(20);
    expect(replica.commands).toEqual([['SELECT', '0'], ['SET', 'k', 'v']]);
    replica.close();
    await sleep(20);
    await c.call(['SET', 'k', 'w']);
    c.close();
  });

  // the same replies on redis-server 7.0.15 (REPLICAOF to a host that never answers)
  it('a replica with replica-serve-stale-data no answers MASTERDOWN to commands without the stale flag, and to EXEC of one', async () => {
    const c = await Client.connect(server.port);
    const masterdown = "-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.\r\n";
    expect(await c.call(['CONFIG', 'SET', 'replica-serve-stale-data', 'no'])).toBe('+OK\r\n');
    const other = await Client.connect(server.port);
    expect(await c.call(['MULTI'])).toBe('+OK\r\n');
    expect(await c.call(['GET', 'k'])).toBe('+QUEUED\r\n');
    expect(await other.call(['REPLICAOF', 'localhsot', '0'])).toBe('+OK\r\n');
    expect(await c.call(['EXEC'])).toBe(`-EXECABORT Transaction discarded because of: ${masterdown.slice(1)}`);
    other.close();
    expect(await c.call(['GET', 'k'])).toBe(masterdown);
    expect(await c.call(['PING'])).toBe(masterdown);
    expect(await c.call(['INFO', 'keyspace'])).toMatch(/^\$/);
    expect(await c.call(['REPLICAOF', 'NO', 'ONE'])).toBe('+OK\r\n');
    expect(await c.call(['CONFIG', 'SET', 'replica-serve-stale-data', 'yes'])).toBe('+OK\r\n');
    c.close();
  });
});
