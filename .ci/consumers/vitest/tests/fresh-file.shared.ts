// Each test file starts on a fresh fake in the pools that give it a worker of its own (threads,
// forks): the fresh-file-*.test.ts files each call this, which sets a clock, CONFIG and a key
// outside the file's tests and checks it found none of that from a file before it (whichever
// runs first). (A function, not module-scope code: vitest's vm pools evaluate a shared module once.)
import Redis from 'ioredis';
import { createFakeClock } from 'ioredis-mock-streams';
import { expect, it } from 'vitest';

export async function freshFileTests(): Promise<void> {
  const redis = new Redis({ streams: { clock: createFakeClock({ now: 5000 }) } });
  const policyBefore = (await redis.config('GET', 'maxmemory-policy'))[1];
  const clientsBefore = (await redis.client('LIST')).trim().split('\n').length;
  const keysBefore = await redis.dbsize();
  await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
  await redis.set('left-by-an-earlier-file', '1');

  it('starts on a fresh server: default CONFIG, its own client only, no keys', () => {
    expect(policyBefore).toBe('noeviction');
    expect(clientsBefore).toBe(1);
    expect(keysBefore).toBe(0);
  });

  it('keeps what it set outside its tests in its own tests', async () => {
    expect(await redis.xadd('s', '*', 'f', 'v')).toBe('5000-0');
    expect((await redis.config('GET', 'maxmemory-policy'))[1]).toBe('allkeys-lru');
  });
}
