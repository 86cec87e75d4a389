/**
 * ioredis's monitor client (`await redis.monitor()`), as real ioredis 5.11.1 and 6.0.0 behave
 * against redis-server 7.0.15 and the post-7.4 build (recorded on both majors, both servers):
 * - its status is `monitoring` (after `ready`, with a `monitoring` event);
 * - every command but MONITOR and AUTH is refused on the client side with the plain Error
 *   "Connection is in monitoring mode, can't process commands.": single commands and call(),
 *   each command of a pipeline (its `[error]` pair), a `multi()` (the whole exec rejects);
 *   MONITOR again resolves with the client.
 * The same script runs on real ioredis when REDIS_URL is set.
 */
import Redis from 'ioredis-mock-streams';

type Client = Record<string, any>;
const MONITORING = "Connection is in monitoring mode, can't process commands.";
let port = 36_200;
beforeEach(() => {
  port++;
});

function scripts(connect: (opts?: Record<string, unknown>) => Client) {
  it("refuses every command but MONITOR and AUTH, status 'monitoring'", async () => {
    const r = connect();
    const m = await r.monitor();
    expect([m.status, r.status]).toEqual(['monitoring', 'ready']);
    const refusal = (p: Promise<unknown>) => p.then(
      (v) => ['ok', v],
      (e: Error) => [e.constructor.name, e.message],
    );
    expect(await refusal(m.get('k'))).toEqual(['Error', MONITORING]);
    expect(await refusal(m.call('ping'))).toEqual(['Error', MONITORING]);
    expect(await refusal(m.xadd('s', '*', 'f', 'v'))).toEqual(['Error', MONITORING]);
    const pairs = await m.pipeline().get('a').ping().exec();
    expect(pairs.map(([e]: [Error]) => e.message)).toEqual([MONITORING, MONITORING]);
    expect(await refusal(m.multi().get('a').exec())).toEqual(['Error', MONITORING]);
    // MONITOR is let through: monitor() again makes one more monitoring client (a duplicate)
    const again = await m.monitor();
    expect([again === m, again.status, m.status]).toEqual([false, 'monitoring', 'monitoring']);
    again.disconnect();
    m.disconnect();
    r.disconnect();
  });

  it("emits 'monitoring' with the status already 'monitoring'", async () => {
    const r = connect();
    const seen: string[] = [];
    const origDuplicate = r.duplicate;
    r.duplicate = function duplicate(this: Client, ...args: unknown[]) {
      const d = origDuplicate.apply(this, args);
      for (const ev of ['ready', 'monitoring']) d.on(ev, () => seen.push(`${ev}:${d.status}`));
      return d;
    };
    const m = await r.monitor();
    expect(seen).toEqual(['ready:ready', 'monitoring:monitoring']);
    m.disconnect();
    r.disconnect();
  });
}

describe('the fake', () => {
  scripts((opts) => new Redis({ port, ...opts } as never) as unknown as Client);
});

const url = process.env.REDIS_URL;
// skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
(url ? describe : describe.skip)('real ioredis on REDIS_URL', () => {
  if (!url) console.warn('REDIS_URL not set: the monitor-client scripts on real ioredis skipped');
  // real ioredis's MONITOR on a busy shared server can take another client's line for the
  // MONITOR reply ("Command queue state error … Last reply: … [9 …] \"CLIENT\" …"): retried
  if (url) jest.retryTimes(2, { logErrorsBeforeRetry: true });
  const RealRedis = jest.requireActual('ioredis');
  const Real = RealRedis.default ?? RealRedis;
  scripts((opts) => new Real(url, { db: 12, ...opts }));
});
