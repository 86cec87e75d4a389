const Redis = require('ioredis');
const { streamsKeyspace } = require('ioredis-mock-streams');

test('the setup file mocks ioredis in every test file', async () => {
  const redis = new Redis();
  expect(streamsKeyspace(redis).redisVersion).toBe('8.10');
  await redis.xadd('s', '1-0', 'f', 'v');
  expect(await redis.xlen('s')).toBe(1);
  redis.disconnect();
});

test('and resets every keyspace after each test', async () => {
  const redis = new Redis();
  expect(await redis.xlen('s')).toBe(0);
  redis.disconnect();
});
