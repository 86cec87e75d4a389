/**
 * A fresh-user trial (session 5): `npx ioredis-mock-streams serve --port P &` then `kill $!`
 * (npm 11, Node 20) ended npm only; the server kept listening, reparented to init. npm runs the CLI
 * through `sh -c` and passes SIGTERM to that shell, which ends without passing it on. Under npm
 * (npm_command / npm_lifecycle_event set, npm's `sh -c` still its parent when it starts) serve now
 * also stops once that npm process has ended; run directly, or put in the background by an npm
 * script's own `&`, it outlives its parent as before.
 *
 * Runs real npm (the one on PATH) in a scratch project whose node_modules/.bin holds the built
 * CLI (dist/cli.js), as an installed package would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const built = fs.existsSync(CLI);
if (!built) console.warn('dist/cli.js missing (run `npm run build`): the serve-under-npm test is skipped');

let project: string;
beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-npm-'));
  const bin = path.join(project, 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'ioredis-mock-streams'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'serve-npm-scratch',
      version: '1.0.0',
      private: true,
      scripts: { 'start-redis': 'ioredis-mock-streams serve --port 0 > serve.out &' },
    }),
  );
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

/** npm with `args` in the scratch project, in a process group of its own (killed whole in the end). */
function npm(args: string[]): ChildProcess {
  return spawn('npm', args, { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

async function portIn(read: () => string, ms: number): Promise<number> {
  let port: string | undefined;
  await until(() => (port = /listening on redis:\/\/127\.0\.0\.1:(\d+) /.exec(read())?.[1]) !== undefined, ms);
  if (port === undefined) throw new Error(`serve printed no address: ${read()}`);
  return Number(port);
}

// skip: the CLI runs from dist/: skipped until `npm run build` made it (`npm test` builds first)
(built ? describe : describe.skip)('serve started by npm stops when npm\'s process ends', () => {
  it('npm exec … serve &, then SIGTERM to npm (kill $!): the server exits and its port closes', async () => {
    const child = npm(['exec', '--', 'ioredis-mock-streams', 'serve', '--port', '0']);
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    try {
      const port = await portIn(() => out, 10000);
      expect(await accepts(port)).toBe(true);
      child.kill('SIGTERM');
      let open = true;
      for (let i = 0; i < 50 && open; i++) {
        await new Promise((r) => setTimeout(r, 100));
        open = await accepts(port);
      }
      expect(open).toBe(false);
    } finally {
      killGroup(child);
    }
  }, 20000);

  it('an npm script that starts serve in the background (&) leaves it running after npm has ended, as before', async () => {
    const out = path.join(project, 'serve.out');
    fs.rmSync(out, { force: true });
    const child = npm(['run', 'start-redis']);
    try {
      await new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const port = await portIn(() => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : ''), 10000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await accepts(port)).toBe(true);
    } finally {
      // The server kept npm's process group.
      killGroup(child);
    }
  }, 20000);
});
