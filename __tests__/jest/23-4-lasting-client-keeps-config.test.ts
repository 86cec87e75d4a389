/**
 * Issue 23, item 4: the setup file put every keyspace back on the default clock and Redis 8.10
 * after each test, so a client made at module scope or in `beforeAll` with `streams: { clock }`
 * ran the second test on wall time and 8.10 (a BLOCK that took 48 ms of fake time in the first
 * test waited 5 real seconds in the second). A client that outlives a test keeps the
 * configuration it was created with; data is still emptied between tests.
 */
require('ioredis-mock-streams/jest');

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace, createFakeClock } = require('ioredis-mock-streams');

const clock = createFakeClock({ now: 1_700_000_000_000 });
const atModuleScope = new Redis({ port: 23_040, streams: { clock, redisVersion: '7.0' } });
let inBeforeAll: any;
const beforeAllClock = createFakeClock({ now: 1_800_000_000_000 });
beforeAll(() => {
  inBeforeAll = new Redis({ port: 23_041, streams: { clock: beforeAllClock, redisVersion: '8.0' } });
});
afterAll(() => {
  atModuleScope.disconnect();
  inBeforeAll.disconnect();
});

describe.each([1, 2, 3])('test %i of a file whose clients were made outside tests', (n) => {
  it('the module-scope client is still on its fake clock and Redis 7.0, with no data from the test before', async () => {
    expect(streamsKeyspace(atModuleScope).clock).toBe(clock);
    expect(streamsKeyspace(atModuleScope).clock.now()).toBe(1_700_000_000_000 + (n - 1) * 48);
    expect(streamsKeyspace(atModuleScope).redisVersion).toBe('7.0');
    expect(await atModuleScope.exists('s')).toBe(0);
    // a BLOCK of 48 ms answers after 48 ms of the fake clock, in every test
    const read = atModuleScope.xread('BLOCK', 48, 'STREAMS', 's', '$');
    await clock.tickAsync(48);
    expect(await read).toBeNull();
    await atModuleScope.xadd('s', '*', 'f', 'v');
  });

  it('the beforeAll client is still on its own fake clock and Redis 8.0', () => {
    expect(streamsKeyspace(inBeforeAll).clock).toBe(beforeAllClock);
    expect(streamsKeyspace(inBeforeAll).redisVersion).toBe('8.0');
  });

  it('a client made inside a test without options still gets the defaults on a keyspace of its own', () => {
    const local = new Redis({ port: 23_042 });
    expect(streamsKeyspace(local).redisVersion).toBe('8.10');
    expect(streamsKeyspace(local).clock.kind).toBe('global');
  });
});

export {}; // a module, not a script: its names stay its own
