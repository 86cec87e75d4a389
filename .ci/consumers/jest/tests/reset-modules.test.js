// With resetModules (or jest.resetModules()), each test's require('ioredis') is the fake of that
// test's module registry: the same class as require('ioredis-mock-streams') in the same test.
test('first test: ioredis is the package', () => {
  expect(require('ioredis')).toBe(require('ioredis-mock-streams'));
});

test('second test, after the registry reset: still the same class', async () => {
  const Redis = require('ioredis');
  expect(Redis).toBe(require('ioredis-mock-streams'));
  const redis = new Redis();
  expect(redis).toBeInstanceOf(require('ioredis-mock-streams'));
  expect(await redis.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
  redis.disconnect();
});
