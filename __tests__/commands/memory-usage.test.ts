/**
 * MEMORY USAGE as object.c figures it (lib/stats/object-size.ts): the allocations of the value,
 * the key's sds and a dictEntry, at the allocator's sizes — jemalloc 5.3 in 7.0 mode (Debian's
 * 7.0.15), glibc malloc from 7.2 (the post-7.4 build here). The recorded figures below are the
 * real servers' answers to the same commands (7.0.15, and the 4f8cdc2a build for '8.0'); the
 * last block compares with the live servers when REDIS_URL / REDIS_UNSTABLE_URL are set.
 */
import { glibcUsable, jemallocUsable } from '../../lib/stats/object-size';
import { toResp2Plain } from '../../lib/reply/reply';
import { engineConnections } from '../helpers/engine-connections';
import { connectReal, describeOnRealServers } from '../helpers/real-server';

const engine = engineConnections(53_700);

/** The commands that build the keys below (each a whole argv). */
const SETUP: string[][] = [
  ['SET', 's1', 'hello'],
  ['SET', 's2', '12345'],
  ['SET', 's3', 'x'.repeat(100)],
  ['SET', 's4', 'y'.repeat(50)],
  ['SET', 's6', ''],
  ['SET', 's7', 'z'.repeat(300)],
  ['SET', 'k'.repeat(31), 'v'],
  ['SET', 'k'.repeat(33), 'v'],
  ['INCRBYFLOAT', 's9', '1.25'],
  ['RPUSH', 'l1', 'a', 'b', 'c'],
  ['RPUSH', 'l2', ...Array.from({ length: 200 }, (_, i) => `item${i + 1}`)],
  ['SADD', 'st1', 'a', 'b', 'c'],
  ['SADD', 'st2', '1', '2', '3', '4'],
  ['SADD', 'st4', '1', '70000', '5'],
  ['SADD', 'st5', '1', '5000000000'],
  ['HSET', 'h1', 'f', 'v', 'f2', 'v2'],
  ['HSET', 'h2', ...Array.from({ length: 200 }, (_, i) => [`f${i + 1}`, `v${i + 1}`]).flat()],
  ['HSET', 'h4', 'a', '1', 'b', '-200', 'c', '3.14'],
  ['ZADD', 'z1', '1', 'a', '2', 'b'],
  ['ZADD', 'z3', '1.5', 'a', '2.25', 'b', '-3', 'c', '1e20', 'd'],
  ['XADD', 'x1', '1-1', 'f', 'v'],
  ['XADD', 'x2', '1-1', 'f', 'v1'],
  ['SETBIT', 'b1', '100', '1'],
  // APPEND grows an sds greedily (sdsMakeRoomFor); SET trims a raw value's spare room in 7.0 only
  ['APPEND', 'a1', 'hello'],
  ['APPEND', 'a1', 'world'],
  ['SET', 'a2', 'x'.repeat(50)],
  ['APPEND', 'a2', 'y'],
  ['SET', 'a3', '12'],
  ['APPEND', 'a3', '3'],
  ['APPEND', 'a6', ''],
  ['APPEND', 'a6', 'abc'],
  ['SET', 'a7', 'x'.repeat(300)],
  ['APPEND', 'a7', 'x'.repeat(300)],
  ['APPEND', 'a8', 'abc'],
  ['RENAME', 'a8', 'a9'],
  ['APPEND', 'a9', 'def'],
  ['APPEND', 'c1', 'w'.repeat(100)],
  ['APPEND', 'c1', 'z'],
  ['COPY', 'c1', 'c2'],
];
for (let i = 1; i <= 100; i++) SETUP.push(['APPEND', 'a4', `chunk${i}`]);
for (let i = 1; i <= 20; i++) SETUP.push(['APPEND', 'a5', 'q'.repeat(500)]);
// one command per element, as the recording sent them: a list of three quicklist nodes (its
// first the listpack it was converted from), a hash converted at its 513th field, a stream of
// three nodes of 100 entries
for (let i = 1; i <= 3000; i++) SETUP.push(['RPUSH', 'l3', `element-number-${i}`]);
for (let i = 1; i <= 600; i++) SETUP.push(['HSET', 'h3', `field${i}`, `value${i}`]);
for (let i = 2; i <= 300; i++) SETUP.push(['XADD', 'x2', `1-${i}`, 'f', `v${i}`]);

/**
 * MEMORY USAGE key and MEMORY USAGE key SAMPLES 0 on 7.0.15 (jemalloc): every figure exact.
 * h3 (a hash table) only with SAMPLES 0: Redis samples the first 5 fields of its hash order.
 */
