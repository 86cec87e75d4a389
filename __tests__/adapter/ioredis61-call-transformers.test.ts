/**
 * ioredis 6.1.0 changed what `call()` delivers (built/Command.js `caseInsensitiveReplyTransformers`):
 * a name with no reply transformer of its own gets its lowercase name's when that is the RESP3
 * pair, stream-read or VSIM transformer. With the default options (RESP3, 'legacy' mapping)
 * `call('XREAD' | 'XREADGROUP')` is `[[key, entries]]` as `xread()` is (6.0: the flat map
 * `[key, entries]`), `call('ZRANGE' | 'ZRANGEBYSCORE', …, 'WITHSCORES')` and
 * `call('HRANDFIELD', …, 'WITHVALUES')` flat (6.0: `[member, score]` pairs); the same for
 * `callBuffer`, `pipeline().call()` and `multi().call()`. `call('HGETALL')` stays flat in both.
 * 6.1 also hides credentials in an error's `command.args` ("[REDACTED]": AUTH, CONFIG SET's
 * values, …).
 *
 * The same script on the fake and with real ioredis (the one the suite runs on: 6.0.0, 5.11.1
 * under IOREDIS_MAJOR=5, 6.1.0 under IOREDIS_VERSION=6.1) on both real servers (db 14), with the
 * default options, `protocol: 2` and `replyMapping: 'resp3'` (ioredis 6).
 */
import Redis from 'ioredis-mock-streams';
import { describeOnRealServers, ioredisMajor } from '../helpers/real-server';
import { onIoredis61 } from '../helpers/ioredis61';

type Client = Record<string, any>;
let port = 36_610;

/** Each step's reply, or its error as `ERR <message>` with the error's `command`. */
async function script(r: Client, p: string): Promise<Record<string, unknown>> {
  const [h, z, s] = [`${p}h`, `${p}z`, `${p}s`];
  await r.del(h, z, s);
  await r.hset(h, 'a', '1');
  await r.zadd(z, 1.5, 'x', 2, 'y');
  await r.xgroup('CREATE', s, 'g', '0', 'MKSTREAM');
  await r.xadd(s, '1-1', 'f', 'v');
  const res: Record<string, unknown> = {};
  const t = async (name: string, fn: () => Promise<unknown>) => {
    try {
      res[name] = await fn();
    } catch (e) {
      const err = e as Error & { command?: unknown };
      res[name] = { error: err.message, command: err.command };
    }
  };
  await t('call XREADGROUP', () => r.call('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', s, '>'));
  await t('call XREAD', () => r.call('XREAD', 'STREAMS', s, '0'));
  await t('call xread', () => r.call('xread', 'STREAMS', s, '0'));
  await t('call Xread', () => r.call('Xread', 'STREAMS', s, '0'));
  await t('xread()', () => r.xread('STREAMS', s, '0'));
  await t('call ZRANGE WITHSCORES', () => r.call('ZRANGE', z, 0, -1, 'WITHSCORES'));
  await t('call ZRANGEBYSCORE WITHSCORES', () => r.call('ZRANGEBYSCORE', z, '-inf', '+inf', 'WITHSCORES'));
  await t('call ZPOPMIN', () => r.call('ZPOPMIN', z));
  await t('call HRANDFIELD WITHVALUES', () => r.call('HRANDFIELD', h, 1, 'WITHVALUES'));
  await t('call HGETALL', () => r.call('HGETALL', h));
  await t('callBuffer XREAD', () => r.callBuffer('XREAD', 'STREAMS', s, '0'));
  await t('callBuffer ZRANGE WITHSCORES', () => r.callBuffer('ZRANGE', z, 0, -1, 'WITHSCORES'));
  await t('pipeline call XREAD', () => r.pipeline().call('XREAD', 'STREAMS', s, '0').exec());
  await t('multi call ZRANGE WITHSCORES', () => r.multi().call('ZRANGE', z, 0, -1, 'WITHSCORES').exec());
  await t('call CONFIG SET error', () => r.call('CONFIG', 'SET', 'no-such-parameter', 'secret-value'));
  await t('call AUTH error', () => r.call('AUTH', 'io61-nouser', 'io61-secret'));
  await t('call GET error (not redacted)', () => r.call('GET', p, 'extra'));
  await r.del(h, z, s);
  return res;
}

