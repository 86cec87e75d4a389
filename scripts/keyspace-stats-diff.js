#!/usr/bin/env node
/**
 * keyspace_hits / keyspace_misses of a real server against the fake's, command by command
 * (scripts/keyspace-stats-cases.js): for each case the INFO stats counters are read before and
 * after its commands on one connection; the two servers' changes are printed where they differ.
 *   node scripts/keyspace-stats-diff.js REAL_PORT FAKE_PORT [db]
 * e.g. a redis-server 7.0 on 47501 and `node dist/cli.js serve --port 47503 --redis-version 7.0`.
 * Keys are prefixed (`ksdiff:`) and deleted after each case: no FLUSHDB, no CONFIG RESETSTAT, but
 * run it on servers no other client uses meanwhile (another client's reads would count too).
 * Left out: a hash whose fields have all expired. The post-7.4 build still finds the key (EXISTS 1,
 * HLEN counting the expired fields until active expiry runs: 3 hits for HGETALL, HGET, EXISTS),
 * while the fake removes such a hash at once; a difference of hash-field expiry, not of the counting.
 */
'use strict';
const Redis = require('ioredis');
const { SETUP, KEYS, CASES, EXPIRED_WAIT } = require('./keyspace-stats-cases');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PREFIX = 'ksdiff:';
const sub = (argv) => argv.map((a) => (a.startsWith('@') || a.includes('@') ? a.replace(/@/g, PREFIX) : a));

async function stats(client) {
  const info = await client.call('INFO', 'stats');
  return [Number(/keyspace_hits:(\d+)/.exec(info)[1]), Number(/keyspace_misses:(\d+)/.exec(info)[1])];
}

async function measure(port, db) {
  const open = async () => {
    const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableReadyCheck: false });
    await c.connect();
    await c.call('SELECT', String(db));
    return c;
  };
  const a = await open();
  const blockers = [];
  const out = [];
  for (const cs of CASES) {
    await a.call('DEL', ...KEYS.map((k) => PREFIX + k));
    for (const argv of SETUP) await a.call(...sub(argv));
    await sleep(EXPIRED_WAIT);
    for (const argv of cs.pre ?? []) await a.call(...sub(argv)).catch(() => undefined);
    if (cs.pre) await sleep(EXPIRED_WAIT);
    const before = await stats(a);
    const blocked = [];
    if (cs.block) {
      const blocks = Array.isArray(cs.block[0]) ? cs.block : [cs.block];
      for (const [i, argv] of blocks.entries()) {
        while (blockers.length <= i) blockers.push(await open());
        blocked.push(blockers[i].call(...sub(argv)).catch((e) => e.message));
        await sleep(30);
      }
      await sleep(20);
    }
    const replies = [];
    for (const argv of cs.cmds) replies.push(await a.call(...sub(argv)).catch((e) => `ERR ${e.message}`));
    for (const p of blocked) replies.push(await p);
    const after = await stats(a);
    out.push({ cs, delta: [after[0] - before[0], after[1] - before[1]], replies });
  }
  await a.call('DEL', ...KEYS.map((k) => PREFIX + k));
  a.disconnect();
  for (const b of blockers) b.disconnect();
  return out;
}

async function main() {
  const [realPort, fakePort, db = '0'] = process.argv.slice(2);
  const real = await measure(Number(realPort), db);
  const fake = await measure(Number(fakePort), db);
  let differ = 0;
  for (let i = 0; i < real.length; i++) {
    const { cs } = real[i];
    const blocks = !cs.block ? [] : Array.isArray(cs.block[0]) ? cs.block : [cs.block];
    const text = (cs.pre ?? []).map((p) => `(pre) ${p.join(' ')}`).concat(blocks.map((b) => `(blocked) ${b.join(' ')}`)).concat(cs.cmds.map((c) => c.join(' '))).join(' ; ');
    const same = real[i].delta.join() === fake[i].delta.join();
    // a command the real server lacks (unknown command) is not compared
    const unknown = real[i].replies.some((r) => typeof r === 'string' && /unknown (sub)?command/i.test(r));
    if (!same && !unknown) differ++;
    if (!same || process.env.VERBOSE) {
      console.log(`${same ? 'same ' : unknown ? 'n/a  ' : 'DIFF '} ${text}  real hits/misses +${real[i].delta.join('/+')}  fake +${fake[i].delta.join('/+')}${unknown ? ' (unknown to the real server)' : ''}`);
    }
  }
  console.log(`${real.length} cases, ${differ} differ`);
  process.exitCode = differ === 0 ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
