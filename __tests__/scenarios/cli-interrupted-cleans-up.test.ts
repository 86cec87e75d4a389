/**
 * The scenario CLI on a real server, interrupted (Ctrl-C, SIGTERM) in the middle of a scenario:
 * the keys the scenario created are deleted before the process ends, as after any failure
 * (README: "the keys a scenario created are deleted however it ends"), and it exits with 130 /
 * 143 as the signal would. A user trial found `k` left in the database, and the next run refused
 * it as not empty. Runs `dist/cli.js` in a child process against a redis-server of the test's own.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type PrivateServer, privateServerAvailable, startPrivateServer } from '../helpers/private-server';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const canRun = privateServerAvailable('the scenario CLI interrupted on a private real server');

// skip: no server URL (REDIS_URL) or no redis-server binary: skipped with the warning printed above; CI sets both
(canRun ? describe : describe.skip)('replay --url interrupted by a signal', () => {
  let server: PrivateServer | undefined;
  beforeAll(async () => {
    server = await startPrivateServer('cli-signal-');
  }, 20000);
  afterAll(() => server?.stop());

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s in the middle of an advance deletes the keys the scenario created and exits %i', async (signal, code) => {
    const { port, dir, admin } = server!;
    const version = String(((await admin.info('server')) as string).match(/redis_version:(\d+\.\d+\.\d+)/)![1]);
    const file = path.join(dir, `interrupted-${signal.toLowerCase()}.json`);
    const scenario = {
      name: `interrupted-${signal.toLowerCase()}`,
      description: 'a key, then a long wait the test interrupts',
      source: 'recorded',
      recordedOn: version,
      ...(version.startsWith('255.') ? { server: 'a development build' } : {}),
      redisVersion: version.startsWith('255.') ? '8.0' : version.split('.').slice(0, 2).join('.'),
      steps: [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }, { advance: 600000 }],
    };
    fs.writeFileSync(file, JSON.stringify(scenario));
    await admin.select(3);
    const child = spawn(process.execPath, [CLI, 'replay', '--url', `redis://127.0.0.1:${port}/3`, file], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    try {
      for (let i = 0; i < 500 && (await admin.exists('k')) === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await admin.exists('k')).toBe(1);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(await admin.dbsize()).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await admin.select(0);
    }
  }, 20000);
});
