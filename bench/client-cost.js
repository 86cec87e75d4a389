#!/usr/bin/env node
/*
 * Per-client cost of the ioredis front end against plain ioredis-mock 8.13.1 (issue 11):
 * - heap per client (5,000 clients, each in a fresh process so no run frees another's memory);
 * - CPU time per call (process.cpuUsage, best of 7 interleaved rounds: the machine may be
 *   shared) of ioredis-mock's own GET and of the stream commands through the method, through
 *   the engine Connection and through the command dispatcher alone, to show where time goes.
 * Run after `npm run build`: `node --expose-gc bench/client-cost.js`. Prints ratios; no target
 * is enforced here (bench/run.js checks the per-command scaling).
 */
const { execFileSync } = require('child_process');
const M = require('module');
const path = require('path');
const fs = require('fs');

/** A private copy of ioredis-mock (not patched by this package). */
function plainIoredisMock() {
  // ioredis-mock as bundled with the package (packages/mock-runtime)
  const file = require.resolve('ioredis-mock', { paths: [path.dirname(require.resolve('@ioredis-mock-streams/mock-runtime/package.json'))] });
  const mod = new M(file);
  mod.filename = file;
  mod.paths = M._nodeModulePaths(path.dirname(file));
  mod._compile(fs.readFileSync(file, 'utf8'), file);
  return mod.exports;
}

const tick = () => new Promise((r) => setImmediate(r));
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function heapCase(which) {
  const Plain = plainIoredisMock();
  const Redis = require('../dist/cjs-entry.js');
  const make = {
    plain: () => new Plain({ port: 60000 }),
    streams: () => new Redis({ port: 60001 }),
    'plain, used': async () => {
      const r = new Plain({ port: 60002 });
      await r.set('k', 'v');
      await r.get('k');
      await r.xadd('s', '*', 'f', 'v');
      return r;
    },
    'streams, used': async () => {
      const r = new Redis({ port: 60003 });
      await r.set('k', 'v');
      await r.get('k');
      await r.xadd('s', 'MAXLEN', 10, '*', 'f', 'v');
      return r;
    },
  }[which];
  await make();
  for (let k = 0; k < 3; k++) {
    await tick();
    global.gc();
  }
  const before = process.memoryUsage().heapUsed;
  const keep = [];
  for (let i = 0; i < 5000; i++) keep.push(await make());
  for (let k = 0; k < 3; k++) {
    await tick();
    global.gc();
  }
  process.stdout.write(String((process.memoryUsage().heapUsed - before) / keep.length));
  process.exit(0);
}

async function timing() {
  const Plain = plainIoredisMock();
  const Redis = require('../dist/cjs-entry.js');
  const { createConnection } = require('../dist/engine');
  const { dispatch } = require('../dist/commands/dispatch');
  const { Stream } = require('../dist/model/stream');
  const p = new Plain({ port: 61000 });
  await p.set('k', 'v');
  const r = new Redis({ port: 61001 });
  await r.set('k', 'v');
  await r.xgroup('CREATE', 'c', 'g', '$', 'MKSTREAM');
  const c = createConnection({ port: 61002 });
  await c.execute(['xgroup', 'CREATE', 'c', 'g', '$', 'MKSTREAM']);
  const keys = new Map();
  const db = {
    getStream: (k) => keys.get(k),
    exists: (k) => keys.has(k),
    createStream: (k) => {
      const s = new Stream();
      keys.set(k, s);
      return s;
    },
    signalReady() {},
    touch() {},
    notify() {},
  };
  const ctx = () => ({ now: Date.now(), version: '8.10', db, canBlock: true, isRetry: false });
  dispatch(ctx(), ['xgroup', 'CREATE', 'c', 'g', '$', 'MKSTREAM']);
  const cases = {
    'ioredis-mock GET (plain)': () => p.get('k'),
    'GET (method)': () => r.get('k'),
    'XLEN (method)': () => r.xlen('c'),
    'XADD (method)': () => r.xadd('s', 'MAXLEN', '~', 1000, '*', 'f', 'v'),
    'XADD (Connection)': () => c.runReady(['xadd', 's', 'MAXLEN', '~', '1000', '*', 'f', 'v']),
    'XADD (dispatch only)': () => dispatch(ctx(), ['xadd', 's', 'MAXLEN', '~', '1000', '*', 'f', 'v']),
    'XADD+XREADGROUP+XACK (method)': async () => {
      await r.xadd('c', 'MAXLEN', '~', 1000, '*', 'f', 'v');
      const res = await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 'c', '>');
      await r.xack('c', 'g', res[0][1][0][0]);
    },
    'XADD+XREADGROUP+XACK (Connection)': () => {
      c.runReady(['xadd', 'c', 'MAXLEN', '~', '1000', '*', 'f', 'v']);
      const res = c.runReady(['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', 'c', '>']);
      c.runReady(['xack', 'c', 'g', res.items[1][0][0]]);
    },
    'XADD+XREADGROUP+XACK (dispatch only)': () => {
      dispatch(ctx(), ['xadd', 'c', 'MAXLEN', '~', '1000', '*', 'f', 'v']);
      const res = dispatch(ctx(), ['xreadgroup', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', 'c', '>']);
      dispatch(ctx(), ['xack', 'c', 'g', res.items[1][0][0]]);
    },
  };
  const best = {};
  const N = 20000;
  for (let round = 0; round < 8; round++) {
    for (const [name, fn] of Object.entries(cases)) {
      global.gc();
      const t0 = cpu();
      for (let i = 0; i < N; i++) await fn();
      if (round > 0) best[name] = Math.min(best[name] ?? Infinity, (cpu() - t0) / N);
    }
  }
  const g = best['ioredis-mock GET (plain)'];
  console.log('CPU µs per call (best of 7 rounds of 20,000), and the ratio to ioredis-mock GET:');
  for (const [k, v] of Object.entries(best)) console.log(`  ${k.padEnd(40)} ${v.toFixed(2).padStart(6)}  ${(v / g).toFixed(2)}x`);
  process.exit(0);
}

if (!global.gc) {
  console.error('run with node --expose-gc');
  process.exit(2);
}
if (process.argv[2] === '--heap') heapCase(process.argv[3]);
else {
  const per = {};
  for (const which of ['plain', 'streams', 'plain, used', 'streams, used']) {
    per[which] = Number(execFileSync(process.execPath, ['--expose-gc', '--no-warnings', __filename, '--heap', which]).toString());
  }
  console.log('heap per client (5,000 clients):');
  for (const [k, v] of Object.entries(per)) console.log(`  ${k.padEnd(16)} ${(v / 1024).toFixed(2)} KB`);
  console.log(`  delta vs ioredis-mock: ${((per.streams - per.plain) / 1024).toFixed(1)} KB connected, ${((per['streams, used'] - per['plain, used']) / 1024).toFixed(1)} KB after commands`);
  timing();
}
