// With resetModules, a client made in beforeAll comes from a copy of the package loaded after the
// setup file's: the reset after each test must reach its keyspace too (data emptied as by FLUSHALL:
// a blocked XREADGROUP of a client made outside tests fails as after FLUSHALL on 8.x, its stream and
// group gone; a blocked BLPOP stays blocked), and the client stays usable.
let shared;
let popper;
let blocked;
let popped;
beforeAll(() => {
  shared = new (require('ioredis'))();
  popper = shared.duplicate();
});
afterAll(() => {
  shared.disconnect();
  popper.disconnect();
});

test('a test leaves data and a read blocked forever', async () => {
  await shared.set('leftover', '1');
  await shared.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
  blocked = shared.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 'jobs', '>').catch((err) => err.message);
  popped = popper.blpop('q', 0);
});

test('the next test finds the keyspace empty, the XREADGROUP ended as by FLUSHALL, the BLPOP still waiting', async () => {
  expect(await blocked).toBe("NOGROUP No such key 'jobs' or consumer group 'g' in XREADGROUP with GROUP option");
  expect(await shared.get('leftover')).toBeNull();
  expect(await shared.ping()).toBe('PONG');
  expect(await shared.rpush('q', 'a')).toBe(1);
  expect(await popped).toEqual(['q', 'a']);
});
