/**
 * The scenario CLI, from a fresh-user trial: `replay` of an empty folder printed "0 passed,
 * 0 failed" and exited 0 (a wrong path passed silently); `replay fixtures/` in a project that
 * installed the package (the README's command) failed with a bare `ENOENT … stat 'fixtures/'`;
 * a scenario file starting with a UTF-8 byte-order mark was refused as invalid JSON.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('the scenario CLI given paths', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-paths-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a folder with no scenario file (exit 2), not "0 passed"', () => {
    fs.mkdirSync(path.join(dir, 'empty'));
    expect(cli(dir, 'replay', 'empty/')).toEqual({ status: 2, out: '', err: 'ioredis-mock-streams: no scenario file (*.json) in the folder empty/\n' });
  });

  it('names a missing path, and for fixtures/ where the package\'s own fixtures are', () => {
    expect(cli(dir, 'replay', 'nothing.json')).toEqual({ status: 2, out: '', err: 'ioredis-mock-streams: no such file or folder: nothing.json\n' });
    const r = cli(dir, 'replay', 'fixtures/');
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/^ioredis-mock-streams: no such file or folder: fixtures\/ \(the package's own fixtures are in .*fixtures\/\)\n$/);
    const hinted = /are in (.*)\)\n$/.exec(r.err)![1];
    expect(fs.existsSync(path.join(path.resolve(dir, hinted), 'README.md'))).toBe(true);
  });

  it('reads a scenario file that starts with a byte-order mark', () => {
    const scenario = { name: 'bom', description: 'x', source: 'hand-written', redisVersion: '8.10', steps: [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }] };
    fs.writeFileSync(path.join(dir, 'bom.json'), `\uFEFF${JSON.stringify(scenario)}`);
    expect(cli(dir, 'replay', 'bom.json')).toMatchObject({ status: 0, out: 'PASS bom\n1 passed, 0 failed\n' });
    // format (and record, which reads the file the same way) too: rewritten without the mark
    expect(cli(dir, 'format', 'bom.json')).toMatchObject({ status: 0, out: 'FORMATTED bom.json\n' });
    expect(fs.readFileSync(path.join(dir, 'bom.json'), 'utf8').charCodeAt(0)).toBe(0x7b); // {
  });
});
