/**
 * Huge block timeouts in 7.0 mode, as redis-server 7.0.15 answers them (found by a helper probing
 * groupmq's and bee-queue's commands): 7.0 has no "timeout is out of range" check, so
 * - BZPOPMIN/BZPOPMAX/BZMPOP with seconds whose ms pass LLONG_MAX (`1e20`, `inf`, `9.3e15`) answer
 *   "ERR timeout is negative" (the cast to long long wraps), and a deadline (now + ms) past
 *   LLONG_MAX waits for ever — as the list commands already did; the fake answered 7.2's
 *   "ERR timeout is out of range" (the version was not passed on);
 * - WAIT 0 9223372036854775807 answers 0 and WAIT 1 9223372036854775807 waits for ever.
 * 7.2+ (the post-7.4 build): "ERR timeout is out of range" for all of them, unchanged.
 */
import Redis from '../../lib/index';
import { createFakeClock } from '../../lib/clock/fake-clock';

const PORT = 26_100;

describe.each([
  ['7.0', 'ERR timeout is negative', 'waits'],
  ['8.10', 'ERR timeout is out of range', 'ERR timeout is out of range'],
] as const)('block timeouts past LLONG_MAX in %s', (redisVersion, msPastLimit, deadlinePastLimit) => {
  const clock = createFakeClock({ now: 1_700_000_000_000 });
  let redis: InstanceType<typeof Redis>;
  beforeEach(() => {
    redis = new Redis({ port: PORT + (redisVersion === '7.0' ? 0 : 1), streams: { clock, redisVersion } } as never);
  });
  afterEach(() => redis.disconnect());

  const outcome = async (...args: string[]): Promise<string> => {
    const p = redis.call(...(args as [string, ...string[]])).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    const first = await Promise.race([p, new Promise<string>((resolve) => setImmediate(() => resolve('waits')))]);
    if (first === 'waits') await clock.tickAsync(10 ** 12); // far beyond any finite deadline here
    const after = await Promise.race([p, new Promise<string>((resolve) => setImmediate(() => resolve('waits')))]);
    return after;
  };

  it('BZPOPMIN, BZPOPMAX, BZMPOP: seconds whose ms pass LLONG_MAX', async () => {
    expect(await outcome('BZPOPMIN', 'z', '1e20')).toBe(msPastLimit);
    expect(await outcome('BZPOPMIN', 'z', 'inf')).toBe(msPastLimit);
    expect(await outcome('BZPOPMAX', 'z', '9.3e15')).toBe(msPastLimit);
    expect(await outcome('BZMPOP', '1e20', '1', 'z', 'MIN')).toBe(msPastLimit);
  });

  it('BZPOPMIN: a deadline past LLONG_MAX', async () => {
    expect(await outcome('BZPOPMIN', 'z', '9223372036854774')).toBe(deadlinePastLimit);
  });

  it('WAIT with a deadline past LLONG_MAX', async () => {
    expect(await outcome('WAIT', '0', '9223372036854775807')).toBe(redisVersion === '7.0' ? '0' : deadlinePastLimit);
    expect(await outcome('WAIT', '1', '9223372036854775807')).toBe(deadlinePastLimit);
  });
});
