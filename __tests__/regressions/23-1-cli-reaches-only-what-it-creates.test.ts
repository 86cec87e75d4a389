/**
 * Issue 23, item 1: `replay --url` / `record --url` run a scenario on a real server only where it
 * reaches nothing but what it creates. Before: the checks read only top-level command names, so
 * `EVAL "redis.call('SELECT','7'); return redis.call('FLUSHDB')" 0` emptied db 7 of the server,
 * EVAL … FLUSHALL every database, SHUTDOWN NOSAVE stopped the server, FUNCTION FLUSH / SCRIPT
 * FLUSH / CONFIG SET / CLIENT KILL changed it, SWAPDB left its key in db 0; a writer connected
 * while a FLUSHALL scenario ran lost keys and the replay printed PASS; `/abc` as the database
 * crashed with a stack and `/15/` was checked as database 0.
 *
 * These tests need a server of their own (they check that no other client is connected, and
 * send FLUSHALL with --allow-whole-server): with REDIS_URL set they start `redis-server` (or
 * REDIS_SERVER_BIN) on a free loopback port; without REDIS_URL, or without the binary, they skip
 * with a warning. The classification itself (reach.ts) is tested without a server.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import IORedis from 'ioredis';
import { type PrivateServer, privateServerAvailable, startPrivateServer } from '../helpers/private-server';
import { main } from '../../lib/cli';
import { commandReach, scenarioReach } from '../../lib/scenarios/targets/reach';
import { RealTarget, urlDatabase } from '../../lib/scenarios/targets/real';

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

describe('how far a scenario command reaches (no server)', () => {
  it.each([
    [['XADD', 's', '*', 'f', 'v'], 'db'],
    [['FLUSHDB'], 'db'],
    [['SELECT', '3'], 'db'],
    [['COPY', 'a', 'b', 'REPLACE'], 'db'],
    [['CLIENT', 'ID'], 'db'],
    [['CONFIG', 'GET', 'maxmemory'], 'db'],
    [['WAIT', '0', '0'], 'db'],
    [['SELECT', '7'], 'server'],
    [['EVAL', "redis.call('SELECT','7'); return redis.call('FLUSHDB')", '0'], 'server'],
    [['FCALL', 'f', '0'], 'server'],
    [['FUNCTION', 'FLUSH'], 'server'],
    [['SCRIPT', 'FLUSH'], 'server'],
    [['CONFIG', 'SET', 'maxmemory', '1'], 'server'],
    [['CLIENT', 'KILL', 'ID', '9'], 'server'],
    [['CLIENT', 'PAUSE', '10'], 'server'],
    [['SWAPDB', '0', '1'], 'server'],
    [['MOVE', 'k', '1'], 'server'],
    [['COPY', 'a', 'b', 'db', '1'], 'server'],
    [['FLUSHALL'], 'server'],
    [['RESET'], 'server'],
    [['PUBLISH', 'c', 'm'], 'server'],
    [['MODULECMD.X', 'k'], 'server'],
    [['SHUTDOWN', 'NOSAVE'], 'never'],
    [['DEBUG', 'SLEEP', '0'], 'never'],
    [['MIGRATE', 'h', '1', 'k', '0', '10'], 'never'],
    [['CONFIG', 'REWRITE'], 'never'],
    [['ACL', 'SETUSER', 'u'], 'never'],
    [['BGSAVE'], 'never'],
  ])('%j reaches %s (URL database 3)', (argv, kind) => {
    expect(commandReach(argv, 3).kind).toBe(kind);
  });

  it('a captured value where it decides counts as any value', () => {
    expect(commandReach(['COPY', 'a', 'b', { ref: 'x' }], 0)).toEqual({ kind: 'server', what: 'COPY … DB' });
    expect(commandReach([{ ref: 'x' }, 'k'], 0).kind).toBe('server');
    expect(commandReach(['CONFIG', { ref: 'x' }], 0).kind).toBe('never');
  });

  it('a scenario reaches as far as its widest command; never wins over server', () => {
    const steps = [{ cmd: ['SET', 'k', 'v'] }, { cmd: ['FLUSHALL'] }, { advance: 1 }, { cmd: ['SHUTDOWN'] }];
    expect(scenarioReach(steps, 0)).toEqual({ kind: 'never', what: 'SHUTDOWN' });
    expect(scenarioReach(steps.slice(0, 3), 0)).toEqual({ kind: 'server', what: 'FLUSHALL' });
    expect(scenarioReach(steps.slice(0, 1), 0)).toEqual({ kind: 'db' });
  });
});

describe('--url database', () => {
  it.each([
    ['redis://h:1', 0],
    ['redis://h:1/', 0],
    ['redis://h:1/15', 15],
    ['redis://h:1/15/', 15],
    ['rediss://u:p@h:1/2', 2],
    ['redis://h:1?db=4', 4],
  ])('%s selects database %i', (url, db) => {
    expect(urlDatabase(url)).toBe(db);
  });

  it.each([
    ['redis://h:1/abc', 'the database in --url must be a number (redis://host:port/15), got path "/abc"'],
    ['redis://h:1/1/2', 'the database in --url must be a number (redis://host:port/15), got path "/1/2"'],
    ['http://h:1/1', '--url must start with redis:// or rediss://, got "http://h:1/1"'],
    ['redis://h:1/1?db=2', '--url names database 1 in its path and 2 in db='],
    ['not a url', '--url "not a url" is not a URL; expected redis://host:port[/db]'],
  ])('%s is refused with one line', (url, message) => {
    expect(() => urlDatabase(url)).toThrow(`[ioredis-mock-streams] ${message}`);
  });

  it('replay --url redis://host:port/abc prints one line and exits with code 2, before connecting', async () => {
    const { code, out, err } = await cli('replay', '--url', 'redis://127.0.0.1:1/abc', 'fixtures/xlen-basics.json');
    expect({ code, out, err }).toEqual({
      code: 2,
      out: [],
      err: ['ioredis-mock-streams: the database in --url must be a number (redis://host:port/15), got path "/abc"'],
    });
  });
});

const canRun = privateServerAvailable('CLI reach tests on a private real server');

// skip: no server URL (REDIS_URL) or no redis-server binary: skipped with the warning printed above; CI sets both
(canRun ? describe : describe.skip)('replay --url on a server of the test\'s own, with data in other databases', () => {
  let port: number;
  let dir: string;
  let admin: IORedis;
  const url = (db: number) => `redis://127.0.0.1:${port}/${db}`;
  const file = (name: string, steps: unknown[]) => {
    const f = path.join(dir, `${name}.json`);
    fs.writeFileSync(f, JSON.stringify({ name, description: 'x', source: 'recorded', recordedOn: '7.0.15', redisVersion: '7.0', steps }));
    return f;
  };
  /** The user's data: keys in db 0 and db 7, a function library, maxmemory-policy. */
  async function seedUserData(): Promise<void> {
    await admin.select(0);
    await admin.set('user:db0', 'precious');
    await admin.select(7);
    await admin.set('user:db7', 'precious');
    await admin.select(0);
    await admin.call('FUNCTION', 'LOAD', 'REPLACE', "#!lua name=userlib\nredis.register_function('userfn', function() return 1 end)");
  }
  async function userData(): Promise<unknown> {
    const db0 = await admin.get('user:db0');
    await admin.select(7);
    const db7 = await admin.get('user:db7');
    await admin.select(0);
    const libs = ((await admin.call('FUNCTION', 'LIST')) as unknown[]).length;
    const policy = ((await admin.call('CONFIG', 'GET', 'maxmemory-policy')) as string[])[1];
    return { db0, db7, libs, policy, ping: await admin.ping() };
  }

  /** Runs `fn` with the test's own client disconnected (a whole-server scenario needs no other client). */
  async function withoutTestClient<T>(fn: () => Promise<T>): Promise<T> {
    await admin.quit();
    try {
      return await fn();
    } finally {
      admin = new IORedis(port, '127.0.0.1');
    }
  }

  let server: PrivateServer;
  beforeAll(async () => {
    server = await startPrivateServer('cli-reach-');
    ({ port, dir, admin } = server);
  }, 20000);
  afterAll(async () => {
    admin?.disconnect();
    server?.stop();
  });
  beforeEach(async () => {
    await admin.flushall();
    await admin.call('FUNCTION', 'FLUSH');
    await admin.call('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
  });

  const dangerous: [string, unknown[], string][] = [
    ['eval-select-flushdb', [{ cmd: ['EVAL', "redis.call('SELECT','7'); return redis.call('FLUSHDB')", '0'], reply: 'OK' }], 'EVAL (a script can call any command)'],
    ['eval-flushall', [{ cmd: ['EVAL', "return redis.call('FLUSHALL')", '0'], reply: 'OK' }], 'EVAL (a script can call any command)'],
    ['function-flush', [{ cmd: ['FUNCTION', 'FLUSH'], reply: 'OK' }], 'FUNCTION FLUSH'],
    ['script-flush', [{ cmd: ['SCRIPT', 'FLUSH'], reply: 'OK' }], 'SCRIPT FLUSH'],
    ['config-set', [{ cmd: ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru'], reply: 'OK' }], 'CONFIG SET'],
    ['client-kill', [{ cmd: ['CLIENT', 'KILL', 'TYPE', 'normal'], reply: 1 }], 'CLIENT KILL'],
    ['swapdb', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }, { cmd: ['SWAPDB', '3', '0'], reply: 'OK' }], 'SWAPDB'],
    ['select-other', [{ cmd: ['SELECT', '7'], reply: 'OK' }, { cmd: ['DEL', 'user:db7'], reply: 1 }], 'SELECT'],
    ['copy-db', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }, { cmd: ['COPY', 'k', 'k', 'DB', '0'], reply: 1 }], 'COPY … DB'],
    ['flushall', [{ cmd: ['FLUSHALL'], reply: 'OK' }], 'FLUSHALL'],
  ];

  it.each(dangerous)('%s is skipped with its reason and changes nothing on the server', async (name, steps, what) => {
    await seedUserData();
    const { code, out } = await cli('replay', '--url', url(3), file(name, steps));
    expect(out).toEqual([
      `SKIP ${name}: sends ${what}, which reaches beyond database 3; --allow-whole-server runs it on an empty server with no other client`,
      '0 passed, 0 failed, 1 skipped',
    ]);
    expect(code).toBe(0);
    expect(await userData()).toEqual({ db0: 'precious', db7: 'precious', libs: 1, policy: 'noeviction', ping: 'PONG' });
  });

  it('SHUTDOWN NOSAVE is never sent, even with --allow-whole-server on an empty server', async () => {
    const { code, out } = await cli('replay', '--allow-whole-server', '--url', url(3), file('shutdown', [{ cmd: ['SHUTDOWN', 'NOSAVE'], error: 'x' }]));
    expect(out).toEqual(['SKIP shutdown: sends SHUTDOWN, which the CLI never sends to a real server', '0 passed, 0 failed, 1 skipped']);
    expect(code).toBe(0);
    expect(await admin.ping()).toBe('PONG');
  });

  it('--allow-whole-server skips a whole-server scenario while other databases hold keys', async () => {
    await seedUserData();
    const { out } = await withoutTestClient(() => cli('replay', '--allow-whole-server', '--url', url(3), file('flushall', [{ cmd: ['FLUSHALL'], reply: 'OK' }])));
    expect(out[0]).toBe('SKIP flushall: sends FLUSHALL, which reaches beyond database 3, and db0, db7 of the server hold keys');
    expect(await userData()).toEqual({ db0: 'precious', db7: 'precious', libs: 1, policy: 'noeviction', ping: 'PONG' });
  });

  it('--allow-whole-server skips it while another client is connected, even with no data anywhere', async () => {
    const other = new IORedis(port, '127.0.0.1', { connectionName: 'someone-else' });
    try {
      await other.ping();
      const { out } = await withoutTestClient(() => cli('replay', '--allow-whole-server', '--url', url(3), file('flushall', [{ cmd: ['FLUSHALL'], reply: 'OK' }])));
      expect(out[0]).toMatch(/^SKIP flushall: sends FLUSHALL, which reaches beyond database 3, and 1 other client is connected to the server \(id=\d+ addr=127\.0\.0\.1:\d+ name=someone-else db=0\)$/);
    } finally {
      other.disconnect();
    }
  });

  it('--allow-whole-server on an empty server runs SWAPDB and CONFIG SET, then leaves the server empty and its CONFIG as it was', async () => {
    await withoutTestClient(async () => {
      const swap = file('swapdb', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }, { cmd: ['SWAPDB', '3', '0'], reply: 'OK' }]);
      const config = file('config-set', [{ cmd: ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru'], reply: 'OK' }]);
      const { code, out } = await cli('replay', '--allow-whole-server', '--url', url(3), swap, config);
      expect(out).toEqual(['PASS swapdb', 'PASS config-set', '2 passed, 0 failed']);
      expect(code).toBe(0);
    });
    expect(await admin.info('keyspace')).toBe('# Keyspace\r\n');
    expect(await admin.call('CONFIG', 'GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
  });

  it.each([
    [
      'flushall-after-wait',
      [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }, { advance: 300 }, { cmd: ['FLUSHALL'], reply: 'OK' }],
      // Seen right before the FLUSHALL (session 5): it is not sent, so every key of the writer survives.
      /^RACE flushall-after-wait: another client connected to the server while the scenario ran \(\d+ connections? \(id=\d+ addr=127\.0\.0\.1:\d+ name= db=9\)\), so FLUSHALL was not sent and the run stopped; only the keys the scenario named were deleted$/,
      'w:first',
    ],
    [
      'flushall-then-wait',
      [{ cmd: ['FLUSHALL'], reply: 'OK' }, { cmd: ['SET', 'k', 'v'], reply: 'OK' }, { advance: 300 }],
      // Seen only at the end: the keys the writer wrote after the scenario's FLUSHALL are still there.
      /^RACE flushall-then-wait: another client connected to the server while the scenario ran \(\d+ connections?.*so the result is not a pass, and only the keys the scenario named were deleted$/,
      'last',
    ],
  ])('a client that connects and writes while %s runs makes it RACE (exit code 1), never PASS, and the clean-up keeps its keys', async (name, steps, line, survivor) => {
    await admin.quit();
    const writerKeys: string[] = [];
    let writer: IORedis | undefined;
    let stop = false;
    const watcher = new IORedis(port, '127.0.0.1', { lazyConnect: true });
    // Once the scenario's clients are connected (after every check), another client connects and
    // writes into db 9 until the scenario is over.
    let writing: Promise<void> = Promise.resolve();
    const open = RealTarget.prototype.open;
    const spy = jest.spyOn(RealTarget.prototype, 'open').mockImplementation(async function (this: RealTarget, scenario) {
      const session = await open.call(this, scenario);
      const connectWriter = async () => {
        writer = new IORedis(port, '127.0.0.1', { db: 9 });
        await writer.set('w:first', '0');
        writerKeys.push('w:first');
      };
      // flushall-then-wait: the writer comes after the scenario's FLUSHALL, during its wait.
      if (name !== 'flushall-then-wait') await connectWriter();
      writing = (async () => {
        if (!writer) {
          await new Promise((r) => setTimeout(r, 100));
          await connectWriter();
        }
        for (let i = 0; !stop; i++) {
          await writer!.set(`w:${i}`, String(i));
          writerKeys.push(`w:${i}`);
        }
      })();
      return session;
    });
    try {
      const scenario = file(name as string, steps as unknown[]);
      const { code, out } = await cli('replay', '--allow-whole-server', '--url', url(3), scenario);
      stop = true;
      await writing;
      expect(writerKeys.length).toBeGreaterThan(0);
      expect(out[0]).toMatch(line as RegExp);
      expect(out[1]).toBe('0 passed, 0 failed, 1 not proven (race)');
      expect(code).toBe(1);
      // The clean-up did not FLUSHALL.
      await watcher.connect();
      await watcher.select(9);
      expect(await watcher.exists(survivor === 'last' ? writerKeys[writerKeys.length - 1] : (survivor as string))).toBe(1);
    } finally {
      stop = true;
      spy.mockRestore();
      writer?.disconnect();
      watcher.disconnect();
      admin = new IORedis(port, '127.0.0.1');
    }
  }, 20000);

  it('replay --url …/15/ checks database 15, not database 0', async () => {
    await admin.select(15);
    await admin.set('user:db15', 'precious');
    await admin.select(0);
    const { code, err } = await cli('replay', '--url', `redis://127.0.0.1:${port}/15/`, file('x', [{ cmd: ['SET', 'k', 'v'], reply: 'OK' }]));
    expect(code).toBe(2);
    expect(err[0]).toMatch(/^ioredis-mock-streams: database 15 of redis:\/\/127\.0\.0\.1:\d+\/15\/ holds 1 key;/);
  });

  it('record --url refuses an EVAL scenario the same way and leaves the file as it was', async () => {
    await seedUserData();
    const f = file('eval', [{ cmd: ['EVAL', "redis.call('SELECT','7'); return redis.call('FLUSHDB')", '0'] }]);
    const before = fs.readFileSync(f, 'utf8');
    const { code, out } = await cli('record', '--url', url(3), f);
    expect(out[0]).toBe('SKIPPED   eval');
    expect(out[1]).toBe('    sends EVAL (a script can call any command), which reaches beyond database 3; --allow-whole-server runs it on an empty server with no other client');
    expect(code).toBe(0);
    expect(fs.readFileSync(f, 'utf8')).toBe(before);
    expect(await userData()).toEqual({ db0: 'precious', db7: 'precious', libs: 1, policy: 'noeviction', ping: 'PONG' });
  });
});
