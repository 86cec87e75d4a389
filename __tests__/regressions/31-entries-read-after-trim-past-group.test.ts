/**
 * A group whose last-delivered-id a trim left behind the first entry has its entries-read
 * estimated again at its next delivery (redis #13958), so once everything is read the lag is 0:
 * Redis's newer tests/unit/type/stream-cgroups.tcl (`Consumer group lag with XTRIM`) reads
 * entries-read 5 / lag 0 after XTRIM MAXLEN 1 and a read of the rest; the fake counted on from 1
 * (entries-read 2, lag 3). 8.0 keeps counting, as the post-7.4 build it follows.
 */
import Redis from 'ioredis-mock-streams';

type Client = any; // eslint-disable-line @typescript-eslint/no-explicit-any
let port = 53_980;
const client = (redisVersion: string): Client => new Redis({ port: ++port, streams: { redisVersion } } as never);

async function readLag(r: Client): Promise<[unknown, unknown]> {
  const info: unknown[] = await r.call('XINFO', 'GROUPS', 'x');
  const g = info[0] as unknown[];
  return [g[g.indexOf('entries-read') + 1], g[g.indexOf('lag') + 1]];
}

async function trimPastGroup(r: Client): Promise<void> {
  await r.xgroup('CREATE', 'x', 'mygroup', '$', 'MKSTREAM');
  for (let i = 1; i <= 5; i++) await r.xadd('x', `${i}-0`, 'data', 'a');
  await r.xreadgroup('GROUP', 'mygroup', 'alice', 'COUNT', 1, 'STREAMS', 'x', '>');
  await r.xtrim('x', 'MAXLEN', 1);
}

describe('entries-read of a group a trim passed', () => {
  it('8.10: re-estimated at the next read, so the lag is 0, then 1 after an XADD', async () => {
    const r = client('8.10');
    await trimPastGroup(r);
    expect(await readLag(r)).toEqual([1, 1]);
    await r.xreadgroup('GROUP', 'mygroup', 'alice', 'STREAMS', 'x', '>');
    expect(await readLag(r)).toEqual([5, 0]);
    await r.xadd('x', '6-0', 'data', 'f');
    expect(await readLag(r)).toEqual([5, 1]);
    r.disconnect();
  });

  it('8.0: counted on (entries-read 2, lag 3), as the post-7.4 build', async () => {
    const r = client('8.0');
    await trimPastGroup(r);
    await r.xreadgroup('GROUP', 'mygroup', 'alice', 'STREAMS', 'x', '>');
    expect(await readLag(r)).toEqual([2, 3]);
    r.disconnect();
  });
});
