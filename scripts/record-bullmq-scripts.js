#!/usr/bin/env node
/**
 * Records the commands BullMQ 6.2.0 (test-suites/bullmq's npm package, with its own ioredis)
 * sends to a real redis-server during a scripted, deterministic scenario, and writes
 * fixtures/bullmq-scripts.json for __tests__/differential/bullmq-scripts.test.ts.
 *
 *   redis-server --port 7701 --save '' --appendonly no --dir $(mktemp -d) --daemonize yes
 *   node scripts/record-bullmq-scripts.js [redis://127.0.0.1:7701/0] [BULLMQ_DIR]
 *
 * The server's db is flushed first (use a server of your own). Every command every BullMQ
 * connection sends goes through ioredis's `Redis.prototype.sendCommand`: recorded there in the
 * global order they were sent (argv as latin1 byte strings; ARGV timestamps, lock tokens and job
 * ids as the client made them, so the fixture replays byte for byte). The Lua scripts are
 * SCRIPT LOADed before the scenario so ioredis's EVALSHA never meets NOSCRIPT (no EVAL fallback
 * to record twice); the fixture holds each script's body by sha (BullMQ's own `content`).
 *
 * Left out of the fixture (listed in its `dropped` counts): connection set-up (INFO, CLIENT,
 * SELECT, HELLO), the recorder's own SCRIPT LOADs, and blocking reads (BZPOPMIN on the marker
 * key, XREAD BLOCK...) whose outcome depends on timing. The scenario itself never blocks:
 * jobs are fetched with `worker.getNextJob(token, { block: false })` and finished by hand.
 */
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const url = process.argv[2] || 'redis://127.0.0.1:7701/0';
const bullDir =
  process.argv[3] ||
  [path.join(__dirname, '../test-suites/bullmq/node_modules'), '/work/main/test-suites/bullmq/node_modules'].find((d) => fs.existsSync(path.join(d, 'bullmq')));
const bullmq = require(path.join(bullDir, 'bullmq'));
const IORedis = require(path.join(bullDir, 'ioredis'));
const bullVersion = require(path.join(bullDir, 'bullmq/package.json')).version;
const scripts = require(path.join(bullDir, 'bullmq/dist/cjs/scripts'));

const SKIP = new Set(['info', 'client', 'select', 'hello', 'script', 'quit', 'bzpopmin', 'bzpopmax', 'brpoplpush', 'blmove', 'brpop', 'blpop', 'xread', 'xreadgroup', 'flushdb', 'monitor']);
const recorded = [];
const dropped = {};
let recording = false;

const asText = (a) => (Buffer.isBuffer(a) ? a.toString('latin1') : typeof a === 'string' ? Buffer.from(a, 'utf8').toString('latin1') : String(a));
const original = IORedis.prototype.sendCommand;
IORedis.prototype.sendCommand = function (command, stream) {
  if (recording) {
    const name = String(command.name).toLowerCase();
    if (SKIP.has(name) || (name === 'xread' && command.args.some((a) => asText(a).toUpperCase() === 'BLOCK'))) dropped[name.toUpperCase()] = (dropped[name.toUpperCase()] || 0) + 1;
    else recorded.push([name.toUpperCase(), ...command.args.map(asText)]);
  }
  return original.call(this, command, stream);
};

/** An Error whose stack (stored by BullMQ in the job hash) names no local path; longer than 64 bytes, so the job hash becomes a hashtable. */
function failure(message) {
  const e = new Error(message);
  e.stack = `Error: ${message}\n    at processor (recorded-scenario.js:1:1)\n    at worker (recorded-scenario.js:2:2)`;
  return e;
}

