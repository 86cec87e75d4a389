/**
 * An in-process server starts with its first connection, on db 0's clock: LASTSAVE answers that
 * start (in seconds) until a save, as a fresh redis-server answers its start time (it answered 0,
 * 1970, found by the fresh-user trial), and INFO's uptime counts from it.
 */
import Redis, { createFakeClock } from 'ioredis-mock-streams';

describe('an in-process server’s start', () => {
  it('LASTSAVE is the start until SAVE; uptime_in_seconds follows the clock', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_500 });
    const r = new Redis({ port: 29_201, streams: { clock } });
    expect(await r.lastsave()).toBe(1_700_000_000);
    clock.tick(7_000);
    expect((await r.info('server')).match(/uptime_in_seconds:(\d+)/)?.[1]).toBe('7');
    expect(await r.lastsave()).toBe(1_700_000_000);
    await r.save();
    expect(await r.lastsave()).toBe(1_700_000_007);
    r.disconnect();
  });
});
