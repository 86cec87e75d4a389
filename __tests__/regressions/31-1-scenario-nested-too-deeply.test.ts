/**
 * A scenario whose reply was nested 200,000 levels deep made the CLI print "Maximum call stack
 * size exceeded" (fresh-user trial): the validator, matcher and formatter walk values
 * recursively. Such a file is refused as malformed, naming the file and the reason.
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

describe('a scenario nested too deeply', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-deep-'));
    const reply = `${'['.repeat(200_000)}"x"${']'.repeat(200_000)}`;
    fs.writeFileSync(
      path.join(dir, 'deep.json'),
      `{"name": "deep", "description": "d", "source": "hand-written", "redisVersion": "7.0", "steps": [{"cmd": ["PING"], "reply": ${reply}}]}`,
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const why = 'the scenario is nested too deeply (more than 1000 levels of arrays and objects)';

  it('is refused by replay as a malformed file (exit 1)', () => {
    expect(cli(dir, 'replay', 'deep.json')).toEqual({
      status: 1,
      out: `FAIL deep.json: [ioredis-mock-streams] invalid scenario deep.json:\n  ${why}\n0 passed, 1 failed\n`,
      err: '',
    });
  });

  it('is refused by format (exit 1), the file left as it was', () => {
    const before = fs.readFileSync(path.join(dir, 'deep.json'), 'utf8');
    expect(cli(dir, 'format', 'deep.json')).toEqual({ status: 1, out: `INVALID   deep.json: [ioredis-mock-streams] invalid scenario deep.json:\n  ${why}\n`, err: '' });
    expect(fs.readFileSync(path.join(dir, 'deep.json'), 'utf8')).toBe(before);
  });

  it('accepts 1000 levels', () => {
    const reply = `${'['.repeat(995)}"x"${']'.repeat(995)}`;
    fs.writeFileSync(path.join(dir, 'ok-deep.json'), `{"name": "ok-deep", "description": "d", "source": "hand-written", "redisVersion": "7.0", "steps": [{"cmd": ["PING"], "reply": ${reply}}]}`);
    const r = cli(dir, 'replay', 'ok-deep.json');
    expect(r.out).toMatch(/^FAIL ok-deep: step 0 \[main\] PING: expected an array, got "PONG"/);
  });
});
