/**
 * Issue 7 (runners): `pipeline().exec()` and `multi().exec()` go through the spin guard as single
 * commands do. A loop that only awaits pipelines whose replies come at once
 * (`while (running) { await redis.pipeline().xreadgroup(…).exec() }` once its group is gone) used
 * to keep the event loop from ever turning: no timer fired again, a test runner's timeout
 * included. Now the exec past `SPIN_LIMIT` commands in one turn waits for a macrotask, and the exec of a client the runner
 * setup closed after its test (an orphan) stops settling once it spins.
 */
import * as timers from 'node:timers';
import Redis from 'ioredis-mock-streams';
import { markOrphan, onSpin, SPIN_LIMIT } from '../../lib/adapter/spin-guard';

const NOGROUP = "NOGROUP No such key 'missing' or consumer group 'nogroup' in XREADGROUP with GROUP option";
/** Two and a half times the limit: the guard makes the loop wait twice. */
const LOOP = (5 * SPIN_LIMIT) / 2;
const macrotask = () => new Promise<void>((resolve) => timers.setImmediate(resolve));

describe.each([
  ['pipeline()', 47_701, (r: any) => r.pipeline()],
  ['multi()', 47_711, (r: any) => r.multi()],
])('a loop of %s execs that answer at once', (_label, port, open) => {
  it('lets the event loop turn once SPIN_LIMIT execs ran in one turn, replies unchanged and in order', async () => {
    const redis = new Redis({ port }) as any;
    let macrotaskRanAt = -1;
    let i = 0;
    timers.setImmediate(() => (macrotaskRanAt = i));
    const replies: unknown[] = [];
    for (; i < LOOP; i++) {
      const out = await open(redis).xreadgroup('GROUP', 'nogroup', 'c', 'STREAMS', 'missing', '>').exec();
      replies.push(out);
    }
    expect(macrotaskRanAt).toBeGreaterThan(0);
    expect(macrotaskRanAt).toBeLessThanOrEqual(SPIN_LIMIT);
    expect(replies).toHaveLength(LOOP);
    for (const out of replies) {
      // a pipeline answers the error in its pair; multi() runs the command and answers it the same way
      expect(out).toEqual([[expect.objectContaining({ message: NOGROUP })]]);
    }
    // connection order is kept across the waits: execs and single commands interleaved
    const sent: Promise<unknown>[] = [];
    for (let n = 1; n <= LOOP; n++) {
      sent.push(n % 2 === 0 ? open(redis).xadd('s', `${n}-0`, 'f', 'v').exec() : redis.xadd('s', `${n}-0`, 'f', 'v'));
    }
    const ids = (await Promise.all(sent)).map((r) => (Array.isArray(r) ? (r as [unknown, string][])[0][1] : r));
    expect(ids).toEqual(Array.from({ length: LOOP }, (_, n) => `${n + 1}-0`));
    redis.disconnect();
    // 4 x LOOP commands: a few seconds on a loaded 2-CPU machine (what it checks is order, not speed)
  }, 60_000);

  it("parks a spinning orphan's execs: they stop settling, and the spin is reported once", async () => {
    const redis = new Redis({ port: port + 1 }) as any;
    await macrotask(); // a fresh count of commands since the event loop turned
    const reports: { parked: boolean; commands: number }[] = [];
    const stop = onSpin((info) => {
      if (info.client === redis) reports.push({ parked: info.parked, commands: info.commands });
    });
    try {
      markOrphan(redis, 'the test that created it');
      // as the runner setup does once the test is over: disconnect(), ended at once
      redis.disconnect();
      redis[Symbol.for('ioredis-mock-streams.closeNow')]?.();
      let settled = 0;
      let running = true;
      const loop = (async () => {
        // bounded, so that without the guard the test fails instead of starving jest forever
        for (let k = 0; k < 3 * SPIN_LIMIT && running; k++) {
          await open(redis).xreadgroup('GROUP', 'g', 'c', 'STREAMS', 'jobs', '>').exec().catch(() => undefined);
          settled++;
        }
      })();
      for (let n = 0; n < 5; n++) await macrotask();
      const after = settled;
      for (let n = 0; n < 5; n++) await macrotask();
      expect(after).toBe(SPIN_LIMIT);
      expect(settled).toBe(after); // parked: no exec settles any more
      expect(reports).toEqual([{ parked: true, commands: SPIN_LIMIT + 1 }]);
      running = false;
      void loop;
    } finally {
      stop();
    }
  });
});

describe('single commands past the limit (the command that waits for the event loop to turn)', () => {
  const statOf = (info: string, name: string) => new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1];

  // four commands a round: the limit passed six times
  const ROUNDS = (3 * SPIN_LIMIT) / 2;

  it('answers as before the wait and counts every call in INFO commandstats', async () => {
    const redis = new Redis({ port: 47_731 }) as any;
    await macrotask();
    await redis.set('k', 'value');
    await redis.hset('h', 'f1', 'v1', 'f2', 'v2');
    let macrotaskRanAt = -1;
    let i = 0;
    timers.setImmediate(() => (macrotaskRanAt = i));
    const got: unknown[] = [];
    for (; i < ROUNDS; i++) {
      got.push(await redis.get('k'), await redis.hgetall('h'), await redis.incr('n'), await redis.get('missing'));
    }
    expect(macrotaskRanAt).toBeGreaterThan(0);
    for (let n = 0; n < ROUNDS; n++) expect(got.slice(4 * n, 4 * n + 4)).toEqual(['value', { f1: 'v1', f2: 'v2' }, n + 1, null]);
    const info: string = await redis.info('commandstats');
    expect(statOf(info, 'get')).toBe(String(2 * ROUNDS)); // 'k' and 'missing'
    expect(statOf(info, 'hgetall')).toBe(String(ROUNDS));
    expect(statOf(info, 'incr')).toBe(String(ROUNDS));
    redis.disconnect();
  }, 30_000);

  it('refuses a waiting command whose client was disconnected meanwhile, and keeps the order of the others', async () => {
    const redis = new Redis({ port: 47_741 }) as any;
    await macrotask();
    await redis.set('k', 'value');
    const sent: Promise<unknown>[] = [];
    for (let n = 0; n < SPIN_LIMIT + 5; n++) sent.push(redis.incr('n'));
    redis.disconnect();
    const out = await Promise.allSettled(sent);
    const answered = out.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<unknown>).value);
    expect(answered).toEqual(Array.from({ length: answered.length }, (_, n) => n + 1));
    const refused = out.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason?.message));
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused)).toEqual(new Set(['Connection is closed.']));
  });
});
