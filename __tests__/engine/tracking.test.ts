/**
 * Client-side caching (CLIENT TRACKING) on every front end: the RESP server writes invalidations
 * where Redis writes them (a connection's own invalidation after its reply, even pipelined or
 * after a blocked command is served; a flush as a null key list), ioredis clients get a
 * redirection's `__redis__:invalidate` messages as ioredis emits them, and the engine keeps the
 * INFO counters, CLIENT LIST flags and `tracking-table-max-keys`. The same bytes as real servers:
 * __tests__/differential/tracking-real-server.test.ts (the orders below were read on 7.0.15 and
 * the post-7.4 build).
 */
import * as net from 'node:net';
import Redis from 'ioredis-mock-streams';
import { serve, type RedisServer } from '../../lib/server';
import { createConnection, type Connection } from '../../lib/engine';
import { installedIoredisMajor } from '../../lib/adapter/command-table';
import { PushReply, type Reply } from '../../lib/reply/reply';

const cmd = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('over the RESP server', () => {
  let server: RedisServer;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    server = await serve({ port: 0 });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server.close();
  });

  /** A raw connection and everything it received so far. */
  async function open(): Promise<{ send: (...a: string[][]) => void; text: () => string; until: (tail: string) => Promise<string> }> {
    const socket = net.connect(server.port, '127.0.0.1');
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    return {
      send: (...commands) => socket.write(commands.map((c) => cmd(...c)).join('')),
      text: () => received,
      async until(tail) {
        for (let i = 0; i < 200 && !received.endsWith(tail); i++) await pause(5);
        const out = received;
        received = '';
        return out;
      },
    };
  }

  it('a pipelined write invalidates its own key between its reply and the next reply (RESP3)', async () => {
    const c = await open();
    c.send(['HELLO', '3'], ['CLIENT', 'TRACKING', 'on'], ['SET', 'pk', '1'], ['GET', 'pk']);
    await c.until('$1\r\n1\r\n');
    c.send(['INCR', 'pk'], ['GET', 'pk']);
    expect(await c.until('$1\r\n2\r\n')).toBe(':2\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$2\r\npk\r\n$1\r\n2\r\n');
  });

  it('a transaction and a flush: the invalidation follows EXEC’s reply; a flush sends a null key list', async () => {
    const c = await open();
    c.send(['HELLO', '3'], ['CLIENT', 'TRACKING', 'on'], ['MSET', 'ta', '1', 'tb', '2'], ['GET', 'ta']);
    await c.until('$1\r\n1\r\n');
    c.send(['MULTI'], ['INCR', 'ta'], ['GET', 'tb'], ['EXEC']);
    expect(await c.until('ta\r\n')).toBe('+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n:2\r\n$1\r\n2\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$2\r\nta\r\n');
    c.send(['MULTI'], ['FLUSHDB'], ['EXEC']);
    expect(await c.until('_\r\n')).toBe('+OK\r\n+QUEUED\r\n*1\r\n+OK\r\n>2\r\n$10\r\ninvalidate\r\n_\r\n');
  });

  it('a RESP2 redirection subscribed to __redis__:invalidate gets message frames; a flush is a nil payload', async () => {
    const r = await open();
    r.send(['CLIENT', 'ID'], ['SUBSCRIBE', '__redis__:invalidate']);
    const id = /^:(\d+)\r\n/.exec(await r.until(':1\r\n'))![1];
    const t = await open();
    const w = await open();
    t.send(['CLIENT', 'TRACKING', 'on', 'REDIRECT', id], ['GET', 'rk']);
    await t.until('$-1\r\n');
    w.send(['SET', 'rk', 'v'], ['FLUSHALL']);
    expect(await r.until('$-1\r\n')).toBe(
      '*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$2\r\nrk\r\n' + '*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n',
    );
    // the redirection goes away: a RESP3 tracker is told once a key it read changes
    t.send(['HELLO', '3'], ['GET', 'rk']);
    await t.until('_\r\n');
    r.send(['QUIT']);
    await r.until('+OK\r\n');
    await pause(20);
    w.send(['SET', 'rk', 'again']);
    await w.until('+OK\r\n');
    await pause(20);
    expect(t.text()).toBe(`>2\r\n$21\r\ntracking-redir-broken\r\n:${id}\r\n`);
    t.send(['CLIENT', 'TRACKINGINFO']);
    expect(await t.until('*0\r\n')).toContain('$2\r\non\r\n$15\r\nbroken_redirect\r\n');
  });

  it('a blocked BLMOVE of a tracker is served, then told that its destination changed (after the reply)', async () => {
    const c = await open();
    const w = await open();
    c.send(['HELLO', '3'], ['CLIENT', 'TRACKING', 'on'], ['LRANGE', 'dst', '0', '-1']);
    await c.until('*0\r\n');
    c.send(['BLMOVE', 'src', 'dst', 'LEFT', 'LEFT', '0']);
    await pause(30);
    w.send(['RPUSH', 'src', 'foo']);
    expect(await c.until('dst\r\n')).toBe('$3\r\nfoo\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$3\r\ndst\r\n');
  });
});

