/**
 * TIME inside a script, a function or MULTI/EXEC answers the time the outer command started from
 * 7.2 on (redis #10300 "Freeze time sampling during command execution, and scripts"; the change
 * users met in redis #12556); 7.0 answers the live time. Seen on the real servers with two TIMEs
 * around a loop of a few ms in one EVAL (and in one MULTI): the post-7.4 build answers the same
 * value twice, redis-server 7.0.15 two values the loop's duration apart. The fake answered the
 * live time in every emulated version.
 */
import { connectReal, describeOnRealServers } from '../helpers/real-server';
import { engineConnections } from '../helpers/engine-connections';
import { toResp2Plain } from '../../lib/reply/reply';

const engine = engineConnections(53_980);
// two TIMEs around ~20-40 ms of Lua arithmetic
const SCRIPT = "local a = redis.call('TIME'); local x = 0; for i = 1, 2000000 do x = x + i end; local b = redis.call('TIME'); return {a[1] .. '.' .. a[2], b[1] .. '.' .. b[2]}";
const LOOP = 'local x = 0; for i = 1, 2000000 do x = x + i end; return 1';

/** Whether the two TIMEs of SCRIPT, and of TIME / LOOP / TIME in one MULTI, answer the same. */
async function sameTimes(exec: (argv: string[]) => Promise<unknown>): Promise<[boolean, boolean]> {
  const [a, b] = (await exec(['EVAL', SCRIPT, '0'])) as string[];
  await exec(['MULTI']);
  for (const argv of [['TIME'], ['EVAL', LOOP, '0'], ['TIME']]) await exec(argv);
  const [t1, , t2] = (await exec(['EXEC'])) as [string[], unknown, string[]];
  return [a === b, t1.join('.') === t2.join('.')];
}

describe('TIME inside a script and a transaction', () => {
  it.each([
    ['7.0', false],
    ['7.2', true],
    ['8.10', true],
  ] as const)('emulating %s answers the outer command time: %s', async (redisVersion, frozen) => {
    const c = engine.conn({ streams: { redisVersion } });
    const exec = async (argv: string[]) => toResp2Plain(await c.execute(argv)) as unknown;
    expect(await sameTimes(exec)).toEqual([frozen, frozen]);
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('TIME inside a script and a transaction', ({ url, version }) => {
  it('is frozen at the outer command start as on the real server (7.2+), live on 7.0', async () => {
    const real = await connectReal(url, 9, {}, false);
    try {
      const onReal = await sameTimes((argv) => real.call(argv[0], ...argv.slice(1)));
      const c = engine.conn({ streams: { redisVersion: version } });
      const onFake = await sameTimes(async (argv) => toResp2Plain(await c.execute(argv)) as unknown);
      expect(onFake).toEqual(onReal);
      expect(onReal).toEqual(version === '7.0' ? [false, false] : [true, true]);
    } finally {
      real.disconnect();
    }
  });
});

describe('TIME microseconds', () => {
  it('on a wall clock are the time within the millisecond (not always 000), never going back, the millisecond the keyspace reads', async () => {
    const c = engine.conn({ streams: { redisVersion: '8.10' } });
    const times: [number, number][] = [];
    for (let i = 0; i < 200; i++) {
      const [s, us] = toResp2Plain(await c.execute(['TIME'])) as string[];
      expect(us).toMatch(/^(0|[1-9]\d{0,5})$/); // a number below 1,000,000, unpadded as Redis writes it
      times.push([Number(s), Number(us)]);
    }
    const micros = times.map(([s, us]) => s * 1e6 + us);
    for (let i = 1; i < micros.length; i++) expect(micros[i]).toBeGreaterThanOrEqual(micros[i - 1]);
    expect(times.filter(([, us]) => us % 1000 !== 0).length).toBeGreaterThan(150);
    const wall = Date.now();
    expect(Math.abs(Math.floor(micros[micros.length - 1] / 1000) - wall)).toBeLessThan(1000);
  });

  it('of a fake clock are its milliseconds alone', async () => {
    const { createFakeClock } = await import('ioredis-mock-streams');
    const c = engine.conn({ streams: { clock: createFakeClock({ now: 1_700_000_000_123 }) } });
    expect(toResp2Plain(await c.execute(['TIME']))).toEqual(['1700000000', '123000']);
  });
});
