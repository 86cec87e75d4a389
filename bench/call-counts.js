#!/usr/bin/env node
/*
 * How many times each JavaScript function runs per call of a cold-path case (not a benchmark:
 * a tool for working on issue 19 item 5's cold targets). V8's precise coverage with call counts
 * over the case's first 1,000 calls in a fresh process, the package from dist/ (npm run build):
 *
 *   node bench/call-counts.js [cycle|xadd|mget|hgetall] [top N]
 *
 * Why counts matter there: in the first thousand calls most of the package's code still runs in
 * V8's interpreter, where every call costs, and V8 compiles with TurboFan a function of under
 * ~80 bytes of bytecode at its first budget interrupt (~67 KB of bytecode run): a small function
 * called several times per command is compiled inside the window (a few ms of background CPU,
 * which the cold targets count).
 */
const inspector = require('inspector');
const path = require('path');

const [which = 'cycle', top = '60'] = process.argv.slice(2);
const CALLS = 1000;
const cases = {
  cycle: {
    setup: (r) => r.xgroup('CREATE', 'c', 'g', '$', 'MKSTREAM'),
    run: async (r) => {
      await r.xadd('c', '*', 'f', 'v');
      const got = await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 'c', '>');
      await r.xack('c', 'g', got[0][1][0][0]);
    },
  },
  xadd: { setup: async () => {}, run: (r) => r.xadd('a', '*', 'f', 'v') },
  mget: {
    setup: (r) => r.mset(...Array.from({ length: 10 }, (_, i) => [`key${i}`, 'value']).flat()),
    run: (r) => r.mget(...Array.from({ length: 10 }, (_, i) => `key${i}`)),
  },
  hgetall: {
    setup: (r) => r.hset('h', ...Array.from({ length: 10 }, (_, i) => [`field${i}`, `value${i}`]).flat()),
    run: (r) => r.hgetall('h'),
  },
};

async function main() {
  const c = cases[which];
  if (!c) throw new Error(`unknown case ${which}: one of ${Object.keys(cases).join(', ')}`);
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  process.env.IOREDIS_MOCK_STREAMS_CODE_CACHE ??= 'off'; // a cached function's calls would not be counted
  const Redis = require(path.join(__dirname, '..', 'dist', 'cjs-entry.js'));
  const r = new Redis({ port: 47_001 });
  await c.setup(r);
  const name = (script, fn) => `${fn.functionName || '(anonymous)'} ${path.basename(script.url)}:${fn.ranges[0].startOffset}`;
  await post('Profiler.takePreciseCoverage'); // resets the counters: what follows counts the calls alone
  for (let i = 0; i < CALLS; i++) await c.run(r);
  const counts = [];
  for (const s of (await post('Profiler.takePreciseCoverage')).result) {
    if (path.basename(s.url) === path.basename(__filename)) continue; // this script's own functions
    for (const f of s.functions) if (f.ranges[0].count > 0) counts.push([f.ranges[0].count, name(s, f)]);
  }
  counts.sort((a, b) => b[0] - a[0]);
  const total = counts.reduce((n, [k]) => n + k, 0);
  console.log(`${which}: ${total} calls of JavaScript functions in ${CALLS} calls, ${(total / CALLS).toFixed(1)} per call (offsets are in the bundle files)`);
  for (const [k, n] of counts.slice(0, Number(top))) console.log(`${String(k).padStart(8)} ${(k / CALLS).toFixed(1).padStart(6)}  ${n}`);
  r.disconnect();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
