#!/usr/bin/env node
/*
 * Keyspace churn (issue 19): CPU µs per pair of commands that add and remove one key (or one
 * TTL) on a db holding N keys, N = 1k and 1M. Run after `npm run build`:
 *   node --expose-gc scripts/keyspace-churn.js [dist dir] [sizes, e.g. 1000,1000000]
 */
const path = require('path');
const dist = process.argv[2] ? path.resolve(process.argv[2]) : path.join(__dirname, '..', 'dist');
const sizes = (process.argv[3] || '1000,1000000').split(',').map(Number);
const Redis = require(path.join(dist, 'cjs-entry.js'));
const cpuUs = () => { const c = process.cpuUsage(); return c.user + c.system; };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const cases = {
  'SET new + DEL': async (r, i) => { await r.set(`new${i & 1}`, 'v'); return r.del(`new${i & 1}`); },
  'SET EX new + DEL': async (r, i) => { await r.set(`new${i & 1}`, 'v', 'EX', 1000); return r.del(`new${i & 1}`); },
  'EXPIRE + PERSIST': async (r, i, n) => { const k = `k${(i * 7919) % n}`; await r.expire(k, 1000); return r.persist(k); },
  'SET new + EXPIRE + DEL': async (r, i) => { await r.set(`new${i & 1}`, 'v'); await r.expire(`new${i & 1}`, 1000); return r.del(`new${i & 1}`); },
  GET: (r, i, n) => r.get(`k${(i * 7919) % n}`),
};
(async () => {
  let port = 45_000;
  const out = {};
  for (const n of sizes) {
    const r = new Redis({ port: port++ });
    for (let done = 0; done < n; done += 10_000) {
      const args = [];
      for (let i = done; i < Math.min(n, done + 10_000); i++) args.push(`k${i}`, 'v');
      await r.mset(...args);
    }
    if ((await r.dbsize()) !== n) throw new Error('fill');
    for (const [name, fn] of Object.entries(cases)) {
      for (let i = 0; i < 2000; i++) await fn(r, i, n);
      const b = [];
      for (let k = 0; k < 5; k++) { const t0 = cpuUs(); for (let i = 0; i < 4000; i++) await fn(r, i, n); b.push((cpuUs() - t0) / 4000); }
      (out[name] ??= []).push(median(b));
    }
    await r.flushall(); r.disconnect(); global.gc?.();
  }
  for (const [name, t] of Object.entries(out)) console.log(`${name.padEnd(24)} ${t.map((x) => x.toFixed(2).padStart(8)).join(' ')}   ratio ${(t.at(-1) / t[0]).toFixed(2)}x`);
})();