const setups: [string, Record<string, unknown>][] = [['default options', {}]];
if (ioredisMajor === 6) setups.push(['protocol 2', { protocol: 2 }], ["replyMapping 'resp3'", { replyMapping: 'resp3' }]);

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('call() of transformed names and error commands', (server) => {
  it.each(setups)('%s: the fake delivers what real ioredis delivers', async (_title, options) => {
    const RealRedis = jest.requireActual('ioredis');
    const real = new (RealRedis.default ?? RealRedis)(server.url, { db: 14, maxRetriesPerRequest: 0, ...options }) as Client;
    const fake = new Redis({ port: port++, db: 14, ...options, streams: { redisVersion: server.version } } as never) as unknown as Client;
    try {
      const want = await script(real, `io61:${process.pid}:`);
      const got = await script(fake, `io61:${process.pid}:`);
      expect(got).toEqual(want);
    } finally {
      real.disconnect();
      fake.disconnect();
    }
  });
});

describe('call() shapes by ioredis version (the fake alone)', () => {
  it('default options: call("XREAD") and call("ZRANGE", …, "WITHSCORES") as the installed ioredis shapes them', async () => {
    const r = new Redis({ port: port++ }) as unknown as Client;
    try {
      const res = await script(r, 'v:');
      const stream = [['v:s', [['1-1', ['f', 'v']]]]];
      if (ioredisMajor === 6 && !onIoredis61) {
        expect(res['call XREAD']).toEqual(stream[0]);
        expect(res['call ZRANGE WITHSCORES']).toEqual([['x', '1.5'], ['y', '2']]);
        expect((res['call CONFIG SET error'] as { command: unknown }).command).toEqual({ name: 'CONFIG', args: ['SET', 'no-such-parameter', 'secret-value'] });
      } else {
        // ioredis 6.1 (transformer found from the uppercase name) and ioredis 5 (RESP2 pairs)
        expect(res['call XREAD']).toEqual(stream);
        expect(res['call ZRANGE WITHSCORES']).toEqual(['x', '1.5', 'y', '2']);
      }
      expect(res['call Xread']).toEqual(onIoredis61 || ioredisMajor === 5 ? stream : stream[0]);
      expect(res['call HGETALL']).toEqual(['a', '1']);
      if (onIoredis61) {
        expect((res['call CONFIG SET error'] as { command: unknown }).command).toEqual({ name: 'CONFIG', args: ['SET', 'no-such-parameter', '[REDACTED]'] });
        expect((res['call AUTH error'] as { command: unknown }).command).toEqual({ name: 'AUTH', args: ['[REDACTED]', '[REDACTED]'] });
      }
    } finally {
      r.disconnect();
    }
  });
});

/**
 * ioredis 6.1's handshake over RESP3 ends with CLIENT MAINT_NOTIFICATIONS ON moving-endpoint-type
 * <type> (unless `maintNotifications: 'disabled'`; not over `protocol: 2`); 7.0.15 and the
 * post-7.4 build refuse it ("unknown subcommand"), which the 'auto' default ignores. A refused
 * command is not on MONITOR; it counts in INFO errorstats. The fake sends it when the handshake
 * goes through the engine (a MONITOR is open).
 */
describe('the handshake of ioredis 6.1: CLIENT MAINT_NOTIFICATIONS', () => {
  const errCount = (info: string) => Number(/errorstat_ERR:count=(\d+)/.exec(info)?.[1] ?? 0);

  it.each([
    ['default options', {}, onIoredis61 ? 1 : 0],
    ["maintNotifications 'disabled'", { maintNotifications: 'disabled' }, 0],
    ['protocol 2', { protocol: 2 }, 0],
  ])('%s: the refused command counts in INFO errorstats as on a server', async (_t, options, refused) => {
    const p = port++;
    const admin = new Redis({ port: p }) as unknown as Client;
    const m = await admin.duplicate().monitor();
    await admin.config('RESETSTAT');
    const b = new Redis({ port: p, ...options } as never) as unknown as Client;
    await b.ping();
    expect(errCount(await admin.info('errorstats'))).toBe(refused);
    [b, m, admin].forEach((c) => c.disconnect());
  });

  // skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
  // compare with; CI sets both
  describeOnRealServers('CLIENT MAINT_NOTIFICATIONS', (server) => {
    it('is refused with the same error text by the fake', async () => {
      const RealRedis = jest.requireActual('ioredis');
      const real = new (RealRedis.default ?? RealRedis)(server.url, { db: 14, protocol: 2, maintNotifications: 'disabled' }) as Client;
      const fake = new Redis({ port: port++, protocol: 2, streams: { redisVersion: server.version } } as never) as unknown as Client;
      const argv = ['CLIENT', 'MAINT_NOTIFICATIONS', 'ON', 'moving-endpoint-type', 'internal-ip'];
      const outcome = (c: Client) => c.call(...argv).then((v: unknown) => ({ ok: v }), (e: Error) => ({ err: e.message }));
      try {
        expect(await outcome(fake)).toEqual(await outcome(real));
        expect(await outcome(real)).toEqual({ err: "ERR unknown subcommand 'MAINT_NOTIFICATIONS'. Try CLIENT HELP." });
      } finally {
        real.disconnect();
        fake.disconnect();
      }
    });
  });
});

