/**
 * Several clients woken by one command: each gets what Redis serves it (in blocking order), and
 * their replies arrive last served first, then the waking command's own — Redis queues each
 * served client at the head of its pending writes (networking.c putClientInPendingWriteQueue,
 * listLinkNodeHead). Real 7.0.15 and the post-7.4 build alike; the fake settled them in serving
 * order (found by a fresh-user trial). Compared with real ioredis (5.11.1, 6.0.0, 6.1.0).
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Three readers block in turn (`block`), then the writer's `wake`: the order their calls settle in. */
function wakeThree(block: (r: Client, key: string) => Promise<unknown>, wake: (w: Client, key: string) => Promise<unknown>) {
  return async (w: Client, { key, other }: { key: string; other: (o?: Record<string, unknown>) => Client }) => {
    const readers = [0, 1, 2].map(() => other({ db: 13 }));
    for (const r of readers) await r.ping();
    const log: string[] = [];
    const calls: Promise<unknown>[] = [];
    for (const [i, r] of readers.entries()) {
      calls.push(block(r, key).then((v) => log.push(`reader ${i}: ${JSON.stringify(v).replace(/\d+-\d+/g, 'ID')}`)));
      await sleep(15); // blocked in this order
    }
    calls.push(wake(w, key).then(() => log.push('writer')));
    await Promise.all(calls);
    await w.del(key);
    return log;
  };
}

const cases: ClientCase[] = [
  [
    'BLPOP ×3 woken by one RPUSH of three elements',
    {},
    wakeThree(
      (r, key) => r.blpop(key, 0),
      (w, key) => w.rpush(key, 'e1', 'e2', 'e3'),
    ),
    (key: string) => [`reader 2: ["${key}","e3"]`, `reader 1: ["${key}","e2"]`, `reader 0: ["${key}","e1"]`, 'writer'],
  ],
  [
    'XREAD BLOCK ×3 woken by one XADD',
    {},
    wakeThree(
      (r, key) => r.xread('BLOCK', 0, 'STREAMS', key, '$'),
      (w, key) => w.xadd(key, '*', 'f', 'v'),
    ),
    (key: string) => [2, 1, 0].map((i) => `reader ${i}: [["${key}",[["ID",["f","v"]]]]]`).concat('writer'),
  ],
];

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(cases, { firstPort: 56_340, base: { db: 13 }, keyPrefix: 'woken-order', subject: 'real ioredis', verb: 'settles woken readers last served first' });
