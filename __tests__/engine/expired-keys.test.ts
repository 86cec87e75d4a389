/**
 * INFO expired_keys counts every key deleted because its TTL passed, lazily (a command touched
 * it) or actively (the expiry cycle), as deleteExpiredKeyAndPropagate does; CONFIG RESETSTAT
 * zeroes it. Checked on redis-server 7.0.15 and the post-7.4 build: two keys with PX 10, GET of
 * one after 150 ms and the other left to active expiry → expired_keys:2.
 */
import { createFakeClock } from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { engineConnections } from '../helpers/engine-connections';

const engine = engineConnections(53_750);
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function expiredKeys(c: Connection): Promise<number> {
  const text = String(toResp2Plain(await c.execute(['INFO', 'stats'])));
  return Number(/^expired_keys:(\d+)/m.exec(text)![1]);
}

describe('INFO expired_keys', () => {
  it('counts keys expired lazily and actively; CONFIG RESETSTAT zeroes it', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = engine.conn({ streams: { clock } });
    await c.execute(['SET', 'a', '1', 'PX', '10']);
    await c.execute(['SET', 'b', '1', 'PX', '10']);
    await c.execute(['SET', 'c', '1']);
    expect(await expiredKeys(c)).toBe(0);
    clock.tick(150);
    await turn();
    expect(await c.execute(['GET', 'a'])).toBeNull();
    expect(await c.execute(['DBSIZE'])).toBe(1);
    expect(await expiredKeys(c)).toBe(2);
    await c.execute(['CONFIG', 'RESETSTAT']);
    expect(await expiredKeys(c)).toBe(0);
  });
});
