import { expect, it } from 'vitest';
import Redis from 'ioredis';
import { createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

it('setupFiles: ioredis is the fake', async () => {
  const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
  const redis = new Redis({ streams: { clock } });
  expect(await redis.xadd('jobs', '*', 'job', 'a')).toBe('1704067200000-0');
  expect(streamsKeyspace(redis).clock).toBe(clock);
  redis.disconnect();
});

it('and keyspaces are reset after each test (clocks back to the default)', async () => {
  const redis = new Redis();
  expect(await redis.xlen('jobs')).toBe(0);
  expect(streamsKeyspace(redis).clock.kind).toBe('global');
  redis.disconnect();
});
