/**
 * RESET and CLIENT NO-EVICT: redis-server 7.0.15 keeps the flag (CLIENT INFO flags=e after
 * RESET), 7.2 and later clear it (flags=N, checked on the post-7.4 build); the fake cleared it
 * in 7.0 mode too (found by a differential helper).
 */
import { type RedisServer, serve } from '../../lib/server';
import { RawClient } from '../server/raw-client';

describe('RESET and CLIENT NO-EVICT', () => {
  let server: RedisServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it.each([
    ['7.0', 'e'],
    ['8.10', 'N'],
  ])('in %s mode CLIENT INFO says flags=%s after RESET', async (redisVersion, flags) => {
    server = await serve({ port: 0, redisVersion });
    const c = await RawClient.connect(server.port);
    expect(await c.call('CLIENT', 'NO-EVICT', 'on')).toBe('+OK\r\n');
    expect(await c.call('RESET')).toBe('+RESET\r\n');
    expect(await c.call('CLIENT', 'INFO')).toContain(` flags=${flags} `);
    c.close();
  });
});
