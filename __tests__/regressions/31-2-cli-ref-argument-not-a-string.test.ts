/**
 * A command argument `{"ref": "c"}` whose captured value is an array (LRANGE's whole reply) can
 * only be found out when the scenario runs; the report named the step with an empty command
 * (`step 2 [main] : …`, fresh-user trial). It shows the command as written, with the ref in place.
 * A ref that is itself malformed (`{"ref": ["c"]}`) is refused when the file is loaded.
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

describe('a ref argument that is no string', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-ref-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, steps: unknown[]) =>
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ name, description: 'd', source: 'hand-written', redisVersion: '7.0', steps }));

  it('names the command as written when the captured value is an array', () => {
    write('ref-array', [
      { cmd: ['RPUSH', 'l', 'a'], reply: 1 },
      { cmd: ['LRANGE', 'l', '0', '-1'], reply: { capture: 'c' } },
      { cmd: ['GET', { ref: 'c' }], reply: 'x' },
    ]);
    expect(cli(dir, 'replay', 'ref-array.json')).toEqual({
      status: 1,
      out: 'FAIL ref-array: step 2 [main] GET {"ref":"c"}: argument {"ref": "c"} is ["a"], not a string or integer\n0 passed, 1 failed\n',
      err: '',
    });
  });

  it('refuses a ref whose name is an array when loading the file', () => {
    write('ref-name-array', [
      { cmd: ['SET', 'k', 'v'], reply: { capture: 'c' } },
      { cmd: [{ ref: ['c'] }], reply: 'x' },
    ]);
    expect(cli(dir, 'replay', 'ref-name-array.json')).toEqual({
      status: 1,
      out: 'FAIL ref-name-array.json: [ioredis-mock-streams] invalid scenario ref-name-array.json:\n  steps[1].cmd[0]: an argument is a string, {"hex": "<bytes as hex digit pairs>"} or {"ref": "name"}\n0 passed, 1 failed\n',
      err: '',
    });
  });
});
