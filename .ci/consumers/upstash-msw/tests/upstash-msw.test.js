// @upstash/redis against the fake Upstash REST API served by msw (ioredis-mock-streams/msw): a
// consumer group read, a claim after idle time on the fake clock, and an error answered as
// Upstash answers it. MSW_MAJOR (set by .ci/matrix.sh) is the msw major this project installed.
const { Redis } = require('@upstash/redis');
const { setupServer } = require('msw/node');
const { createFakeClock } = require('ioredis-mock-streams');
const { createUpstashHandler } = require('ioredis-mock-streams/upstash');
const { upstashHandlers } = require('ioredis-mock-streams/msw');

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
const upstash = createUpstashHandler({ url: 'https://fake.upstash.io', token: 't', streams: { clock } });
const server = setupServer(...upstashHandlers(upstash));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => upstash.keyspace.reset());
afterAll(() => server.close());

const redis = new Redis({ url: 'https://fake.upstash.io', token: 't' });

it('runs on the msw major the matrix installed', () => {
  expect(require('msw/package.json').version.split('.')[0]).toBe(process.env.MSW_MAJOR);
});

it('reads a group, then claims the entry once it has been idle 30 s on the fake clock', async () => {
  await redis.xgroup('jobs', { type: 'CREATE', group: 'g', id: '$', options: { MKSTREAM: true } });
  expect(await redis.xadd('jobs', '*', { job: 'a' })).toBe('1704067200000-0');
  expect(await redis.xreadgroup('g', 'c1', 'jobs', '>')).toEqual([['jobs', [['1704067200000-0', ['job', 'a']]]]]);
  clock.tick(29_999);
  expect(await redis.xautoclaim('jobs', 'g', 'c2', 30_000, '0-0')).toEqual(['0-0', [], []]);
  clock.tick(1);
  expect(await redis.xautoclaim('jobs', 'g', 'c2', 30_000, '0-0')).toEqual(['0-0', [['1704067200000-0', ['job', 'a']]], []]);
});

it('answers a command error as Upstash does: HTTP 400 {error}, thrown by the client', async () => {
  await expect(redis.xreadgroup('nogroup', 'c', 'nostream', '>')).rejects.toThrow(/NOGROUP/);
});

it('delivers a published message to redis.subscribe(), and unsubscribe() ends the subscription', async () => {
  const subscriber = redis.subscribe(['news']);
  const got = [];
  let subscribed = false;
  subscriber.on('subscribe', () => (subscribed = true));
  subscriber.on('message', (m) => got.push(m.message));
  const until = async (check) => {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(check()).toBe(true);
  };
  await until(() => subscribed);
  expect(await redis.publish('news', { n: 1 })).toBe(1);
  await until(() => got.length === 1);
  expect(got).toEqual([{ n: 1 }]);
  await subscriber.unsubscribe();
  let receivers = 1;
  for (let i = 0; i < 50 && receivers !== 0; i++) {
    receivers = await redis.publish('news', 'after');
    if (receivers !== 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(receivers).toBe(0);
});
