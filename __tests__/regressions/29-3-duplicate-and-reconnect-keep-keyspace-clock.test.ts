/**
 * A client's `streams` option (clock, Redis version) configures its keyspace when the client is
 * created. `duplicate()` (which the README advises for blocking readers) and a reconnection
 * applied it again, silently undoing a clock or version set since with
 * `streamsKeyspace(redis).setClock()` / `setRedisVersion()` (found by a fresh-user trial). Now
 * only a client's creation applies it; `duplicate({ streams })` applies the override's.
 */
import Redis, { createFakeClock, realClock, streamsKeyspace } from '../../lib/index';

describe("a client's streams option is applied when it is created, not again", () => {
  it('duplicate() keeps the clock and version set after the original was created', async () => {
    const first = createFakeClock({ now: 1_000 });
    const a = new Redis({ port: 58_350, streams: { clock: first, redisVersion: '7.0' } });
    const ks = streamsKeyspace(a);
    ks.setClock(realClock);
    ks.setRedisVersion('8.0');
    const b = a.duplicate();
    await b.ping();
    expect(ks.clock).toBe(realClock);
    expect(ks.redisVersion).toBe('8.0');
    // the duplicate is a client of the same keyspace with the other options kept
    expect(streamsKeyspace(b).clock).toBe(realClock);
    expect(b.options.port).toBe(58_350);
    a.disconnect();
    b.disconnect();
  });

  it('duplicate({ streams }) applies the override', async () => {
    const a = new Redis({ port: 58_351 });
    const clock = createFakeClock({ now: 5_000 });
    const b = a.duplicate({ streams: { clock } });
    expect(await b.xadd('s', '*', 'f', 'v')).toBe('5000-0');
    a.disconnect();
    b.disconnect();
  });

  it('a reconnection keeps the clock set since the client was created', async () => {
    const first = createFakeClock({ now: 1_000 });
    const a = new Redis({ port: 58_352, streams: { clock: first } });
    await a.ping();
    const later = createFakeClock({ now: 9_000 });
    streamsKeyspace(a).setClock(later);
    const reconnected = new Promise((resolve) => a.once('ready', resolve));
    a.disconnect(true); // ioredis: close, then reconnect
    await reconnected;
    expect(streamsKeyspace(a).clock).toBe(later);
    expect(await a.xadd('s', '*', 'f', 'v')).toBe('9000-0');
    a.disconnect();
  });
});
