/**
 * `replay --url` / `record --url` to a server that cannot be reached say so in one line, with
 * the cause, and exit with 2 as other refusals do (a fresh-user trial saw ioredis's "Stream isn't
 * writeable and enableOfflineQueue options is false"); a password in the URL is not printed, and a
 * port that accepts but never answers is given up after 10 s instead of waiting forever.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import IORedis from 'ioredis';
import { RealTarget } from '../../lib/scenarios/targets/real';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the scenario CLI and a server it cannot reach', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-unreachable-'));
    const scenario = { name: 'ping', description: 'd', source: 'recorded', recordedOn: '7.0.15', redisVersion: '7.0', steps: [{ cmd: ['PING'], reply: 'PONG' }] };
    fs.writeFileSync(path.join(dir, 'ping.json'), JSON.stringify(scenario));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('replay and record name the server and the cause (ECONNREFUSED), exit 2', async () => {
    const port = await closedPort();
    const line = `ioredis-mock-streams: the server at redis://user:***@127.0.0.1:${port}/3 could not be reached (connect ECONNREFUSED 127.0.0.1:${port})\n`;
    expect(cli(dir, 'replay', '--url', `redis://user:secret@127.0.0.1:${port}/3`, 'ping.json')).toEqual({ status: 2, out: '', err: line });
    expect(cli(dir, 'record', '--url', `redis://user:secret@127.0.0.1:${port}/3`, 'ping.json')).toEqual({ status: 2, out: '', err: line });
  });

  it('gives up on a port that accepts and never answers', async () => {
    const sockets: net.Socket[] = [];
    const server = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      // spawned, not spawnSync: this process's server must keep accepting meanwhile
      const child = spawn(process.execPath, [CLI, 'replay', '--url', `redis://127.0.0.1:${port}`, 'ping.json'], { cwd: dir });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ status, err }).toEqual({ status: 2, err: `ioredis-mock-streams: the server at redis://127.0.0.1:${port} could not be reached (no answer within 10 s)\n` });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 40_000);
});

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: a connection the server closes is not checked');

// skip: no real server URL (REDIS_URL): no connection to close; CI sets it
(REDIS_URL ? describe : describe.skip)('a connection the server closed (REDIS_URL)', () => {
  it('says the server could not be reached, not "Stream isn\'t writeable"', async () => {
    // database 8, which no other test file uses: emptied first (a database a test run left keys
    // in makes the target refuse it, as it must)
    const u = new URL(REDIS_URL!);
    u.pathname = '/8';
    const target = new RealTarget({ url: u.toString() });
    const other = new IORedis(REDIS_URL!);
    await other.call('SELECT', '8');
    await other.call('FLUSHDB');
    try {
      await target.prepare();
      await other.call('CLIENT', 'KILL', 'SKIPME', 'yes', 'ID', String(((target as unknown as { adminId: number }).adminId)));
      for (let i = 0; i < 100 && (target as unknown as { admin: IORedis }).admin.status !== 'end'; i++) await new Promise((r) => setTimeout(r, 10));
      await expect(target.serverVersion()).rejects.toThrow(`[ioredis-mock-streams] the server at ${u.toString()} could not be reached (the connection was closed)`);
    } finally {
      other.disconnect();
      await target.dispose();
    }
  });
});
