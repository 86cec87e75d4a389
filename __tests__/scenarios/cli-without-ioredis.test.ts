/**
 * The CLI in a project without ioredis (node-redis users, `npm install --omit=peer`, Yarn 1 or
 * pnpm without auto-installed peers): `--help` and `serve` need no ioredis and work; the
 * commands that do need it (`record` and `replay --url` talk to a real server through ioredis,
 * `replay` on the fake is an ioredis client) fail once with a StreamsMockError that names the
 * fix. A fresh-user trial found `npx ioredis-mock-streams serve` (and `--help`) failing with
 * "Cannot find module 'ioredis'": the CLI required ioredis at start-up. Runs `dist/cli.js` in
 * a child process whose `require('ioredis')` fails as it does where ioredis is not installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');

/** A preload that makes `ioredis` (and its files) unresolvable, as in a project without it. */
let hide: string;
beforeAll(() => {
  hide = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'no-ioredis-')), 'hide-ioredis.js');
  fs.writeFileSync(
    hide,
    `const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'ioredis' || request.startsWith('ioredis/')) {
    const err = new Error("Cannot find module '" + request + "'");
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};
`,
  );
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-r', hide, CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const MISSING = 'needs ioredis 5 or 6 in your project';

describe('the CLI in a project without ioredis', () => {
  it('the preload really hides ioredis (the check sees a project without it)', () => {
    const r = spawnSync(process.execPath, ['-r', hide, '-e', "require('ioredis')"], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Cannot find module 'ioredis'");
  });

  it('--help lists the commands', () => {
    const r = cli(['--help']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('serve');
    expect(r.stdout).toContain('replay');
  });

  it('serve answers a client over RESP', async () => {
    const child = spawn(process.execPath, ['-r', hide, CLI, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = out.match(/listening on redis:\/\/127\.0\.0\.1:(\d+)/);
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      const reply = await new Promise<string>((resolve, reject) => {
        const sock = net.connect(port, '127.0.0.1', () => sock.write('*3\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-1\r\n'));
        sock.on('error', reject);
        sock.on('data', (d) => {
          resolve(d.toString('latin1'));
          sock.end();
        });
      });
      expect(reply).toBe("-ERR wrong number of arguments for 'xadd' command\r\n");
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it('replay on the fake fails once with the fix, not once per scenario', () => {
    const r = cli(['replay', FIXTURES]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(MISSING)]);
    expect(r.stderr).toContain('npm install --save-dev ioredis');
  });

  it('replay --url names the package a real server needs', () => {
    const r = cli(['replay', '--url', 'redis://127.0.0.1:1', FIXTURES]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('talking to a real Redis server (record, replay --url) needs the ioredis package: npm install --save-dev ioredis');
  });
});
