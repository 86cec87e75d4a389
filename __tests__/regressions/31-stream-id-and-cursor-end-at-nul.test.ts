/**
 * A stream ID or a SCAN cursor holding a NUL byte was refused ("Invalid stream ID specified as
 * stream command argument", "invalid cursor"): Redis reads both as C strings, so a NUL ends them
 * (t_stream.c streamGenericParseIDOrReply copies the argument into a NUL-terminated buffer and
 * parses it with strchr/string2ull; db.c parseScanCursorOrReply uses strtoul on 7.0, string2ull
 * later). `XADD x 1\0x …` adds 1-0 (or is "equal or smaller"), `XRANGE x (1\0 +` starts after 1-0,
 * `SCAN 0\0x` is SCAN 0, and `SCAN \0` is the empty cursor: 0 on 7.0, refused from 7.2. Replies
 * read on redis-server 7.0.15 and the post-7.4 build.
 */
import Redis from 'ioredis-mock-streams';
import type { AnyClient } from '../helpers/real-server';

async function run(version: '7.0' | '8.0', port: number): Promise<void> {
  const r = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
  expect(await r.call('XADD', 'x', '1\0', 'f', 'v')).toBe('1-0');
  await expect(r.call('XADD', 'x', '1\0x', 'f', 'v')).rejects.toThrow(/^ERR The ID specified in XADD is equal or smaller than the target stream top item$/);
  expect(await r.call('XADD', 'x', '2-*\0', 'f', 'v')).toBe('2-0');
  expect(await r.call('XRANGE', 'x', '1\0x', '+')).toEqual([['1-0', ['f', 'v']], ['2-0', ['f', 'v']]]);
  expect(await r.call('XRANGE', 'x', '(1\0', '+\0z')).toEqual([['2-0', ['f', 'v']]]);
  expect(await r.call('XDEL', 'x', '2-0\0abc')).toBe(1);
  await expect(r.call('XADD', 'x', '\0', 'f', 'v')).rejects.toThrow(/^ERR Invalid stream ID specified as stream command argument$/);
  expect(await r.call('SCAN', '0\0x')).toEqual(['0', ['x']]);
  if (version === '7.0') expect(await r.call('SCAN', '\0')).toEqual(['0', ['x']]);
  else await expect(r.call('SCAN', '\0')).rejects.toThrow(/^ERR invalid cursor$/);
  r.disconnect();
}

describe('stream IDs and SCAN cursors with a NUL byte', () => {
  it('end at the NUL as on redis-server 7.0.15 (7.0)', () => run('7.0', 51_341), 30_000);
  it('end at the NUL as on the post-7.4 build (8.0)', () => run('8.0', 51_342));
});
