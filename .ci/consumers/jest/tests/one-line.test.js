jest.mock('ioredis', () => require('ioredis-mock-streams'));
const Redis = require('ioredis');
const { createFakeClock, resetAllKeyspaces } = require('ioredis-mock-streams');

afterEach(() => resetAllKeyspaces());

test('require("ioredis") is the fake, with consumer groups and the fake clock', async () => {
  const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
  const redis = new Redis({ streams: { clock } });
  expect(await redis.xadd('jobs', '*', 'job', 'a')).toBe('1704067200000-0');
  await redis.xgroup('CREATE', 'jobs', 'g', '0');
  expect(await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 'jobs', '>')).toEqual([['jobs', [['1704067200000-0', ['job', 'a']]]]]);
  const blocked = redis.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 5000, 'STREAMS', 'jobs', '>');
  await clock.tickAsync(5000);
  expect(await blocked).toBeNull();
  // ioredis-mock's own commands, through the bundled ioredis-mock, whatever ioredis the project has
  await redis.zadd('z', 1, 'a', 2.5, 'b');
  expect(await redis.zrange('z', 0, -1, 'WITHSCORES')).toEqual(['a', '1', 'b', '2.5']);
  await redis.hset('h', { f: 'v' });
  expect(await redis.hgetall('h')).toEqual({ f: 'v' });
  redis.disconnect();
});

test('keyPrefix follows the installed ioredis (XGROUP prefixed by ioredis 6 only)', async () => {
  const major = Number(jest.requireActual('ioredis/package.json').version.split('.')[0]);
  const redis = new Redis({ port: 7001, keyPrefix: 'p:' });
  const raw = new Redis({ port: 7001 });
  await redis.xadd('s', '1-0', 'f', 'v');
  await redis.xgroup('CREATE', 's', 'g', '0', 'MKSTREAM');
  expect((await raw.keys('*')).sort()).toEqual(major >= 6 ? ['p:s'] : ['p:s', 's']);
  redis.disconnect();
  raw.disconnect();
});
