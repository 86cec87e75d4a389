/**
 * Found while reviewing issue 11's leftovers: with `stream-node-max-entries 0` and
 * `stream-node-max-bytes 0` (no node limit) the whole stream is one node, and trimming it whole
 * spread its 200,000 IDs into one `push(...)` call: XTRIM failed with "Maximum call stack size
 * exceeded" after the node was already removed (XLEN 0, no reply). redis-server 7.0.15 answers
 * 200000 and XLEN 0 (checked on the server with the same commands).
 */
import Redis from 'ioredis-mock-streams';

describe('XTRIM of a stream held in one node larger than a call takes arguments', () => {
  it('trims all 200,000 entries and answers their count', async () => {
    const r = new Redis({ port: 50_700 }) as any;
    await r.config('SET', 'stream-node-max-entries', '0');
    await r.config('SET', 'stream-node-max-bytes', '0');
    const p = r.pipeline();
    for (let i = 1; i <= 200_000; i++) p.xadd('s', `${i}-1`, 'f', 'v');
    await p.exec();
    const info = await r.xinfo('STREAM', 's');
    expect([info[1], info[3], info[5]]).toEqual([200_000, 1, 2]); // length, radix-tree-keys, radix-tree-nodes
    expect(await r.xtrim('s', 'MAXLEN', 0)).toBe(200_000);
    expect(await r.xlen('s')).toBe(0);
    r.disconnect();
  });
});
