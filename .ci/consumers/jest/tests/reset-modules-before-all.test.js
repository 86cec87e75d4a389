// With resetModules, a client made in beforeAll comes from a copy of the package loaded after the
// setup file's: the reset after each test must reach its keyspace too (data emptied, a blocked
// read released with "Connection is closed."), and the client stays usable.
let shared;
let blocked;
beforeAll(() => {
  shared = new (require('ioredis'))();
});
afterAll(() => shared.disconnect());

test('a test leaves data and a read blocked forever', async () => {
  await shared.set('leftover', '1');
  await shared.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
  blocked = shared.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 'jobs', '>').catch((err) => err.message);
});

test('the next test finds the keyspace empty, the read released and the client working', async () => {
  expect(await blocked).toBe('Connection is closed.');
  expect(await shared.get('leftover')).toBeNull();
  expect(await shared.ping()).toBe('PONG');
});
