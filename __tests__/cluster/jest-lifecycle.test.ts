/**
 * The fake Cluster under the jest setup file: a cluster created in beforeAll keeps its keyspace
 * clock and version across the per-test reset (as a lasting fake client does), its keyspace is
 * reachable with streamsKeyspace(cluster), and a cluster created inside a test is closed once the
 * test is over.
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const IORedis = require('ioredis');
const { createFakeClock, streamsKeyspace } = require('ioredis-mock-streams');

const T0 = Date.UTC(2024, 0, 1);
const clock = createFakeClock({ now: T0 });
let lasting: import('ioredis').Cluster;
let inTest: import('ioredis').Cluster | undefined;

beforeAll(() => {
  lasting = new IORedis.Cluster([{ host: '127.0.0.1', port: 7950 }], { streams: { clock, redisVersion: '7.0' } });
});
afterAll(() => lasting.quit());

describe('fake Cluster under the jest setup', () => {
  it('stamps entries with its keyspace clock, moved through streamsKeyspace(cluster)', async () => {
    expect(await lasting.xadd('{s}', '*', 'k', 'v')).toBe(`${T0}-0`);
    expect(streamsKeyspace(lasting).redisVersion).toBe('7.0');
    clock.tick(1000);
    expect(await lasting.xadd('{s}', '*', 'k', 'v')).toBe(`${T0 + 1000}-0`);
    inTest = new IORedis.Cluster([{ host: '127.0.0.1', port: 7950 }]);
    expect(await inTest!.get('{s}:x')).toBeNull();
  });

  it('keeps the clock and version of a cluster made in beforeAll after the reset, and closed the one made in the last test', async () => {
    expect(await lasting.exists('{s}')).toBe(0); // keyspace emptied between tests
    expect(streamsKeyspace(lasting).redisVersion).toBe('7.0');
    expect(await lasting.xadd('{s}', '*', 'k', 'v')).toBe(`${T0 + 1000}-0`);
    expect(['close', 'end']).toContain(inTest!.status); // disconnect() ran; 'end' follows
  });
});
