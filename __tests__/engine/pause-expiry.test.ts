/**
 * Keys are not expired while CLIENT PAUSE WRITE (or ALL) lasts (db.c expireIfNeeded,
 * PAUSE_ACTION_EXPIRE): a key past its TTL reads as missing but stays, then expires (counted in
 * INFO expired_keys) once the pause ends. Recorded on redis-server 7.0.15 and the post-7.4 build
 * (own instances): MULTI, SET foo bar PX 10, SET bar foo PX 10, CLIENT PAUSE 50000 WRITE, EXEC;
 * 150 ms later GET foo → nil, DBSIZE → 2, EXISTS foo bar → 0, TTL foo → -2, KEYS * → empty,
 * expired_keys 0; CLIENT UNPAUSE, then DBSIZE → 0 (active expiry ran), expired_keys 2.
 */
import { createFakeClock } from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine';
import { SimpleString, toResp2Plain } from '../../lib/reply/reply';
import { engineConnections } from '../helpers/engine-connections';

const engine = engineConnections(53_700);
const OK = new SimpleString('OK');
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function expiredKeys(c: Connection): Promise<number> {
  const text = String(toResp2Plain(await c.execute(['INFO', 'stats'])));
  return Number(/^expired_keys:(\d+)/m.exec(text)![1]);
}

describe('expiry during CLIENT PAUSE', () => {
  it.each(['7.0', '8.10'])('keys past their TTL read as missing but are not expired until the pause ends (%s)', async (version) => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = engine.conn({ streams: { clock, redisVersion: version as '7.0' | '8.10' } });
    expect(await c.execute(['MULTI'])).toEqual(OK);
    await c.execute(['SET', 'foo', 'bar', 'PX', '10']);
    await c.execute(['SET', 'bar', 'foo', 'PX', '10']);
    await c.execute(['CLIENT', 'PAUSE', '50000', 'WRITE']);
    expect(toResp2Plain(await c.execute(['EXEC']))).toEqual(['OK', 'OK', 'OK']);
    clock.tick(150);
    await turn();
    expect(await c.execute(['GET', 'foo'])).toBeNull();
    expect(await c.execute(['DBSIZE'])).toBe(2);
    expect(await c.execute(['EXISTS', 'foo', 'bar'])).toBe(0);
    expect(await c.execute(['TTL', 'foo'])).toBe(-2);
    expect(toResp2Plain(await c.execute(['KEYS', '*']))).toEqual([]);
    expect(await expiredKeys(c)).toBe(0);
    expect(await c.execute(['CLIENT', 'UNPAUSE'])).toEqual(OK);
    clock.tick(100); // the next active-expiry cycle (hz 10)
    await turn();
    expect(await c.execute(['DBSIZE'])).toBe(0);
    expect(await c.execute(['GET', 'foo'])).toBeNull();
    expect(await expiredKeys(c)).toBe(2);
  });
});
