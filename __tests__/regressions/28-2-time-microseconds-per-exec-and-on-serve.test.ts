/**
 * TIME's microseconds (found by a helper running rsmq-worker's suite, whose message IDs are
 * `sec·1e6 + usec` from `MULTI … TIME EXEC`, so repeated TIMEs reordered its messages):
 * - on 8.10 (7.2+) modes, each script's or EXEC's TIME is its own time snapshot (Redis: one
 *   ustime() per outer command, cmd_time_snapshot); the fake answered every EXEC of the same
 *   millisecond with the microseconds of the first TIME of that ms (post-7.4 build, six pipelined
 *   `MULTI TIME EXEC`: six distinct values; the fake: one or two);
 * - `serve()`'s default clock (wall time that MOCKCLOCK can move) answered whole milliseconds
 *   (`…000`) where it reads wall time, as `realClock` does.
 */
import { serve } from 'ioredis-mock-streams/server';
import { RawClient } from '../server/raw-client';
import { realClock } from 'ioredis-mock-streams';
import { engineConnections } from '../helpers/engine-connections';

/** An EXEC reply of one TIME as µs since the epoch (`*1 *2 $n sec $n usec`). */
function parseTime(exec: string): bigint {
  const lines = exec.split('\r\n');
  return BigInt(lines[3]) * 1_000_000n + BigInt(lines[5]);
}

/** The TIMEs of `n` pipelined `MULTI TIME EXEC`s. */
async function pipelinedExecTimes(c: RawClient, n: number): Promise<bigint[]> {
  c.write('MULTI\r\nTIME\r\nEXEC\r\n'.repeat(n));
  const replies = await c.read(3 * n);
  return replies.filter((_, i) => i % 3 === 2).map(parseTime);
}

describe('TIME inside MULTI/EXEC on serve (default clock, 8.10)', () => {
  it('each EXEC has its own microseconds, never going back; the clock has sub-millisecond time', async () => {
    const server = await serve();
    const c = await RawClient.connect(server.port);
    try {
      const times = await pipelinedExecTimes(c, 6);
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
      // the same microseconds again only if two EXECs ran within one µs; the old answer repeated
      // the first of each millisecond (1 or 2 distinct values of 6)
      expect(new Set(times).size).toBeGreaterThanOrEqual(4);
      expect(times.some((t) => t % 1000n !== 0n)).toBe(true);
      // one EXEC, several TIMEs: one snapshot, as the post-7.4 build answers
      c.write('MULTI\r\nTIME\r\nTIME\r\nEXEC\r\n');
      const [, , , exec] = await c.read(4);
      const parts = exec.split('\r\n');
      expect(parts.slice(1, 6)).toEqual(parts.slice(6, 11));
    } finally {
      c.close();
      await server.close();
    }
  });
});

describe('TIME of an EXEC right after a plain TIME in the same millisecond (realClock, 8.10)', () => {
  const engine = engineConnections(58_210);

  it('answers the microseconds of the moment the EXEC began, not those of the TIME before it', async () => {
    const c = engine.conn({ streams: { clock: realClock } });
    const sameMs: [bigint, bigint][] = [];
    for (let i = 0; i < 500 && sameMs.length < 20; i++) {
      const plain = (await c.execute(['TIME'])) as string[];
      await c.execute(['MULTI']);
      await c.execute(['TIME']);
      const [inExec] = (await c.execute(['EXEC'])) as string[][];
      const [a, b] = [plain, inExec].map(([sec, usec]) => BigInt(sec) * 1_000_000n + BigInt(usec));
      if (a / 1000n === b / 1000n) sameMs.push([a, b]);
    }
    expect(sameMs.length).toBeGreaterThanOrEqual(10);
    // never back; later by the few µs between them (equal only within one µs): the old answer
    // repeated the plain TIME's microseconds every time
    for (const [a, b] of sameMs) expect(b).toBeGreaterThanOrEqual(a);
    expect(sameMs.filter(([a, b]) => b > a).length).toBeGreaterThanOrEqual(sameMs.length / 2);
  });
});
