/**
 * MEMORY MALLOC-STATS follows INFO mem_allocator: 7.0 mode (jemalloc-5.3.0, as Debian's 7.0.15)
 * answers jemalloc's statistics text (its head and end lines as 7.0.15 prints them), later
 * versions (libc, as the post-7.4 build) "Stats not supported for the current allocator".
 * unit/other "Coverage: MEMORY MALLOC-STATS".
 */
import { toResp2Plain } from '../../lib/reply/reply';
import { engineConnections } from '../helpers/engine-connections';

const engine = engineConnections(53_800);

describe('MEMORY MALLOC-STATS', () => {
  it.each([
    ['7.0', 'jemalloc-5.3.0', /^___ Begin jemalloc statistics ___\nVersion: "5\.3\.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c"\n[\s\S]*--- End jemalloc statistics ---\n$/],
    ['8.10', 'libc', /^Stats not supported for the current allocator$/],
  ])('in %s mode matches the allocator INFO names (%s)', async (version, allocator, text) => {
    const c = engine.conn({ streams: { redisVersion: version as '7.0' | '8.10' } });
    const info = String(toResp2Plain(await c.execute(['INFO', 'memory'])));
    expect(/^mem_allocator:(.*)\r$/m.exec(info)![1]).toBe(allocator);
    expect(String(toResp2Plain(await c.execute(['MEMORY', 'MALLOC-STATS'])))).toMatch(text);
  });
});
