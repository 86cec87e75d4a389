/**
 * Under the jest setup file, an XREAD of a client created outside tests (a BullMQ QueueEvents in
 * beforeAll) stays blocked across the per-test reset, waiting after the last ID it saw. When each
 * test starts its fake timers at the same time, the next test's `XADD *` makes IDs no later than
 * that one (Redis makes them from the clock, and the reset emptied the stream), so the reader never
 * sees them, silently (found by a fresh-user trial: a shared QueueEvents heard nothing after the
 * first test). The test that wrote them now ends with a warning naming the stream, both IDs and the
 * fixes. The tests of this file run in order and depend on it.
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace } = require('ioredis-mock-streams');

const PORT = 33_097;
const reader = new Redis({ port: PORT });
const writer = new Redis({ port: PORT });
let read: Promise<unknown> = Promise.resolve();
let warn: jest.SpyInstance;

beforeAll(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterAll(async () => {
  warn.mockRestore();
  reader.disconnect();
  writer.disconnect();
  await read.catch(() => undefined);
});
beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2025, 0, 1), doNotFake: ['nextTick', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

test('first test: the reader sees an entry, then waits after its ID', async () => {
  const first = reader.xread('BLOCK', 0, 'STREAMS', 'events', '$');
  await streamsKeyspace(reader).waitForBlocked();
  const id = await writer.xadd('events', '*', 'n', '1');
  expect(id).toBe('1735689600000-0');
  expect(await first).toEqual([['events', [[id, ['n', '1']]]]]);
  read = reader.xread('BLOCK', 0, 'STREAMS', 'events', id);
  read.catch(() => undefined);
  await streamsKeyspace(reader).waitForBlocked();
  expect(warn).not.toHaveBeenCalled();
});

test('second test: the same clock start makes the same ID, which the reader never gets', async () => {
  expect(await writer.xadd('events', '*', 'n', '2')).toBe('1735689600000-0');
  expect(streamsKeyspace(reader).blockedCount).toBe(1);
});

test('the second test ended with one warning naming the stream, both IDs and the fixes', async () => {
  const warnings = warn.mock.calls.map((c) => String(c[0]));
  expect(warnings).toEqual([
    '[ioredis-mock-streams] test "second test: the same clock start makes the same ID, which the reader never gets" wrote entries to stream "events" ' +
      '(the first 1735689600000-0) that an XREAD blocked since before the reset after test "first test: the reader sees an entry, then waits after its ID" ' +
      'skips: it waits for entries after 1735689600000-0, an ID from before that reset (its client was created outside tests, e.g. a BullMQ ' +
      'QueueEvents in beforeAll). XADD * makes IDs from the clock: did it go back across the reset (fake timers started at ' +
      'the same time in each test)? Keep time moving forward across tests (e.g. a later `now` in each test) and IDs given explicitly above ' +
      'the earlier ones, or create the reader in each test.',
  ]);
});

test('a test whose clock is later: the reader gets the entry, no warning', async () => {
  warn.mockClear();
  jest.setSystemTime(Date.UTC(2025, 0, 2));
  const id = await writer.xadd('events', '*', 'n', '4');
  expect(await read).toEqual([['events', [[id, ['n', '4']]]]]);
});

test('and none after it', () => {
  expect(warn).not.toHaveBeenCalled();
});
