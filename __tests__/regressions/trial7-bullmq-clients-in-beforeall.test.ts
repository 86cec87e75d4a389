/**
 * Trial 7: a BullMQ Queue, QueueEvents and Worker made in `beforeAll` (the README's setup for
 * shared clients), one add → completed per test. Under the jest setup file the per-test reset
 * rejected the Worker's blocked BZPOPMIN and the QueueEvents' blocked XREAD with "Connection is
 * closed." and warned "Await or stop blocking reads inside the test": job 1 passed, job 2 timed
 * out, job 3 took ~2 s and jest did not exit. Against a real server every job completes in
 * milliseconds, since a FLUSHALL leaves blocked calls blocked; the reset now does the same.
 *
 * The file runs in a child jest (killed after 60 s, no --forceExit): it must pass, print no
 * blocked-call warning, and exit once afterAll closed the clients.
 */
import { runChildJest } from '../helpers/child-jest';


// the trial's file (/tmp/trial7/proj/j/ba.test.js), its per-job timing printed
const trialFile = `
const IORedis = require('ioredis');
const { Queue, Worker, QueueEvents } = require('bullmq');
let connection, queue, worker, events, errors = [];
beforeAll(async () => {
  connection = new IORedis({ maxRetriesPerRequest: null });
  queue = new Queue('ba', { connection });
  events = new QueueEvents('ba', { connection });
  events.on('error', (e) => errors.push('qe ' + e.message));
  worker = new Worker('ba', async (job) => 'done ' + job.data.n, { connection });
  worker.on('error', (e) => errors.push('worker ' + e.message));
  await events.waitUntilReady(); await worker.waitUntilReady();
});
afterAll(async () => {
  await worker.close(); await events.close(); await queue.close(); await connection.quit();
  console.log('errors seen: ' + JSON.stringify(errors));
});

for (const n of [1, 2, 3]) {
  it(\`job \${n} completes\`, async () => {
    const started = Date.now();
    const done = new Promise((r) => events.once('completed', ({ returnvalue }) => r(returnvalue)));
    await queue.add('j', { n });
    expect(await Promise.race([done, new Promise((r) => { const t = setTimeout(() => r('TIMEOUT'), 3000); done.then(() => clearTimeout(t)); })])).toBe('done ' + n);
    expect(Date.now() - started).toBeLessThan(1000);
  });
}
`;

describe('trial 7: BullMQ Queue, QueueEvents and Worker made in beforeAll, one job per test', () => {
  let run: ReturnType<typeof runChildJest>;
  beforeAll(() => {
    run = runChildJest(trialFile, { testTimeout: 20_000, verbose: true, followIoredisMajor: true });
  }, 70_000);

  it('every job completes within a second, in every test', () => {
    expect(run.output).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(run.status).toBe(0);
  });

  it('exits once afterAll closed the clients (no --forceExit)', () => {
    expect(run.timedOut).toBe(false);
    expect(run.output).not.toContain('did not exit');
  });

  it('prints no blocked-call warning, and the clients saw no error', () => {
    expect(run.output).not.toContain('blocked call');
    expect(run.output).toContain('errors seen: []');
  });
});
