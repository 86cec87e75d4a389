/**
 * What ioredis sends when a connection opens, as a real server's MONITOR shows it (recorded with
 * real ioredis 5.11.1 and 6.0.0 on redis-server 7.0.15 and the post-7.4 build, with and without
 * requirepass), and how the fake sends the same through the engine (so MONITOR, INFO
 * commandstats and CLIENT LIST see it):
 * - ioredis 6: `hello 3 AUTH (redacted) (redacted)` in db 0 (with a password), then in the db
 *   of the options `select`, `client setname`, `client SETINFO LIB-VER`, `client SETINFO
 *   LIB-NAME`, `info` (the ready check);
 * - ioredis 5: `auth (redacted)`, `select`, `client setname`, `client SETINFO LIB-NAME`, `client
 *   SETINFO LIB-VER`, `info`;
 * - 7.0 has no CLIENT SETINFO: refused, so not shown.
 * And a wrong username/password on a server without requirepass: WRONGPASS only (the SELECT after
 * it runs as the default user and succeeds: no NOAUTH), the client ends by its retryStrategy.
 * The scripts run on real ioredis when REDIS_URL is set.
 */
import Redis from 'ioredis-mock-streams';
import { ioredisMajor } from '../helpers/real-server';

type Client = Record<string, any>;
let port = 36_300;
beforeEach(() => {
  port++;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function scripts(connect: (opts?: Record<string, unknown>) => Client, realClient = false) {
  it("shows a connecting client's handshake on MONITOR, in ioredis's order", async () => {
    const r = connect();
    const version = /redis_version:(\S+)/.exec(await r.info('server'))![1];
    const setinfo = !/^(6|7\.[01])\./.test(version);
    const m = await r.monitor();
    const lines: [string, string, string[]][] = [];
    m.on('monitor', (_t: string, args: string[], source: string, db: string) => lines.push([source, db, args]));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const b = connect({ db: 13, connectionName: 'hs-name', password: 'hs-secret' });
    await b.ping();
    warn.mockRestore();
    const addr = /addr=(\S+)/.exec(await b.client('info'))![1];
    await sleep(20);
    const shown = lines.filter(([source]) => source === addr).map(([, db, args]) => [db, ...args].join(' '));
    const libVer = `13 client SETINFO LIB-VER ${(jest.requireActual('ioredis/package.json') as { version: string }).version}`;
    const libName = '13 client SETINFO LIB-NAME ioredis';
    expect(shown).toEqual([
      ioredisMajor === 6 ? '0 hello 3 AUTH (redacted) (redacted)' : '0 auth (redacted)',
      '13 select 13',
      '13 client setname hs-name',
      ...(setinfo ? (ioredisMajor === 6 ? [libVer, libName] : [libName, libVer]) : []),
      '13 info',
      '13 ping',
      '13 client info',
    ]);
    [b, m, r].forEach((c) => c.disconnect());
  });

  it('refuses a wrong username/password with WRONGPASS alone when the server has no requirepass', async () => {
    const log: string[] = [];
    const b = connect({ username: 'hs-nouser', password: 'bad', db: 13, retryStrategy: () => null });
    for (const ev of ['connecting', 'connect', 'ready', 'error', 'close', 'reconnecting', 'end']) {
      b.on(ev, (a: unknown) => log.push(`${ev}:${b.status}${a instanceof Error ? ` ${a.message}` : ''}`));
    }
    await expect(b.ping()).rejects.toThrow('WRONGPASS invalid username-password pair or user is disabled.');
    for (let i = 0; i < 100 && b.status !== 'end'; i++) await sleep(5);
    // real ioredis 5 now and then emits the WRONGPASS error twice in a row on a loaded machine
    // (seen once in CI): the real client's log is compared without repeats; the fake's as it is
    const seen = realClient ? log.filter((line, i) => line !== log[i - 1]) : log;
    expect(seen).toEqual([
      'connecting:connecting',
      'connect:connect',
      'error:connect WRONGPASS invalid username-password pair or user is disabled.',
      'close:end',
      'end:end',
    ]);
  });
}

describe('the fake', () => {
  scripts((opts) => new Redis({ port, ...opts } as never) as unknown as Client);
});

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL not set: the handshake scripts on real ioredis skipped');
// skip: no real server URL (REDIS_URL): the same scripts on real ioredis need a server; CI sets it
(url ? describe : describe.skip)('real ioredis on REDIS_URL', () => {
  if (!url) console.warn('REDIS_URL not set: the handshake scripts on real ioredis skipped');
  const RealRedis = jest.requireActual('ioredis');
  const Real = RealRedis.default ?? RealRedis;
  scripts((opts) => new Real(url, { db: 12, ...opts }), true);
});
