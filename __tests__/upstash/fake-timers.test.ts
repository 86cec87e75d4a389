/**
 * @upstash/redis through msw with the default global clock driven by jest's fake timers: the
 * REST path sets no timer of its own, so nothing stalls, and idle times follow
 * `jest.advanceTimersByTime`.
 */
import { Redis } from '@upstash/redis';
import { setupServer } from 'msw/node';
import { upstashHandlers } from 'ioredis-mock-streams/msw';
import { createUpstashHandler } from 'ioredis-mock-streams/upstash';

const upstash = createUpstashHandler({ url: 'https://fake.upstash.io' });
const server = setupServer(...upstashHandlers(upstash));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  upstash.close();
});

it('takes IDs and idle times from jest fake timers through msw', async () => {
  jest.useFakeTimers({ now: Date.UTC(2024, 0, 1) });
  const redis = new Redis({ url: 'https://fake.upstash.io', token: 't' });
  expect(await redis.xadd('s', '*', { a: 1 })).toBe('1704067200000-0');
  await redis.xgroup('s', { type: 'CREATE', group: 'g', id: '0' });
  await redis.xreadgroup('g', 'c', 's', '>');
  jest.advanceTimersByTime(5000);
  expect(await redis.xpending('s', 'g', '-', '+', 10)).toEqual([['1704067200000-0', 'c', 5000, 1]]);
  jest.useRealTimers();
});
