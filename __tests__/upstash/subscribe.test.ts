/**
 * @upstash/redis 1.39.0's `redis.subscribe()` / `psubscribe()` against the fake through msw:
 * the SDK opens `POST /subscribe/<channel>` (`/psubscribe/<pattern>`) with `Accept:
 * text/event-stream` and reads `data: <kind>,<channel>,<payload>` lines (its Subscriber class);
 * the fake answered 400 before (found by running the SDK's own subscribe tests). Messages come
 * from PUBLISH over REST and from fake ioredis clients of the same keyspace.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Redis as UpstashRedis } from '@upstash/redis';
import { setupServer } from 'msw/node';
import Redis from 'ioredis-mock-streams';
import { createUpstashHandler } from 'ioredis-mock-streams/upstash';
import { upstashHandlers } from 'ioredis-mock-streams/msw';

const URL_ = 'https://fake.upstash.io';
const TOKEN = 'test-token';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Resolves once `check()` holds (polled on real timers), or rejects after `ms`. */
async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function client(handler = createUpstashHandler({ url: URL_, token: TOKEN })) {
  server.use(...upstashHandlers(handler));
  return { handler, redis: new UpstashRedis({ url: URL_, token: TOKEN, enableAutoPipelining: false }) };
}

describe('@upstash/redis subscribe() through the Upstash handler', () => {
  it('delivers published messages in order, JSON-parsed as the SDK does, and the subscribe count', async () => {
    const { redis } = client();
    const subscriber = redis.subscribe<unknown>(['news']);
    const counts: number[] = [];
    const messages: unknown[] = [];
    subscriber.on('subscribe', (n) => counts.push(n));
    subscriber.on('message', (m) => messages.push([m.channel, m.message]));
    await until(() => counts.length === 1);
    expect(counts).toEqual([1]);
    expect(await redis.publish('news', 'hello')).toBe(1);
    expect(await redis.publish('news', { n: 1 })).toBe(1);
    expect(await redis.publish('other', 'not for us')).toBe(0);
    await until(() => messages.length === 2);
    expect(messages).toEqual([
      ['news', 'hello'],
      ['news', { n: 1 }],
    ]);
    await subscriber.unsubscribe();
    // the subscription's connection is gone: nobody receives the next message
    await until(() => false, 50).catch(() => undefined);
    expect(await redis.publish('news', 'after')).toBe(0);
  });

  it('delivers pmessage with the pattern, and messages a fake ioredis client publishes on the same keyspace', async () => {
    const publisher = new Redis({ port: 52_001 });
    const { redis } = client(createUpstashHandler({ url: URL_, token: TOKEN, redis: publisher }));
    const subscriber = redis.psubscribe<unknown>(['job:*']);
    const got: unknown[] = [];
    let subscribed = 0;
    subscriber.on('psubscribe', (n) => (subscribed = n));
    subscriber.on('pmessage', (m) => got.push([m.pattern, m.channel, m.message]));
    await until(() => subscribed === 1);
    // the SDK JSON-parses a pmessage's payload (1.39.0: a non-JSON one is an 'error' event, as
    // with real Upstash): an ioredis publisher sends JSON text, as the SDK's publish() does
    expect(await publisher.publish('job:1', JSON.stringify({ ok: true }))).toBe(1);
    await until(() => got.length === 1);
    expect(got).toEqual([['job:*', 'job:1', { ok: true }]]);
    await subscriber.unsubscribe();
    publisher.disconnect();
  });

  it('counts each subscription in PUBSUB NUMSUB while it lasts, and closing the handler ends it', async () => {
    const io = new Redis({ port: 52_002 });
    const { handler, redis } = client(createUpstashHandler({ url: URL_, token: TOKEN, redis: io }));
    const subscriber = redis.subscribe(['a']);
    let subscribed = false;
    subscriber.on('subscribe', () => (subscribed = true));
    await until(() => subscribed);
    expect(await redis.exec(['PUBSUB', 'NUMSUB', 'a'])).toEqual(['a', 1]);
    expect(await io.publish('a', '"x"')).toBe(1);
    handler.close();
    // the same keyspace, through the ioredis client: nobody subscribed any more
    expect(await io.publish('a', '"x"')).toBe(0);
    await subscriber.unsubscribe();
    io.disconnect();
  });

  it('ends the subscription on unsubscribe() also after a garbage collection (msw copies the request; its signal follows the SDK\'s only while that copy lives)', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const { redis } = client();
    const subscriber = redis.subscribe(['c1', 'c2']);
    let subscribed = 0;
    subscriber.on('subscribe', () => subscribed++);
    await until(() => subscribed === 2);
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    await subscriber.unsubscribe(['c1']);
    await until(() => false, 30).catch(() => undefined);
    expect(await redis.publish('c1', 'after')).toBe(0);
    expect(await redis.publish('c2', 'still')).toBe(1);
    await subscriber.unsubscribe();
  });

  it('still refuses SUBSCRIBE sent as a command in the body (only the event-stream endpoint serves it)', async () => {
    const { redis } = client();
    await expect(redis.exec(['SUBSCRIBE', 'a'])).rejects.toThrow("ERR Command is not available over the REST API: 'SUBSCRIBE'");
  });
});