describe('ioredis clients', () => {
  let port = 46_600;
  type Client = InstanceType<typeof Redis>;
  const clients: Client[] = [];
  const make = (opts: Record<string, unknown> = {}): Client => {
    const r = new Redis({ port, ...opts } as never);
    clients.push(r);
    return r;
  };
  afterEach(() => {
    for (const c of clients.splice(0)) c.disconnect();
    port++;
  });
  const nextEvents = () => new Promise((resolve) => setImmediate(resolve));

  it('a RESP2 subscriber a tracker redirects to gets message (keys joined by commas) and messageBuffer (an array of Buffers)', async () => {
    const sub = make({ protocol: 2 });
    const tracker = make();
    const writer = make();
    const seen: unknown[] = [];
    sub.on('message', (channel: string, message: string) => seen.push(['message', channel, message]));
    sub.on('messageBuffer', (channel: Buffer, message: unknown) => seen.push(['messageBuffer', channel, message]));
    const id = (await sub.client('ID')) as number;
    await sub.subscribe('__redis__:invalidate');
    expect(await tracker.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(id))).toBe('OK');
    await writer.mset('k1', '1', 'k2', '2');
    expect(await tracker.mget('k1', 'k2')).toEqual(['1', '2']);
    await writer.del('k1', 'k2');
    await nextEvents();
    await writer.set('k1', 'x'); // no longer remembered: nothing more
    await writer.flushdb();
    await nextEvents();
    expect(seen).toEqual([
      ['message', '__redis__:invalidate', 'k1'],
      ['messageBuffer', Buffer.from('__redis__:invalidate'), [Buffer.from('k1')]],
      ['message', '__redis__:invalidate', 'k2'],
      ['messageBuffer', Buffer.from('__redis__:invalidate'), [Buffer.from('k2')]],
      ['message', '__redis__:invalidate', ''],
      ['messageBuffer', Buffer.from('__redis__:invalidate'), null],
    ]);
  });

  // ioredis 6 speaks RESP3 by default: the server then sends `invalidate` pushes, which ioredis drops.
  // skip: ioredis 5 has no RESP3, so this case does not exist under `npm run test:ioredis5`
  (installedIoredisMajor() === 6 ? it : it.skip)('a RESP3 (ioredis 6 default) redirection receives no message event', async () => {
    const sub = make();
    const tracker = make();
    const seen: unknown[] = [];
    sub.on('messageBuffer', (channel: Buffer, message: unknown) => seen.push([channel, message]));
    const id = (await sub.client('ID')) as number;
    await sub.subscribe('__redis__:invalidate');
    await tracker.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(id));
    await tracker.get('k');
    await tracker.set('k', 'v');
    await nextEvents();
    expect(seen).toEqual([]);
  });
});

