import 'ioredis-mock-streams/vitest';
import { expect, it } from 'vitest';
import Redis, { Redis as NamedRedis } from 'ioredis';

it('importing the setup entry mocks ioredis for this file', async () => {
  const redis = new Redis();
  await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
  await redis.xadd('s', '1-0', 'f', 'v');
  const read = await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
  expect(read).toEqual([['s', [['1-0', ['f', 'v']]]]]);
  expect(NamedRedis).toBe(Redis);
  redis.disconnect();
});

it('resets between tests', async () => {
  const redis = new Redis();
  expect(await redis.exists('s')).toBe(0);
  redis.disconnect();
});
