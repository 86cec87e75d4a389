/**
 * DUMP/RESTORE against real servers, seeded: the fake must write the same bytes as the server
 * and each side must load the other's payloads.
 *
 * - REDIS_URL: redis-server 7.0.15 (fake '7.0'); REDIS_UNSTABLE_URL: the post-7.4 build (RDB 12,
 *   stream type 21, with the stream changes released in 8.0: fake '8.0'). Another server version
 *   is mapped by its major.minor when the fake emulates it. Each runs on database 10.
 * - Streams built by the same commands on both sides (explicit IDs, no consumer groups, so no
 *   wall-clock value is involved) must DUMP byte for byte alike: deleted entries, `~`/`=` trims,
 *   integer and string fields and values, big compressible values (LZF), several macro nodes.
 * - Streams with groups, PEL and consumers (wall-clock times) are compared through RESTORE: the
 *   server's payload restored into the fake DUMPs back identically and XINFO STREAM FULL agrees;
 *   the fake's payload restored into the server DUMPs back identically.
 * - With REDIS_RDB_CONFIG=1 each stream also gets random `stream-node-max-entries/bytes` set by
 *   CONFIG SET on both sides. That changes the server's configuration while it runs (restored
 *   afterwards), so it is opt-in: other suites using the same server would see it.
 */
import IORedis from 'ioredis';
import FakeRedis, { REDIS_VERSIONS, createFakeClock } from 'ioredis-mock-streams';
import { mulberry32 } from '../differential/differential';

const SERVERS: [string, string | undefined][] = [
  ['REDIS_URL', process.env.REDIS_URL],
  ['REDIS_UNSTABLE_URL', process.env.REDIS_UNSTABLE_URL],
];
const DB = 10;
const SEEDS = Number(process.env.RDB_SEEDS ?? 40);
const WITH_CONFIG = process.env.REDIS_RDB_CONFIG === '1';

/** The fake version for a server version string. */
function fakeVersion(server: string): string | undefined {
  if (server.startsWith('255.')) return '8.0';
  const mm = /^(\d+)\.(\d+)/.exec(server);
  const v = mm ? `${mm[1]}.${mm[2]}` : '';
  return (REDIS_VERSIONS as readonly string[]).includes(v) ? v : undefined;
}

type Cmd = (string | number)[];

/** Commands building one random stream `s` (explicit IDs, no groups). */
function streamCommands(seed: number): { config: Cmd | null; cmds: Cmd[] } {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const config: Cmd | null = WITH_CONFIG
    ? ['CONFIG', 'SET', 'stream-node-max-entries', pick(['100', '1', '2', '3', '0', '10']), 'stream-node-max-bytes', pick(['4096', '0', '100', '200', '1k', '64'])]
    : null;
  const value = () => {
    switch (int(0, 6)) {
      case 0:
        return String(int(-100000, 100000));
      case 1:
        return String(int(0, 127));
      case 2:
        return 'v'.repeat(int(1, 70));
      case 3:
        return String(BigInt(int(0, 1e9)) * BigInt(int(0, 1e9)));
      case 4:
        return 'abc'.repeat(int(1, 1500));
      case 5:
        return '';
      default:
        return `val${int(0, 99)}`;
    }
  };
  const fields = ['f', 'g', 'name', 'x1', '12', '-5', '0'];
  const cmds: Cmd[] = [];
  const ids: string[] = [];
  let ms = int(0, 1e6);
  for (let i = 1, n = int(1, 300); i <= n; i++) {
    const op = int(0, 20);
    if (op < 16) {
      ms += int(0, 3);
      const id = `${ms}-${i}`;
      const same = rnd() < 0.5;
      const fv: string[] = [];
      for (let j = 0, nf = int(1, 3); j < nf; j++) fv.push(same ? fields[j] : pick(fields), value());
      cmds.push(['XADD', 's', id, ...fv]);
      ids.push(id);
    } else if (op < 19 && ids.length) cmds.push(['XDEL', 's', pick(ids)]);
    else if (op < 20) cmds.push(['XTRIM', 's', 'MAXLEN', pick(['~', '=']), int(0, 50)]);
    else if (ids.length) cmds.push(['XTRIM', 's', 'MINID', pick(['~', '=']), pick(ids)]);
  }
  return { config, cmds };
}

