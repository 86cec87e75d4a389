/**
 * COMMAND INFO of the commands the recorded servers lack (8.0's HGETDEL/HGETEX/HSETEX, 8.2's
 * XACKDEL/XDELEX, 8.8's XNACK) gave an empty key-spec list, and as an array where Redis writes a
 * set (RESP3 `~`); Redis's json (redis/docs data/commands_core.json) gives each one key spec.
 * Now they answer it, in the shape of a recorded command's (HEXPIRE's, from the real server).
 */
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { RawClient } from '../server/raw-client';

async function info(resp: 2 | 3, ...names: string[]): Promise<string> {
  const server: RedisServer = await serve({ redisVersion: '8.10' });
  const c = await RawClient.connect(server.port);
  try {
    if (resp === 3) await c.call('HELLO', '3');
    return await c.call('COMMAND', 'INFO', ...names);
  } finally {
    c.close();
    await server.close();
  }
}

const RANGE_FROM_1 = '$12\r\nbegin_search\r\n%2\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n%1\r\n$5\r\nindex\r\n:1\r\n' +
  '$9\r\nfind_keys\r\n%2\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n%3\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n';

describe('COMMAND INFO key specs of the 8.x commands the recorded servers lack', () => {
  it.each([
    ['xnack', '+RW\r\n+update\r\n', 2],
    ['xackdel', '+RW\r\n+update\r\n+delete\r\n', 3],
    ['xdelex', '+RW\r\n+delete\r\n', 2],
    ['hgetdel', '+RW\r\n+access\r\n+delete\r\n', 3],
    ['hsetex', '+RW\r\n+update\r\n', 2],
  ])('%s has its one key spec (RESP3: a set of one map; flags %j)', async (name, flags, count) => {
    const reply = await info(3, name);
    expect(reply).toContain(`~1\r\n%3\r\n$5\r\nflags\r\n~${count}\r\n${flags}${RANGE_FROM_1}~0\r\n`);
  });

  it('hgetex\'s key spec carries its notes first, as Redis\'s json gives them', async () => {
    const reply = await info(3, 'hgetex');
    expect(reply).toContain(`~1\r\n%4\r\n$5\r\nnotes\r\n$40\r\nRW and UPDATE because it changes the TTL\r\n$5\r\nflags\r\n~3\r\n+RW\r\n+access\r\n+update\r\n${RANGE_FROM_1}`);
  });

  it('is written as a recorded command\'s is (HEXPIRE: the real server\'s entry), in RESP2 too', async () => {
    const hexpire = await info(2, 'hexpire');
    const xnack = await info(2, 'xnack');
    const specOf = (reply: string) => reply.slice(reply.indexOf('$5\r\nflags\r\n'));
    expect(specOf(xnack)).toBe(specOf(hexpire));
  });
});
