/**
 * `ioredis-mock-streams serve` as another process would use it: start the built CLI, read the
 * address it prints, talk RESP to it, move its clock with MOCKCLOCK, stop it with SIGTERM.
 */
import { type ChildProcess, spawn } from 'child_process';
import { existsSync } from 'fs';
import { join } from 'path';
import { RawClient } from './raw-client';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const built = existsSync(CLI);
if (!built) console.warn('[cli.test] dist/cli.js missing (run `npm run build`): the CLI server test is skipped');

function start(args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl) });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

// skip: the CLI runs from dist/: skipped until `npm run build` made it (`npm test` builds first)
(built ? describe : describe.skip)('ioredis-mock-streams serve (CLI)', () => {
  it('prints its address, serves RESP, moves the clock by MOCKCLOCK and exits 0 on SIGTERM', async () => {
    const { child, line } = await start(['--port', '0', '--clock', 'manual', '--time', '1704067200000', '--redis-version', '7.0']);
    const m = /^ioredis-mock-streams server listening on redis:\/\/127\.0\.0\.1:(\d+) \(Redis 7\.0\)$/.exec(line);
    expect(m).not.toBeNull();
    const c = await RawClient.connect(Number(m?.[1]));
    expect(await c.call('MOCKCLOCK', 'GET')).toBe(':1704067200000\r\n');
    expect(await c.call('XADD', 's', '*', 'f', 'v')).toBe('$15\r\n1704067200000-0\r\n');
    expect(await c.call('MOCKCLOCK', 'TICK', '250')).toBe(':1704067200250\r\n');
    expect(await c.call('XADD', 's', '*', 'f', 'v')).toBe('$15\r\n1704067200250-0\r\n');
    expect(await c.call('INFO', 'server')).toContain('redis_version:7.0.15\r\n');
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await c.whenClosed();
  });

  it('serves a 3-master cluster with --cluster 3: one port per master, MOVED between them', async () => {
    const { child, line } = await start(['--cluster', '3', '--redis-version', '7.0']);
    const m = /^ioredis-mock-streams cluster of 3 masters listening on redis:\/\/127\.0\.0\.1:(\d+) redis:\/\/127\.0\.0\.1:(\d+) redis:\/\/127\.0\.0\.1:(\d+) \(Redis 7\.0\)$/.exec(line);
    expect(m).not.toBeNull();
    const [p0, , p2] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
    const c = await RawClient.connect(p0);
    expect(await c.call('SET', 'b', '1')).toBe('+OK\r\n'); // slot 3300: the first master's
    expect(await c.call('SET', 'a', '1')).toBe(`-MOVED 15495 127.0.0.1:${p2}\r\n`);
    expect(await c.call('MGET', 'a', 'b')).toBe("-CROSSSLOT Keys in request don't hash to the same slot\r\n");
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await c.whenClosed();
  });

  it('refuses a bad option with exit code 2', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--clock', 'sundial'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d) => (err += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--clock must be adjustable, manual or real, got sundial');
  });
});
