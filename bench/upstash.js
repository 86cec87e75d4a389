#!/usr/bin/env node
/*
 * Benchmark of the Upstash REST front end: mean cost of one XADD + XLEN round on the same
 * fake keyspace through (a) the fake ioredis client, (b) raw requests to the REST handler,
 * (c) @upstash/redis with the handler as `fetch`, (d) @upstash/redis through msw 2
 * (`setupServer`). Prints µs per round and each route's ratio to (a). Informational: no
 * target, exit 0. Run after `npm run build`: `npm run bench:upstash`.
 */
const { performance } = require('perf_hooks');
const Redis = require('../dist/cjs-entry.js');
const { createUpstashHandler } = require('../dist/upstash');
const { upstashHandlers } = require('../dist/msw');
const { Redis: UpstashRedis } = require('@upstash/redis');
const { setupServer } = require('msw/node');

const ROUNDS = 2000;
const URL_ = 'https://bench.upstash.io';

async function time(label, round) {
  for (let i = 0; i < 200; i++) await round(i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < ROUNDS; i++) await round(i);
  return { label, us: ((performance.now() - t0) * 1000) / ROUNDS };
}

function post(handler, argv) {
  return handler(new Request(URL_, { method: 'POST', headers: { 'upstash-encoding': 'base64' }, body: JSON.stringify(argv) })).then((r) => r.json());
}

async function main() {
  const results = [];
  const ioredis = new Redis({ port: 46_001 });
  results.push(await time('fake ioredis client', async () => {
    await ioredis.xadd('s', '*', 'f', 'v');
    await ioredis.xlen('s');
  }));

  const raw = createUpstashHandler({ url: URL_ });
  results.push(await time('raw REST requests to the handler', async () => {
    await post(raw, ['XADD', 's', '*', 'f', 'v']);
    await post(raw, ['XLEN', 's']);
  }));

  const original = globalThis.fetch;
  const asFetch = createUpstashHandler({ url: URL_ });
  globalThis.fetch = asFetch;
  for (const auto of [false, true]) {
    const client = new UpstashRedis({ url: URL_, token: 't', enableAutoPipelining: auto });
    results.push(await time(`@upstash/redis, handler as fetch, auto-pipelining ${auto}`, async () => {
      await client.xadd('s', '*', { f: 'v' });
      await client.xlen('s');
    }));
  }
  globalThis.fetch = original;

  const server = setupServer(...upstashHandlers({ url: URL_ }));
  server.listen({ onUnhandledRequest: 'error' });
  for (const auto of [false, true]) {
    const client = new UpstashRedis({ url: URL_, token: 't', enableAutoPipelining: auto });
    results.push(await time(`@upstash/redis through msw 2, auto-pipelining ${auto}`, async () => {
      await client.xadd('s', '*', { f: 'v' });
      await client.xlen('s');
    }));
  }
  server.close();

  const base = results[0].us;
  for (const r of results) console.log(`${r.label.padEnd(58)} ${r.us.toFixed(1).padStart(8)} µs/round  ${(r.us / base).toFixed(1).padStart(6)}x`);
  ioredis.disconnect();
  raw.close();
  asFetch.close();
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