/** Commands giving `s` groups, consumers and a PEL (the real server's clock decides the times). */
function groupCommands(seed: number): Cmd[] {
  const rnd = mulberry32(seed * 7919);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const n = int(5, 120);
  const cmds: Cmd[] = [];
  for (let i = 1; i <= n; i++) cmds.push(['XADD', 's', `${i}-${int(0, 3)}`, 'f', int(0, 1000), 'g', 'v'.repeat(int(0, 30))]);
  for (let g = 0, ng = int(1, 3); g < ng; g++) cmds.push(['XGROUP', 'CREATE', 's', `grp${g}`, '0']);
  for (let k = 0, nk = int(1, 40); k < nk; k++) {
    const g = `grp${int(0, 2)}`;
    const c = `c${int(0, 3)}`;
    const op = int(0, 9);
    if (op < 4) cmds.push(['XREADGROUP', 'GROUP', g, c, 'COUNT', int(1, 10), 'STREAMS', 's', '>']);
    else if (op < 6) cmds.push(['XACK', 's', g, `${int(1, n)}-${int(0, 3)}`]);
    else if (op < 7) cmds.push(['XCLAIM', 's', g, c, 0, `${int(1, n)}-${int(0, 3)}`, 'RETRYCOUNT', int(0, 5), 'TIME', int(1, 1e12)]);
    else if (op < 8) cmds.push(['XDEL', 's', `${int(1, n)}-${int(0, 3)}`]);
    else if (op < 9) cmds.push(['XGROUP', 'CREATECONSUMER', 's', g, c]);
    else cmds.push(['XGROUP', 'DELCONSUMER', 's', g, c]);
  }
  if (rnd() < 0.3) cmds.push(['XSETID', 's', `${n + 5}-0`]);
  return cmds;
}

