// README:begin
import { Redis } from '@upstash/redis';
import { setupServer } from 'msw/node';
import { createFakeClock } from 'ioredis-mock-streams';
import { createUpstashHandler } from 'ioredis-mock-streams/upstash';
import { upstashHandlers } from 'ioredis-mock-streams/msw';
import { UpstashStreamConsumer } from '../examples/upstash-consumer';

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
const upstash = createUpstashHandler({ url: 'https://fake.upstash.io', token: 'test-token', streams: { clock } });
const server = setupServer(...upstashHandlers(upstash));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => upstash.keyspace.reset());
afterAll(() => server.close());

const redis = new Redis({ url: 'https://fake.upstash.io', token: 'test-token' });

it('retries a failed job once it is idle for 30 s, and dead-letters it after 3 deliveries', async () => {
  let flakyAttempts = 0;
  const handle = async (fields: Record<string, unknown>) => {
    if (fields.job === 'flaky' && ++flakyAttempts === 1) throw new Error('SMTP timeout');
    if (fields.job === 'broken') throw new Error('bad address');
  };
  const consumer = new UpstashStreamConsumer(redis, { stream: 'jobs', group: 'mailers', consumer: 'fn-1', handle });
  await consumer.ensureGroup();
  await redis.xadd('jobs', '*', { job: 'flaky', to: { email: 'a@example.com' } });
  await redis.xadd('jobs', '*', { job: 'broken' });

  expect(await consumer.consumeOnce()).toBe(0); // both failed: pending, delivered once

  clock.tick(29_999);
  expect(await consumer.reclaimOnce()).toEqual({ retried: 0, deadLettered: 0 }); // not idle long enough
  clock.tick(1);
  expect(await consumer.reclaimOnce()).toEqual({ retried: 1, deadLettered: 0 }); // flaky succeeds on retry

  clock.tick(30_000);
  await consumer.reclaimOnce(); // broken: 3rd delivery, fails again
  clock.tick(30_000);
  expect(await consumer.reclaimOnce()).toEqual({ retried: 0, deadLettered: 1 });

  expect(await redis.xpending('jobs', 'mailers', '-', '+', 10)).toEqual([]);
  expect(Object.values(await redis.xrange('jobs:dead', '-', '+'))).toEqual([
    { job: 'broken', failedId: '1704067200000-1' },
  ]);
});
// README:end

import { readFileSync } from 'fs';
import { join } from 'path';

describe('README: Serverless / @upstash/redis with msw', () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Serverless / @upstash/redis with msw'));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

  it('shows this test file as written', () => {
    const self = readFileSync(__filename, 'utf8');
    const code = self.slice(self.indexOf('// README:begin\n') + '// README:begin\n'.length, self.indexOf('// README:end'));
    expect(blocks).toContain(code.replace("'../examples/upstash-consumer'", "'./upstash-consumer'"));
  });

  it('shows the consumer as written', () => {
    const consumer = readFileSync(join(__dirname, '..', 'examples', 'upstash-consumer.ts'), 'utf8');
    expect(blocks).toContain(consumer);
  });
});
