/**
 * Issue 10, item 2: under the jest setup file, a test that leaves a worker loop running
 * (`while (running) { try { await xreadgroup(… BLOCK …) } catch {} }`) used to hang jest with no
 * output: after the reset the loop's read rejected, the group was gone, and the loop spun on
 * promise rejections alone, so no timer (jest's own included) ever fired again.
 *
 * Each case runs a small test file in a child jest (killed after 60 s) and checks that jest
 * reports the test's own failure, names the test that left the blocked read and the loop behind,
 * runs the next test, and exits — with jest fake timers (modern) off and on.
 */
import { runChildJest } from '../helpers/child-jest';
import * as timers from 'node:timers';
import Redis from 'ioredis-mock-streams';
import { SPIN_LIMIT } from '../../lib/adapter/spin-guard';


const leakingTestFile = (fakeTimers: boolean) => `
const Redis = require('ioredis');
${fakeTimers ? 'beforeEach(() => jest.useFakeTimers());' : ''}
describe('worker', () => {
  it('leaks a running worker loop', async () => {
    const redis = new Redis();
    await redis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    let running = true;
    void (async () => {
      while (running) {
        try {
          await redis.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 1000, 'STREAMS', 'jobs', '>');
        } catch {}
      }
    })();
    await Promise.resolve();
    expect('the worker result').toBe('something else');
  });

  it('runs the next test', async () => {
    const redis = new Redis();
    expect(await redis.xadd('other', '1-0', 'f', 'v')).toBe('1-0');
  });
});
`;

describe.each([
  ['off', false],
  ['on (modern)', true],
])('a worker loop that outlives its test, jest fake timers %s', (_label, fakeTimers) => {
  let run: ReturnType<typeof runChildJest>;
  beforeAll(() => {
    run = runChildJest(leakingTestFile(fakeTimers));
  }, 70_000);

  it('does not hang jest: it exits with the failure', () => {
    expect(run.timedOut).toBe(false);
    expect(run.status).toBe(1);
  });

  it("reports the test's own failing expectation, and runs the next test", () => {
    expect(run.output).toContain('worker › leaks a running worker loop');
    expect(run.output).toContain('"something else"');
    expect(run.output).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
  });

  it('names the test that left the blocked read and the spinning loop behind', () => {
    expect(run.output).toMatch(/test "worker leaks a running worker loop" ended with 1 blocked call/);
    expect(run.output).toMatch(/a client created by test "worker leaks a running worker loop" keeps sending commands after the test ended/);
  });
});

describe.each([
  ['off', false],
  ['on (modern)', true],
])('a loop of commands that answer at once lets the event loop turn, jest fake timers %s', (_label, fakeTimers) => {
  beforeEach(() => {
    if (fakeTimers) jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs a macrotask once SPIN_LIMIT commands ran in one turn, in order, without changing any reply', async () => {
    const redis = new Redis({ port: fakeTimers ? 50_202 : 50_201 }) as any;
    let macrotaskRanAt = -1;
    let i = 0;
    timers.setImmediate(() => (macrotaskRanAt = i));
    const errors: string[] = [];
    for (; i < (5 * SPIN_LIMIT) / 2; i++) {
      try {
        await redis.xreadgroup('GROUP', 'nogroup', 'c', 'STREAMS', 'missing', '>');
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
    expect(macrotaskRanAt).toBeGreaterThan(0);
    expect(macrotaskRanAt).toBeLessThanOrEqual(SPIN_LIMIT);
    expect(new Set(errors)).toEqual(new Set(["NOGROUP No such key 'missing' or consumer group 'nogroup' in XREADGROUP with GROUP option"]));
    expect(errors.length).toBe((5 * SPIN_LIMIT) / 2);
    const ids = await Promise.all(Array.from({ length: (5 * SPIN_LIMIT) / 2 }, (_, n) => redis.xadd('s', `${n + 1}-0`, 'f', 'v')));
    expect(ids[ids.length - 1]).toBe(`${(5 * SPIN_LIMIT) / 2}-0`); // connection order kept across the waits
    redis.disconnect();
  });
});
