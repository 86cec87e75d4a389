// A test that mocks fs (jest's automock) still gets a working fake: the package reads its own
// data files through jest when fs is mocked.
jest.mock('fs');
jest.mock('ioredis', () => require('ioredis-mock-streams'));
const Redis = require('ioredis');

test('new Redis() works with fs automocked', async () => {
  const redis = new Redis();
  expect(await redis.xadd('s', '1-1', 'a', '1')).toBe('1-1');
  expect(Redis.name).toBe('Redis');
  redis.disconnect();
});