async function main() {
  const u = new URL(url);
  const connection = { host: u.hostname, port: Number(u.port), db: Number(u.pathname.slice(1) || 0), maxRetriesPerRequest: null };
  const admin = new IORedis(connection);
  await admin.flushdb();
  const bodies = {};
  for (const s of Object.values(scripts)) {
    if (!s || typeof s.content !== 'string') continue;
    const sha = crypto.createHash('sha1').update(s.content).digest('hex');
    bodies[sha] = { name: s.name, keys: s.keys, body: s.content };
    await admin.call('SCRIPT', 'LOAD', s.content);
  }

  recording = true;
  const queue = new bullmq.Queue('diffq', { connection });
  await queue.waitUntilReady();
  const step = async (label, fn) => {
    recorded.push(['#', label]);
    return fn();
  };

  await step('add standard jobs', async () => {
    await queue.add('a', { n: 1 });
    await queue.add('b', { n: 2 }, { jobId: 'custom-b', removeOnComplete: false });
    await queue.add('prio', { n: 3 }, { priority: 5 });
    await queue.add('lifo', { n: 4 }, { lifo: true });
  });
  await step('addBulk', () => queue.addBulk([{ name: 'bulk1', data: { i: 1 } }, { name: 'bulk2', data: { i: 2 }, opts: { priority: 2 } }, { name: 'bulk3', data: { i: 3 } }]));
  await step('delayed job', () => queue.add('later', { d: 1 }, { delay: 60_000 }));
  await step('retrying job', () => queue.add('flaky', { f: 1 }, { attempts: 2, backoff: { type: 'fixed', delay: 1000 } }));
  await step('dedup job', async () => {
    await queue.add('dedup', { x: 1 }, { deduplication: { id: 'dd1' } });
    await queue.add('dedup', { x: 2 }, { deduplication: { id: 'dd1' } });
  });
  await step('counts', () => queue.getJobCounts());
  await step('job changes', async () => {
    const job = await queue.add('changing', { c: 0 }, { delay: 30_000 });
    await job.changeDelay(45_000);
    await job.updateData({ c: 1 });
    await job.getState();
    await job.isCompleted();
    const pj = await queue.add('reprio', { r: 1 }, { priority: 9 });
    await pj.changePriority({ priority: 1 });
    await queue.getJobLogs(pj.id);
  });

  const worker = new bullmq.Worker('diffq', null, { connection, autorun: false, lockDuration: 60_000 });
  await worker.waitUntilReady();
  const token = 'token-1';
  const finish = [];
  await step('process jobs', async () => {
    for (let i = 0; i < 12; i++) {
      const job = await worker.getNextJob(token, { block: false });
      if (!job) break;
      await job.updateProgress(50);
      await job.extendLock(token, 60_000);
      await job.log(`log ${job.name}`);
      if (job.name === 'flaky' || job.name === 'bulk3') await job.moveToFailed(failure(`boom ${job.name}`), token, false);
      else await job.moveToCompleted({ ok: job.name }, token, false);
      finish.push(job.id);
    }
  });
  await step('counts after processing', () => queue.getJobCounts('completed', 'failed', 'delayed', 'wait', 'active', 'prioritized'));
  await step('promote delayed and retried', async () => {
    for (const job of await queue.getJobs(['delayed'])) await job.promote();
  });
  await step('process promoted', async () => {
    for (let i = 0; i < 5; i++) {
      const job = await worker.getNextJob(token, { block: false });
      if (!job) break;
      await job.moveToCompleted('done', token, false);
    }
  });
  await step('retryJobs / promoteJobs', async () => {
    await queue.retryJobs({ state: 'completed', count: 2 });
    await queue.promoteJobs();
    await queue.trimEvents(1000);
  });
  await step('retry failed', async () => {
    const failed = await queue.getJobs(['failed']);
    for (const job of failed) await job.retry('failed');
  });
  await step('pause / resume', async () => {
    await queue.pause();
    await queue.add('while-paused', { p: 1 });
    await queue.getJobCounts();
    await queue.resume();
  });
  await step('flow', async () => {
    const flow = new bullmq.FlowProducer({ connection });
    await flow.add({ name: 'parent', queueName: 'diffq', data: { p: 1 }, children: [{ name: 'child1', queueName: 'diffq', data: { c: 1 } }, { name: 'child2', queueName: 'diffq', data: { c: 2 } }] });
    await flow.close();
    for (let i = 0; i < 8; i++) {
      const job = await worker.getNextJob(token, { block: false });
      if (!job) break;
      await job.moveToCompleted({ v: job.name }, token, false);
    }
    const parent = (await queue.getJobs(['completed', 'waiting', 'waiting-children'])).find((j) => j.name === 'parent');
    if (parent) {
      await parent.getChildrenValues();
      await parent.getDependencies();
    }
  });
  await step('getters', async () => {
    await queue.getJobs(['completed', 'failed', 'waiting', 'delayed', 'prioritized']);
    await queue.getJobCounts();
    await queue.getWaitingCount();
  });
  await step('removeJob / clean / drain / obliterate', async () => {
    await queue.remove('custom-b');
    await queue.clean(0, 2, 'completed');
    await queue.clean(0, 10, 'failed');
    await queue.add('x', { x: 1 });
    await queue.add('y', { y: 1 }, { delay: 1000 });
    await queue.drain(true);
    await queue.getJobCounts();
    await worker.close();
    await queue.obliterate({ force: true });
  });
  recording = false;
  await queue.close();
  await admin.quit();

  const used = new Set(recorded.filter((c) => c[0] === 'EVALSHA').map((c) => c[1]));
  const fixture = {
    comment: 'Commands BullMQ sent during scripts/record-bullmq-scripts.js, in the order sent (all connections); "#" rows are scenario labels. EVALSHA shas map to script bodies in "scripts".',
    bullmq: bullVersion,
    dropped,
    scripts: Object.fromEntries(Object.entries(bodies).filter(([sha]) => used.has(sha))),
    commands: recorded,
  };
  const out = path.join(__dirname, '../__tests__/differential/fixtures/bullmq-scripts.json');
  fs.writeFileSync(out, JSON.stringify(fixture, null, 0).replace(/\],\[/g, '],\n[') + '\n');
  console.log(`wrote ${out}: ${recorded.length} rows, ${used.size} scripts, dropped ${JSON.stringify(dropped)}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