const REDIS_70: Record<string, number | [number, number]> = {
  s1: 64,
  s2: 48,
  s3: 160,
  s4: 112,
  s6: 64,
  s7: 368,
  ['k'.repeat(31)]: 104,
  ['k'.repeat(33)]: 104,
  s9: 64,
  l1: 144,
  l2: 1920,
  l3: [65944, 62872],
  st1: 232,
  st2: 64,
  st4: 80,
  st5: 80,
  h1: 80,
  h2: 2608,
  h4: 80,
  z1: 80,
  z3: 96,
  x1: 4728,
  x2: 8564,
  b1: 64,
  a1: 80,
  a2: 160,
  a3: 64,
  a4: 816,
  a5: 12336,
  a6: 56,
  a7: 1328,
  a9: 64,
  c1: 160,
  c2: 160,
};

/** The same on the 4f8cdc2a build (glibc malloc), as far as malloc hands out exact-fit chunks. */
const REDIS_80: Record<string, number | [number, number]> = {
  s1: 88,
  s2: 64,
  s3: 168,
  s4: 120,
  s6: 72,
  s7: 376,
  ['k'.repeat(31)]: 88,
  ['k'.repeat(33)]: 88,
  s9: 72,
  l1: 88,
  l2: 1768,
  l3: [65844, 62424],
  st1: 88,
  st2: 88,
  st4: 88,
  st5: 88,
  h1: 88,
  h2: 2264,
  h4: 104,
  z1: 88,
  z3: 104,
  x1: 4752,
  x2: 8268,
  b1: 88,
  a1: 88,
  a2: 120,
  a3: 88,
  a5: 11080,
  a7: 1272,
  a9: 88,
  c2: 184,
};

async function usages(run: (argv: string[]) => Promise<unknown>, keys: string[]): Promise<Record<string, [number, number]>> {
  const out: Record<string, [number, number]> = {};
  for (const k of keys) out[k] = [Number(await run(['MEMORY', 'USAGE', k])), Number(await run(['MEMORY', 'USAGE', k, 'SAMPLES', '0']))];
  return out;
}

function expected(table: Record<string, number | [number, number]>): Record<string, [number, number]> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, typeof v === 'number' ? [v, v] : v]));
}

describe('MEMORY USAGE answers object.c’s figure at the emulated allocator’s sizes', () => {
  it.each([
    ['7.0', REDIS_70],
    ['8.0', REDIS_80],
  ] as const)('strings, listpacks, intsets, quicklists and streams answer as the real %s server did', async (version, table) => {
    const c = engine.conn({ streams: { redisVersion: version } });
    for (const argv of SETUP) await c.execute(argv);
    const got = await usages(async (argv) => toResp2Plain(await c.execute(argv)), Object.keys(table));
    expect(got).toEqual(expected(table));
  });

  it.each([
    // the real servers' answers after each step (7.0.15; the 4f8cdc2a build)
    ['7.0', [4728, 5012, 5282, 6095, 8103, 8373, 6365, 6365, 5551]],
    ['8.0', [4752, 5036, 5314, 6135, 8143, 8421, 6413, 6413, 5591]],
  ] as const)('a stream\'s PELs count the nodes of their radix trees and the consumer struct of %s (object.c)', async (version, want) => {
    const c = engine.conn({ streams: { redisVersion: version } });
    const steps = [
      ['XADD', 'st', '1-1', 'f', 'v', 'XADD', 'st', '2-1', 'f', 'v2'],
      ['XGROUP', 'CREATE', 'st', 'g', '0'],
      ['XGROUP', 'CREATECONSUMER', 'st', 'g', 'c0'], // 24 bytes (7.0) or 32 and the name
      ['XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', 'st', '>'], // a consumer, and an ID in two trees: 2 nodes each
      ['XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', 'st', '>'], // 2-1 shares 7 bytes with 1-1: a branch, 4 nodes more each
      ['XGROUP', 'CREATECONSUMER', 'st', 'g', 'c2'],
      ['XACK', 'st', 'g', '1-1'], // the trees merge back
      ['XCLAIM', 'st', 'g', 'c2', '0', '2-1'], // moved from c's tree to c2's
      ['XGROUP', 'DELCONSUMER', 'st', 'g', 'c2'],
    ];
    const got: unknown[] = [];
    for (const step of steps) {
      if (step[0] === 'XADD') {
        await c.execute(step.slice(0, 5));
        await c.execute(step.slice(5));
      } else await c.execute(step);
      got.push(await c.execute(['MEMORY', 'USAGE', 'st']));
    }
    expect(got).toEqual(want);
  });

  it('a stream of nodes of different sizes: the sampled nodes averaged in whole bytes, as object.c divides (7.0.15 per SAMPLES)', async () => {
    const c = engine.conn({ streams: { redisVersion: '7.0' } });
    await c.execute(['CONFIG', 'SET', 'stream-node-max-bytes', '100']);
    for (let i = 1; i <= 15; i++) await c.execute(['XADD', 'small', `${i}-0`, 'field', 'v'.repeat(3 * i)]);
    const got: Record<string, unknown> = {};
    for (const samples of ['5', '0', '1', '2', '3', '4', '6', '7']) got[samples] = await c.execute(['MEMORY', 'USAGE', 'small', 'SAMPLES', samples]);
    // 9 nodes; SAMPLES 3 was 5989 and 5 (the default) 6006 with the average's fraction kept
    expect(got).toEqual({ '5': 6000, '0': 5968, '1': 6032, '2': 5968, '3': 5984, '4': 6032, '6': 5984, '7': 5976 });
  });

  it('a 200 KB bitmap is one allocation of jemalloc’s 224 KiB class in 7.0 (7.0.15: 229424)', async () => {
    const c = engine.conn({ streams: { redisVersion: '7.0' } });
    await c.execute(['SETBIT', 'big', '1600000', '1']);
    expect(await c.execute(['MEMORY', 'USAGE', 'big'])).toBe(229424);
  });

  it('a hash table is sized from its buckets and sampled fields, all of them with SAMPLES 0 (7.0.15: 41752)', async () => {
    const c = engine.conn({ streams: { redisVersion: '7.0' } });
    for (const argv of SETUP) if (argv[1] === 'h3') await c.execute(argv);
    expect(await c.execute(['MEMORY', 'USAGE', 'h3', 'SAMPLES', '0'])).toBe(41752);
    // five fields spread over the hash (Redis: its first five in hash order; 7.0.15 answered 41896)
    const sampled = Number(await c.execute(['MEMORY', 'USAGE', 'h3']));
    expect(Math.abs(sampled - 41896) / 41896).toBeLessThan(0.06);
  });

  it('a skiplist node\'s level is drawn from a hash of its member: a figure 7.0.15 can answer, the same every run', async () => {
    const c = engine.conn({ streams: { redisVersion: '7.0' } });
    await c.execute(['ZADD', 'z2', ...Array.from({ length: 200 }, (_, i) => [String(i + 1), `m${i + 1}`]).flat()]);
    const got = Number(await c.execute(['MEMORY', 'USAGE', 'z2']));
    // 7.0.15 answered 18840 to 20120 in a few runs: 18840 when the five sampled nodes (m1…m5)
    // all have level 1, 640 (16 bytes x 200 / 5) more per further level up to level 6; here
    // their levels are 1, 3, 1, 1, 2
    expect(got).toBe(18840 + 3 * 640);
    expect(Number(await c.execute(['MEMORY', 'USAGE', 'z2']))).toBe(got);
  });
});

