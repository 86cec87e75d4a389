/**
 * INFO commandstats' usec of a blocked call counted the time it waited: a BLPOP that timed out
 * after a second showed `usec=1016738`, where 7.0.15 shows `usec=11` and the post-7.4 build
 * `usec=30` — Redis counts the command's own execution (7.0: its first run; later versions the
 * runs' total, c->duration), never the blocking time. Now the wait is left out (SLOWLOG too).
 */
import Redis from 'ioredis-mock-streams';

function usecOf(info: string, command: string): number {
  const m = new RegExp(`^cmdstat_${command}:calls=(\\d+),usec=(\\d+),`, 'm').exec(info);
  if (!m) throw new Error(`no cmdstat_${command} line in:\n${info}`);
  expect(Number(m[1])).toBe(1);
  return Number(m[2]);
}

describe.each(['7.0', '8.10'] as const)('a blocked call\'s commandstats usec (Redis %s)', (redisVersion) => {
  it('leave out the time it waited (XREAD BLOCK 0 served after 600 ms, BLPOP timing out after 600 ms)', async () => {
    const r = new Redis({ port: redisVersion === '7.0' ? 58_312 : 58_313, streams: { redisVersion } });
    const w = r.duplicate();
    try {
      const read = r.xread('BLOCK', 0, 'STREAMS', 'usec30', '$');
      await new Promise((res) => setTimeout(res, 600));
      await w.xadd('usec30', '*', 'a', '1');
      expect((await read)![0][1]).toHaveLength(1);
      expect(await r.blpop('usec30-list', 0.6)).toBeNull();
      const info = await r.info('commandstats');
      // each ran for well under the 600 ms it waited (a cold first run takes a few ms)
      expect(usecOf(info, 'xread')).toBeLessThan(300_000);
      expect(usecOf(info, 'blpop')).toBeLessThan(300_000);
    } finally {
      r.disconnect();
      w.disconnect();
    }
  });
});
