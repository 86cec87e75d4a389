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
