/**
 * Under the jest setup file, a client created outside tests (beforeAll, module scope) that is
 * blocked in a read keeps the commands sent to it after that read waiting until it returns, as a
 * server serves one client's commands in order. A test that awaits such a command hung until its
 * timeout with no hint (found by a fresh-user trial: a shared client's `XREAD BLOCK 0` left every
 * later command of it waiting). The test now ends with a warning naming it, the blocked command and
 * the fixes; the commands stay queued and run once the read returns. The tests of this file run in
 * order and depend on it.
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace } = require('ioredis-mock-streams');

const PORT = 33_098;
const shared = new Redis({ port: PORT });
const other = new Redis({ port: PORT });
let read: Promise<unknown> = Promise.resolve();
let queued: Promise<unknown> = Promise.resolve();
let queuedSettled = false;
let warn: jest.SpyInstance;

beforeAll(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterAll(async () => {
  warn.mockRestore();
  shared.disconnect();
  other.disconnect();
  await Promise.allSettled([read, queued]);
});

test('a shared client blocks in XREAD BLOCK 0', async () => {
  read = shared.xread('BLOCK', 0, 'STREAMS', 'events', '$');
  read.catch(() => undefined);
  await streamsKeyspace(shared).waitForBlocked();
  expect(warn).not.toHaveBeenCalled();
});

test('a later test sends GET to it: the GET waits behind the read', async () => {
  queued = shared.get('k');
  queued.then(
    () => (queuedSettled = true),
    () => (queuedSettled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  expect(queuedSettled).toBe(false);
});

test('that test ended with one warning naming it, the blocked XREAD and the fixes', () => {
  expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
    '[ioredis-mock-streams] test "a later test sends GET to it: the GET waits behind the read" ended with 1 command waiting behind a blocked XREAD ' +
      'of a client created outside tests (module scope or beforeAll): a connection serves its commands in order, as on a server, so what is ' +
      'sent to it after a blocking call runs only once that call returns (a test awaiting it times out). Give blocking reads a client of ' +
      'their own (e.g. client.duplicate()), or end the blocked call within the test (a write it waits for, or CLIENT UNBLOCK from another client).',
  ]);
  expect(queuedSettled).toBe(false);
});

test('once the read returns, the GET runs, and no test warns again', async () => {
  warn.mockClear();
  const id = await other.xadd('events', '*', 'n', '1');
  expect(await read).toEqual([['events', [[id, ['n', '1']]]]]);
  expect(await queued).toBeNull();
});

test('and none after it', () => {
  expect(warn).not.toHaveBeenCalled();
});
