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

// The setup file closes the clients a test created even when they come from a copy of the
// package loaded after the registry reset: a read blocked forever does not outlive its test.
let leaked;
let blocked;
test('a test leaves a client blocked in XREAD BLOCK 0', async () => {
  const Redis = require('ioredis');
  leaked = new Redis();
  await leaked.xadd('s', '1-0', 'f', 'v');
  blocked = leaked.xread('BLOCK', 0, 'STREAMS', 's', '$').catch((err) => err.message);
  await new Promise((resolve) => setTimeout(resolve, 10));
});

test('the next test finds that client closed and its read settled', async () => {
  expect(leaked.status).toBe('end');
  expect(await blocked).toBe('Connection is closed.');
});