describe('allocator size classes', () => {
  it('jemalloc 5.3 rounds to 8, multiples of 16 to 128, then four classes per doubling', () => {
    expect([1, 8, 9, 21, 128, 129, 160, 161, 257, 1699, 2191, 4096, 200011].map(jemallocUsable)).toEqual([
      8, 8, 16, 32, 128, 160, 160, 192, 320, 1792, 2560, 4096, 229376,
    ]);
  });

  it('glibc hands out 16-byte chunks with an 8-byte header (24 usable at least) and pages past 128 KiB', () => {
    expect([1, 24, 25, 36, 1699, 4096, 200011].map(glibcUsable)).toEqual([24, 24, 40, 40, 1704, 4104, 200688]);
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('MEMORY USAGE', ({ url, version }) => {
  it('matches the live server for strings, listpacks, intsets, quicklists and streams (glibc: within a few chunks)', async () => {
    const real = await connectReal(url, 11);
    const c = engine.conn({ db: 11, streams: { redisVersion: version } });
    try {
      for (const argv of SETUP) {
        await real.call(argv[0], ...argv.slice(1));
        await c.execute(argv);
      }
      const keys = Object.keys(REDIS_70);
      const realUsage = await usages((argv) => real.call(argv[0], ...argv.slice(1)), keys);
      const fakeUsage = await usages(async (argv) => toResp2Plain(await c.execute(argv)), keys);
      if (version === '7.0') {
        expect(fakeUsage).toEqual(realUsage);
      } else {
        // glibc malloc may hand out a chunk 16 bytes larger than the request's own (a free chunk
        // whose remainder is too small to split), per allocation (the key's sds, the value, a
        // stream's nodes), depending on what was freed before: a few chunks' worth; the
        // strings APPEND grew are left out here (glibc's realloc keeps or extends chunks as its
        // heap allows: their recorded figures above are checked, not the live server's)
        const appended = new Set(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a9', 'c1']);
        for (const k of keys) {
          if (appended.has(k)) continue;
          for (const i of [0, 1]) expect([k, Math.abs(fakeUsage[k][i] - realUsage[k][i]) <= 48]).toEqual([k, true]);
        }
      }
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
    }
  });
});
