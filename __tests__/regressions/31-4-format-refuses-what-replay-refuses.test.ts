/**
 * `format` accepted `redisVersion: "9.9"`, which `replay` refused ("could not start") only when it
 * ran the scenario (fresh-user trial). Both validate a file with the same rules: a fake mode the
 * package does not emulate makes the file invalid for format and for replay on the fake.
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

describe('format and replay of a scenario for a Redis version the fake lacks', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-version-'));
    fs.writeFileSync(path.join(dir, 'v99.json'), JSON.stringify({ name: 'v99', description: 'd', source: 'hand-written', redisVersion: '9.9', steps: [{ cmd: ['PING'], reply: 'PONG' }] }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const problem =
    'invalid scenario v99.json:\n  unsupported redisVersion "9.9"; give a string "<major>.<minor>" (or "<major>.<minor>.<patch>"), one of 7.0, 7.2, 7.4, 8.0, 8.2, 8.4, 8.6, 8.8, 8.10';

  it('format finds the file invalid (exit 1) and leaves it as it was', () => {
    const before = fs.readFileSync(path.join(dir, 'v99.json'), 'utf8');
    expect(cli(dir, 'format', 'v99.json')).toEqual({ status: 1, out: `INVALID   v99.json: [ioredis-mock-streams] ${problem}\n`, err: '' });
    expect(fs.readFileSync(path.join(dir, 'v99.json'), 'utf8')).toBe(before);
  });

  it('replay refuses it with the same reason when loading it', () => {
    expect(cli(dir, 'replay', 'v99.json')).toEqual({ status: 1, out: `FAIL v99.json: [ioredis-mock-streams] ${problem}\n0 passed, 1 failed\n`, err: '' });
  });
});
