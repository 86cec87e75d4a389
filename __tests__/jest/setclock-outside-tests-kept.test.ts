/**
 * A fresh-user trial: under the setup file, a clock or version set at module scope or in
 * `beforeAll` with `streamsKeyspace(client).setClock()` / `setRedisVersion()` (not the `streams`
 * option) held for the first test only — the second ran `XADD *` on wall time and Redis 8.10.
 * What a keyspace had when a test started is given back after the reset; what a test sets for
 * itself is not kept for the next one.
 */
require('ioredis-mock-streams/jest');

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace, createFakeClock } = require('ioredis-mock-streams');

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
const redis = new Redis({ port: 23_050 });
streamsKeyspace(redis).setClock(clock);
streamsKeyspace(redis).setRedisVersion('7.0');
let inBeforeAll: any;
const beforeAllClock = createFakeClock({ now: Date.UTC(2025, 0, 1) });
beforeAll(() => {
  inBeforeAll = new Redis({ port: 23_051 });
  streamsKeyspace(inBeforeAll).setClock(beforeAllClock);
});
afterAll(() => {
  redis.disconnect();
  inBeforeAll.disconnect();
});

describe.each([1, 2, 3])('test %i after a setClock/setRedisVersion outside tests', () => {
  it('XADD * takes its ID from the module-scope fake clock, on Redis 7.0, with no data from the test before', async () => {
    expect(await redis.exists('s')).toBe(0);
    expect(await redis.xadd('s', '*', 'f', 'v')).toBe(`${Date.UTC(2024, 0, 1)}-0`);
    expect(streamsKeyspace(redis).redisVersion).toBe('7.0');
  });

  it('the beforeAll client is still on its own fake clock', async () => {
    expect(streamsKeyspace(inBeforeAll).clock).toBe(beforeAllClock);
    expect(await inBeforeAll.xadd('t', '*', 'f', 'v')).toBe(`${Date.UTC(2025, 0, 1)}-0`);
  });

  it('a version a test sets for itself lasts for that test only', async () => {
    const local = new Redis({ port: 23_052 });
    expect(streamsKeyspace(local).redisVersion).toBe('8.10');
    streamsKeyspace(local).setRedisVersion('7.2');
    expect(streamsKeyspace(local).redisVersion).toBe('7.2');
  });
});

export {}; // a module, not a script: its names stay its own
