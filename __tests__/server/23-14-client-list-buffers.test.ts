/**
 * Issue 23 item 14: CLIENT LIST reported omem and qbuf as 0 always (a client that never read its
 * replies showed 161 MB on Redis). The RESP server reports what it holds for each connection:
 * qbuf the bytes received and not yet parsed, omem the replies not yet written to the socket.
 * On serve, and on REDIS_URL when set (the same observations hold there).
 */
import * as net from 'node:net';
import { serve, type RedisServer } from '../../lib/server';

const MB = 1024 * 1024;
type Target = [label: string, open: () => Promise<{ host: string; port: number }>, close: () => Promise<void>];
let server: RedisServer | undefined;
const targets: Target[] = [
  ['serve', async () => ((server = await serve()), { host: '127.0.0.1', port: server.port }), async () => server?.close()],
];
if (process.env.REDIS_URL) {
  const u = new URL(process.env.REDIS_URL);
  targets.push(['REDIS_URL', async () => ({ host: u.hostname, port: Number(u.port || 6379) }), async () => undefined]);
}

const cmd = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;

/** A raw connection that reads only when asked to. */
async function rawClient(at: { host: string; port: number }) {
  const socket = net.connect(at.port, at.host);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** Sends one command on a fresh connection and returns the whole reply text (a bulk or simple string). */
async function call(at: { host: string; port: number }, ...args: string[]): Promise<string> {
  const socket = await rawClient(at);
  socket.write(cmd(...args));
  let text = '';
  for await (const chunk of socket) {
    text += chunk.toString('latin1');
    const m = /^\$(\d+)\r\n/.exec(text);
    if ((m && text.length >= m[0].length + Number(m[1]) + 2) || (/^[+:-]/.test(text) && text.endsWith('\r\n'))) break;
  }
  socket.destroy();
  return text;
}

const field = (line: string, name: string) => Number(new RegExp(`(?:^| )${name}=(\\d+)`).exec(line)![1]);
const lineOf = async (at: { host: string; port: number }, name: string) => {
  const list = await call(at, 'CLIENT', 'LIST');
  return list.split('\n').find((l) => l.includes(` name=${name} `))!;
};

describe.each(targets)('CLIENT LIST buffers (%s)', (_label, open, close) => {
  let at: { host: string; port: number };
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    at = await open();
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await call(at, 'DEL', 'issue23-14:big');
    await close();
  });

  it('reports as omem the replies a client that does not read has not been sent yet', async () => {
    expect(await call(at, 'SET', 'issue23-14:big', 'x'.repeat(MB))).toBe('+OK\r\n');
    const slow = await rawClient(at);
    sockets.push(slow);
    slow.pause(); // never reads: the kernel's buffers fill, then the server holds the rest
    slow.write(cmd('CLIENT', 'SETNAME', 'slow') + cmd('GET', 'issue23-14:big').repeat(40));
    let omem = 0;
    for (let i = 0; i < 100 && omem < 8 * MB; i++) {
      await new Promise((r) => setTimeout(r, 50));
      omem = field(await lineOf(at, 'slow'), 'omem');
    }
    expect(omem).toBeGreaterThan(8 * MB); // 40 MB of replies, a few MB of them in socket buffers
    expect(omem).toBeLessThanOrEqual(41 * MB);
  });

  it('reports as qbuf the bytes of a request not complete yet', async () => {
    const half = await rawClient(at);
    sockets.push(half);
    half.write(cmd('CLIENT', 'SETNAME', 'half'));
    await new Promise((r) => setTimeout(r, 100));
    half.write('*2\r\n$3\r\nGET\r\n$5\r\nissu');
    await new Promise((r) => setTimeout(r, 100));
    const line = await lineOf(at, 'half');
    expect(field(line, 'qbuf')).toBeGreaterThan(0);
    expect(field(line, 'qbuf')).toBeLessThanOrEqual(Buffer.byteLength('*2\r\n$3\r\nGET\r\n$5\r\nissu'));
    expect(field(await lineOf(at, 'half'), 'omem')).toBe(0);
  });

  // Values recorded on redis-server 7.0.15 and the post-7.4 build (qbuf-free differs: not emulated)
  it.each([
    ['a lone CLIENT INFO', cmd('CLIENT', 'INFO'), 26],
    ['PING then CLIENT INFO in one write', cmd('PING') + cmd('CLIENT', 'INFO'), 40],
    ['CLIENT INFO then PING in one write', cmd('CLIENT', 'INFO') + cmd('PING'), 40],
    ['CLIENT INFO then half a request', cmd('CLIENT', 'INFO') + '*2\r\n$3\r\nGE', 36],
  ])('shows the running client every byte read with its command as qbuf, its argument bytes as argv-mem: %s', async (_case, payload, qbuf) => {
    const c = await rawClient(at);
    sockets.push(c);
    c.write(payload);
    let text = '';
    for await (const chunk of c) {
      text += chunk.toString('latin1');
      if (/resp=\d/.test(text)) break;
    }
    expect([field(text, 'qbuf'), field(text, 'argv-mem')]).toEqual([qbuf, 10]);
  });
});

describe('CLIENT LIST qbuf-free per version (serve; recorded on 7.0.15 and the post-7.4 build)', () => {
  // 7.0.15: each client keeps a 20474-byte query buffer (running: 26 + 20448; idle: 0 + 20474);
  // the post-7.4 build reuses one buffer (running: 26 + 16360; idle: 0 + 0)
  it.each([
    ['7.0', 20448, 20474],
    ['8.10', 16360, 0],
  ] as const)('%s: the running client shows %i free, an idle one %i', async (redisVersion, running, idle) => {
    const s = await serve({ redisVersion });
    try {
      const at = { host: '127.0.0.1', port: s.port };
      const idler = await rawClient(at);
      idler.write(cmd('CLIENT', 'SETNAME', 'idler'));
      await new Promise((r) => setTimeout(r, 50));
      const list = await call(at, 'CLIENT', 'LIST');
      const mine = list.split('\n').find((l) => l.includes('cmd=client|list'))!;
      const other = list.split('\n').find((l) => l.includes(' name=idler '))!;
      expect([field(mine, 'qbuf'), field(mine, 'qbuf-free')]).toEqual([26, running]);
      expect([field(other, 'qbuf'), field(other, 'qbuf-free')]).toEqual([0, idle]);
      idler.destroy();
    } finally {
      await s.close();
    }
  });
});
