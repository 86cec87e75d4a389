/**
 * MEMORY USAGE looks its key up without touching it (object.c objectCommandLookup:
 * LOOKUP_NOTOUCH): OBJECT IDLETIME after it is what it was before, as redis-server 7.0.15 and a
 * post-7.4 build answer (SET, 2.2 s, MEMORY USAGE, OBJECT IDLETIME → 2). Found by a fresh-user trial.
 */
import IORedisReal from 'ioredis';
import Redis, { createFakeClock } from 'ioredis-mock-streams';

let port = 51_400;

describe('MEMORY USAGE and the idle time', () => {
  it.each(['7.0', '8.10'])('leaves the idle time of a string, a hash and a stream as it was (%s)', async (redisVersion) => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = new Redis({ port: port++, streams: { clock, redisVersion } } as never) as unknown as IORedisReal;
    try {
      await r.set('s', 'v');
      await r.hset('h', 'f', 'v');
      await r.xadd('x', '*', 'f', 'v');
      clock.tick(5000);
      for (const k of ['s', 'h', 'x']) expect(await r.memory('USAGE', k)).toBeGreaterThan(0);
      expect(await Promise.all(['s', 'h', 'x'].map((k) => r.object('IDLETIME', k)))).toEqual([5, 5, 5]);
      await r.get('s'); // a read is an access
      expect(await r.object('IDLETIME', 's')).toBe(0);
    } finally {
      r.disconnect();
    }
  });
});
