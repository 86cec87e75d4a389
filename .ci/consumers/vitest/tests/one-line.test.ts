import { afterEach, expect, it, vi } from 'vitest';
import Redis, { Redis as NamedRedis } from 'ioredis';
import { resetAllKeyspaces } from 'ioredis-mock-streams';

vi.mock('ioredis', () => import('ioredis-mock-streams'));
afterEach(() => resetAllKeyspaces());

it('vi.mock one-liner: default and named imports are the fake', async () => {
  const redis = new Redis();
  expect(await redis.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
  expect(await redis.xinfo('GROUPS', 's')).toEqual([]);
  expect(NamedRedis).toBe(Redis);
  redis.disconnect();
});
