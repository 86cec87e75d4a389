/**
 * Issue 23, item 8: `streamsKeyspace(r).clock.now()` did not type-check (TS2532, TS2349) although
 * at run time it is the clock passed in — this file compiles under ts-jest's type check only with
 * `clock` typed as `Clock`. Item 10: no way to wait until an in-process client's read is blocked
 * (the README's "wait for `ready`" hung a test whose client was already ready):
 * `streamsKeyspace(r).waitForBlocked(count?, { timeoutMs? })`.
 */
import Redis, { createFakeClock, streamsKeyspace, type Clock } from 'ioredis-mock-streams';

describe('streamsKeyspace(r).clock', () => {
  it('is typed as a Clock: clock.now() compiles and answers the fake clock’s time in ms', () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = new Redis({ port: 23_080, streams: { clock } });
    const now: number = streamsKeyspace(r).clock.now();
    const asClock: Clock = streamsKeyspace(r).clock;
    expect(now).toBe(1_700_000_000_000);
    expect(asClock).toBe(clock);
    r.disconnect();
  });
});

describe('streamsKeyspace(r).waitForBlocked()', () => {
  it('resolves once the reader’s XREADGROUP … BLOCK waits, so the clock is moved only then', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const writer = new Redis({ port: 23_081, streams: { clock } });
    const reader = new Redis({ port: 23_081 });
    await writer.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = reader.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 5000, 'STREAMS', 's', '>');
    await streamsKeyspace(writer).waitForBlocked();
    expect(streamsKeyspace(writer).blockedCount).toBe(1);
    await clock.tickAsync(5000);
    expect(await read).toBeNull();
    writer.disconnect();
    reader.disconnect();
  });

  it('resolves at once when enough calls are blocked already (count 0)', async () => {
    const r = new Redis({ port: 23_082 });
    await expect(streamsKeyspace(r).waitForBlocked(0)).resolves.toBeUndefined();
    r.disconnect();
  });

  it('rejects with a StreamsMockError naming the count after timeoutMs, and for a bad count', async () => {
    const r = new Redis({ port: 23_083 });
    await expect(streamsKeyspace(r).waitForBlocked(2, { timeoutMs: 20 })).rejects.toThrow('[ioredis-mock-streams] waitForBlocked(2): 0 calls are blocked after 20 ms');
    await expect(streamsKeyspace(r).waitForBlocked(-1)).rejects.toThrow('[ioredis-mock-streams] waitForBlocked(count) needs an integer >= 0, got -1');
    r.disconnect();
  });
});
