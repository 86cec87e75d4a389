/**
 * Under the jest setup file, a client created outside tests (beforeAll, module scope) that is
 * blocked in a read keeps the commands sent to it after that read waiting until it returns, as a
 * server serves one client's commands in order. A test that awaits such a command hung until its
 * timeout with no hint (found by a fresh-user trial: a shared client's `XREAD BLOCK 0` left every
 * later command of it waiting). A test that sent such commands now ends with a warning naming it,
 * the blocked command and the fixes — each such test, not the tests that sent nothing (a command
 * queued in beforeAll is not the next test's doing); the commands stay queued and run once the read
 * returns. The tests of this file run in order and depend on it.
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
const queued: Promise<unknown>[] = [];
const settled: string[] = [];
let warn: jest.SpyInstance;

/** Send `command` on the shared client without awaiting it; its outcome lands in `settled`. */
function send(label: string, p: Promise<unknown>): void {
  queued.push(p);
  p.then(
    (v) => settled.push(`${label}: ${String(v)}`),
    (e: Error) => settled.push(`${label}: ${e.message}`),
  );
}

const warning = (test: string, n: number) =>
  `[ioredis-mock-streams] test "${test}" ended with ${n} call${n === 1 ? '' : 's'} sent during it (a pipeline or MULTI counts as one) waiting behind a blocked XREAD ` +
  'of a client created outside tests (module scope or beforeAll): a connection serves its commands in order, as on a server, so they run ' +
  "only once that call returns — after this reset, in the next test's keyspace, or never if nothing serves a BLOCK 0 — and a test " +
  'awaiting one times out. Give blocking reads a client of their own (e.g. client.duplicate()), or end the blocked call within the test ' +
  '(a write it waits for).';

beforeAll(async () => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  read = shared.xread('BLOCK', 0, 'STREAMS', 'events', '$');
  read.catch(() => undefined);
  await streamsKeyspace(shared).waitForBlocked();
  send('PING from beforeAll', shared.ping());
});
afterAll(async () => {
  warn.mockRestore();
  shared.disconnect();
  other.disconnect();
  await Promise.allSettled([read, ...queued]);
});

test('a test that sends nothing to the blocked client', async () => {
  await other.set('k', 'v');
  expect(settled).toEqual([]);
});

test('a test sends GET to it: the GET waits behind the read', async () => {
  send('GET', shared.get('k'));
  await new Promise((resolve) => setImmediate(resolve));
  expect(settled).toEqual([]);
});

test('only the test that sent the GET was warned (not the first: the PING came from beforeAll)', () => {
  expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([warning('a test sends GET to it: the GET waits behind the read', 1)]);
  warn.mockClear();
});

test('another test sends two more commands behind the same read', () => {
  send('SET', shared.set('k', 'v2'));
  send('DEL', shared.del('k'));
});

test('that test was warned too, for its own two commands', () => {
  expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([warning('another test sends two more commands behind the same read', 2)]);
  warn.mockClear();
});

test('once the read returns, the commands run in order, and no test warns again', async () => {
  const id = await other.xadd('events', '*', 'n', '1');
  expect(await read).toEqual([['events', [[id, ['n', '1']]]]]);
  await Promise.all(queued);
  expect(settled).toEqual(['PING from beforeAll: PONG', 'GET: null', 'SET: OK', 'DEL: 1']);
});

test('and none after it', () => {
  expect(warn).not.toHaveBeenCalled();
});
