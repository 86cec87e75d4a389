// README:begin
jest.mock('ioredis', () => require('ioredis-mock-streams'));
import IORedis from 'ioredis';
import { Queue, QueueEvents, Worker, Job } from 'bullmq';

const connection = new IORedis({ maxRetriesPerRequest: null });
afterAll(() => connection.quit());

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2025, 0, 1), doNotFake: ['nextTick', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

/** Moves fake time on in `step` ms steps until `promise` settles (at most `limit` ms). */
async function advanceUntil<T>(promise: Promise<T>, step = 100, limit = 600_000): Promise<T> {
  let settled = false;
  promise.then(() => (settled = true), () => (settled = true));
  for (let t = 0; !settled && t < limit; t += step) await jest.advanceTimersByTimeAsync(step);
  return promise;
}

it('runs a delayed job after 60 s of fake time', async () => {
  const queue = new Queue('mail', { connection });
  const events = new QueueEvents('mail', { connection });
  await events.waitUntilReady();
  const sent: string[] = [];
  const worker = new Worker('mail', async (job) => void sent.push(job.data.to), { connection });
  const completed = new Promise((resolve) => events.on('completed', resolve));

  const job = await queue.add('welcome', { to: 'ada@example.com' }, { delay: 60_000 });
  await jest.advanceTimersByTimeAsync(59_000);
  expect(await job.getState()).toBe('delayed');
  await advanceUntil(completed);
  expect(sent).toEqual(['ada@example.com']);
  await worker.close(), await events.close(), await queue.close();
});
it('retries a failing job with exponential backoff: 1 s, then 2 s', async () => {
  const queue = new Queue('charge', { connection });
  const start = Date.now();
  const attempts: number[] = [];
  const worker = new Worker('charge', async () => {
    attempts.push(Date.now() - start);
    if (attempts.length < 3) throw new Error('card declined');
  }, { connection });
  const done = new Promise<Job>((resolve) => worker.on('completed', resolve));

  await queue.add('invoice', {}, { attempts: 3, backoff: { type: 'exponential', delay: 1_000 } });
  expect((await advanceUntil(done)).attemptsMade).toBe(3);
  expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(1_000); // then 2 s more: 1 s × 2^(attempt - 1)
  expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(2_000);
  expect(attempts[2]).toBeLessThan(3_500);
  await worker.close(), await queue.close();
});

it('recovers a job whose worker stalled once its lock expires', async () => {
  const queue = new Queue('report', { connection });
  const events = new QueueEvents('report', { connection });
  await events.waitUntilReady();
  const crashed = new Worker('report', () => new Promise(() => {}), { connection, lockDuration: 10_000 });
  const active = new Promise((resolve) => crashed.on('active', resolve));
  await queue.add('daily', {});
  await advanceUntil(active); // the job is taken (however many turns that takes), and never finished
  await crashed.close(true); // the process died: nobody renews the job's lock any more

  const stalled = new Promise((resolve) => events.on('stalled', resolve));
  const rescuer = new Worker('report', async () => 'done', { connection, stalledInterval: 5_000 });
  const completed = new Promise<Job>((resolve) => rescuer.on('completed', resolve));
  await advanceUntil(stalled);
  expect((await advanceUntil(completed)).returnvalue).toBe('done');
  await rescuer.close(), await events.close(), await queue.close();
});

it('rate-limits a worker to one job per second', async () => {
  const queue = new Queue('sms', { connection });
  const start = Date.now();
  const times: number[] = [];
  const worker = new Worker('sms', async () => void times.push(Date.now() - start), {
    connection,
    limiter: { max: 1, duration: 1_000 },
  });
  const third = new Promise((resolve) => worker.on('completed', (job) => job.data.n === 3 && resolve(job)));
  await queue.addBulk([1, 2, 3].map((n) => ({ name: 'text', data: { n } })));
  await advanceUntil(third);
  expect(times.length).toBe(3);
  expect(times[1] - times[0]).toBeGreaterThanOrEqual(1_000);
  expect(times[2] - times[1]).toBeGreaterThanOrEqual(1_000);
  await worker.close(), await queue.close();
});
// README:end

import { readFileSync } from 'fs';
import { join } from 'path';

describe('README: BullMQ queues tested in milliseconds', () => {
  it('shows this test file as written', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## BullMQ: queues tested in milliseconds'));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    const self = readFileSync(__filename, 'utf8');
    expect(blocks).toContain(self.slice(self.indexOf('// README:begin\n') + '// README:begin\n'.length, self.indexOf('// README:end')));
  });
});
