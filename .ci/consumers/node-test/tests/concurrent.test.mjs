// Concurrent tests ({ concurrency: true }): node:test runs each test's hooks, so the register
// entry's reset after a test waits until every test running at the same time has ended — a test
// that ends first does not empty the keys (nor close the clients) of one still running.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as realSetTimeout } from 'node:timers/promises';
import Redis from 'ioredis';

const observer = new Redis();
let firstEnded = false;
describe('tests running at the same time', { concurrency: true }, () => {
  after(async () => {
    // all of them ended: the keyspace was reset after the last one
    assert.equal(await observer.exists('first', 'second'), 0);
  });

  it('a test that ends first', async () => {
    const redis = new Redis();
    assert.equal(await redis.set('first', '1'), 'OK');
    firstEnded = true;
  });

  it('a test still running when the other ends keeps its keys and its client', async () => {
    const redis = new Redis();
    await redis.set('second', '2');
    for (let i = 0; i < 100 && !firstEnded; i++) await realSetTimeout(5);
    await realSetTimeout(20); // the first test's afterEach hooks have run by now
    assert.equal(firstEnded, true);
    assert.equal(redis.status, 'ready');
    assert.deepEqual(await redis.mget('first', 'second'), ['1', '2']);
  });
});
