/**
 * The one-line jest route: with `jest.mock('ioredis', …)` to this package, `import { Cluster }
 * from 'ioredis'` (and `Redis.Cluster`) is the fake Cluster; a worker written against
 * `new Cluster([...])` runs unchanged, under jest's fake timers too (nextTick and setImmediate
 * left real, as ioredis's client code needs them).
 */
jest.mock('ioredis', () => require('ioredis-mock-streams'));
import Redis, { Cluster } from 'ioredis';

const CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";

/** Code under test: a worker that reads two streams of one slot. */
async function work(redis: Cluster): Promise<string[]> {
  await redis.xgroup('CREATE', '{jobs}:a', 'g', '0', 'MKSTREAM');
  await redis.xgroup('CREATE', '{jobs}:b', 'g', '0', 'MKSTREAM');
  await redis.xadd('{jobs}:a', '1-1', 'n', '1');
  await redis.xadd('{jobs}:b', '1-2', 'n', '2');
  const read = (await redis.xreadgroup('GROUP', 'g', 'w', 'STREAMS', '{jobs}:a', '{jobs}:b', '>', '>')) as [string, [string, string[]][]][];
  return read.flatMap(([, entries]) => entries.map(([id]) => id));
}

describe("jest.mock('ioredis') route: Cluster", () => {
  it('is the fake Cluster as the named export and as Redis.Cluster', async () => {
    expect(Redis.Cluster).toBe(Cluster);
    const cluster = new Cluster([{ host: '127.0.0.1', port: 7500 }]);
    expect(await work(cluster)).toEqual(['1-1', '1-2']);
    await expect(cluster.mget('jobs:a', 'jobs:b')).rejects.toThrow(CROSSSLOT);
    await cluster.quit();
  });

  // ioredis's own client code waits on process.nextTick / setImmediate (as against a real
  // cluster): those stay real, the timers (setTimeout, Date) are faked.
  it("connects and answers under jest fake timers that leave nextTick and setImmediate real", async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const cluster = new Cluster([{ host: '127.0.0.1', port: 7510 }]);
      expect(await cluster.set('{k}', 'v')).toBe('OK');
      expect(await cluster.get('{k}')).toBe('v');
      await cluster.quit();
    } finally {
      jest.useRealTimers();
    }
  });
});