describe('engine connections', () => {
  let port = 46_700;
  const conns: Connection[] = [];
  const open = (): Connection => {
    const c = createConnection({ port });
    conns.push(c);
    return c;
  };
  afterEach(() => {
    for (const c of conns.splice(0)) c.close();
    port++;
  });
  const text = async (c: Connection, ...argv: string[]) => ((await c.execute(argv)) as { text: string }).text;

  it('INFO counts tracking clients, keys, items and prefixes; CLIENT LIST shows t, B and redir', async () => {
    const a = open();
    const b = open();
    await a.execute(['CLIENT', 'TRACKING', 'on', 'REDIRECT', String(b.id)]);
    await a.execute(['MGET', 'x', 'y']);
    await b.execute(['CLIENT', 'TRACKING', 'on', 'BCAST', 'PREFIX', 'p:', 'PREFIX', 'q:']);
    await b.execute(['GET', 'x']); // BCAST remembers nothing
    const info = await text(a, 'INFO');
    expect(info).toContain('\r\ntracking_clients:2\r\n');
    expect(info).toContain('\r\ntracking_total_keys:2\r\n');
    expect(info).toContain('\r\ntracking_total_items:2\r\n');
    expect(info).toContain('\r\ntracking_total_prefixes:2\r\n');
    const list = await text(a, 'CLIENT', 'LIST');
    expect(list).toContain(`id=${a.id} `);
    expect(list).toMatch(new RegExp(`id=${a.id} .* flags=t .* redir=${b.id} `));
    expect(list).toMatch(new RegExp(`id=${b.id} .* flags=tB .* redir=0 `));
    await a.execute(['CLIENT', 'TRACKING', 'off']);
    expect(await text(a, 'INFO', 'clients')).toContain('\r\ntracking_clients:1\r\n');
  });

  it('tracking-table-max-keys: the table is cut down to the limit, each key dropped invalidated', async () => {
    const a = open();
    const pushes: Reply[] = [];
    a.onPush((m) => pushes.push(m));
    await a.execute(['HELLO', '3']);
    await a.execute(['CLIENT', 'TRACKING', 'on']);
    await a.execute(['MGET', 'k1', 'k2', 'k3', 'k4']);
    await a.execute(['CONFIG', 'SET', 'tracking-table-max-keys', '1']);
    expect(pushes).toEqual(['k1', 'k2', 'k3'].map((k) => new PushReply(['invalidate', [k]])));
    await a.execute(['CONFIG', 'SET', 'tracking-table-max-keys', '1000000']);
  });

  it('a tracking connection that closes is no longer counted; RESET turns tracking off', async () => {
    const a = open();
    const b = open();
    await a.execute(['CLIENT', 'TRACKING', 'on']);
    await b.execute(['CLIENT', 'TRACKING', 'on', 'OPTIN']);
    a.close();
    await b.execute(['RESET']);
    expect(await b.execute(['CLIENT', 'TRACKINGINFO'])).toEqual(await open().execute(['CLIENT', 'TRACKINGINFO']));
    expect(await text(b, 'INFO', 'clients')).toContain('\r\ntracking_clients:0\r\n');
  });
});

describe('CLIENT TRACKING REDIRECT names a client of the same server', () => {
  it('refuses the id of a client of another port (another server), as each redis-server knows only its own clients', async () => {
    const a = createConnection({ port: 46_690 });
    const elsewhere = createConnection({ port: 46_691 });
    try {
      await expect(a.execute(['CLIENT', 'TRACKING', 'on', 'REDIRECT', String(elsewhere.id)])).rejects.toThrow('ERR The client ID you want redirect to does not exist');
      expect(await a.execute(['CLIENT', 'GETREDIR'])).toBe(-1);
    } finally {
      a.close();
      elsewhere.close();
    }
  });
});
