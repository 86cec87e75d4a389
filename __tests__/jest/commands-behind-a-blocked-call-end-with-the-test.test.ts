/**
 * Under the jest setup file, a test that ends with one of its clients blocked (BLPOP, XREADGROUP
 * BLOCK) and commands queued behind that call on the same connection (a SET, a MULTI, a pipeline):
 * the reset ends the blocked call with "Connection is closed." as the client's close would, and the
 * commands behind it (and the rest of a pipeline whose command blocked) are rejected with it too,
 * as a closing ioredis client rejects its queue. They
 * ran after the reset instead, so their keys appeared in the next test (found by a break-test of
 * the blocked-call changes). The tests of this file run in order and depend on it.
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');

const PORT = 33_091;
const outcomes: string[] = [];
const settle = (label: string, p: Promise<unknown>) =>
  void p.then(
    () => outcomes.push(`${label}: resolved`),
    (e: Error) => outcomes.push(`${label}: ${e.message}`),
  );
let warn: jest.SpyInstance;

beforeAll(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterAll(() => warn.mockRestore());

test('ends with a blocked call and writes queued behind it', async () => {
  const r = new Redis({ port: PORT });
  await r.ping();
  const s = new Redis({ port: PORT });
  await s.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
  settle('blpop', r.blpop('q', 0));
  settle('multi', r.multi().set('leak1', '1').exec());
  settle('set', r.set('leak2', '1'));
  settle('pipeline', r.pipeline().set('leak3', '1').exec());
  settle('xreadgroup', s.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 'jobs', '>'));
  settle('xadd', s.xadd('leak4', '*', 'f', 'v'));
  // a pipeline whose own command blocks: the rest of it never runs
  const p = new Redis({ port: PORT });
  await p.ping();
  void p
    .pipeline()
    .blpop('q2', 0)
    .set('leak5', '1')
    .exec()
    .then((pairs: [Error | null][]) => outcomes.push(`blocking pipeline: ${pairs.map(([err]) => err?.message).join(', ')}`));
});

test('the next test sees none of those writes, and they were rejected', async () => {
  const c = new Redis({ port: PORT });
  expect(await c.exists('leak1', 'leak2', 'leak3', 'leak4', 'leak5')).toBe(0);
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  // a plain pipeline resolves with the errors in its pairs, as ioredis's does
  expect(outcomes.sort()).toEqual([
    'blocking pipeline: Connection is closed., Connection is closed.',
    'blpop: Connection is closed.',
    'multi: Connection is closed.',
    'pipeline: resolved',
    'set: Connection is closed.',
    'xadd: Connection is closed.',
    'xreadgroup: Connection is closed.',
  ]);
});
