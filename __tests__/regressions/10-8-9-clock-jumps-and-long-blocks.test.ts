/**
 * Issue 10, items 8 and 9: BLOCK deadlines are absolute times on the keyspace clock.
 * - `setSystemTime()` past a deadline leaves the read due: the next tick answers it (fake-timers
 *   would move the timer along with the jump, so the read waited the whole timeout again).
 * - A huge BLOCK costs nothing per tick: long timeouts used to be chains of 2^31 ms timers, so
 *   advancing a clock by 1e15 ms fired 466 000 of them (1e16: 13 s; near INT64_MAX, hours).
 *   These tests would take that long, and time out, without the fix.
 */
import FakeTimers from '@sinonjs/fake-timers';
import Redis, { createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

let port = 50_800;
const client = (streams?: object) => new Redis({ port: ++port, ...(streams ? { streams } : {}) } as never) as any;

/** Tracks whether a promise settled, without awaiting it. */
function track<T>(p: Promise<T>): { settled: boolean; value?: T } {
  const state: { settled: boolean; value?: T } = { settled: false };
  p.then((v) => Object.assign(state, { settled: true, value: v }), () => Object.assign(state, { settled: true }));
  return state;
}
const turn = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe('setSystemTime past a BLOCK deadline (fake clock)', () => {
  it('answers the read at the next tick, even of 0 ms, not a whole timeout later', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const r = client({ clock });
    const read = track(r.xread('BLOCK', 5_000, 'STREAMS', 's', '$'));
    await turn();
    clock.setSystemTime(1_010_000);
    await turn();
    expect(read.settled).toBe(false); // a jump fires nothing by itself
    clock.tick(0);
    await turn();
    expect(read).toEqual({ settled: true, value: null });
    r.disconnect();
  });

  it('answers at the next tickAsync as well, and keeps a deadline the jump did not reach', async () => {
    const clock = createFakeClock({ now: 0 });
    const r = client({ clock });
    const early = track(r.duplicate().xread('BLOCK', 1_000, 'STREAMS', 's', '$'));
    const late = track(r.duplicate().xread('BLOCK', 9_000, 'STREAMS', 's', '$'));
    await turn();
    clock.setSystemTime(5_000);
    await clock.tickAsync(0);
    expect(early).toEqual({ settled: true, value: null });
    expect(late.settled).toBe(false);
    await clock.tickAsync(3_999);
    expect(late.settled).toBe(false);
    await clock.tickAsync(1);
    expect(late).toEqual({ settled: true, value: null });
    r.disconnect();
  });
});

describe('huge BLOCK timeouts', () => {
  const HUGE = 1e15;
  const NEAR_INT64_MAX = 9_000_000_000_000_000_000; // ms; now + BLOCK stays below 2^63

  it('fake clock: a BLOCK of 1e15 ms times out after one tick of that length', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = client({ clock });
    const read = track(r.xread('BLOCK', HUGE, 'STREAMS', 's', '$'));
    await turn();
    expect(clock.countTimers()).toBe(1);
    clock.tick(HUGE - 1);
    await turn();
    expect(read.settled).toBe(false);
    clock.tick(1);
    await turn();
    expect(read).toEqual({ settled: true, value: null });
    expect(clock.countTimers()).toBe(0);
    r.disconnect();
  });

  it('fake clock: a BLOCK near INT64_MAX ms stays blocked through long ticks and runAll, at no cost', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = client({ clock });
    const read = track(r.xread('BLOCK', NEAR_INT64_MAX, 'STREAMS', 's', '$'));
    await turn();
    clock.tick(HUGE);
    await clock.tickAsync(HUGE);
    expect(clock.runAll()).toBe(1_700_000_000_000 + 2 * HUGE); // loopLimit 1000: a chain of 2^31 ms timers would abort
    await turn();
    expect(read.settled).toBe(false);
    expect(clock.countTimers()).toBe(1);
    expect(() => clock.tick(Number.MAX_SAFE_INTEGER)).toThrow('[ioredis-mock-streams] tick(9007199254740991) would move the fake clock past 2^53 - 1 ms');
    r.disconnect();
    // released once the client has ended (its close: a few turns of the event loop, as ioredis's)
    for (let i = 0; i < 5 && !read.settled; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(read.settled).toBe(true);
  });

  it('fake clock: runAll reaches a BLOCK of 1e15 ms in one step', async () => {
    const clock = createFakeClock({ now: 0 });
    const r = client({ clock });
    const read = track(r.xread('BLOCK', HUGE, 'STREAMS', 's', '$'));
    await turn();
    expect(clock.runAll()).toBe(HUGE);
    await turn();
    expect(read).toEqual({ settled: true, value: null });
    r.disconnect();
  });

  it('global clock under jest fake timers: one fake timer for a huge BLOCK, answered after that long', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const r = client();
      await r.ping();
      const before = jest.getTimerCount();
      const read = track(r.xread('BLOCK', HUGE, 'STREAMS', 's', '$'));
      await turn();
      expect(jest.getTimerCount()).toBe(before + 1);
      // the fake-timers clock behind the faked global setTimeout: every timer goes through it
      const setTimeoutCalls = jest.spyOn((globalThis.setTimeout as unknown as { clock: { setTimeout: () => unknown } }).clock, 'setTimeout');
      jest.advanceTimersByTime(HUGE - 1);
      await turn();
      expect(read.settled).toBe(false);
      expect(setTimeoutCalls).not.toHaveBeenCalled(); // no chain of 2^31 ms steps
      setTimeoutCalls.mockRestore();
      jest.advanceTimersByTime(1);
      await turn();
      expect(read).toEqual({ settled: true, value: null });
      r.disconnect();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a @sinonjs/fake-timers clock given as the clock: one timer for a huge BLOCK', async () => {
    const sinon = FakeTimers.createClock(0);
    const r = client({ clock: sinon });
    const read = track(r.xread('BLOCK', HUGE, 'STREAMS', 's', '$'));
    await turn();
    expect(sinon.countTimers()).toBe(1);
    sinon.tick(HUGE - 1);
    await turn();
    expect(read.settled).toBe(false);
    sinon.tick(1);
    await turn();
    expect(read).toEqual({ settled: true, value: null });
    expect(streamsKeyspace(r).blockedCount).toBe(0);
    r.disconnect();
  });
});

describe('FakeClock.reset() with a read blocked', () => {
  it('keeps the BLOCK timeout: the read times out after its remaining delay from the new time', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const r = client({ clock });
    const read = track(r.xread('BLOCK', 500, 'STREAMS', 's', '$'));
    await turn();
    await clock.tickAsync(100);
    clock.reset(0);
    expect(clock.now()).toBe(0);
    expect(clock.countTimers()).toBe(1);
    await clock.tickAsync(399);
    await turn();
    expect(read.settled).toBe(false);
    await clock.tickAsync(1);
    await turn();
    expect(read).toEqual({ settled: true, value: null });
    expect(clock.countTimers()).toBe(0);
    r.disconnect();
  });
});
