/**
 * SLOWLOG entries of a script's redis.call: Redis runs them on its Lua client, so the entry has
 * no client name and the address `?:0` (7.0.15) or '' (the post-7.4 build); the fake logged the
 * caller's address and name (found by a differential helper; both servers checked by hand).
 */
import { type RedisServer, serve } from '../../lib/server';
import { RawClient } from '../server/raw-client';

describe("SLOWLOG of a script's redis.call", () => {
  let server: RedisServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it.each([
    ['7.0', '?:0'],
    ['8.10', ''],
  ])('in %s mode logs it with address %j and no name, the EVAL with the caller', async (redisVersion, addr) => {
    server = await serve({ port: 0, redisVersion });
    const c = await RawClient.connect(server.port);
    await c.call('CONFIG', 'SET', 'slowlog-log-slower-than', '0');
    await c.call('CLIENT', 'SETNAME', 'sl');
    await c.call('SLOWLOG', 'RESET');
    await c.call('EVAL', "redis.call('set','z','1')", '0');
    const log = await c.call('SLOWLOG', 'GET', '2');
    // newest first: the EVAL (the caller's address and name), then its SET (the Lua client)
    const entries = log.split('*6\r\n').slice(1);
    expect(entries[0]).toMatch(/\$4\r\nEVAL\r\n[\s\S]*\$\d+\r\n127\.0\.0\.1:\d+\r\n\$2\r\nsl\r\n$/);
    expect(entries[1]).toContain(`$3\r\nset\r\n$1\r\nz\r\n$1\r\n1\r\n$${addr.length}\r\n${addr}\r\n$0\r\n\r\n`);
    c.close();
  });
});
