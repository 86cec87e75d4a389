/**
 * used_memory (INFO memory), MEMORY USAGE and the maxmemory check count values by their size
 * (lib/stats/memory-model.ts, kept per key: lib/stats/key-sizes.ts), as Redis roughly does.
 * Recorded on redis-server 7.0.15 (a spare server, `--save ''`): SETBIT big 1600000 1 (a 200001-byte
 * string) raised used_memory by 278840 and MEMORY USAGE answered 229424; MEMORY USAGE … SAMPLES 0
 * of 1000-element values (`elementN`, `fieldN`/`valueN`, `memberN`, `XADD * field valueN`): list
 * 12456, hash 64152, set 48296, sorted set 102488, stream 27936; of a 100-field hash 1848.
 */
import { Connection } from '../../lib/engine';
import { SimpleString, toResp2Plain } from '../../lib/reply/reply';
import { engineConnections, errorOf } from '../helpers/engine-connections';
import { itOnServer } from '../helpers/real-server';

const OOM = "OOM command not allowed when used memory > 'maxmemory'.";
const OK = new SimpleString('OK');

const engine = engineConnections(53_600);
const conn = engine.conn;

async function usedMemory(c: Connection): Promise<number> {
  const text = String(toResp2Plain(await c.execute(['INFO', 'memory'])));
  return Number(/^used_memory:(\d+)\r?$/m.exec(text)![1]);
}

/** `fake` is within `factor` of Redis's `real` figure. */
function near(fake: number, real: number, factor: number): void {
  expect(fake).toBeGreaterThan(real / factor);
  expect(fake).toBeLessThan(real * factor);
}

