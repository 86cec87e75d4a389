/**
 * A score-range bound holding a NUL byte (ZCOUNT, ZRANGEBYSCORE, ZRANGE … BYSCORE,
 * ZREMRANGEBYSCORE) was refused with "min or max is not a float": t_zset.c zslParseRange reads
 * the argument as a C string, so the number ends at the first NUL ("1\0abc" is 1, "\0\xff" and
 * "(\0" are the empty text, i.e. 0), and " \0" is still no float. Replies read on
 * redis-server 7.0.15 and the post-7.4 build.
 */
import Redis from 'ioredis-mock-streams';
import type { AnyClient } from '../helpers/real-server';

async function run(version: '7.0' | '8.0', port: number): Promise<void> {
  const r = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
  await r.call('ZADD', 'z', '0', 'a', '1', 'b', '2', 'c');
  expect(await r.call('ZCOUNT', 'z', '\0\xff', '1')).toBe(2);
  expect(await r.call('ZCOUNT', 'z', '1\0abc', '(2\0')).toBe(1);
  expect(await r.call('ZCOUNT', 'z', '(\0', '+inf')).toBe(2);
  expect(await r.call('ZCOUNT', 'z', '-inf', '1\0')).toBe(2);
  await expect(r.call('ZCOUNT', 'z', ' \0', '1')).rejects.toThrow(/^ERR min or max is not a float$/);
  expect(await r.call('ZRANGE', 'z', '\0', '1', 'BYSCORE')).toEqual(['a', 'b']);
  expect(await r.call('ZRANGEBYSCORE', 'z', '\0', '1\0x')).toEqual(['a', 'b']);
  expect(await r.call('ZREMRANGEBYSCORE', 'z', '(1\0x', '+inf')).toBe(1);
  r.disconnect();
}

describe('score-range bounds with a NUL byte', () => {
  it('end at the NUL as on redis-server 7.0.15 (7.0)', () => run('7.0', 51_331), 30_000);
  it('end at the NUL as on the post-7.4 build (8.0)', () => run('8.0', 51_332));
});
