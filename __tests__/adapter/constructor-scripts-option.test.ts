/**
 * ioredis constructor features the class lacked (a helper running ioredis's own suite against
 * it): `new Redis({ scripts: { name: { lua, numberOfKeys } } })` defines those commands as
 * `defineCommand` does (methods, their `…Buffer` twins, pipelines; without numberOfKeys the
 * first argument is the key count), and the static `Redis.createClient(...args)` is
 * `new Redis(...args)`. The scripts run on the fake and with real ioredis on both real servers.
 */
import Redis from 'ioredis-mock-streams';
import { runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const scripts = {
  echoKeyArg: { lua: 'return {KEYS[1], ARGV[1]}', numberOfKeys: 1 },
  countKeys: { lua: 'return #KEYS' },
};

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'the scripts option defines its commands: methods, Buffer twins, pipelines',
      { scripts },
      async (r, { key }) => [
        await r.echoKeyArg(key, 'a'),
        (await r.echoKeyArgBuffer(key, 'b')).map((b: Buffer) => Buffer.isBuffer(b)),
        await r.countKeys(2, `${key}:1`, `${key}:2`, 'arg'),
        await r.pipeline().echoKeyArg(key, 'c').countKeys(0).exec(),
      ],
      (key: string) => [[key, 'a'], [true, true], 2, [[null, [key, 'c']], [null, 0]]],
    ],
  ],
  { firstPort: 56_120, keyPrefix: 'scripts-option', subject: 'real ioredis', verb: 'defines' },
);

describe('Redis.createClient', () => {
  it('is new Redis(...args): a client of the fake with those options', async () => {
    const r = (Redis as unknown as { createClient(o: object): InstanceType<typeof Redis> }).createClient({ port: 56_130, db: 3 });
    expect(r).toBeInstanceOf(Redis);
    expect(r.options.db).toBe(3);
    expect(await r.set('created', '1')).toBe('OK');
    expect(await r.client('INFO')).toMatch(/ db=3 /);
    r.disconnect();
  });

  it('is a static of real ioredis too (the API the fake stands in for)', () => {
    const Real = jest.requireActual('ioredis');
    expect(typeof (Real.default ?? Real).createClient).toBe('function');
  });
});
