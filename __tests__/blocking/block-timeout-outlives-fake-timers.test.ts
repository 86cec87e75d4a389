/**
 * A BLOCK timeout armed on fake timers (the default clock follows the global timers) is not lost
 * when the test removes them: `jest.useRealTimers()`, sinon's `uninstall()`, or new fake timers of
 * the next test. What is left of it runs on the timers in place then, so a long-lived worker's
 * `XREADGROUP … BLOCK` keeps timing out as against a server (found by a fresh-user trial: the read
 * stayed pending until a write woke it).
 */
import FakeTimers from '@sinonjs/fake-timers';
import Redis from 'ioredis-mock-streams';

let port = 56_280;
const client = () => new Redis({ port: ++port }) as any;
// Node's own setTimeout, taken before any test fakes the global one
const nodeSetTimeout = setTimeout;
const realSleep = (ms: number) => new Promise((resolve) => nodeSetTimeout(resolve, ms));

/** Tracks how a promise settled, without awaiting it. */
function track(p: Promise<unknown>): { state: string } {
  const out = { state: 'pending' };
  p.then(
    (v) => (out.state = `resolved ${JSON.stringify(v)}`),
    (e: Error) => (out.state = `rejected ${e.message}`),
  );
  return out;
}

/** Waits in real time (at most 5 s) while `read` is pending; answers the real ms it waited. */
async function whilePending(read: { state: string }): Promise<number> {
  const from = performance.now();
  while (read.state === 'pending' && performance.now() - from < 5_000) await realSleep(10);
  return performance.now() - from;
}

afterEach(() => jest.useRealTimers());

describe('a BLOCK timeout armed on fake timers, once they are removed', () => {
  it('times out on real time after jest.useRealTimers(), with what was left of it', async () => {
    const r = client();
    await r.ping();
    jest.useFakeTimers();
    const read = track(r.xread('BLOCK', 300, 'STREAMS', 'nostream', '$'));
    await jest.advanceTimersByTimeAsync(200);
    expect(read.state).toBe('pending');
    jest.useRealTimers();
    const waited = await whilePending(read);
    expect(read.state).toBe('resolved null');
    // 100 ms were left (and the check runs every 50 ms): well under the whole 300 ms again
    expect(waited).toBeLessThan(1_000);
    r.disconnect();
  });

  it('times out on the next fake timers when the next test installs new ones', async () => {
    const r = client();
    await r.ping();
    await r.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    jest.useFakeTimers();
    const read = track(r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 1_000, 'STREAMS', 'jobs', '>'));
    await jest.advanceTimersByTimeAsync(400);
    jest.useFakeTimers(); // new fake timers (a next test's beforeEach)
    await realSleep(150); // the check notices them
    expect(read.state).toBe('pending');
    await jest.advanceTimersByTimeAsync(599);
    expect(read.state).toBe('pending');
    await jest.advanceTimersByTimeAsync(1);
    expect(read.state).toBe('resolved null');
    r.disconnect();
  });

  it("times out after @sinonjs/fake-timers' uninstall()", async () => {
    const r = client();
    await r.ping();
    const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let read: { state: string };
    try {
      read = track(r.blpop('nolist', 0.2));
      await clock.tickAsync(50);
      expect(read.state).toBe('pending');
    } finally {
      clock.uninstall();
    }
    await whilePending(read);
    expect(read.state).toBe('resolved null');
    r.disconnect();
  });

  it('still fires on the fake timers while they stay installed, with no real time passing', async () => {
    const r = client();
    await r.ping();
    jest.useFakeTimers();
    const read = track(r.xread('BLOCK', 60_000, 'STREAMS', 'nostream', '$'));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(read.state).toBe('resolved null');
    r.disconnect();
  });
});
