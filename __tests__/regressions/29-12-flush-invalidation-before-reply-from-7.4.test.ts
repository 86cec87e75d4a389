/**
 * CLIENT TRACKING and FLUSHALL/FLUSHDB on the flushing connection: from 7.4 a SYNC flush (the
 * default) runs as blocking async (redis#13167) and answers once done, so the connection's own
 * `invalidate` null push comes before its +OK; with ASYNC, inside MULTI/EXEC or a script it comes
 * after, as on 7.0 always. The fake sent it after the reply in every case (found by a
 * differential helper; each case below checked on 7.0.15 and the post-7.4 build).
 */
import { type RedisServer, serve } from '../../lib/server';
import { RawClient, request } from '../server/raw-client';

const INVALIDATE = '>2\r\n$10\r\ninvalidate\r\n_\r\n';

async function afterTracking(server: RedisServer, ...commands: string[][]): Promise<string> {
  const c = await RawClient.connect(server.port);
  await c.call('HELLO', '3');
  await c.call('CLIENT', 'TRACKING', 'on');
  await c.call('GET', 'k');
  c.write(commands.map((argv) => request(...argv)).join(''));
  // until the last reply and the push are both in (at most 5 s)
  const last = commands[commands.length - 1][0] === 'EXEC' ? '*1\r\n+OK\r\n' : '+OK\r\n';
  for (let waited = 0; waited < 5000 && !(c.pending.includes(INVALIDATE) && c.pending.includes(last)); waited += 10) await new Promise((r) => setTimeout(r, 10));
  const out = c.pending;
  c.close();
  return out;
}

describe('the flushing connection’s own tracking invalidation', () => {
  let server: RedisServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('comes before +OK for FLUSHALL / FLUSHDB SYNC from 7.4', async () => {
    server = await serve({ port: 0 });
    expect(await afterTracking(server, ['FLUSHALL'])).toBe(`${INVALIDATE}+OK\r\n`);
    expect(await afterTracking(server, ['FLUSHDB', 'SYNC'])).toBe(`${INVALIDATE}+OK\r\n`);
  });

  it('comes after the reply for ASYNC, inside MULTI/EXEC and in a script', async () => {
    server = await serve({ port: 0 });
    expect(await afterTracking(server, ['FLUSHDB', 'ASYNC'])).toBe(`+OK\r\n${INVALIDATE}`);
    expect(await afterTracking(server, ['MULTI'], ['FLUSHDB'], ['EXEC'])).toBe(`+OK\r\n+QUEUED\r\n*1\r\n+OK\r\n${INVALIDATE}`);
    expect(await afterTracking(server, ['EVAL', "return redis.call('flushall')", '0'])).toBe(`+OK\r\n${INVALIDATE}`);
  });

  it('comes after the reply on 7.0', async () => {
    server = await serve({ port: 0, redisVersion: '7.0' });
    expect(await afterTracking(server, ['FLUSHALL'])).toBe(`+OK\r\n${INVALIDATE}`);
  });
});
