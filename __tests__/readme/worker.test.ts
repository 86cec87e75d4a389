// README:begin
jest.mock('ioredis', () => require('ioredis-mock-streams'));
import Redis from 'ioredis';
import { createFakeClock } from 'ioredis-mock-streams';

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
const redis = new Redis({ port: 20001, streams: { clock } });
afterAll(() => redis.disconnect());

it('retries an entry whose handler failed once it has been idle for 30 s', async () => {
  await redis.xgroup('CREATE', 'jobs', 'workers', '$', 'MKSTREAM');
  const id = '1704067200000-0'; // XADD * takes the ID from the fake clock
  expect(await redis.xadd('jobs', '*', 'job', 'send-email')).toBe(id);

  // the consumer loop's round: XREADGROUP … BLOCK 5000; its handler fails, so no XACK
  const read = await redis.xreadgroup('GROUP', 'workers', 'w1', 'COUNT', 10, 'BLOCK', 5000, 'STREAMS', 'jobs', '>');
  expect(read).toEqual([['jobs', [[id, ['job', 'send-email']]]]]);

  // the next round finds nothing: it ends when the fake clock passes 5 s, not after 5 real seconds
  const empty = redis.xreadgroup('GROUP', 'workers', 'w1', 'COUNT', 10, 'BLOCK', 5000, 'STREAMS', 'jobs', '>');
  await clock.tickAsync(5_000);
  expect(await empty).toBeNull();

  // the reclaimer: XAUTOCLAIM min-idle 30 s takes the entry only once it has been idle that long
  expect(await redis.xautoclaim('jobs', 'workers', 'w2', 30_000, '0-0', 'COUNT', 10)).toEqual(['0-0', [], []]);
  await clock.tickAsync(25_000); // 30 s since the delivery
  expect(await redis.xautoclaim('jobs', 'workers', 'w2', 30_000, '0-0', 'COUNT', 10)).toEqual([
    '0-0',
    [[id, ['job', 'send-email']]],
    [],
  ]);
  expect(await redis.xpending('jobs', 'workers', '-', '+', 10)).toEqual([[id, 'w2', 0, 2]]); // delivered twice
  expect(await redis.xack('jobs', 'workers', id)).toBe(1);
});
// README:end

import { readFileSync } from 'fs';
import { join } from 'path';

describe('README: a worker tested with the fake clock', () => {
  it('shows this test file as written', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Example: a worker tested with the fake clock'));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    const self = readFileSync(__filename, 'utf8');
    expect(blocks).toContain(self.slice(self.indexOf('// README:begin\n') + '// README:begin\n'.length, self.indexOf('// README:end')));
  });
});