describe('used_memory counts value sizes', () => {
  it('a 200 KB SETBIT value adds about 200 KB to used_memory and to MEMORY USAGE (7.0.15: +278840, 229424)', async () => {
    const c = conn();
    const before = await usedMemory(c);
    await c.execute(['SETBIT', 'big', '1600000', '1']);
    const after = await usedMemory(c);
    near(after - before, 278840, 1.5);
    near(Number(await c.execute(['MEMORY', 'USAGE', 'big'])), 229424, 1.5);
    // MEMORY USAGE is object.c's figure (lib/stats/object-size.ts: jemalloc in 7.0, exact there),
    // used_memory the cheaper estimate of memory-model.ts: as on Redis, they differ
    await c.execute(['DEL', 'big']);
    expect(await usedMemory(c)).toBe(before);
  });

  it('aggregates count their elements: 1000-element list, hash, set, sorted set, stream near Redis MEMORY USAGE SAMPLES 0', async () => {
    const c = conn();
    for (let i = 1; i <= 1000; i++) {
      await c.execute(['RPUSH', 'mylist', `element${i}`]);
      await c.execute(['HSET', 'myhash', `field${i}`, `value${i}`]);
      await c.execute(['SADD', 'myset', `member${i}`]);
      await c.execute(['ZADD', 'myzset', String(i), `member${i}`]);
      await c.execute(['XADD', 'mystream', '*', 'field', `value${i}`]);
      if (i <= 100) await c.execute(['HSET', 'smallhash', `field${i}`, `value${i}`]);
    }
    const usage = async (key: string) => Number(await c.execute(['MEMORY', 'USAGE', key, 'SAMPLES', '0']));
    near(await usage('mylist'), 12456, 2);
    near(await usage('myhash'), 64152, 2);
    near(await usage('myset'), 48296, 2);
    near(await usage('myzset'), 102488, 2);
    near(await usage('mystream'), 27936, 2);
    near(await usage('smallhash'), 1848, 2);
    // the default 5 samples extrapolate to about the same figure
    near(Number(await c.execute(['MEMORY', 'USAGE', 'myhash'])), await usage('myhash'), 1.2);
  });

  it('MEMORY USAGE of a stream counts its listpacks as allocated: 4 KB pre-allocated for the open node, full nodes shrunk, entry bytes, PELs (7.0.15 / post-7.4 build figures)', async () => {
    const c = conn();
    const usage = async (key: string) => Number(await c.execute(['MEMORY', 'USAGE', key]));
    const fill = async (key: string, n: number) => {
      for (let i = 1; i <= n; i++) await c.execute(['XADD', key, `${i}-1`, 'f', 'v']);
    };
    // recorded with `XADD ms <i>-1 f v` on both servers: 1 and 100 entries (one node) 4728 / 4752,
    // 101 entries (two nodes) 7000 / 6872, 1000 entries 22248 / 20904
    await fill('n0001', 1);
    await fill('n0100', 100);
    await fill('n0101', 101);
    await fill('n1000', 1000);
    near(await usage('n0001'), 4728, 1.05);
    expect(await usage('n0100')).toBe(await usage('n0001')); // the entries fit in the pre-allocated 4 KB
    near(await usage('n0101'), 7000, 1.05);
    near(await usage('n1000'), 22248, 1.1);
    // one entry of 100,000 bytes: 115320 on 7.0.15 (jemalloc rounds the listpack up to 112 KB)
    await c.execute(['XADD', 'nbig0', '*', 'f', 'a'.repeat(100_000)]);
    near(await usage('nbig0'), 115320, 1.2);
    expect(await usage('nbig0')).toBeGreaterThan(100_000);
    // 100 entries read by one consumer: 108973 / 109005 (two PELs of 100 entries)
    await c.execute(['XGROUP', 'CREATE', 'n0100', 'g', '0']);
    await c.execute(['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 'n0100', '>']);
    near(await usage('n0100'), 108973, 1.1);
    await c.execute(['DEL', 'n0001', 'n0100', 'n0101', 'n1000', 'nbig0']);
  });

  it('in-place writes update used_memory: APPEND and RPUSH grow it, LTRIM shrinks it, FLUSHALL returns to the baseline', async () => {
    const c = conn();
    await c.execute(['FLUSHALL']);
    const empty = await usedMemory(c);
    await c.execute(['SET', 's', 'x']);
    const one = await usedMemory(c);
    await c.execute(['APPEND', 's', 'y'.repeat(10000)]);
    expect(await usedMemory(c)).toBe(one + 10000);
    for (let i = 0; i < 100; i++) await c.execute(['RPUSH', 'l', 'e'.repeat(100)]);
    const withList = await usedMemory(c);
    expect(withList - one - 10000).toBeGreaterThan(100 * 100);
    await c.execute(['LTRIM', 'l', '0', '9']);
    expect(await usedMemory(c)).toBeLessThan(withList - 80 * 100);
    await c.execute(['FLUSHALL']);
    expect(await usedMemory(c)).toBe(empty);
  });

  it('a big value passes a maxmemory set 100 KB above used_memory: volatile keys are evicted, then denyoom commands answer OOM (tracking.tcl)', async () => {
    const c = conn();
    await c.execute(['FLUSHALL']);
    const limit = (await usedMemory(c)) + 100 * 1024;
    await c.execute(['CONFIG', 'SET', 'maxmemory', String(limit), 'maxmemory-policy', 'volatile-random']);
    try {
      expect(await c.execute(['SETEX', 'volatile-key', '10000', 'x'])).toEqual(OK);
      expect(await c.execute(['SETBIT', 'big-key', '1600000', '0'])).toBe(0); // ran: under the limit before
      expect(await c.execute(['GETBIT', 'big-key', '0'])).toBe(0); // not denyoom; evicts volatile-key first
      expect(await c.execute(['EXISTS', 'volatile-key'])).toBe(0);
      expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(OOM);
    } finally {
      await c.execute(['CONFIG', 'SET', 'maxmemory', '0', 'maxmemory-policy', 'noeviction']);
    }
    expect(await c.execute(['SET', 'x', '1'])).toEqual(OK);
  });

  itOnServer('MEMORY USAGE of a 200 KB string is within 1.5x of the real server’s', 'MEMORY USAGE of a big string', {}, async (real) => {
    const c = conn();
    await real.del('used-memory-big');
    try {
      await real.setbit('used-memory-big', 1600000, 1);
      await c.execute(['SETBIT', 'used-memory-big', '1600000', '1']);
      near(Number(await c.execute(['MEMORY', 'USAGE', 'used-memory-big'])), Number(await real.memory('USAGE', 'used-memory-big')), 1.5);
    } finally {
      await real.del('used-memory-big');
    }
  });
});
