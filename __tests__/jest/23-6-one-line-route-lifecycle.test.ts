/**
 * Issue 23, item 6: the one-line `jest.mock` route had none of the setup file's protections (data
 * kept between tests, a forgotten BLOCK loop kept jest from exiting, a retry loop after
 * resetAllKeyspaces() spun for ever). `useTestLifecycle()` at the top of the file gives it the
 * setup file's end-of-test behaviour.
 */
jest.mock('ioredis', () => require('ioredis-mock-streams'));
import Redis from 'ioredis';
import { streamsKeyspace, useTestLifecycle } from 'ioredis-mock-streams';

useTestLifecycle();
useTestLifecycle(); // a second call registers nothing more

let fromFirstTest: Redis;
let blocked: Promise<unknown>;

it('first test: writes data and leaves a read blocked', async () => {
  fromFirstTest = new Redis({ port: 23_060 });
  await fromFirstTest.xadd('s', '1-0', 'f', 'v');
  blocked = fromFirstTest.xread('BLOCK', 0, 'STREAMS', 's', '$').catch((e: Error) => e.message);
  expect(streamsKeyspace(fromFirstTest).blockedCount).toBe(1);
});

it('second test: the data is gone, the blocked read was released and the first test’s client closed', async () => {
  expect(await blocked).toBe('Connection is closed.');
  expect(fromFirstTest.status).toBe('end');
  const redis = new Redis({ port: 23_060 });
  expect(await redis.exists('s')).toBe(0);
});

it('useTestLifecycle() outside a test file throws a StreamsMockError saying where to call it', () => {
  const g = globalThis as { beforeEach?: unknown };
  const saved = g.beforeEach;
  g.beforeEach = undefined;
  try {
    expect(() => useTestLifecycle()).toThrow(
      '[ioredis-mock-streams] useTestLifecycle() registers beforeEach/afterEach hooks: call it at the top of a jest (or vitest with globals) test file',
    );
  } finally {
    g.beforeEach = saved;
  }
});
