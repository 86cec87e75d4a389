/**
 * Scenario strings are JSON text: there was no way to write a command argument or an expected
 * reply holding bytes that are not UTF-8 text (ff 00 c3), and `record` wrote such a reply as
 * U+FFFD replacement characters, which no server sends (fresh-user trial). `{"hex": "ff00c3"}`
 * stands for those bytes in `cmd` and in replies; the recorder writes a bulk reply that is not
 * UTF-8 text in that form, and replay (fake and server) and format read it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import IORedis from 'ioredis';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const header = { description: 'SET and GET of bytes ff 00 c3', source: 'hand-written', redisVersion: '8.10' };

describe('bytes that are not UTF-8 text in a scenario, on the fake', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bytes-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, steps: unknown[]) => fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ name, ...header, steps }));

  it('are sent and compared as {"hex"}; text with the same bytes matches too', () => {
    write('bytes', [
      { cmd: ['SET', { hex: 'ff00c3' }, { hex: 'ff00c3' }], reply: 'OK' },
      { cmd: ['GET', { hex: 'ff00c3' }], reply: { hex: 'ff00c3' } },
      { cmd: ['STRLEN', { hex: 'ff00c3' }], reply: 3 },
      { cmd: ['SET', 't', 'café'], reply: 'OK' },
      { cmd: ['GET', 't'], reply: { hex: '636166c3a9' } },
      { cmd: ['GET', { hex: '74' }], reply: 'café' },
    ]);
    expect(cli(dir, 'replay', 'bytes.json')).toEqual({ status: 0, out: 'PASS bytes\n1 passed, 0 failed\n', err: '' });
    expect(cli(dir, 'format', 'bytes.json')).toMatchObject({ status: 0, out: 'FORMATTED bytes.json\n' });
    expect(fs.readFileSync(path.join(dir, 'bytes.json'), 'utf8')).toContain('{ "cmd": ["GET", { "hex": "ff00c3" }], "reply": { "hex": "ff00c3" } }');
  });

  it('a difference shows the bytes as {"hex"}', () => {
    write('bytes-differ', [
      { cmd: ['SET', 'k', { hex: 'ff00c3' }], reply: 'OK' },
      { cmd: ['GET', 'k'], reply: { hex: 'ff00c4' } },
    ]);
    expect(cli(dir, 'replay', 'bytes-differ.json').out).toBe('FAIL bytes-differ: step 1 [main] GET k: expected {"hex":"ff00c4"}, got {"hex":"ff00c3"}\n0 passed, 1 failed\n');
  });

  it('a ref to captured bytes sends them; --upstash skips {"hex"} arguments and refuses such a ref', () => {
    // SETBIT k 0 1: the byte 80, not UTF-8 text
    write('bytes-ref', [
      { cmd: ['SETBIT', 'k', '0', '1'], reply: 0 },
      { cmd: ['GET', 'k'], reply: { hex: '80', capture: 'b' } },
      { cmd: ['SET', 'k2', { ref: 'b' }], reply: 'OK' },
      { cmd: ['GETBIT', 'k2', '0'], reply: 1 },
    ]);
    expect(cli(dir, 'replay', 'bytes-ref.json')).toMatchObject({ status: 0, out: 'PASS bytes-ref\n1 passed, 0 failed\n' });
    expect(cli(dir, 'replay', '--upstash', 'bytes-ref.json').out).toBe(
      "FAIL bytes-ref: step 2 [main] SET k2 {\"hex\":\"80\"}: expected reply \"OK\", got error \"[ioredis-mock-streams] an argument holds bytes that are not UTF-8 text; a REST request's arguments are JSON text\"\n0 passed, 1 failed\n",
    );
    write('bytes-arg', [{ cmd: ['SET', 'k', { hex: 'ff' }], reply: 'OK' }]);
    expect(cli(dir, 'replay', '--upstash', 'bytes-arg.json').out).toBe(
      'SKIP bytes-arg: step 0 sends bytes that are not UTF-8 text ({"hex"}); a REST request\'s arguments are JSON text\n0 passed, 0 failed, 1 skipped\n',
    );
  });

  it('an odd number of hex digits is refused when loading the file', () => {
    write('bytes-odd', [{ cmd: ['GET', { hex: 'f' }], reply: null }]);
    expect(cli(dir, 'format', 'bytes-odd.json').out).toBe(
      'INVALID   bytes-odd.json: [ioredis-mock-streams] invalid scenario bytes-odd.json:\n  steps[0].cmd[1]: an argument is a string, {"hex": "<bytes as hex digit pairs>"} or {"ref": "name"}\n',
    );
  });
});

const UNSTABLE = process.env.REDIS_UNSTABLE_URL;
if (!UNSTABLE) console.warn('REDIS_UNSTABLE_URL not set: the recording of bytes on a real server is not checked');

// skip: no real server URL (REDIS_UNSTABLE_URL): nothing to record from; CI sets it
(UNSTABLE ? describe : describe.skip)('bytes recorded on a real server (REDIS_UNSTABLE_URL)', () => {
  const url = (() => {
    if (!UNSTABLE) return '';
    // database 8, which no other test file uses: emptied first (the record target refuses a
    // database holding keys, as a database another test run left keys in)
    const u = new URL(UNSTABLE);
    u.pathname = '/8';
    return u.toString();
  })();
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bytes-real-'));
    const admin = new IORedis(url);
    try {
      await admin.call('FLUSHDB');
    } finally {
      admin.disconnect();
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are written as {"hex"} and replay on the fake and on the server, which is left empty', () => {
    const file = path.join(dir, 'bytes-recorded.json');
    const steps = [{ cmd: ['SET', { hex: 'ff00c3' }, { hex: 'ff00c3' }] }, { cmd: ['GET', { hex: 'ff00c3' }] }, { cmd: ['EXISTS', { hex: 'ff00c3' }] }];
    fs.writeFileSync(file, JSON.stringify({ name: 'bytes-recorded', ...header, steps }));
    const recorded = cli(dir, 'record', '--url', url, '--redis-version', '8.10', '--server', 'redis test build', 'bytes-recorded.json');
    expect(recorded).toMatchObject({ status: 0 });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).steps).toEqual([
      { cmd: ['SET', { hex: 'ff00c3' }, { hex: 'ff00c3' }], reply: 'OK' },
      { cmd: ['GET', { hex: 'ff00c3' }], reply: { hex: 'ff00c3' } },
      { cmd: ['EXISTS', { hex: 'ff00c3' }], reply: 1 },
    ]);
    expect(cli(dir, 'replay', 'bytes-recorded.json')).toEqual({ status: 0, out: 'PASS bytes-recorded\n1 passed, 0 failed\n', err: '' });
    expect(cli(dir, 'replay', '--url', url, 'bytes-recorded.json')).toEqual({ status: 0, out: 'PASS bytes-recorded\n1 passed, 0 failed\n', err: '' });
    // the key ff 00 c3 the scenario created was deleted: a second run finds the database empty
    expect(cli(dir, 'replay', '--url', url, 'bytes-recorded.json')).toMatchObject({ status: 0 });
  });

  it('an exact {"hex"} the server contradicts is replaced on recording, as a string would be', () => {
    const file = path.join(dir, 'bytes-rerecorded.json');
    const steps = [{ cmd: ['SET', 'k', { hex: 'ff00c3' }], reply: 'OK' }, { cmd: ['GET', 'k'], reply: { hex: 'ff00' } }];
    fs.writeFileSync(file, JSON.stringify({ name: 'bytes-rerecorded', ...header, steps }));
    const recorded = cli(dir, 'record', '--url', url, '--redis-version', '8.10', '--server', 'redis test build', 'bytes-rerecorded.json');
    expect(recorded).toMatchObject({ status: 0, out: expect.stringContaining('step 1: reply {"hex":"ff00c3"}') });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).steps[1]).toEqual({ cmd: ['GET', 'k'], reply: { hex: 'ff00c3' } });
  });
});
