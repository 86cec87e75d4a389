#!/usr/bin/env node
/*
 * Benchmark report: this package next to plain ioredis-mock (and a real server through ioredis
 * when REDIS_URL is set), as ratios. Run after `npm run build`: `npm run bench`. Every
 * measurement runs in a fresh child process (bench/worker.js), because importing this package
 * installs the stream commands on ioredis-mock's class for the whole process.
 *
 * Sections and targets (a missed target makes the exit code 1; timings are never tests):
 * - import: CPU of `require()` in fresh processes (median of many), package / ioredis-mock <= 1.15
 * - jest: a generated 20-file jest suite doing the same stream-ish work (XADD/XRANGE/XLEN/GET/SET)
 *   with either client; CPU and wall, package / ioredis-mock <= 1.1
 * - heap: bytes per client (package − ioredis-mock <= 10 KB) and per small entry at 1M entries
 *   (<= 200 B)
 * - commands: CPU µs per call through the methods, side by side, after a long warm-up (steady
 *   state); XADD / GET <= 2 and the XADD+XREADGROUP+XACK cycle / GET <= 4.6 (6 µs where GET
 *   takes 1.3 µs), GET being plain ioredis-mock's, measured side by side in one process (worker
 *   `ratios`), the median of five such processes
 * - waiters: 3,000 group readers blocked on one key, one XADD <= 2 ms (per Redis version; CPU
 *   ms, median of the 21st-40th XADD, the first one shown apart: it runs the re-run code cold)
 * - pel: XAUTOCLAIM and XPENDING at 1M entries / 100k PEL, <= 0.5 µs per examined PEL entry
 * - growth: per-command cost at 1k/10k/100k entries, 100k/1k <= 3 (BENCH_MAX_RATIO)
 * - percommand (issue 19 item 5): GET, SET, INCR, HSET, HGETALL of 10 fields, MGET of 10 keys,
 *   package / ioredis-mock <= 1.0 both warm (worker `commandRatios`: side by side with a
 *   pristine ioredis-mock in one process, median of processes) and cold (CPU of the first 1,000
 *   calls in a fresh process after loading the module and making one client; median of
 *   interleaved processes per side); shown beside them, not a target: require + first client +
 *   first 1,000 SET+GET pairs (work moved out of the first commands into load or construction
 *   would show there)
 * - streamcold: XADD and the XADD+XREADGROUP+XACK cycle over the first 1,000 calls of a fresh
 *   process <= 2x and <= 4x ioredis-mock's GET over its first 1,000 (and, shown: the cycle
 *   with require + first client counted, / ioredis-mock's GET counted alike)
 * - serve: redis-benchmark (-t set,get unpipelined and -P 16; lpush,lpop) against `serve` and
 *   against a redis-server of our own, both on free ports; serve / redis-server requests per
 *   second >= 0.7 (unpipelined) and >= 0.3 (-P 16); beside them, in the same rounds, Node's own
 *   floor (bench/floor-server.js: a bare `net` server answering a constant reply per request) as
 *   a ratio to redis-server, what no Node server can beat here; skips with a message when
 *   redis-benchmark/redis-server are missing (BENCH_REDIS_SERVER / BENCH_REDIS_BENCHMARK
 *   name other binaries)
 * - typegrowth (issue 20): per-command cost at 1k and 1M members/elements of sorted sets,
 *   lists, sets and hashes, of keys of the db (a key or a TTL added and removed) and of a bitmap of n bytes (SETBIT + GETBIT), 1M/1k <= BENCH_TYPE_MAX_RATIO (default 3; random members of a 1M
 *   collection miss the CPU caches where 1k hit them: a flat O(1)/O(log n) command still pays
 *   that)
 * Select sections with BENCH_ONLY=import,jest,…; BENCH_QUICK=1 uses fewer repetitions;
 * BENCH_PORTS=first-last (or a comma list) picks the servers' ports there instead of free ones.
 */
const { spawn, spawnSync } = require('child_process');
const net = require('net');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const WORKER = path.join(__dirname, 'worker.js');
const QUICK = Boolean(process.env.BENCH_QUICK);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const GROWTH_MAX_RATIO = Number(process.env.BENCH_MAX_RATIO || 3);
const TYPE_GROWTH_MAX_RATIO = Number(process.env.BENCH_TYPE_MAX_RATIO || 3);

const TARGETS = {
  importRatio: 1.15,
  jestRatio: 1.1,
  clientHeapDeltaBytes: 10 * 1024,
  entryHeapBytes: 200,
  xaddOverGet: 2,
  cycleOverGet: 6 / 1.3,
  waiterXaddMs: 2,
  pelScanUsPerEntry: 0.5,
  commandWarmRatio: 1.0,
  commandColdRatio: 1.0,
  coldXaddOverGet: 2,
  coldCycleOverGet: 4,
  serveUnpipelined: 0.7,
  servePipelined: 0.3,
};

let missed = 0;
const results = [];

function check(name, value, max, unit = '') {
  const ok = value <= max;
  if (!ok) missed++;
  results.push({ name, value, max, ok });
  console.log(`  ${ok ? 'ok    ' : 'MISSED'} ${name}: ${fmt(value)}${unit} (target <= ${fmt(max)}${unit})`);
}

function checkAtLeast(name, value, min, unit = '') {
  const ok = value >= min;
  if (!ok) missed++;
  results.push({ name, value, min, ok });
  console.log(`  ${ok ? 'ok    ' : 'MISSED'} ${name}: ${fmt(value)}${unit} (target >= ${fmt(min)}${unit})`);
}

