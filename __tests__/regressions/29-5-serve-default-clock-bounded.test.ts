/**
 * serve()'s default clock (wall time a test moves: AdjustableClock) took `MOCKCLOCK SET
 * 9007199254740991`, `s.server.setTime(2 ** 53 - 1)` and ticks past 2^53 - 1 ms, after which every
 * command that reads the time failed with an error blaming "the clock given in streams.clock"
 * (found by a fresh-user trial). A fake clock already refused such moves. Now the default clock
 * is set and moved up to the largest Date (8.64e15 ms): beyond it, and below 0, the move is
 * refused (StreamsMockError from the API, an error reply over the wire) and the clock stays.
 */
import { AdjustableClock } from '../../lib/clock/adjustable-clock';
import { StreamsMockError } from '../../lib/clock/clock';
import { servedClient } from '../helpers/served-client';

describe("serve()'s default clock stays within the times it can keep", () => {
  const s = servedClient();

  it('refuses MOCKCLOCK SET and TICK beyond the largest Date, and keeps serving', async () => {
    const set = await s.c.call('MOCKCLOCK', 'SET', '9007199254740991');
    expect(set).toMatch(/^-ERR .*8\.64e15 \(the largest Date\), got 9007199254740991\r\n$/);
    expect(await s.c.call('MOCKCLOCK', 'SET', '8640000000000000')).toMatch(/^:86400000000000\d\d\r\n$/);
    expect(await s.c.call('MOCKCLOCK', 'TICK', '1000000')).toMatch(/^-ERR .*would move the clock past 8\.64e15 ms/);
    // the clock stayed where it was: commands reading the time still work
    expect(await s.c.call('XADD', 's', '*', 'f', 'v')).toMatch(/^\$\d+\r\n86400000000000\d\d-0\r\n$/);
    expect(await s.c.call('SET', 'k', 'v', 'EX', '10')).toBe('+OK\r\n');
  });

  it('refuses setTime() and tick() beyond it with a StreamsMockError', async () => {
    await expect(s.server.setTime(2 ** 53 - 1)).rejects.toThrow(StreamsMockError);
    await expect(s.server.setTime(-1)).rejects.toThrow('from 0 to 8.64e15');
    expect(await s.server.setTime(8.64e15 - 10_000)).toBeGreaterThanOrEqual(8.64e15 - 10_000);
    await expect(s.server.tick(60_000)).rejects.toThrow('would move the clock past 8.64e15 ms');
  });

  it('refuses a start time beyond it', () => {
    expect(() => new AdjustableClock(2 ** 53 - 1)).toThrow(StreamsMockError);
    const clock = new AdjustableClock(8.64e15);
    expect(clock.now()).toBeGreaterThanOrEqual(8.64e15);
    // wall time moves it past the largest Date: a tick of 0 (settling due timers) still works
    const until = Date.now() + 3;
    while (Date.now() < until) {
      // a few ms of wall time
    }
    expect(clock.now()).toBeGreaterThan(8.64e15);
    expect(clock.tick(0)).toBeGreaterThan(8.64e15);
  });
});
