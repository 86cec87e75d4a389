/**
 * XAUTOCLAIM's COUNT allocation (t_stream.c xautoclaimCommand: `ztrymalloc(count *
 * sizeof(streamID))` after the group check, "ERR Insufficient memory, failed allocating transient
 * memory, COUNT too high." when it fails). Whether it fails depends on the allocator and the host,
 * not on Redis: redis-server 7.0.15 (jemalloc) allocated COUNT 10^12 (16 TB of address space) and
 * failed at 10^13; the post-7.4 build here (MALLOC=libc under the kernel's heuristic overcommit)
 * fails past RAM + swap (COUNT 2·10^9 = 32 GB on a 25 GB host; 10^9 passed). The fake fails where
 * every server must (COUNT >= 2^43: 128 TiB, the whole x86-64 user address space) and answers the
 * rest as jemalloc builds (7.0.15, Redis 8 releases) do. Compared live: COUNT 10^10 with 7.0.15,
 * COUNT 2^43 with both servers.
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers } from '../helpers/real-server';

let port = 36_900;
const outcome = async (run: () => Promise<unknown>): Promise<unknown> => {
  try {
    return { ok: await run() };
  } catch (e) {
    return { err: (e as Error).message };
  }
};

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('XAUTOCLAIM with a huge COUNT', (server) => {
  const counts = server.version === '7.0' ? ['10000000000', '8796093022208'] : ['8796093022208'];
  for (const count of counts) {
    it(`COUNT ${count}`, async () => {
      const real = await connectReal(server.url, 9, {}, false); // no FLUSHDB: other files use db 9
      const key = `xac:${process.pid}:${count}`;
      const fake = createConnection({ port: ++port, streams: { redisVersion: server.version } });
      try {
        const script = ['XADD s 1-0 f v', 'XGROUP CREATE s g 0', `XAUTOCLAIM s g c 0 0 COUNT ${count}`].map((l) => l.split(' ').map((a) => (a === 's' ? key : a)));
        const r: unknown[] = [];
        const f: unknown[] = [];
        for (const argv of script) {
          r.push(await outcome(() => real.call(...argv)));
          f.push(await outcome(async () => toResp2Plain(await fake.execute(argv))));
        }
        expect(f).toEqual(r);
      } finally {
        await real.call('DEL', key);
        real.disconnect();
        fake.close();
      }
    });
  }
});
