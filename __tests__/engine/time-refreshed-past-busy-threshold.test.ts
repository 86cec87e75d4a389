/**
 * TIME inside a script is frozen at the script's start from 7.2 on — until the script runs past
 * busy-reply-threshold: the server then serves other clients between the script's steps
 * (processEventsWhileBlocked), refreshing its cached time, which TIME reads (server.ustime), so a
 * script that waits on TIME ends. On the post-7.4 build a script looping until TIME has moved 300 ms
 * returned after ~5 s (the default threshold); the fake's TIME stayed frozen and the script ran until
 * SCRIPT KILL (found by a fresh-user trial). Key times (TTL, XADD IDs) keep the snapshot, as there.
 */
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Redis = require('ioredis-mock-streams');

type Client = Record<string, any>;

// loops until TIME has moved 50 ms; returns how far it moved and the PTTL of a key set at the start
const WAIT_ON_TIME =
  "redis.call('SET', KEYS[1], 1, 'PX', 100000) " +
  "local function ms() local t = redis.call('TIME'); return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end " +
  'local start = ms(); while ms() - start < 50 do end; ' +
  "return {ms() - start, redis.call('PTTL', KEYS[1])}";

describe('TIME inside a script past busy-reply-threshold', () => {
  it.each(['7.2', '8.10'] as const)('emulating %s moves on, so a script waiting on it ends (key times keep the snapshot)', async (redisVersion) => {
    const port = redisVersion === '7.2' ? 56_520 : 56_521;
    const a: Client = new Redis({ port, streams: { redisVersion } });
    const b: Client = new Redis({ port, streams: { redisVersion } });
    await a.config('SET', 'busy-reply-threshold', '200');
    // the guard: a fake still frozen would loop until killed
    const killer = setTimeout(() => void b.script('KILL').catch(() => undefined), 4000);
    try {
      const started = Date.now();
      const [moved, pttl] = (await a.eval(WAIT_ON_TIME, 1, 'k')) as [number, number];
      const took = Date.now() - started;
      expect(moved).toBeGreaterThanOrEqual(50);
      expect(took).toBeGreaterThanOrEqual(200);
      expect(took).toBeLessThan(4000);
      expect(pttl).toBe(100000);
    } finally {
      clearTimeout(killer);
      a.disconnect();
      b.disconnect();
    }
  });

  it('emulating 7.2, TIME stays frozen below the threshold', async () => {
    const c: Client = new Redis({ port: 56_522, streams: { redisVersion: '7.2' } });
    try {
      const [t0, t1] = (await c.eval(
        "local a = redis.call('TIME'); local x = 0; for i = 1, 2000000 do x = x + i end; local b = redis.call('TIME'); return {a[1] .. '.' .. a[2], b[1] .. '.' .. b[2]}",
        0,
      )) as string[];
      expect(t1).toBe(t0);
    } finally {
      c.disconnect();
    }
  });
});