async function run(client: { call(...args: unknown[]): Promise<unknown> }, cmd: Cmd): Promise<string> {
  try {
    return JSON.stringify(await client.call(...cmd.map(String)));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

for (const [env, url] of SERVERS) {
  if (!url) {
    console.warn(`${env} not set: DUMP/RESTORE comparison with that real server skipped`);
    continue;
  }
  describe(`DUMP/RESTORE: fake vs real server (${env}, db ${DB})`, () => {
    let real: IORedis;
    let version: string | undefined;
    let server = '';
    let port = 45_000 + (env === 'REDIS_URL' ? 0 : 5_000);

    beforeAll(async () => {
      real = new IORedis(url, { db: DB, lazyConnect: true });
      await real.connect();
      server = /redis_version:(\S+)/.exec(await real.info('server'))?.[1] ?? '';
      version = fakeVersion(server);
      if (!version) console.warn(`redis-server ${server} has no matching fake version: DUMP/RESTORE comparison skipped`);
    });

    afterAll(async () => {
      if (WITH_CONFIG) await real.call('CONFIG', 'SET', 'stream-node-max-entries', '100', 'stream-node-max-bytes', '4096');
      real.disconnect();
    });

    const fakeClient = () =>
      new FakeRedis({ port: port++, streams: { redisVersion: version, clock: createFakeClock({ now: Date.now() }) } } as never) as unknown as IORedis;

    it(`streams built by the same commands DUMP byte for byte alike (${SEEDS} seeds)`, async () => {
      if (!version) return;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const fake = fakeClient();
        await real.flushdb();
        const { config, cmds } = streamCommands(seed);
        for (const cmd of config ? [config, ...cmds] : cmds) {
          const [a, b] = [await run(real, cmd), await run(fake, cmd)];
          expect([seed, cmd.join(' ').slice(0, 60), b]).toEqual([seed, cmd.join(' ').slice(0, 60), a]);
        }
        const [dr, df] = [await real.dumpBuffer('s'), await fake.dumpBuffer('s')];
        expect([seed, df?.toString('hex')]).toEqual([seed, dr?.toString('hex')]);
        if (dr) {
          await real.restore('back', 0, df as Buffer);
          expect([seed, (await real.dumpBuffer('back'))?.toString('hex')]).toEqual([seed, dr.toString('hex')]);
        }
        fake.disconnect();
      }
    }, 120_000);

    it(`streams with groups, consumers and PEL round-trip through both sides (${SEEDS} seeds)`, async () => {
      if (!version) return;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const fake = fakeClient();
        await real.flushdb();
        for (const cmd of groupCommands(seed)) await run(real, cmd);
        const dr = (await real.dumpBuffer('s')) as Buffer;
        expect(await fake.restore('s', 0, dr)).toBe('OK');
        expect([seed, (await fake.dumpBuffer('s')).toString('hex')]).toEqual([seed, dr.toString('hex')]);
        expect(await fake.call('XINFO', 'STREAM', 's', 'FULL')).toEqual(await real.call('XINFO', 'STREAM', 's', 'FULL'));
        await real.restore('t', 0, await fake.dumpBuffer('s'));
        expect((await real.dumpBuffer('t')).toString('hex')).toBe(dr.toString('hex'));
        fake.disconnect();
      }
    }, 120_000);

    it(`lists, sets, sorted sets and hashes built element by element DUMP alike (${SEEDS * 2} seeds)`, async () => {
      if (!version) return;
      const defaults: Cmd = ['CONFIG', 'SET', 'list-max-listpack-size', -2, 'set-max-intset-entries', 512, 'zset-max-listpack-entries', 128, 'hash-max-listpack-entries', 512, 'hash-max-listpack-value', 64];
      for (let seed = 1; seed <= SEEDS * 2; seed++) {
        const rnd = mulberry32(seed * 31);
        const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
        const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
        const fake = fakeClient();
        await real.flushdb();
        const type = pick(['list', 'set', 'zset', 'hash'] as const);
        const n = rnd() < 0.3 ? int(100, 400) : int(1, 40);
        const intOnly = rnd() < 0.3;
        const elem = () => {
          if (intOnly) return String(int(-100000, 100000) * (rnd() < 0.1 ? 100000 : 1));
          switch (int(0, 5)) {
            case 0:
              return String(int(-40000, 40000));
            case 1:
              return `e${int(0, 500)}`;
            case 2:
              return 'x'.repeat(int(0, rnd() < 0.1 ? 9000 : 80));
            case 3:
              return String(int(0, 3e9));
            case 4:
              return String(BigInt(int(0, 1e9)) * BigInt(int(1, 1e9)));
            default:
              return `m${int(0, 50)}`;
          }
        };
        const cmds: Cmd[] = [];
        if (WITH_CONFIG && rnd() < 0.5) {
          cmds.push(['CONFIG', 'SET', pick(['list-max-listpack-size', 'set-max-intset-entries', 'zset-max-listpack-entries', 'hash-max-listpack-entries', 'hash-max-listpack-value']), pick([-1, -2, -3, 4, 16, 100, 3])]);
        }
        for (let i = 0; i < n; i++) {
          const e = elem();
          if (type === 'list') cmds.push(['RPUSH', 'k', e]);
          else if (type === 'set') cmds.push(['SADD', 'k', e]);
          else if (type === 'zset') cmds.push(['ZADD', 'k', pick([int(-100, 100), rnd() * 100, int(0, 5) / 4, 1e21 * rnd(), 0.1, -0.000001 * int(1, 9)]), e]);
          else cmds.push(['HSET', 'k', `f${intOnly ? e : elem()}`, e]); // field names never integer-like
        }
        for (const cmd of cmds) expect([seed, cmd.join(' ').slice(0, 60), await run(fake, cmd)]).toEqual([seed, cmd.join(' ').slice(0, 60), await run(real, cmd)]);
        const dr = (await real.dumpBuffer('k')) as Buffer;
        const df = (await fake.dumpBuffer('k')) as Buffer;
        if (dr[0] === 2 || dr[0] === 4) {
          // hash-table encoded set or hash: Redis's dict order is not reproducible; compare contents
          expect(df[0]).toBe(dr[0]);
          await fake.restore('fromReal', 0, dr);
          await real.restore('fromFake', 0, df);
          const read = (c: IORedis, k: string) => (type === 'set' ? c.smembers(k).then((m) => m.sort()) : c.hgetall(k));
          expect(await read(fake, 'fromReal')).toEqual(await read(real, 'k'));
          expect(await read(real, 'fromFake')).toEqual(await read(real, 'k'));
        } else {
          expect([seed, type, df.toString('hex')]).toEqual([seed, type, dr.toString('hex')]);
        }
        if (WITH_CONFIG) {
          await real.call('CONFIG', ...defaults.slice(1).map(String));
          if (version !== '7.0') await real.call('CONFIG', 'SET', 'set-max-listpack-entries', '128');
        }
        fake.disconnect();
      }
    }, 120_000);

    it('strings DUMP byte for byte alike (integers, LZF, binary)', async () => {
      if (!version) return;
      const rnd = mulberry32(99);
      const fake = fakeClient();
      await real.flushdb();
      for (let i = 0; i < 300; i++) {
        const kind = i % 5;
        const value =
          kind === 0
            ? String(Math.floor(rnd() * 2 ** 40) - 2 ** 39)
            : kind === 1
              ? 'ab'.repeat(Math.floor(rnd() * 200))
              : kind === 2
                ? Buffer.from(Array.from({ length: Math.floor(rnd() * 100) }, () => Math.floor(rnd() * 256)))
                : kind === 3
                  ? `${Math.floor(rnd() * 1000)}`.padStart(Math.floor(rnd() * 6), '0')
                  : 'x'.repeat(Math.floor(rnd() * 30));
        await real.set('k', value);
        await fake.set('k', value);
        const [dr, df] = [await real.dumpBuffer('k'), await fake.dumpBuffer('k')];
        expect([i, df.toString('hex')]).toEqual([i, dr.toString('hex')]);
      }
      fake.disconnect();
    }, 60_000);
  });
}

// no real server given: one visibly skipped placeholder says what the comparisons need (CI sets both URLs)
if (!SERVERS.some(([, url]) => url)) {
  // skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
  describe.skip('DUMP/RESTORE: fake vs real server', () => {
    it('needs REDIS_URL or REDIS_UNSTABLE_URL', () => undefined);
  });
}
