/**
 * The jest setup entry (`ioredis-mock-streams/jest`), loaded here the way
 * `setupFilesAfterEnv` would load it: before the code under test requires ioredis.
 */
require('ioredis-mock-streams/jest');

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
const { streamsKeyspace } = require('ioredis-mock-streams');

describe('jest setup file', () => {
  it('makes ioredis resolve to the fake, with the stream commands', async () => {
    const redis = new Redis({ port: 33_001, streams: { redisVersion: '7.0' } });
    expect(typeof redis.xautoclaim).toBe('function');
    expect(await redis.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    expect(streamsKeyspace(redis).redisVersion).toBe('7.0');
    redis.xread('BLOCK', 0, 'STREAMS', 's', '$'); // left blocked on purpose: the reset must release it
    expect(streamsKeyspace(redis).blockedCount).toBe(1);
  });

  it('resets keyspaces, blocked calls, clock and version between tests', async () => {
    const redis = new Redis({ port: 33_001 });
    expect(await redis.exists('s')).toBe(0);
    expect(streamsKeyspace(redis).blockedCount).toBe(0);
    expect(streamsKeyspace(redis).redisVersion).toBe('8.10');
    expect(streamsKeyspace(redis).clock.kind).toBe('global');
    redis.disconnect();
  });
});

describe('jest setup file: clients created during a test', () => {
  const atModuleScope = new Redis({ port: 33_002 });
  let inBeforeAll: any;
  let inBeforeEach: any;
  let inTest: any;
  let usedInAfterEach: unknown;
  beforeAll(() => {
    inBeforeAll = new Redis({ port: 33_002 });
  });
  beforeEach(() => {
    inBeforeEach ??= new Redis({ port: 33_002 });
  });
  afterEach(async () => {
    // the test's own afterEach hooks still have its clients
    usedInAfterEach ??= await inTest.xadd('s', '1-0', 'f', 'v');
  });

  it('creates clients (in the test and its beforeEach)', async () => {
    inTest = new Redis({ port: 33_002 });
    expect(await inTest.ping()).toBe('PONG');
    expect(inBeforeEach.status).toBe('ready');
  });

  it('are closed once the afterEach hooks of their test ran; beforeAll and module-scope clients stay open', async () => {
    expect(usedInAfterEach).toBe('1-0');
    expect(inTest.status).toBe('end');
    expect(inBeforeEach.status).toBe('end');
    await expect(inTest.xlen('s')).rejects.toThrow('Connection is closed.');
    expect(inBeforeAll.status).toBe('ready');
    expect(atModuleScope.status).toBe('ready');
    expect(await inBeforeAll.xlen('s')).toBe(0); // and the keyspace was reset after the test
  });
});
