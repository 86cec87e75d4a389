/**
 * A server has one clock and one Redis version: a client made with `streams: { clock,
 * redisVersion: '7.0' }` that SELECTs another database (or a second client on `db: 10` of the same
 * port) used to find that database on the global clock and version 8.10 (INFO said 8.10.0, stream
 * IDs came from the real time). A database nobody configured now uses db 0's, and follows it when
 * it changes; one given its own (`streams` on a client of that db, setClock/setRedisVersion) keeps
 * its own.
 */
import Redis, { createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

const versionOf = async (r: InstanceType<typeof Redis>) => /redis_version:(\S+)/.exec(await r.info('server'))?.[1];

describe('every database of a server uses db 0’s clock and Redis version unless given its own', () => {
  it('a client that SELECTs db 10 keeps 7.0 and the fake clock: INFO, TIME and XADD IDs follow them', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = new Redis({ port: 29_101, streams: { clock, redisVersion: '7.0' } });
    expect(await versionOf(r)).toBe('7.0.15');
    await r.select(10);
    expect(await versionOf(r)).toBe('7.0.15');
    expect(await r.time()).toEqual(['1700000000', '0']);
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('1700000000000-0');
    expect(streamsKeyspace(r).clock).toBe(clock);
    r.disconnect();
  });

  it('a second client on db 3 follows what db 0 is given later, and a TTL there expires on that clock', async () => {
    const on3 = new Redis({ port: 29_102, db: 3 });
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    await on3.set('k', 'v', 'PX', 1000);
    const on0 = new Redis({ port: 29_102 });
    streamsKeyspace(on0).setClock(clock);
    streamsKeyspace(on0).setRedisVersion('7.2');
    expect(await versionOf(on3)).toBe('7.2.0');
    expect(streamsKeyspace(on3).clock).toBe(clock);
    await on3.set('t', 'v', 'PX', 1000);
    expect(await on3.pttl('t')).toBe(1000);
    clock.tick(1001); // past the deadline
    expect(await on3.exists('t')).toBe(0);
    on0.disconnect();
    on3.disconnect();
  });

  it('a database given its own version and clock keeps them when db 0 changes', async () => {
    const own = createFakeClock({ now: 1_000_000_000_000 });
    const on5 = new Redis({ port: 29_103, db: 5, streams: { clock: own, redisVersion: '7.4' } });
    const on0 = new Redis({ port: 29_103, streams: { clock: createFakeClock({ now: 1_700_000_000_000 }), redisVersion: '7.0' } });
    expect(await versionOf(on0)).toBe('7.0.15');
    expect(await versionOf(on5)).toBe('7.4.0');
    expect(streamsKeyspace(on5).clock).toBe(own);
    expect(await on5.xadd('s', '*', 'f', 'v')).toBe('1000000000000-0');
    on0.disconnect();
    on5.disconnect();
  });

  it('changing db 0’s clock while a read is blocked in a database that follows it is refused with StreamsMockError', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const on0 = new Redis({ port: 29_104, streams: { clock } });
    const on2 = new Redis({ port: 29_104, db: 2 });
    await on2.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = on2.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 100, 'STREAMS', 's', '>');
    await streamsKeyspace(on2).waitForBlocked();
    expect(() => streamsKeyspace(on0).setClock(createFakeClock({ now: 0 }))).toThrow(
      "cannot change the clock while calls are blocked in database 2, which uses this keyspace's clock (their BLOCK timeouts run on the clock they started on): set the clock before any call blocks, or pass the same clock",
    );
    clock.tick(100);
    await expect(read).resolves.toBeNull();
    on0.disconnect();
    on2.disconnect();
  });
});
