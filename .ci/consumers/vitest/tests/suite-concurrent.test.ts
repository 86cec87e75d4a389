// Concurrent tests (describe.concurrent): vitest runs each test's hooks, so the setup entry's
// reset after a test waits until every test running at the same time has ended — a test that
// ends first does not empty the keys (nor close the clients) of one still running.
import { setTimeout as realSetTimeout } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import Redis from 'ioredis';

const observer = new Redis();
afterAll(async () => {
  // all of them ended: the keyspace was reset after the last one
  if ((await observer.exists('first', 'second')) !== 0) throw new Error('the keys outlived the concurrent tests');
});

let firstEnded = false;
describe.concurrent('tests running at the same time', () => {
  it('a test that ends first', async ({ expect }) => {
    const redis = new Redis();
    expect(await redis.set('first', '1')).toBe('OK');
    firstEnded = true;
  });

  it('a test still running when the other ends keeps its keys and its client', async ({ expect }) => {
    const redis = new Redis();
    await redis.set('second', '2');
    for (let i = 0; i < 100 && !firstEnded; i++) await realSetTimeout(5);
    await realSetTimeout(20); // the first test's afterEach hooks have run by now
    expect(firstEnded).toBe(true);
    expect(redis.status).toBe('ready');
    expect(await redis.mget('first', 'second')).toEqual(['1', '2']);
  });
});
