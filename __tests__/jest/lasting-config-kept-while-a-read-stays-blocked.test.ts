/**
 * A keyspace whose client was made at module scope with `streams: { clock, redisVersion }` keeps
 * both across the resets between tests while a read of a `beforeAll` client stays blocked on it
 * (user trial, session 13: from the second test on the keyspace ran on wall time and 8.10 — the
 * reset moved it to the default clock, and giving the fake clock back was then refused as
 * "cannot change the clock while calls are blocked"). The blocked read is served in the last test.
 */
require('ioredis-mock-streams/jest');

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace, createFakeClock } = require('ioredis-mock-streams');

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
const redis = new Redis({ port: 23_050, streams: { clock, redisVersion: '7.0' } });
const reader = new Redis({ port: 23_050 });
let pending: Promise<unknown>;
beforeAll(async () => {
  pending = reader.xread('BLOCK', 0, 'STREAMS', 'events', '$');
  await streamsKeyspace(redis).waitForBlocked();
});
afterAll(async () => {
  redis.disconnect();
  reader.disconnect();
  await pending.catch(() => undefined);
});

describe.each([1, 2, 3])('test %i, the beforeAll read still blocked', (n) => {
  it('the keyspace is on its fake clock and Redis 7.0; data from the test before is gone', async () => {
    expect(streamsKeyspace(redis).clock).toBe(clock);
    expect(streamsKeyspace(redis).redisVersion).toBe('7.0');
    expect(await redis.xadd('jobs', '*', 'a', '1')).toBe('1704067200000-0');
    // the version the server reports (INFO), not only the keyspace's field
    expect(await redis.info('server')).toMatch(/redis_version:7\.0\.\d+/);
    if (n === 3) {
      await redis.xadd('events', '*', 'x', '1');
      const [[key]] = (await pending) as [[string]];
      expect(key).toBe('events');
    }
  });
});

export {}; // a module, not a script: its names stay its own
