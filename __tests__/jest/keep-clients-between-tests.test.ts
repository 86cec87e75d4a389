/**
 * `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true` under the jest setup file: the clients
 * tests create stay open across tests as beforeAll's do (a client made on first use and kept in a
 * module works in every test), keyspaces are still emptied after each test, a blocked read of such
 * a client stays blocked across that reset, and the file's own afterAll can still quit them (the
 * lifecycle leaves them to it, as beforeAll's).
 * The tests of this file run in order and depend on it.
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');

(globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true;

let shared: any;
const getRedis = () => (shared ??= new Redis({ port: 33_096 }));
let reader: any;
let read: Promise<unknown> | undefined;

afterAll(async () => {
  // the setup file's afterAll ran first (declared first) and left them open
  expect(await shared.quit()).toBe('OK');
  expect(await reader.quit()).toBe('OK');
  delete (globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__;
});

test('first test makes the shared client and leaves a read blocked', async () => {
  expect(await getRedis().set('k', 'v')).toBe('OK');
  reader = new Redis({ port: 33_096 });
  read = reader.xread('BLOCK', 0, 'STREAMS', 's', '$');
  read!.catch(() => undefined);
  await getRedis().ping();
});

test('second test: the same client works, the keyspace was emptied, the read is still blocked', async () => {
  expect(shared.status).toBe('ready');
  expect(await getRedis().get('k')).toBe(null);
  const id = await getRedis().xadd('s', '5-1', 'f', 'v');
  expect(id).toBe('5-1');
  await expect(read).resolves.toEqual([['s', [['5-1', ['f', 'v']]]]]);
});
