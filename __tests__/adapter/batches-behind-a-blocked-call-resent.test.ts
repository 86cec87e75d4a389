/**
 * A pipeline or transaction waiting behind a blocked call when the connection is lost
 * (disconnect(true), CLIENT KILL) is sent again once the client has reconnected, as ioredis
 * resends its unfulfilled commands (autoResendUnfulfilledCommands): the fake resent a plain
 * command but rejected the batches with "Connection is closed.", and their writes were lost
 * (found by a break-test). Unless the loss reaches `maxRetriesPerRequest` (0): ioredis's close
 * handler then rejects them all with MaxRetriesPerRequestError (the fake resent them). Run on the
 * fake and with real ioredis on both real servers.
 */
import { runOnFakeAndRealIoredis, type Client } from '../helpers/fake-and-real-ioredis';


/** After the commands above were sent: the connection lost (disconnect(true)), the client ready again. */
async function lostAndReconnected(r: Client): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  const reconnected = new Promise((resolve) => r.once('ready', resolve));
  r.disconnect(true);
  await reconnected;
}

const settled = (p: Promise<unknown>) =>
  p.then(
    (v) => v,
    (e: Error) => `rejected: ${e.message}`,
  );

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'a transaction, a pipeline and a command behind a blocked BLPOP are sent again after disconnect(true)',
      {},
      async (r, { key, other }) => {
        const [queue, a, b] = [`${key}:q`, `${key}:a`, `${key}:b`];
        const popped = settled(r.blpop(queue, 0));
        const transaction = settled(r.multi().set(a, '1').incr(a).exec());
        const pipeline = settled(r.pipeline().set(b, '1').incr(b).exec());
        const got = settled(r.get(b));
        await lostAndReconnected(r);
        const status = r.status;
        const w = other({ db: 13 });
        await w.rpush(queue, 'job');
        const out = [status, await popped, await transaction, await pipeline, await got, await w.mget(a, b)];
        await w.del(queue, a, b);
        return out;
      },
      (key: string) => [
        'ready',
        [`${key}:q`, 'job'],
        [
          [null, 'OK'],
          [null, 2],
        ],
        [
          [null, 'OK'],
          [null, 2],
        ],
        '2',
        ['2', '2'],
      ],
    ],
    [
      'and again when the connection is lost a second time before they ran',
      {},
      async (r, { key, other }) => {
        const [queue, a, b] = [`${key}:q`, `${key}:a`, `${key}:b`];
        const popped = settled(r.blpop(queue, 0));
        const transaction = settled(r.multi().set(a, '1').incr(a).exec());
        const pipeline = settled(r.pipeline().set(b, '1').incr(b).exec());
        for (let loss = 0; loss < 2; loss++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const reconnected = new Promise((resolve) => r.once('ready', resolve));
          r.disconnect(true);
          await reconnected;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        const w = other({ db: 13 });
        await w.rpush(queue, 'job');
        const out = [await popped, await transaction, await pipeline, await w.mget(a, b)];
        await w.del(queue, a, b);
        return out;
      },
      (key: string) => [
        [`${key}:q`, 'job'],
        [
          [null, 'OK'],
          [null, 2],
        ],
        [
          [null, 'OK'],
          [null, 2],
        ],
        ['2', '2'],
      ],
    ],
    [
      'with enableOfflineQueue: false too (what was sent before the loss is not the offline queue)',
      {},
      async (_r, { key, other }) => {
        const r = other({ db: 13, enableOfflineQueue: false });
        await new Promise((resolve) => r.once('ready', resolve));
        const [queue, a] = [`${key}:q`, `${key}:a`];
        const popped = settled(r.blpop(queue, 0));
        const transaction = settled(r.multi().set(a, '1').incr(a).exec());
        const got = settled(r.get(a));
        await lostAndReconnected(r);
        const w = other({ db: 13 });
        await w.rpush(queue, 'job');
        const out = [await popped, await transaction, await got];
        await w.del(queue, a);
        return out;
      },
      (key: string) => [
        [`${key}:q`, 'job'],
        [
          [null, 'OK'],
          [null, 2],
        ],
        '2',
      ],
    ],
    [
      'each is resent in the db the client had selected when it sent it (a SELECT queued behind the blocked call)',
      {},
      async (r, { key, other }) => {
        const [queue, order] = [`${key}:q`, `${key}:order`];
        const popped = settled(r.blpop(queue, 0)); // sent in db 13
        const selected = settled(r.select(12));
        const pushed = settled(r.rpush(order, 'c')); // sent in db 12
        await lostAndReconnected(r);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const [w13, w12] = [other({ db: 13 }), other({ db: 12 })];
        await w13.rpush(queue, 'v');
        const out = [await popped, await selected, await pushed, await r.ping(), await w12.lrange(order, 0, -1), await w13.exists(order)];
        await w13.del(queue);
        await w12.del(order);
        return out;
      },
      (key: string) => [[`${key}:q`, 'v'], 'OK', 1, 'PONG', ['c'], 0],
    ],
    [
      'with maxRetriesPerRequest 0 nothing is resent: the loss rejects each with MaxRetriesPerRequestError',
      { maxRetriesPerRequest: 0 },
      async (r, { key, other }) => {
        const [queue, a, b] = [`${key}:q`, `${key}:a`, `${key}:b`];
        const named = (p: Promise<unknown>) =>
          p.then(
            (v) => v,
            (e: Error) => `${e.name}: ${e.message}`,
          );
        const popped = named(r.blpop(queue, 0));
        const transaction = named(r.multi().set(a, '1').incr(a).exec());
        const pipeline = r.pipeline().set(b, '1').incr(b).exec().then((pairs: [Error | null, unknown][]) => pairs.map(([e]) => e?.name));
        const got = named(r.get(b));
        await lostAndReconnected(r);
        const w = other({ db: 13 });
        await w.rpush(queue, 'job');
        const out = [await popped, await transaction, await pipeline, await got, await w.mget(a, b), await w.llen(queue), await r.ping()];
        await w.del(queue, a, b);
        return out;
      },
      [
        'MaxRetriesPerRequestError: Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.',
        'MaxRetriesPerRequestError: Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.',
        ['MaxRetriesPerRequestError', 'MaxRetriesPerRequestError'],
        'MaxRetriesPerRequestError: Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.',
        [null, null],
        1,
        'PONG',
      ],
    ],
    [
      'disconnect(true) while reconnecting goes on reconnecting, and what was queued is sent once ready',
      {},
      async (r, { key }) => {
        const reconnecting = new Promise((resolve) => r.once('reconnecting', resolve));
        const reconnected = new Promise((resolve) => r.once('ready', resolve));
        r.disconnect(true);
        await reconnecting;
        r.disconnect(true);
        const status = r.status;
        const written = settled(r.set(key, 'v'));
        await reconnected;
        const out = [status, await written, await r.get(key), r.status];
        await r.del(key);
        return out;
      },
      ['reconnecting', 'OK', 'v', 'ready'],
    ],
  ],
  { firstPort: 56_180, base: { db: 13 }, keyPrefix: 'batches-resent', subject: 'real ioredis', verb: 'resends' },
);
