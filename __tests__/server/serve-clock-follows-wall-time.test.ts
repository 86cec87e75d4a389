/**
 * The RESP server's default clock (adjustable) and `realClock` read wall time as Redis's
 * mstime() does (the platform's Date.now, CLOCK_REALTIME), fake timers or not. They used
 * performance.timeOrigin + performance.now(), which follows the monotonic clock: on machines
 * whose monotonic clock drifts from wall time (this project's CI machine: 5 ms a second), stream
 * IDs and server.now() fell behind Date.now() by tens of ms in a jest worker that had run a while.
 */
import { runInNewContext } from 'vm';
import { serve } from 'ioredis-mock-streams/server';
import { realClock } from 'ioredis-mock-streams';

/** Wall time from a fresh V8 context (made once: making one takes ms): what no fake timers of this test reach. */
const platformNow = runInNewContext('Date.now') as () => number;

/** `read()` lies between the platform's wall time just before and just after it (± 2 ms). */
function expectWallTime(read: () => number): void {
  const before = platformNow();
  const ms = read();
  const after = platformNow();
  expect(ms).toBeGreaterThanOrEqual(before - 2);
  expect(ms).toBeLessThanOrEqual(after + 2);
}

describe('wall time of the RESP server and realClock', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('server.now() and realClock.now() are the platform Date.now within 2 ms, however long the process has run', async () => {
    const server = await serve();
    try {
      for (let i = 0; i < 5; i++) {
        expectWallTime(() => server.now());
        expectWallTime(() => realClock.now());
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await server.close();
    }
  });

  it('keeps to wall time when jest fake timers moved Date to the year 2001 before the package was loaded', async () => {
    jest.useFakeTimers({ now: Date.UTC(2001, 0, 1), doNotFake: ['nextTick', 'setImmediate'] });
    expect(Date.now()).toBe(Date.UTC(2001, 0, 1));
    let fresh: { serve: typeof serve; realClock: typeof realClock } | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      fresh = { serve: require('ioredis-mock-streams/server').serve, realClock: require('ioredis-mock-streams').realClock };
    });
    const server = await fresh!.serve();
    try {
      expectWallTime(() => server.now());
      expectWallTime(() => fresh!.realClock.now());
    } finally {
      await server.close();
    }
  });
});
