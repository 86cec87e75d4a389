/** The README's code, run as written (so the README cannot drift from the behaviour). */
import Redis, { createFakeClock } from 'ioredis-mock-streams';

describe('README: Time under test control', () => {
  it('takes XADD * IDs from the fake clock and times a BLOCK out on it', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const redis = new Redis({ port: 37_001, streams: { clock } }) as unknown as import('ioredis').default;

    expect(await redis.xadd('jobs', '*', 'job', 'a')).toBe('1704067200000-0');
    await redis.xgroup('CREATE', 'jobs', 'g', '$');
    const read = redis.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 5000, 'STREAMS', 'jobs', '>');
    await clock.tickAsync(5000);
    expect(await read).toBeNull();
    redis.disconnect();
  });
});
