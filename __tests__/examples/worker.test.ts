/**
 * The README's worker example, tested end to end on the fake with a fake clock: 100 tests,
 * each simulating minutes of worker time (blocking reads, idle timeouts, reclaims), in seconds.
 */
import Redis from 'ioredis';
import { createFakeClock, FakeClock, streamsKeyspace } from 'ioredis-mock-streams';
import { StreamWorker } from './worker';

jest.mock('ioredis', () => require('ioredis-mock-streams'));

const MIN_IDLE = 30_000;
const MAX_DELIVERIES = 3;
let port = 20_000;

async function setUp(failures: number) {
  const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
  const redis = new Redis({ port: port++, streams: { clock } });
  let attempts = 0;
  const processed: string[] = [];
  const worker = new StreamWorker(redis, {
    stream: 'jobs',
    group: 'workers',
    consumer: 'w1',
    blockMs: 5_000,
    minIdleMs: MIN_IDLE,
    maxDeliveries: MAX_DELIVERIES,
    handle: async (fields) => {
      attempts++;
      if (attempts <= failures) throw new Error('transient failure');
      processed.push(fields.job);
    },
  });
  await worker.ensureGroup();
  return { clock, redis, worker, processed, attempts: () => attempts };
}

/** Drive the worker for `minutes` of simulated time: consume rounds, then reclaim when idle. */
async function drive(clock: FakeClock, worker: StreamWorker, minutes: number) {
  const end = clock.now() + minutes * 60_000;
  while (clock.now() < end) {
    const round = worker.consumeOnce();
    await clock.tickAsync(5_000); // the BLOCK 5000 read times out (or was served earlier)
    await round;
    await worker.reclaimOnce();
    await clock.tickAsync(MIN_IDLE);
  }
}

describe('example worker (consumer loop + XAUTOCLAIM reclaimer + dead letters)', () => {
  const cases = Array.from({ length: 100 }, (_, i) => i % 6); // 0..5 failures before success

  it.each(cases.map((failures, i) => [i, failures]))(
    'run %i: a job failing %i times is retried until it succeeds, or dead-lettered after 3 deliveries',
    async (_i, failures) => {
      const { clock, redis, worker, processed, attempts } = await setUp(failures as number);
      const id = await redis.xadd('jobs', '*', 'job', 'send-email');
      await drive(clock, worker, 5);

      const pending = await redis.xpending('jobs', 'workers');
      expect(pending[0]).toBe(0); // nothing left pending
      const dead = (await redis.xrange('jobs:dead', '-', '+')) as [string, string[]][];
      if ((failures as number) < MAX_DELIVERIES) {
        expect(processed).toEqual(['send-email']);
        expect(attempts()).toBe((failures as number) + 1);
        expect(dead).toEqual([]);
      } else {
        expect(processed).toEqual([]);
        expect(attempts()).toBe(MAX_DELIVERIES);
        expect(dead).toHaveLength(1);
        expect(dead[0][1]).toEqual(['job', 'send-email', 'origin-id', id, 'deliveries', String(MAX_DELIVERIES + 1)]);
      }
      expect(streamsKeyspace(redis).blockedCount).toBe(0);
      redis.disconnect();
    },
  );
});