function fmt(x) {
  if (typeof x !== 'number') return String(x);
  if (Math.abs(x) >= 1000) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Run one worker task in a fresh process; returns its JSON result. */
/**
 * Runs `task` of bench/worker.js in a fresh process. Target `streams-nocache`: the package with
 * its V8 code cache turned off (lib/code-cache.ts), as a process before the cache is written.
 */
function work(task, target, options = {}, nodeFlags = []) {
  const noCache = target === 'streams-nocache';
  const env = { ...process.env };
  if (noCache) env.IOREDIS_MOCK_STREAMS_CODE_CACHE = 'off';
  else if (options.codeCacheDir) env.IOREDIS_MOCK_STREAMS_CODE_CACHE = options.codeCacheDir;
  const out = spawnSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=8192', ...nodeFlags, WORKER, task, noCache ? 'streams' : target, JSON.stringify(options)],
    { cwd: ROOT, encoding: 'utf8', env, maxBuffer: 64 << 20 },
  );
  if (out.status !== 0) throw new Error(`worker ${task} ${target} failed:\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop());
}

const hasReal = Boolean(process.env.REDIS_URL);
const want = (section) => !ONLY || ONLY.has(section);

function section(title) {
  console.log(`\n== ${title}`);
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(`  ${line(header)}`);
  for (const r of rows) console.log(`  ${line(r)}`);
}

// ------------------------------------------------------------------------------------------
function benchImport() {
  section('import cost: CPU ms of require() in a fresh process');
  const reps = QUICK ? 9 : 25;
  const samples = { plain: [], streams: [] };
  for (let i = 0; i < reps; i++) {
    // interleaved, so that a busy moment of the machine hits both sides alike
    for (const t of i % 2 ? ['plain', 'streams'] : ['streams', 'plain']) samples[t].push(work('import', t).cpuMs);
  }
  const plain = median(samples.plain);
  const streams = median(samples.streams);
  table(['', 'median CPU ms', 'min'], [
    ['ioredis-mock', fmt(plain), fmt(Math.min(...samples.plain))],
    ['ioredis-mock-streams', fmt(streams), fmt(Math.min(...samples.streams))],
  ]);
  check('import CPU, package / ioredis-mock', streams / plain, TARGETS.importRatio, 'x');
}

// ------------------------------------------------------------------------------------------
/** CPU ms (user + system) used by waited-for children so far (Linux /proc), or null. */
function childrenCpuMs() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const USER_HZ = 100; // clock ticks per second of /proc times on Linux
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / USER_HZ; // cutime, cstime
  } catch {
    return null;
  }
}

function writeJestSuite(dir, modulePath) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'jest.config.js'),
    `module.exports = { rootDir: __dirname, testEnvironment: 'node', transform: {}, testMatch: ['**/*.test.js'], watchman: false };\n`,
  );
  for (let f = 0; f < 20; f++) {
    fs.writeFileSync(
      path.join(dir, `file${String(f).padStart(2, '0')}.test.js`),
      `const Redis = require(${JSON.stringify(modulePath)});

describe('stream work ${f}', () => {
  let redis;
  beforeEach(() => { redis = new Redis({ port: ${51_000 + f} }); });
  afterEach(async () => { await redis.flushall(); redis.disconnect(); });

  for (let t = 0; t < 5; t++) {
    it('adds, reads back and counts entries ' + t, async () => {
      for (let i = 0; i < 20; i++) await redis.xadd('jobs', '*', 'job', 'j' + i, 'try', '1');
      expect(await redis.xlen('jobs')).toBe(20);
      const first = await redis.xrange('jobs', '-', '+', 'COUNT', 5);
      expect(first.map((e) => e[1][1])).toEqual(['j0', 'j1', 'j2', 'j3', 'j4']);
      const last = await redis.xrevrange('jobs', '+', '-', 'COUNT', 1);
      expect(last[0][1][1]).toBe('j19');
      await redis.set('cursor', first[4][0]);
      expect(await redis.get('cursor')).toBe(first[4][0]);
    });
  }
});
`,
    );
  }
}

function runJest(dir) {
  const jestBin = require.resolve('jest/bin/jest', { paths: [ROOT] });
  const cpu0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  const out = spawnSync(process.execPath, [jestBin, '--config', path.join(dir, 'jest.config.js'), '--runInBand', '--ci', '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu1 = childrenCpuMs();
  if (out.status !== 0) throw new Error(`jest suite in ${dir} failed:\n${out.stderr}`);
  return { wallMs, cpuMs: cpu0 === null ? null : cpu1 - cpu0 };
}

function benchJest() {
  section('jest: 20 test files × 5 tests (XADD/XLEN/XRANGE/XREVRANGE/SET/GET), --runInBand');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'imstreams-bench-'));
  try {
    const suites = {
      plain: path.join(tmp, 'plain'),
      streams: path.join(tmp, 'streams'),
    };
    // ioredis-mock as bundled with the package (packages/mock-runtime)
    const runtime = path.dirname(require.resolve('@ioredis-mock-streams/mock-runtime/package.json', { paths: [ROOT] }));
    writeJestSuite(suites.plain, require.resolve('ioredis-mock', { paths: [runtime] }));
    writeJestSuite(suites.streams, path.join(ROOT, 'dist', 'cjs-entry.js'));
    runJest(suites.plain); // warm-up: jest's own caches
    runJest(suites.streams);
    const reps = QUICK ? 3 : 9; // one suite run varies by ±10% on a shared machine: the median of 9 interleaved pairs
    const samples = { plain: [], streams: [] };
    for (let i = 0; i < reps; i++) {
      for (const t of i % 2 ? ['plain', 'streams'] : ['streams', 'plain']) samples[t].push(runJest(suites[t]));
    }
    const stat = (t, k) => median(samples[t].map((s) => s[k]));
    table(['', 'CPU ms', 'wall ms'], [
      ['ioredis-mock', fmt(stat('plain', 'cpuMs')), fmt(stat('plain', 'wallMs'))],
      ['ioredis-mock-streams', fmt(stat('streams', 'cpuMs')), fmt(stat('streams', 'wallMs'))],
    ]);
    // the ratio within each pair (run back to back), then the median of the pairs: the machine's
    // speed drifts across the minutes the pairs take
    const pairRatio = (k) => median(samples.streams.map((s, i) => s[k] / samples.plain[i][k]));
    if (samples.plain[0].cpuMs !== null) {
      check('jest suite CPU, package / ioredis-mock (median of pairs)', pairRatio('cpuMs'), TARGETS.jestRatio, 'x');
    }
    check('jest suite wall, package / ioredis-mock (median of pairs)', pairRatio('wallMs'), TARGETS.jestRatio, 'x');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------
function benchHeap() {
  section('heap');
  const reps = QUICK ? 1 : 3;
  const per = { plain: [], streams: [] };
  for (let i = 0; i < reps; i++) for (const t of ['plain', 'streams']) per[t].push(work('clientHeap', t, { n: 1000 }).perClientBytes);
  const plain = median(per.plain);
  const streams = median(per.streams);
  table(['', 'bytes per client'], [
    ['ioredis-mock', fmt(plain)],
    ['ioredis-mock-streams', fmt(streams)],
  ]);
  check('heap per client above ioredis-mock', streams - plain, TARGETS.clientHeapDeltaBytes, ' B');
  const n = QUICK ? 200_000 : 1_000_000;
  const auto = work('entryHeap', 'streams', { n, ids: 'auto' });
  const explicit = work('entryHeap', 'streams', { n, ids: 'explicit' });
  table(['small entries (XADD s <id> f <digit>)', 'bytes per entry'], [
    [`${n} entries, * IDs, one per ms`, fmt(auto.perEntryBytes)],
    [`${n} entries, explicit IDs i-1`, fmt(explicit.perEntryBytes)],
  ]);
  check('heap per small entry', Math.max(auto.perEntryBytes, explicit.perEntryBytes), TARGETS.entryHeapBytes, ' B');
}

// ------------------------------------------------------------------------------------------
function benchCommands() {
  section('commands: CPU µs per call through the methods (steady state: median of batches after a long warm-up)');
  // three runs per side, interleaved; the median per command (the table)
  const runs = { plain: [], streams: [] };
  for (let i = 0; i < (QUICK ? 1 : 3); i++) for (const t of ['plain', 'streams']) runs[t].push(work('commands', t));
  const merge = (list) => Object.fromEntries(Object.keys(list[0]).map((n) => [n, median(list.map((r) => r[n]))]));
  const sides = { plain: merge(runs.plain), streams: merge(runs.streams) };
  if (hasReal) sides.real = work('commands', 'real', { calls: 500 });
  const names = [...new Set(Object.values(sides).flatMap((s) => Object.keys(s)))];
  const get = sides.plain.GET;
  const header = ['command', 'ioredis-mock', 'package', 'package/mock', 'package/GET'];
  if (hasReal) header.push('real server');
  table(
    header,
    names.map((n) => {
      const row = [
        n,
        sides.plain[n] === undefined ? '—' : fmt(sides.plain[n]),
        fmt(sides.streams[n]),
        sides.plain[n] === undefined ? '—' : `${fmt(sides.streams[n] / sides.plain[n])}x`,
        `${fmt(sides.streams[n] / get)}x`,
      ];
      if (hasReal) row.push(sides.real[n] === undefined ? '—' : fmt(sides.real[n]));
      return row;
    }),
  );
  console.log('  (GET = ioredis-mock\'s GET in a process without this package; the package/GET column divides by it)');
  // The targets: side by side in one process (worker `ratios`): batches of a pristine
  // ioredis-mock's GET alternate with the package's XADD and cycle batches, 15 rounds; this
  // machine's speed drifts by tens of percent over seconds, which ratios of separate processes
  // (the table above) pick up. One process's ratio still varies by a third from the next's (how
  // the JIT compiled it): five processes, the median of each figure.
  const processes = QUICK ? 1 : 5;
  const ratioRuns = Array.from({ length: processes }, () => work('ratios', 'streams', { rounds: QUICK ? 5 : 15 }));
  const ratios = Object.fromEntries(Object.keys(ratioRuns[0]).map((k) => [k, median(ratioRuns.map((r) => r[k]))]));
  console.log(
    `  side by side in one process (median of ${QUICK ? 5 : 15} rounds; of ${processes} processes: cycle/GET ${ratioRuns.map((r) => fmt(r.cycleOverGet)).join(', ')}): ioredis-mock GET ${fmt(ratios.get)} µs, XADD ${fmt(ratios.xadd)} µs, XADD+XREADGROUP+XACK ${fmt(ratios.cycle)} µs`,
  );
  check('XADD / ioredis-mock GET', ratios.xaddOverGet, TARGETS.xaddOverGet, 'x');
  check('XADD+XREADGROUP+XACK / ioredis-mock GET', ratios.cycleOverGet, TARGETS.cycleOverGet, 'x');
}

// ------------------------------------------------------------------------------------------
function benchWaiters() {
  section('waiters: 3,000 XREADGROUP … BLOCK 0 … > readers on one key (one consumer each)');
  const rows = [];
  let worst = 0;
  for (const version of ['7.0', '7.2', '8.10']) {
    // the median of three processes (one varies by half with the machine's speed)
    const runs = [];
    for (let i = 0; i < (QUICK ? 1 : 3); i++) runs.push(work('waiters', 'streams', { readers: 3000, version }));
    const r = { firstXaddMs: median(runs.map((x) => x.firstXaddMs)), xaddMs: median(runs.map((x) => x.xaddMs)), stillBlocked: runs[0].stillBlocked };
    rows.push([version, fmt(r.firstXaddMs), fmt(r.xaddMs), r.stillBlocked]);
    worst = Math.max(worst, r.xaddMs);
  }
  table(['Redis version', 'first XADD ms', 'ms per XADD (21st-40th)', 'readers still blocked after 40 XADDs'], rows);
  check('XADD with 3,000 blocked group readers (worst version)', worst, TARGETS.waiterXaddMs, ' ms');
}

// ------------------------------------------------------------------------------------------
function benchPel() {
  const entries = QUICK ? 200_000 : 1_000_000;
  const pel = QUICK ? 20_000 : 100_000;
  section(`PEL scans: ${entries} entries, ${pel} pending (every ${entries / pel}th), µs per examined PEL entry`);
  // one process varies by up to 2x here (heap layout, when the old generation is collected): the
  // median of three processes per figure
  const runs = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) runs.push(work('pelScan', 'streams', { entries, pel }));
  const r = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((x) => x[k]))]));
  table(['command', 'µs per examined entry'], [
    ['XAUTOCLAIM … COUNT 100 (1000 examined, none claimed)', fmt(r.autoclaimPerEntry)],
    ['XPENDING … mid + 1000', fmt(r.xpendingPerEntry)],
    ['XPENDING … IDLE (filters all) … 1000 consumer', fmt(r.xpendingIdlePerEntry)],
  ]);
  check('XAUTOCLAIM per examined PEL entry', r.autoclaimPerEntry, TARGETS.pelScanUsPerEntry, ' µs');
  check('XPENDING per examined PEL entry', Math.max(r.xpendingPerEntry, r.xpendingIdlePerEntry), TARGETS.pelScanUsPerEntry, ' µs');
}

// ------------------------------------------------------------------------------------------
function benchGrowth() {
  section(`growth: µs per call at 1k/10k/100k entries (best of 3 streams); target 100k/1k <= ${GROWTH_MAX_RATIO}`);
  const { sizes, rows } = work('growth', 'streams');
  table(
    ['command', ...sizes.map(String), 'ratio'],
    Object.entries(rows).map(([name, times]) => {
      const ratio = times.at(-1) / times[0];
      return [name, ...times.map(fmt), `${fmt(ratio)}${ratio <= GROWTH_MAX_RATIO ? '' : ' MISSED'}`];
    }),
  );
  for (const [name, times] of Object.entries(rows)) {
    const ratio = times.at(-1) / times[0];
    if (ratio > GROWTH_MAX_RATIO) check(`growth of ${name}`, ratio, GROWTH_MAX_RATIO, 'x');
  }
  results.push({ name: 'growth', ok: true });
}


// ------------------------------------------------------------------------------------------
const PER_COMMANDS = ['GET', 'SET', 'INCR', 'HSET', 'HGETALL 10 fields', 'MGET 10 keys'];

/**
 * Median CPU µs (every thread) of the first `calls` calls of `command` over `reps` fresh processes
 * per side (interleaved), by side label; `<label>:main`: the main thread's alone (Linux).
 */
function coldMedians(sides, command, reps, fromLoad = false) {
  const out = Object.fromEntries(sides.flatMap(([label]) => [[label, []], [`${label}:main`, []]]));
  // the package's V8 code cache as a user's later runs have it: written by a first process that ran
  // the same commands (one unmeasured run per command, a cache directory of its own)
  const caches = new Map();
  for (const [, target, cmd] of sides) {
    const name = cmd ?? command;
    if (target !== 'streams' || caches.has(name)) continue;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imstreams-code-cache-'));
    caches.set(name, dir);
    work('coldCommand', 'streams', { command: name, calls: 1000, fromLoad, codeCacheDir: dir });
  }
  for (let i = 0; i < reps; i++) {
    const order = i % 2 ? [...sides].reverse() : sides;
    for (const [label, target, cmd] of order) {
      const got = work('coldCommand', target, { command: cmd ?? command, calls: 1000, fromLoad, codeCacheDir: caches.get(cmd ?? command) });
      out[label].push(got.totalUs);
      out[`${label}:main`].push(got.mainUs ?? NaN);
    }
  }
  for (const dir of caches.values()) fs.rmSync(dir, { recursive: true, force: true });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, median(v)]));
}

function benchPerCommand() {
  section('per command, package / ioredis-mock (issue 19 item 5): warm (side by side) and cold (first 1,000 calls of a fresh process)');
  const processes = QUICK ? 1 : 3;
  const warmRuns = Array.from({ length: processes }, () => work('commandRatios', 'streams', { rounds: QUICK ? 5 : 9 }));
  const names = Object.keys(warmRuns[0]);
  const warm = Object.fromEntries(names.map((n) => [n, {
    plain: median(warmRuns.map((r) => r[n].plain)),
    pkg: median(warmRuns.map((r) => r[n].pkg)),
    ratio: median(warmRuns.map((r) => r[n].ratio)),
  }]));
  const reps = QUICK ? 3 : 5;
  const cold = {};
  for (const n of names) cold[n] = coldMedians([['plain', 'plain'], ['pkg', 'streams'], ['noCache', 'streams-nocache']], n, reps);
  table(
    ['command', 'warm mock µs', 'warm pkg µs', 'warm ratio', 'cold mock ms/1000', 'cold pkg ms/1000', 'cold ratio', 'main thread', 'no code cache'],
    names.map((n) => [
      n,
      fmt(warm[n].plain),
      fmt(warm[n].pkg),
      `${fmt(warm[n].ratio)}x`,
      fmt(cold[n].plain / 1000),
      fmt(cold[n].pkg / 1000),
      `${fmt(cold[n].pkg / cold[n].plain)}x`,
      `${fmt(cold[n]['pkg:main'] / cold[n]['plain:main'])}x`,
      `${fmt(cold[n].noCache / cold[n].plain)}x`,
    ]),
  );
  console.log(`  (warm: median of ${processes} processes of side-by-side rounds; cold: median of ${reps} fresh processes per side, CPU of every thread, the package's`);
  console.log('  V8 code cache written by an earlier process of the same command; "main thread": the JavaScript thread alone (V8\'s background compilers and GC left out, Linux);');
  console.log('  "no code cache": a first process, or jest, which compiles the bundles itself; SET+GET pair shown, not a target)');
  // The cold rows above start after require() and the first client: the same with both counted,
  // so that work moved out of the first commands into loading or construction shows here
  const whole = coldMedians([['plain', 'plain'], ['pkg', 'streams']], 'SET+GET pair', reps, true);
  console.log(
    `  require + first client + first 1,000 SET+GET pairs: ioredis-mock ${fmt(whole.plain / 1000)} ms, package ${fmt(whole.pkg / 1000)} ms, ${fmt(whole.pkg / whole.plain)}x (shown, not a target: import has its own)`,
  );
  for (const n of PER_COMMANDS) {
    check(`${n} warm, package / ioredis-mock`, warm[n].ratio, TARGETS.commandWarmRatio, 'x');
    check(`${n} first 1,000 calls, package / ioredis-mock`, cold[n].pkg / cold[n].plain, TARGETS.commandColdRatio, 'x');
  }
}

function benchStreamCold() {
  section('stream cold path: CPU of the first 1,000 calls in a fresh process, / ioredis-mock GET over its first 1,000');
  const reps = QUICK ? 3 : 5;
  const m = coldMedians(
    [['get', 'plain', 'GET'], ['get3', 'plain', 'GET GET GET'], ['xadd', 'streams', 'XADD'], ['cycle', 'streams', 'XADD+XREADGROUP+XACK'], ['xaddNoCache', 'streams-nocache', 'XADD'], ['cycleNoCache', 'streams-nocache', 'XADD+XREADGROUP+XACK']],
    null,
    reps,
  );
  table(['', 'ms per 1,000 calls', '/ mock GET', 'no code cache', 'main thread ms', 'main / mock GET main'], [
    ['ioredis-mock GET', fmt(m.get / 1000), '1.00x', '', fmt(m['get:main'] / 1000), '1.00x'],
    ['package XADD', fmt(m.xadd / 1000), `${fmt(m.xadd / m.get)}x`, `${fmt(m.xaddNoCache / m.get)}x`, fmt(m['xadd:main'] / 1000), `${fmt(m['xadd:main'] / m['get:main'])}x`],
    ['package XADD+XREADGROUP+XACK', fmt(m.cycle / 1000), `${fmt(m.cycle / m.get)}x`, `${fmt(m.cycleNoCache / m.get)}x`, fmt(m['cycle:main'] / 1000), `${fmt(m['cycle:main'] / m['get:main'])}x`],
    ['ioredis-mock GET GET GET (the cycle\'s shape)', fmt(m.get3 / 1000), `${fmt(m.get3 / m.get)}x`, '', fmt(m['get3:main'] / 1000), `${fmt(m['get3:main'] / m['get:main'])}x`],
  ]);
  console.log('  (CPU of every thread, V8\'s background compilers and GC included; "main thread": the JavaScript thread alone, Linux only;');
  console.log('  the last row, not a target: ioredis-mock\'s own GET three times per iteration, awaited in one async function as the cycle is)');
  // the same with require() and the first client counted on both sides (not a target: shown)
  const w = coldMedians([['get', 'plain', 'GET'], ['cycle', 'streams', 'XADD+XREADGROUP+XACK']], null, reps, true);
  console.log(`  require + first client + first 1,000: ioredis-mock GET ${fmt(w.get / 1000)} ms, package XADD+XREADGROUP+XACK ${fmt(w.cycle / 1000)} ms, ${fmt(w.cycle / w.get)}x (shown, not a target)`);
  check('cold XADD / ioredis-mock cold GET', m.xadd / m.get, TARGETS.coldXaddOverGet, 'x');
  check('cold XADD+XREADGROUP+XACK / ioredis-mock cold GET', m.cycle / m.get, TARGETS.coldCycleOverGet, 'x');
}

// ------------------------------------------------------------------------------------------
function which(bin) {
  if (bin.includes('/')) return fs.existsSync(bin) ? bin : null;
  for (const dir of (process.env.PATH || '').split(':')) {
    const f = path.join(dir, bin);
    if (dir && fs.existsSync(f)) return f;
  }
  return null;
}

/** `count` distinct free loopback ports (all held open until each is known). */
async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const srv = net.createServer();
      servers.push(srv);
      await new Promise((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((srv) => srv.address().port);
  } finally {
    await Promise.all(servers.map((srv) => new Promise((resolve) => srv.close(resolve))));
  }
}

/**
 * `count` loopback ports for the servers a section starts: from BENCH_PORTS (a comma-separated
 * list, or `first-last`, e.g. a range of ports a shared machine gave this run), else free ones.
 */
async function benchPorts(count) {
  const spec = process.env.BENCH_PORTS;
  if (!spec) return freePorts(count);
  const range = /^(\d+)-(\d+)$/.exec(spec);
  const list = range ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i) : spec.split(',').map(Number);
  const free = [];
  for (const port of list) {
    if (free.length === count) break;
    const ok = await new Promise((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (ok) free.push(port);
  }
  if (free.length < count) throw new Error(`BENCH_PORTS=${spec}: fewer than ${count} free ports`);
  return free;
}

function waitForPort(port, child, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`server on ${port} exited (${child.exitCode})`));
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve();
      });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** CPU ms (user + system) a process has used so far (Linux /proc), or NaN. */
function processCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ ticks
  } catch {
    return NaN;
  }
}

/** redis-benchmark's requests per second per test (its --csv output). */
function redisBenchmark(bin, port, tests, n, pipeline) {
  const args = ['-h', '127.0.0.1', '-p', String(port), '-t', tests, '-n', String(n), '--csv'];
  if (pipeline > 1) args.push('-P', String(pipeline));
  const out = spawnSync(bin, args, { encoding: 'utf8', timeout: 300_000 });
  if (out.status !== 0) throw new Error(`redis-benchmark failed: ${out.stderr}`);
  const rps = {};
  for (const line of out.stdout.split('\n')) {
    const m = /^"([^"]+)","([\d.]+)"/.exec(line.trim());
    if (m) rps[m[1].split(' ')[0]] = Number(m[2]);
  }
  return rps;
}

async function benchServe() {
  section('serve: redis-benchmark requests per second, `serve` / redis-server on this machine');
  const serverBin = which(process.env.BENCH_REDIS_SERVER || 'redis-server');
  const benchBin = which(process.env.BENCH_REDIS_BENCHMARK || 'redis-benchmark');
  if (!serverBin || !benchBin) {
    console.log(`  SKIPPED: ${!serverBin ? 'redis-server' : 'redis-benchmark'} not found (install redis-tools/redis-server, or set BENCH_REDIS_SERVER / BENCH_REDIS_BENCHMARK)`);
    results.push({ name: 'serve', ok: true, skipped: true });
    return;
  }
  const [realPort, servePort, floorPort] = await benchPorts(3);
  const real = spawn(serverBin, ['--port', String(realPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const fake = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'serve', '--port', String(servePort)], { stdio: 'ignore' });
  // Node's own floor: a bare `net` server answering a constant reply per request (bench/floor-server.js)
  const floor = spawn(process.execPath, [path.join(__dirname, 'floor-server.js'), String(floorPort)], { stdio: 'ignore' });
  try {
    await waitForPort(realPort, real);
    await waitForPort(servePort, fake);
    await waitForPort(floorPort, floor);
    if (fake.exitCode !== null || real.exitCode !== null || floor.exitCode !== null) throw new Error('a server exited at start');
    const n = QUICK ? 20_000 : 30_000;
    const rows = [];
    const ratios = {};
    const runs = [
      ['set,get', 1],
      ['set,get', 16],
      ['lpush,lpop', 1],
      ['lpush,lpop', 16],
    ];
    // Rounds of runs on redis-server, serve and the Node floor (the order rotating), the ratios
    // within each round and the median of the rounds: this machine is shared and its load moves
    // from second to second. CPU µs per request of each server process (/proc, utime + stime)
    // beside it: a figure the other processes on the machine hardly move.
    const pairs = QUICK ? 2 : 3;
    const sides = [['real', real, realPort], ['serve', fake, servePort], ['floor', floor, floorPort]];
    for (const [tests, pipeline] of runs) {
      const count = n * (pipeline > 1 ? 4 : 1);
      const per = {};
      // a short run first on each side, not counted: serve's JIT warms up (steady state is compared)
      for (const [, , port] of sides) redisBenchmark(benchBin, port, tests, Math.round(count / 5), pipeline);
      for (let i = 0; i < pairs; i++) {
        const order = sides.map((_, k) => sides[(k + i) % sides.length]);
        const got = {};
        for (const [side, child, port] of order) {
          const cpu0 = processCpuMs(child.pid);
          const rps = redisBenchmark(benchBin, port, tests, count, pipeline);
          const cpuPerReq = ((processCpuMs(child.pid) - cpu0) * 1000) / (count * Object.keys(rps).length);
          got[side] = { rps, cpuPerReq };
        }
        for (const t of Object.keys(got.real.rps)) {
          (per[t] ??= { ratio: [], floorRatio: [], real: [], serve: [], floor: [], cpuReal: [], cpuServe: [], cpuFloor: [] });
          per[t].ratio.push(got.serve.rps[t] / got.real.rps[t]);
          per[t].floorRatio.push(got.floor.rps[t] / got.real.rps[t]);
          per[t].real.push(got.real.rps[t]);
          per[t].serve.push(got.serve.rps[t]);
          per[t].floor.push(got.floor.rps[t]);
          per[t].cpuReal.push(got.real.cpuPerReq);
          per[t].cpuServe.push(got.serve.cpuPerReq);
          per[t].cpuFloor.push(got.floor.cpuPerReq);
        }
      }
      for (const [t, v] of Object.entries(per)) {
        const ratio = median(v.ratio);
        ratios[`${t} -P ${pipeline}`] = ratio;
        rows.push([
          t,
          pipeline === 1 ? 'no' : `-P ${pipeline}`,
          fmt(median(v.real)),
          fmt(median(v.serve)),
          `${fmt(ratio)}x`,
          fmt(median(v.floor)),
          `${fmt(median(v.floorRatio))}x`,
          fmt(median(v.cpuReal)),
          fmt(median(v.cpuServe)),
          fmt(median(v.cpuFloor)),
        ]);
      }
    }
    table(
      ['test', 'pipeline', 'redis-server rps', 'serve rps', 'serve/redis', 'node floor rps', 'floor/redis', 'redis CPU µs/req', 'serve CPU µs/req', 'floor CPU µs/req'],
      rows,
    );
    console.log(`  (${path.basename(serverBin)} ${spawnSync(serverBin, ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1] ?? '?'}, 50 clients, ${pairs} interleaved rounds of runs, ratios the median of the rounds; node floor: bench/floor-server.js, a bare \`net\` server answering a constant reply per request, no keyspace — the most a Node server reaches on this machine; CPU per request: the server process's, both tests of a run together)`);
    for (const t of ['SET', 'GET']) {
      checkAtLeast(`serve ${t} unpipelined, requests/s / redis-server's`, ratios[`${t} -P 1`], TARGETS.serveUnpipelined, 'x');
      checkAtLeast(`serve ${t} -P 16, requests/s / redis-server's`, ratios[`${t} -P 16`], TARGETS.servePipelined, 'x');
    }
  } finally {
    real.kill('SIGTERM');
    fake.kill('SIGTERM');
    floor.kill('SIGTERM');
  }
}

// ------------------------------------------------------------------------------------------
/**
 * Redis's own µs per call (INFO commandstats usec_per_call: the command's CPU inside the server,
 * no network) for the typegrowth commands at each size: a redis-server of our own filled by a
 * script, then redis-benchmark with random members (`__rand_int__`, -r size). Null when
 * redis-server/redis-benchmark are missing. Keys by the worker's case names.
 */
async function redisGrowthReference(sizes) {
  const serverBin = which(process.env.BENCH_REDIS_SERVER || 'redis-server');
  const benchBin = which(process.env.BENCH_REDIS_BENCHMARK || 'redis-benchmark');
  const cliBin = which('redis-cli');
  if (!serverBin || !benchBin || !cliBin) return null;
  const [port] = await benchPorts(1);
  const real = spawn(serverBin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const cli = (...args) => spawnSync(cliBin, ['-p', String(port), ...args], { encoding: 'utf8', timeout: 600_000 }).stdout.trim();
  const FILL = `for i=0,tonumber(ARGV[1])-1 do
    local m = string.format('m%012d', i)
    redis.call('zadd', 'z', i, m); redis.call('sadd', 's', m)
    redis.call('hset', 'h', string.format('f%012d', i), 'v'); redis.call('rpush', 'l', 'e' .. i)
    redis.call('set', string.format('k%012d', i), 'v')
  end redis.call('setbit', 'b', tonumber(ARGV[1]) * 8 - 1, 1) return redis.call('zcard', 'z')`;
  // [case, [redis-benchmark command], commandstats names whose usec_per_call add up]
  const cases = (n) => [
    ['ZRANK', [['zrank', 'z', 'm__rand_int__']], ['zrank']],
    ['ZSCORE', [['zscore', 'z', 'm__rand_int__']], ['zscore']],
    ['ZRANGE mid 10 by rank', [['zrange', 'z', String(n >> 1), String((n >> 1) + 9)]], ['zrange']],
    ['ZRANGEBYSCORE mid LIMIT 0 10', [['zrangebyscore', 'z', String(n >> 1), '+inf', 'LIMIT', '0', '10']], ['zrangebyscore']],
    ['ZADD (move a member to score 5)', [['zadd', 'z', '5', 'm__rand_int__']], ['zadd']],
    ['LPUSH + RPOP', [['lpush', 'l', 'x'], ['rpop', 'l']], ['lpush', 'rpop']],
    ['LINDEX 5 / -5', [['lindex', 'l', '5']], ['lindex']],
    ['SADD', [['sadd', 's', 'm__rand_int__']], ['sadd']],
    ['SISMEMBER', [['sismember', 's', 'm__rand_int__']], ['sismember']],
    ['HSET (existing field)', [['hset', 'h', 'f__rand_int__', 'w']], ['hset']],
    ['HGET', [['hget', 'h', 'f__rand_int__']], ['hget']],
  ];
  // pairs that must run in turn (a member added then removed, the size kept): one EVAL loop (the
  // commands a script calls are counted in commandstats as when a client sends them), run first
  // as the package's first case
  const scripted = (n) => [
    ['ZADD new + ZREM', `for i=1,20000 do redis.call('zadd','z',ARGV[1],'new') redis.call('zrem','z','new') end`, [String(n / 2 + 0.5)], ['zadd', 'zrem']],
    ['SADD new + SREM', `for i=1,20000 do redis.call('sadd','s','new') redis.call('srem','s','new') end`, [], ['sadd', 'srem']],
    ['HSET new + HDEL', `for i=1,20000 do redis.call('hset','h','new','v') redis.call('hdel','h','new') end`, [], ['hset', 'hdel']],
    ['SET new + DEL (db of n keys)', `for i=1,20000 do redis.call('set','new','v') redis.call('del','new') end`, [], ['set', 'del']],
    ['SET EX new + DEL (db of n keys)', `for i=1,20000 do redis.call('set','new','v','ex','100') redis.call('del','new') end`, [], ['set', 'del']],
    [
      'EXPIRE + PERSIST (db of n keys)',
      `local n = tonumber(ARGV[1]) for i=1,20000 do local k = string.format('k%012d', (i * 7919) % n) redis.call('expire',k,'100') redis.call('persist',k) end`,
      [String(n)],
      ['expire', 'persist'],
    ],
    [
      'SETBIT + GETBIT (bitmap of n bytes)',
      `local n = tonumber(ARGV[1]) for i=1,20000 do local bit = ((i * 7919) % n) * 8 redis.call('setbit','b',bit,i % 2) redis.call('getbit','b',bit + 1) end`,
      [String(n)],
      ['setbit', 'getbit'],
    ],
  ];
  // the sum of the commands' usec_per_call in an INFO commandstats text
  const usecPerCall = (info, stats) =>
    stats.reduce((us, st) => us + Number(new RegExp(`cmdstat_${st}:.*usec_per_call=([\\d.]+)`).exec(info)?.[1] ?? NaN), 0);
  const out = {};
  try {
    await waitForPort(port, real);
    for (const n of sizes) {
      cli('flushall');
      cli('eval', FILL, '0', String(n));
      for (const [name, body, args, stats] of scripted(n)) {
        cli('config', 'resetstat');
        cli('eval', body, '0', ...args);
        (out[name] ??= []).push(usecPerCall(cli('info', 'commandstats'), stats));
      }
      for (const [name, commands, stats] of cases(n)) {
        cli('config', 'resetstat');
        for (const c of commands) spawnSync(benchBin, ['-p', String(port), '-r', String(n), '-n', '100000', '-P', '16', '-q', ...c], { encoding: 'utf8', timeout: 300_000 });
        (out[name] ??= []).push(usecPerCall(cli('info', 'commandstats'), stats));
      }
    }
  } finally {
    real.kill('SIGTERM');
  }
  return out;
}

function benchTypeGrowth() {
  const big = QUICK ? 200_000 : 1_000_000;
  section(`growth by data type (issue 20): µs per call at 1k and ${big} members/elements/keys; target ratio <= ${TYPE_GROWTH_MAX_RATIO}, or <= Redis's own ratio when larger`);
  const runs = [work('typeGrowth', 'streams', { sizes: [1_000, big] })]; // one process: filling 1M members four times takes a while
  return redisGrowthReference([1_000, big]).then((ref) => {
    const { sizes } = runs[0];
    const names = Object.keys(runs[0].rows);
    const rows = names.map((n) => [n, sizes.map((_, i) => Math.min(...runs.map((r) => r.rows[n][i])))]);
    const header = ['command', ...sizes.map(String), 'ratio'];
    if (ref) header.push(`redis ${sizes[0]} µs`, `redis ${sizes.at(-1)} µs`, 'redis ratio');
    const limitOf = (n) => Math.max(TYPE_GROWTH_MAX_RATIO, ref?.[n] ? ref[n].at(-1) / ref[n][0] : 0);
    table(
      header,
      rows.map(([n, times]) => {
        const ratio = times.at(-1) / times[0];
        const row = [n, ...times.map(fmt), `${fmt(ratio)}x${ratio <= limitOf(n) ? '' : ' MISSED'}`];
        if (ref) row.push(...(ref[n] ? [fmt(ref[n][0]), fmt(ref[n].at(-1)), `${fmt(ref[n].at(-1) / ref[n][0])}x`] : ['—', '—', '—']));
        return row;
      }),
    );
    console.log(`  (the package: CPU through the methods, median of 5 batches; redis: its commandstats usec_per_call, no network${ref ? '' : ' — SKIPPED: redis-server/redis-benchmark/redis-cli not found'})`);
    for (const [n, times] of rows) {
      const ratio = times.at(-1) / times[0];
      if (ratio > limitOf(n)) check(`growth of ${n}`, ratio, limitOf(n), 'x');
    }
    results.push({ name: 'typegrowth', ok: true });
  });
}

// ------------------------------------------------------------------------------------------
const sections = { import: benchImport, jest: benchJest, heap: benchHeap, commands: benchCommands, waiters: benchWaiters, pel: benchPel, growth: benchGrowth, percommand: benchPerCommand, streamcold: benchStreamCold, serve: benchServe, typegrowth: benchTypeGrowth };

console.log(`ioredis-mock-streams benchmark — node ${process.version}, ${os.cpus().length} CPUs${hasReal ? `, real server ${process.env.REDIS_URL}` : ''}`);
(async () => {
  for (const [name, fn] of Object.entries(sections)) {
    if (!want(name)) continue;
    const t0 = Date.now();
    await fn();
    console.log(`  (section ${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  console.log(missed ? `\n${missed} target(s) missed` : '\nall targets met');
  process.exit(missed ? 1 : 0);
})().catch((err) => {
  console.error(err);
  process.exit(2);
});
