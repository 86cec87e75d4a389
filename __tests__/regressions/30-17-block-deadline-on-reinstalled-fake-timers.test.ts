/**
 * A BLOCK armed on fake timers that a test replaces by new ones (a second
 * `jest.useFakeTimers()`, or sinon uninstall + install) moved over only when a real-time check
 * (every 50 ms) saw the change: time the test advanced on the new timers before that was lost, so
 * `BLOCK 5000` armed at T0, advanced 2000, re-installed at T0+2000 and advanced 3000 more timed
 * out at T0+8000 instead of T0+5000 (found by a fresh-user trial). On new fake timers the call
 * now waits no later than its deadline on their clock (and never more than what was left of it:
 * __tests__/blocking/block-timeout-outlives-fake-timers.test.ts).
 */
import Redis from '../../lib/cjs-entry';
import { streamsKeyspace } from '../../lib/index';

const T0 = Date.UTC(2024, 0, 1);
const realSetTimeout = global.setTimeout;
const realWait = (ms: number) => new Promise((res) => realSetTimeout(res, ms));

afterEach(() => {
  jest.useRealTimers();
});

describe('a BLOCK armed on fake timers that the test replaces by new fake timers', () => {
  it('times out at its deadline on the new timers\' clock (T0+5000), time advanced before the switch was seen included', async () => {
    jest.useFakeTimers({ now: T0 });
    const r = new Redis({ port: 58_317 });
    const b = r.duplicate();
    try {
      let doneAt: number | null = null;
      const read = b.xread('BLOCK', 5000, 'STREAMS', 's30-17', '$').then((v) => {
        doneAt = Date.now();
        return v;
      });
      await streamsKeyspace(r).waitForBlocked();
      await jest.advanceTimersByTimeAsync(2000);
      jest.useFakeTimers({ now: T0 + 2000 }); // new fake timers, same time
      await jest.advanceTimersByTimeAsync(3000); // the deadline T0+5000 is reached on them
      await realWait(200); // the real-time check sees the new timers
      for (let i = 0; i < 20 && doneAt === null; i++) await jest.advanceTimersByTimeAsync(100);
      expect(await read).toBeNull();
      expect(doneAt).toBe(T0 + 5000);
    } finally {
      r.disconnect();
      b.disconnect();
    }
  });
});