/**
 * The db a client selects again after a reconnection: ioredis keeps it from SELECT commands
 * whose name is `select` (ioredis 5 and 6.0: exactly, so `call('SELECT', n)` is forgotten and
 * the reconnection goes back to the previous db; 6.1: any casing). Measured on real ioredis
 * 5.11.1 / 6.0.0: 13, 14, 14; 6.1.0: 14, 14, 14. The other ways a SELECT is sent and recorded
 * (pipelines, multi, sendCommand, refused arguments, while reconnecting …):
 * __tests__/adapter/select-after-reconnection.test.ts.
 */
describe('the db after a reconnection follows SELECT as the installed ioredis tracks it', () => {
  const script = async (r: Client, how: string): Promise<string> => {
    await r.ping();
    if (how === 'call SELECT') await r.call('SELECT', 14);
    else if (how === 'call select') await r.call('select', 14);
    else await r.select(14);
    const ready = new Promise((res) => r.once('ready', res));
    r.disconnect(true);
    await ready;
    await new Promise((res) => setTimeout(res, 20));
    return /db=(\d+)/.exec(await r.client('INFO'))![1];
  };
  const hows = ['call SELECT', 'call select', 'select()'];

  it.each(hows)('%s: on the fake', async (how) => {
    const r = new Redis({ port: port++, db: 13 }) as unknown as Client;
    try {
      expect(await script(r, how)).toBe(how === 'call SELECT' && !onIoredis61 ? '13' : '14');
    } finally {
      r.disconnect();
    }
  });

  // skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
  // compare with; CI sets both
  describeOnRealServers('SELECT then disconnect(true)', (server) => {
    it.each(hows)('%s: as real ioredis', async (how) => {
      const RealRedis = jest.requireActual('ioredis');
      const r = new (RealRedis.default ?? RealRedis)(server.url, { db: 13 }) as Client;
      try {
        expect(await script(r, how)).toBe(how === 'call SELECT' && !onIoredis61 ? '13' : '14');
      } finally {
        r.disconnect();
      }
    });
  });
});

/**
 * `sendCommand(new Command(name, …))`: the Command applies its own transformer (on 6.1 also for an
 * uppercase name of the pair / stream-read families) and reply encoding, once.
 */
// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('sendCommand with transformed names', (server) => {
  it.each(setups)('%s: the fake settles each Command as real ioredis does', async (_title, options) => {
    const RealRedis = jest.requireActual('ioredis');
    const real = new (RealRedis.default ?? RealRedis)(server.url, { db: 14, maxRetriesPerRequest: 0, ...options }) as Client;
    const fake = new Redis({ port: port++, db: 14, ...options, streams: { redisVersion: server.version } } as never) as unknown as Client;
    const { Command } = jest.requireActual('ioredis');
    const run = async (r: Client, p: string) => {
      await r.del(`${p}s`, `${p}z`, `${p}h`);
      await r.xadd(`${p}s`, '1-1', 'f', 'v');
      await r.zadd(`${p}z`, 1.5, 'x');
      await r.hset(`${p}h`, 'a', '1');
      const out: unknown[] = [];
      for (const [name, args, enc] of [
        ['XREAD', ['STREAMS', `${p}s`, '0'], 'utf8'],
        ['xread', ['STREAMS', `${p}s`, '0'], 'utf8'],
        ['XREAD', ['STREAMS', `${p}s`, '0'], undefined],
        ['ZRANGE', [`${p}z`, '0', '-1', 'WITHSCORES'], 'utf8'],
        ['zrange', [`${p}z`, '0', '-1', 'WITHSCORES'], undefined],
        ['HGETALL', [`${p}h`], 'utf8'],
        ['hgetall', [`${p}h`], 'utf8'],
      ] as [string, string[], string | undefined][]) {
        out.push([name, await r.sendCommand(new Command(name, args, enc ? { replyEncoding: enc } : {}))]);
      }
      await r.del(`${p}s`, `${p}z`, `${p}h`);
      return out;
    };
    try {
      expect(await run(fake, `io61sc:${process.pid}:`)).toEqual(await run(real, `io61sc:${process.pid}:`));
    } finally {
      real.disconnect();
      fake.disconnect();
    }
  });
});
