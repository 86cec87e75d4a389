/**
 * A BLOCK armed on @sinonjs/fake-timers finishes on real timers once they are uninstalled (the
 * rest of its timeout), but in a plain Node process (or a node:test file) nothing kept the process
 * alive meanwhile: the real-time check that moves the timer over was unref'd, so Node exited with
 * the read unanswered ("unsettled top-level await", exit 13). A blocked call keeps the process
 * alive as its socket to a server would. Found by a fresh-user trial.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

const PROGRAM = `
const FakeTimers = require('@sinonjs/fake-timers');
const Redis = require('./dist/cjs-entry.js');
(async () => {
  const clock = FakeTimers.install({ now: Date.UTC(2024, 0, 1) });
  const r = new Redis({ port: 58_330 });
  const b = r.duplicate();
  const read = b.xread('BLOCK', 300, 'STREAMS', 's', '$');
  await Redis.streamsKeyspace(r).waitForBlocked();
  clock.uninstall();
  const t = Date.now();
  const reply = await read;
  console.log(JSON.stringify({ reply, waitedAtLeast250: Date.now() - t >= 250 }));
  r.disconnect();
  b.disconnect();
})();`;

describe('a blocked call armed on fake timers that are then uninstalled, in a plain Node process', () => {
  it('keeps the process alive until it times out on real timers (the rest of its BLOCK)', () => {
    const run = spawnSync(process.execPath, ['-e', PROGRAM], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({ reply: null, waitedAtLeast250: true });
  });
});
