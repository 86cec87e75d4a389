#!/usr/bin/env node
/*
 * Benchmark: per-command cost must not grow with stream length (or PEL size) where Redis's
 * does not. For each command, measures the mean time per call on streams of 1k, 10k and 100k
 * entries and checks the 100k/1k ratio against a target (default 3x; a linear scan would be
 * ~100x). Run after `npm run build`: `npm run bench`. Exits 1 if a target is missed.
 */
const { performance } = require('perf_hooks');
const Redis = require('../dist/cjs-entry.js');

const SIZES = [1_000, 10_000, 100_000];
const TARGET_RATIO = Number(process.env.BENCH_MAX_RATIO || 3);
// 100 warm-up + 850 measured calls: fewer than the smallest stream's 1000 entries, so every
// XDEL below removes a distinct live entry at every size.
const CALLS = 850;
const WARMUP = 100;
let port = 45_000;

async function fill(n) {
  const clock = Redis.createFakeClock({ now: 1_000_000 });
  const r = new Redis({ port: port++, streams: { clock } });
  const p = r.pipeline();
  for (let i = 1; i <= n; i++) p.xadd('s', `${i}-0`, 'f', 'v');
  await p.exec();
  await r.xgroup('CREATE', 's', 'g', '0');
  // Half of the stream delivered and pending: a large PEL.
  await r.xreadgroup('GROUP', 'g', 'c1', 'COUNT', Math.floor(n / 2), 'STREAMS', 's', '>');
  clock.tick(60_000);
  return { r, clock, n };
}

const cases = {
  'XADD * (append)': ({ r }) => r.xadd('s', '*', 'f', 'v'),
  'XRANGE middle COUNT 10': ({ r, n }) => r.xrange('s', `${n >> 1}`, '+', 'COUNT', 10),
  'XREVRANGE end COUNT 10': ({ r }) => r.xrevrange('s', '+', '-', 'COUNT', 10),
  'XADD + XREADGROUP > COUNT 1 + XACK': async ({ r }) => {
    await r.xadd('s', '*', 'f', 'v'); // always something new to read, at every size
    const res = await r.xreadgroup('GROUP', 'g', 'c2', 'COUNT', 1, 'STREAMS', 's', '>');
    if (res) await r.xack('s', 'g', res[0][1][0][0]);
  },
  'XPENDING range COUNT 10 (middle of PEL)': ({ r, n }) => r.xpending('s', 'g', `${n >> 2}`, '+', 10),
  'XAUTOCLAIM COUNT 10 from the middle': ({ r, n }) => r.xautoclaim('s', 'g', 'c3', 1000, `${n >> 2}`, 'COUNT', 10),
  'XDEL one live entry': (ctx) => {
    // Steps through the stream by 7919 (coprime with every size): each call deletes a distinct
    // live entry spread over all nodes; no Math.random, same work at every size.
    ctx.i = ((ctx.i ?? 0) + 7919) % ctx.n;
    return ctx.r.xdel('s', `${ctx.i + 1}-0`);
  },
  'XADD MAXLEN ~ n (trim from head)': ({ r, n }) => r.xadd('s', 'MAXLEN', '~', String(n), '*', 'f', 'v'),
  'XINFO GROUPS (lag)': ({ r }) => r.xinfo('GROUPS', 's'),
  'XLEN': ({ r }) => r.xlen('s'),
};

/** Median of 5 batches of CALLS/5 calls, after a warm-up and a full GC (run with --expose-gc). */
async function measure(fn, ctx) {
  for (let i = 0; i < WARMUP; i++) await fn(ctx); // warm-up
  if (global.gc) global.gc();
  const batches = [];
  for (let b = 0; b < 5; b++) {
    const t0 = performance.now();
    for (let i = 0; i < CALLS / 5; i++) await fn(ctx);
    batches.push(((performance.now() - t0) * 1000) / (CALLS / 5)); // µs per call
  }
  return batches.sort((a, b) => a - b)[2];
}

(async () => {
  let failed = 0;
  console.log(`µs per call (best of 3 streams, median batch of ${CALLS / 5}); target: ${SIZES.at(-1)}/${SIZES[0]} ratio <= ${TARGET_RATIO}`);
  console.log(['command'.padEnd(42), ...SIZES.map((s) => String(s).padStart(9)), '  ratio'].join(''));
  for (const [name, fn] of Object.entries(cases)) {
    const times = [];
    for (const n of SIZES) {
      // best of 3 fresh streams: a GC pause or a busy core only ever makes a run slower
      let best = Infinity;
      for (let round = 0; round < 3; round++) {
        const ctx = await fill(n);
        best = Math.min(best, await measure(fn, ctx));
        Redis.streamsKeyspace(ctx.r).reset(); // free the stream before the next round
        ctx.r.disconnect();
      }
      times.push(best);
    }
    const ratio = times.at(-1) / times[0];
    const ok = ratio <= TARGET_RATIO;
    if (!ok) failed++;
    console.log([name.padEnd(42), ...times.map((t) => t.toFixed(1).padStart(9)), `  ${ratio.toFixed(2)} ${ok ? 'ok' : 'MISSED'}`].join(''));
  }
  console.log(failed ? `${failed} target(s) missed` : 'all targets met');
  process.exit(failed ? 1 : 0);
})();
