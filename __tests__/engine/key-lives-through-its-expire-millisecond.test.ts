/**
 * A key lives through the millisecond of its expire time and goes at the next one: Redis's
 * db.c keyIsExpired answers `now > when` (lazy expiry, WATCH, RANDOMKEY) and expire.c's active
 * cycle expires a key when `now > t`, so at now == when the key is still there and PTTL answers
 * 0 (`when - now`). Seen on redis-server 7.0.15 and the post-7.4 build: a client sending PTTL
 * without pause to a key set with PX 3 reads 3, 2, 1, 0 and then -2 (about 1,800 zeros in 20
 * rounds); the fake answered -2 where they answered 0 (it expired keys at now >= when).
 * Bull's locks and stalled-check keys (SET … PX) meet the boundary: a replay of Bull's suite on a
 * manual clock differed from redis-server there. Setting a TTL at or before now (EXPIREAT,
 * PEXPIREAT, GETEX PXAT) still deletes at once (expire.c checkAlreadyExpired: `when <= now`);
 * SET … PXAT now does not check, and its key lives through that millisecond too.
 */
import { createFakeClock } from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { engineConnections, keyevents } from '../helpers/engine-connections';
import { connectReal, describeOnRealServers } from '../helpers/real-server';

const engine = engineConnections(53_950);
const turn = () => new Promise((resolve) => setImmediate(resolve));
const START = Date.UTC(2024, 0, 1);

/** A connection subscribed to every keyevent; `events` lists `event key`. */
async function subscriber(clock: ReturnType<typeof createFakeClock>): Promise<string[]> {
  return keyevents(engine.conn({ streams: { clock } }));
}

describe('a key at the millisecond of its expire time', () => {
  let clock: ReturnType<typeof createFakeClock>;
  let c: Connection;
  beforeEach(async () => {
    clock = createFakeClock({ now: START });
    c = engine.conn({ streams: { clock } });
    await c.execute(['CONFIG', 'SET', 'notify-keyspace-events', 'Ex']);
  });

  it('is still there (GET, EXISTS, PTTL 0, TTL 0, WATCH unbroken) and goes at the next millisecond', async () => {
    const events = await subscriber(clock);
    await c.execute(['SET', 'k', 'v', 'PX', '100']);
    await c.execute(['SET', 'w', 'v', 'PX', '100']);
    clock.tick(100);
    await turn();
    expect(events).toEqual([]);
    expect(await c.execute(['EXISTS', 'k'])).toBe(1);
    expect(toResp2Plain(await c.execute(['GET', 'k']))).toBe('v');
    expect(await c.execute(['PTTL', 'k'])).toBe(0);
    expect(await c.execute(['TTL', 'k'])).toBe(0);
    expect(await c.execute(['DBSIZE'])).toBe(2);
    expect(toResp2Plain(await c.execute(['WATCH', 'w']))).toBe('OK');
    await c.execute(['MULTI']);
    await c.execute(['PING']);
    expect(toResp2Plain(await c.execute(['EXEC']))).toEqual(['PONG']);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['expired k', 'expired w']);
    expect(await c.execute(['EXISTS', 'k'])).toBe(0);
    expect(await c.execute(['PTTL', 'k'])).toBe(-2);
  });

  it('a clock jump to it leaves the key; a jump past it expires the key before the next command', async () => {
    const events = await subscriber(clock);
    await c.execute(['SET', 'k', 'v', 'PX', '50']);
    clock.setSystemTime(START + 50);
    expect(await c.execute(['EXISTS', 'k'])).toBe(1);
    await turn();
    expect(events).toEqual([]);
    clock.setSystemTime(START + 51);
    expect(await c.execute(['EXISTS', 'k'])).toBe(0);
    await turn();
    expect(events).toEqual(['expired k']);
  });

  it('is the lock a Lua script sees alive: SET NX fails inside a script run at that millisecond', async () => {
    await c.execute(['SET', 'lock', 'token', 'PX', '30']);
    clock.tick(30);
    const script = "return redis.call('SET', KEYS[1], 'other', 'NX', 'PX', 30) and 1 or 0";
    expect(await c.execute(['EVAL', script, '1', 'lock'])).toBe(0);
    clock.tick(1);
    expect(await c.execute(['EVAL', script, '1', 'lock'])).toBe(1);
  });

  it('PEXPIREAT now and GETEX PXAT now delete the key at once; SET … PXAT now keeps it for that millisecond', async () => {
    // (checked on both real servers inside one script, whose time is frozen: TIME's ms as PXAT)
    await c.execute(['SET', 'a', 'v']);
    expect(await c.execute(['PEXPIREAT', 'a', String(START)])).toBe(1);
    expect(await c.execute(['EXISTS', 'a'])).toBe(0);
    await c.execute(['SET', 'd', 'v']);
    expect(toResp2Plain(await c.execute(['GETEX', 'd', 'PXAT', String(START)]))).toBe('v');
    expect(await c.execute(['EXISTS', 'd'])).toBe(0);
    expect(toResp2Plain(await c.execute(['SET', 'b', 'v', 'PXAT', String(START)]))).toBe('OK');
    expect(await c.execute(['PTTL', 'b'])).toBe(0);
    clock.tick(1);
    expect(await c.execute(['EXISTS', 'b'])).toBe(0);
  });
});

describeOnRealServers('PTTL of a key reaching its expire time', ({ url }) => {
  it('answers 0 during the millisecond of the expire time, then -2', async () => {
    const real = await connectReal(url, 9);
    const seen = new Set<number>();
    try {
      // PTTL sent without pause on a key set with PX 3 (a command lands in the last ms nearly every round)
      // (up to 300 rounds: a loaded machine can leave a round without a command in that ms)
      for (let round = 0; round < 300 && !(seen.has(0) && seen.has(-2)); round++) {
        await real.call('SET', 'pk', 'v', 'PX', '3');
        const t0 = Date.now();
        const replies: Promise<number>[] = [];
        while (Date.now() - t0 < 6) {
          replies.push(real.call('PTTL', 'pk'));
          await turn();
        }
        for (const r of await Promise.all(replies)) seen.add(Number(r));
      }
    } finally {
      real.disconnect();
    }
    expect(seen.has(0)).toBe(true);
    expect(seen.has(-2)).toBe(true);
  });
});
