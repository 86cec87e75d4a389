/**
 * Trial 7: under the jest setup file, the per-test reset rejected the blocked calls of clients
 * made in beforeAll (a BullMQ Worker's BZPOPMIN, a QueueEvents' XREAD) with "Connection is
 * closed.", so job 2 of three add → completed tests timed out. The reset now empties the data as
 * FLUSHALL does on a server (compared on 7.0.15 and the post-7.4 build): a blocked BZPOPMIN or
 * XREAD of a client made outside tests stays blocked and is served by the next test's write; a
 * blocked XREADGROUP fails as after FLUSHALL (its stream and group are gone). Only the blocked
 * calls of clients the test itself created are ended, and the warning names their command.
 *
 * The setup entry is loaded here as `setupFilesAfterEnv` would load it. The tests of this file
 * run in order and depend on it.
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace } = require('ioredis-mock-streams');

type Settled = ['ok', unknown] | ['err', string] | 'pending';
const track = (p: Promise<unknown>) => {
  const state: { v: Settled } = { v: 'pending' };
  p.then(
    (r) => (state.v = ['ok', r]),
    (e: Error) => (state.v = ['err', e.message]),
  );
  return state;
};
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe.each([
  ['8.10', 'NOGROUP No such key \'jobs\' or consumer group \'g\' in XREADGROUP with GROUP option'],
  ['7.0', 'UNBLOCKED the stream key no longer exists'],
])('blocked reads of clients made in beforeAll, Redis %s', (version, xreadgroupError) => {
  const port = version === '7.0' ? 33_071 : 33_081;
  const streams = { redisVersion: version };
  let writer: any;
  let popper: any;
  let reader: any;
  let grouped: any;
  let popped: { v: Settled };
  let read: { v: Settled };
  let groupRead: { v: Settled };
  const warnings: string[] = [];
  let warn: jest.SpyInstance;
  beforeAll(async () => {
    warn = jest.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void warnings.push(a.map(String).join(' ')));
    writer = new Redis({ port, streams });
    popper = new Redis({ port, streams });
    reader = new Redis({ port, streams });
    grouped = new Redis({ port, streams });
    await writer.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    popped = track(popper.bzpopmin('q', 0));
    read = track(reader.xread('BLOCK', 0, 'STREAMS', 'events', '$'));
    groupRead = track(grouped.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 'jobs', '>'));
    await turns();
  });
  afterAll(async () => {
    warn.mockRestore();
    for (const c of [writer, popper, reader, grouped]) await c.quit();
  });

  it('test 1: the reads block', async () => {
    expect(streamsKeyspace(writer).blockedCount).toBe(3);
    expect([popped.v, read.v, groupRead.v]).toEqual(['pending', 'pending', 'pending']);
    await writer.set('left-by-test-1', 'x');
  });

  it('test 2: the reset emptied the data; BZPOPMIN and XREAD stay blocked, XREADGROUP failed as after FLUSHALL', async () => {
    expect(await writer.exists('left-by-test-1', 'jobs')).toBe(0);
    expect(groupRead.v).toEqual(['err', xreadgroupError]);
    expect([popped.v, read.v]).toEqual(['pending', 'pending']);
    expect(streamsKeyspace(writer).blockedCount).toBe(2);
    expect(popper.status).toBe('ready');
    expect(await writer.zadd('q', 1, 'm')).toBe(1);
    await turns();
    expect(popped.v).toEqual(['ok', ['q', 'm', '1']]);
  });

  it('test 3: the XREAD blocked since beforeAll is served by this test\'s XADD; no warning was printed', async () => {
    expect(read.v).toBe('pending');
    expect(await writer.xadd('events', '5-1', 'f', 'v')).toBe('5-1');
    await turns();
    expect(read.v).toEqual(['ok', [['events', [['5-1', ['f', 'v']]]]]]);
    expect(await reader.ping()).toBe('PONG'); // nothing queued behind a dead read
    expect(warnings.filter((w) => w.includes('blocked call'))).toEqual([]);
  });
});

describe('blocked reads of clients a test created', () => {
  const warnings: string[] = [];
  let warn: jest.SpyInstance;
  let shared: any;
  let sharedRead: { v: Settled };
  let own: any;
  let ownRead: { v: Settled };
  beforeAll(async () => {
    warn = jest.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void warnings.push(a.map(String).join(' ')));
    shared = new Redis({ port: 33_091 });
    sharedRead = track(shared.blpop('shared-q', 0));
    await turns();
  });
  afterAll(async () => {
    warn.mockRestore();
    await shared.quit();
  });

  it('leaves a BZPOPMIN of its own client blocked', async () => {
    own = new Redis({ port: 33_091 });
    ownRead = track(own.bzpopmin('own-q', 0));
    await turns();
    expect(streamsKeyspace(shared).blockedCount).toBe(2);
  });

  it('that read was rejected "Connection is closed." and its command named; the beforeAll client\'s BLPOP still waits', async () => {
    expect(ownRead.v).toEqual(['err', 'Connection is closed.']);
    expect(own.status).toBe('end');
    const named = warnings.filter((w) => w.includes('blocked call'));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain(
      'test "blocked reads of clients a test created leaves a BZPOPMIN of its own client blocked" ended with 1 blocked call ' +
        '(BLPOP, BZPOPMIN, XREAD … BLOCK and the like) of clients it created: BZPOPMIN.',
    );
    expect(sharedRead.v).toBe('pending');
    const pusher = new Redis({ port: 33_091 });
    expect(await pusher.rpush('shared-q', 'a')).toBe(1);
    await turns();
    expect(sharedRead.v).toEqual(['ok', ['shared-q', 'a']]);
  });
});
