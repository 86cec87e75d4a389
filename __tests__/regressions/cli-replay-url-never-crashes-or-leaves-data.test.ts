/**
 * A fresh-user trial of `replay --url` (session 5) found:
 * 1. a scenario with `SET leftover1 v` then `SUBSCRIBE x` (or PSUBSCRIBE) crashed the CLI with an
 *    uncaught TypeError inside real ioredis (SubscriptionSet.add: `call('SUBSCRIBE', …)` in
 *    capitals) and left `leftover1` in the database;
 * 2. with --allow-whole-server, a FLUSHALL after another client had written `victim` to db 3 was
 *    still sent (RACE was printed only afterwards), and a CONFIG SET of the scenario was left in
 *    force on a race;
 * 3. `--url redis://host:port/16` (no such database) ran in database 0;
 * 4. `CLIENT TRACKING ON REDIRECT <id>` (another connection by ID) was sent.
 *
 * The tests on a server start a `redis-server` of their own (REDIS_SERVER_BIN) on a free loopback
 * port, as 23-1-cli-reaches-only-what-it-creates does; without REDIS_URL or the binary they skip
 * with a warning. The uncaught-error test runs the built CLI (dist/cli.js) in a child process.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import IORedis from 'ioredis';
import { type PrivateServer, privateServerAvailable, startPrivateServer } from '../helpers/private-server';
import { main } from '../../lib/cli';
import { commandReach } from '../../lib/scenarios/targets/reach';

async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    return { code: await main(['node', 'cli', ...args]), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-trial-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
function file(name: string, steps: unknown[]): string {
  const f = path.join(dir, `${name}.json`);
  fs.writeFileSync(f, JSON.stringify({ name, description: 'x', source: 'recorded', recordedOn: '7.0.15', redisVersion: '7.0', steps }));
  return f;
}

describe('commands that name another client\'s connection by ID are not sent without --allow-whole-server (no server)', () => {
  it.each([
    [['CLIENT', 'TRACKING', 'ON', 'REDIRECT', '3', 'BCAST'], 'server'],
    [['client', 'tracking', 'on', 'redirect', '3'], 'server'],
    [['CLIENT', 'TRACKING', 'ON', { ref: 'x' }], 'server'],
    [['CLIENT', 'TRACKING', 'ON'], 'db'],
    [['CLIENT', 'TRACKING', 'OFF'], 'db'],
    [['CLIENT', 'UNBLOCK', '3'], 'server'],
    [['CLIENT', 'KILL', 'ID', '3'], 'server'],
    [['CLIENT', 'KILL', '127.0.0.1:5000'], 'server'],
  ])('%j reaches %s', (argv, kind) => {
    expect(commandReach(argv, 0).kind).toBe(kind);
  });
});

describe('SUBSCRIBE through ioredis replies with the subscription count (fake)', () => {
  it('the fake delivers 1 for SUBSCRIBE x and PSUBSCRIBE x*, as real ioredis does, so ["subscribe","x",1] fails with "expected an array, got 1"', async () => {
    const ok = file('sub-count', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }, { cmd: ['SUBSCRIBE', 'x', 'y'], reply: 2 }, { cmd: ['PSUBSCRIBE', 'x*'], reply: 3 }]);
    const raw = file('sub-raw', [{ cmd: ['SUBSCRIBE', 'x'], reply: ['subscribe', 'x', 1] }]);
    const { code, out } = await cli('replay', ok, raw);
    expect(out).toEqual(['PASS sub-count', 'FAIL sub-raw: step 0 [main] SUBSCRIBE x: expected an array, got 1', '1 passed, 1 failed']);
    expect(code).toBe(1);
  });
});

const canRun = privateServerAvailable('CLI trial tests on a private real server');
const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const built = fs.existsSync(CLI);
if (canRun && !built) console.warn('dist/cli.js missing (run `npm run build`): the CLI child-process test is skipped');

// skip: no server URL (REDIS_URL) or no redis-server binary: skipped with the warning printed above; CI sets both
(canRun ? describe : describe.skip)('replay --url on a server of the test\'s own', () => {
  let port: number;
  let admin: IORedis;
  const url = (db: number) => `redis://127.0.0.1:${port}/${db}`;
  async function keysIn(db: number): Promise<string[]> {
    await admin.select(db);
    const keys = await admin.keys('*');
    await admin.select(0);
    return keys.sort();
  }
  async function reconnectAdmin(): Promise<void> {
    admin = new IORedis(port, '127.0.0.1');
    await admin.ping();
  }

  let server: PrivateServer;
  beforeAll(async () => {
    server = await startPrivateServer('cli-trial-server-');
    ({ port, admin } = server);
  }, 20000);
  afterAll(async () => {
    admin?.disconnect();
    server?.stop();
  });
  beforeEach(async () => {
    await admin.flushall();
    await admin.call('CONFIG', 'SET', 'notify-keyspace-events', '');
  });

  it('SUBSCRIBE and PSUBSCRIBE after a SET run through real ioredis without crashing, reply the count, and the SET key is deleted afterwards', async () => {
    const sub = file('a-sub', [{ cmd: ['SET', 'leftover1', 'v'], reply: 'OK' }, { cmd: ['SUBSCRIBE', 'x'], reply: 1 }]);
    const psub = file('c-psub', [{ cmd: ['SET', 'leftover4', 'v'], reply: 'OK' }, { cmd: ['PSUBSCRIBE', 'x*', 'y*'], reply: 2 }, { cmd: ['PUNSUBSCRIBE', 'x*'], reply: 1 }]);
    const raw = file('a-sub-raw', [{ cmd: ['SET', 'leftover2', 'v'], reply: 'OK' }, { cmd: ['SUBSCRIBE', 'x'], reply: ['subscribe', 'x', 1] }]);
    const { code, out } = await cli('replay', '--url', url(3), sub, psub, raw);
    expect(out).toEqual(['PASS a-sub', 'PASS c-psub', 'FAIL a-sub-raw: step 1 [main] SUBSCRIBE x: expected an array, got 1', '2 passed, 1 failed']);
    expect(code).toBe(1);
    expect(await keysIn(3)).toEqual([]);
  });

  it('a database the server does not have (/16) is refused with one line (exit code 2), and nothing is written to database 0', async () => {
    const { code, out, err } = await cli('replay', '--url', url(16), file('set', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }]));
    expect({ code, out, err }).toEqual({
      code: 2,
      out: [],
      err: [`ioredis-mock-streams: database 16 in --url does not exist on redis://127.0.0.1:${port}/16 (SELECT 16: ERR DB index is out of range)`],
    });
    expect(await keysIn(0)).toEqual([]);
  });

  it('CLIENT TRACKING ON REDIRECT <id> is skipped with its reason and not sent', async () => {
    const { code, out } = await cli('replay', '--url', url(3), file('tracking-redirect', [{ cmd: ['CLIENT', 'TRACKING', 'ON', 'REDIRECT', '3', 'BCAST'], reply: 'OK' }]));
    expect(out).toEqual([
      'SKIP tracking-redirect: sends CLIENT TRACKING … REDIRECT (targets another connection by ID), which reaches beyond database 3; --allow-whole-server runs it on an empty server with no other client',
      '0 passed, 0 failed, 1 skipped',
    ]);
    expect(code).toBe(0);
  });

  it('--allow-whole-server: a client that wrote to another database meanwhile makes the FLUSHALL not sent (RACE), its key survives, and CONFIG SET is set back', async () => {
    await admin.quit();
    let victim: IORedis | undefined;
    // 300 ms into the scenario's 1 s wait (after every check and the CONFIG SET), another client writes to db 3.
    const writing = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        victim = new IORedis(port, '127.0.0.1', { db: 3 });
        victim.set('victim', 'precious').then(() => resolve(), reject);
      }, 300),
    );
    try {
      const scenario = file('w-whole', [
        { cmd: ['SET', 'a', '1'], reply: 'OK' },
        { cmd: ['CONFIG', 'SET', 'notify-keyspace-events', 'KEA'], reply: 'OK' },
        { advance: 1000 },
        { cmd: ['FLUSHALL'], reply: 'OK' },
        { cmd: ['SET', 'b', '1'], reply: 'OK' },
      ]);
      const { code, out } = await cli('replay', '--allow-whole-server', '--url', url(5), scenario);
      await writing;
      expect(out[0]).toMatch(
        /^RACE w-whole: another client connected to the server while the scenario ran \(1 connection \(id=\d+ addr=127\.0\.0\.1:\d+ name= db=3\)\), so FLUSHALL was not sent and the run stopped; only the keys the scenario named were deleted$/,
      );
      expect(out[1]).toBe('0 passed, 0 failed, 1 not proven (race)');
      expect(code).toBe(1);
    } finally {
      victim?.disconnect();
      await reconnectAdmin();
    }
    expect(await keysIn(3)).toEqual(['victim']);
    expect(await keysIn(5)).toEqual([]);
    expect(await admin.call('CONFIG', 'GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', '']);
  });

  it('--allow-whole-server: CONFIG SET of a scenario that fails is set back too, and the server is emptied', async () => {
    await admin.quit();
    try {
      const scenario = file('config-then-fail', [
        { cmd: ['CONFIG', 'SET', 'notify-keyspace-events', 'KEA'], reply: 'OK' },
        { cmd: ['SET', 'a', '1'], reply: 'not OK' },
      ]);
      const { code, out } = await cli('replay', '--allow-whole-server', '--url', url(5), scenario);
      expect(out).toEqual(['FAIL config-then-fail: step 1 [main] SET a 1: expected "not OK", got "OK"', '0 passed, 1 failed']);
      expect(code).toBe(1);
    } finally {
      await reconnectAdmin();
    }
    expect(await admin.info('keyspace')).toBe('# Keyspace\r\n');
    expect(await admin.call('CONFIG', 'GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', '']);
  });

  // skip: the CLI runs from dist/: skipped until `npm run build` made it (`npm test` builds first)
  (built ? it : it.skip)('an uncaught error inside the client library fails the step instead of ending the process, and the scenario\'s keys are deleted', async () => {
    // Makes real ioredis throw in its reply handler (outside any promise, as SubscriptionSet.add did
    // for call('SUBSCRIBE')) when a reply is the bulk string "boom".
    const preload = path.join(dir, 'throw-in-reply-handler.js');
    fs.writeFileSync(
      preload,
      // the ioredis the CLI loads, resolved in the CLI's process from dist/ (under IOREDIS_MAJOR=5,
      // resolving it here would give jest's mapped ioredis 5, which the CLI does not use)
      `const DH = require(require.resolve('ioredis/built/DataHandler', { paths: [${JSON.stringify(path.dirname(CLI))}] })).default;
const returnReply = DH.prototype.returnReply;
DH.prototype.returnReply = function (reply) {
  if (Buffer.isBuffer(reply) && reply.toString() === 'boom') throw new TypeError('simulated failure in the reply handler');
  return returnReply.call(this, reply);
};
`,
    );
    const scenario = file('client-throws', [
      { cmd: ['SET', 'leftover1', 'boom'], reply: 'OK' },
      { cmd: ['GET', 'leftover1'], reply: 'boom' },
      { cmd: ['SET', 'leftover2', 'v'], reply: 'OK' },
    ]);
    const after = file('after', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }]);
    const run = spawnSync(process.execPath, ['-r', preload, CLI, 'replay', '--url', url(3), scenario, after], { encoding: 'utf8', timeout: 20000 });
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout.split('\n') }).toEqual({
      status: 1,
      stderr: '',
      stdout: [
        'FAIL client-throws: step 1 [main] GET leftover1: expected reply "boom", got error "[ioredis-mock-streams] the client library failed: TypeError: simulated failure in the reply handler"',
        'PASS after',
        '1 passed, 1 failed',
        '',
      ],
    });
    expect(await keysIn(3)).toEqual([]);
  }, 30000);
});
