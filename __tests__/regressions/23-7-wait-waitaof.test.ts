/**
 * Issue 23, item 7: WAIT answered "not emulated" although the README said it answers 0, and
 * WAITAOF likewise; through the Upstash handler WAIT and SHUTDOWN answered HTTP 500. The fake is
 * a server without replicas and without AOF (appendonly no), checked against redis-server 7.0.15
 * and the post-7.4 build (4f8cdc2a):
 *   WAIT 0 0 → 0 at once; WAIT 1 100 → 0 after 100 ms; WAIT n 0 (n > 0) waits for ever;
 *   WAITAOF 0 0 0 → [0, 0] (7.2+; 7.0: unknown command); WAITAOF 1 0 t → "ERR WAITAOF cannot be
 *   used when numlocal is set but appendonly is disabled."; WAITAOF 0 1 100 → [0, 0] after 100 ms;
 *   negative timeouts → "ERR timeout is negative"; non-integers → "ERR value is not an integer or
 *   out of range"; inside MULTI (no blocking) → the counts at once.
 */
import Redis from '../../lib/index';
import IORedis from 'ioredis';
import { createFakeClock } from '../../lib/clock/fake-clock';

describe('WAIT and WAITAOF on a server without replicas or AOF', () => {
  const clock = createFakeClock({ now: 1_700_000_000_000 });
  let redis: InstanceType<typeof Redis>;
  beforeEach(() => {
    redis = new Redis({ port: 23070, streams: { clock } } as never);
  });
  afterEach(() => redis.disconnect());

  it('WAIT 0 0 answers 0 at once', async () => {
    expect(await redis.call('WAIT', '0', '0')).toBe(0);
    expect(await (redis as unknown as { wait(n: number, t: number): Promise<number> }).wait(0, 0)).toBe(0);
  });

  it('WAIT 1 100 answers 0 once 100 ms passed on the clock', async () => {
    let reply: unknown = 'pending';
    const p = redis.call('WAIT', '1', '100').then((r) => (reply = r));
    await clock.tickAsync(99);
    expect(reply).toBe('pending');
    await clock.tickAsync(1);
    await p;
    expect(reply).toBe(0);
  });

  it('WAITAOF 0 0 0 answers [0, 0]; WAITAOF 0 1 100 answers [0, 0] after 100 ms', async () => {
    expect(await redis.call('WAITAOF', '0', '0', '0')).toEqual([0, 0]);
    let reply: unknown = 'pending';
    const p = redis.call('WAITAOF', '0', '1', '100').then((r) => (reply = r));
    await clock.tickAsync(99);
    expect(reply).toBe('pending');
    await clock.tickAsync(1);
    await p;
    expect(reply).toEqual([0, 0]);
  });

  it('errors as the server gives them', async () => {
    await expect(redis.call('WAITAOF', '1', '0', '0')).rejects.toThrow('ERR WAITAOF cannot be used when numlocal is set but appendonly is disabled.');
    await expect(redis.call('WAIT', '0', '-1')).rejects.toThrow('ERR timeout is negative');
    await expect(redis.call('WAITAOF', '0', '0', '-1')).rejects.toThrow('ERR timeout is negative');
    await expect(redis.call('WAIT', 'a', '0')).rejects.toThrow('ERR value is not an integer or out of range');
    await expect(redis.call('WAITAOF', '0', 'x', '0')).rejects.toThrow('ERR value is out of range, must be positive');
    await expect(redis.call('WAITAOF', '2', '0', '0')).rejects.toThrow('ERR value is out of range, value must between 0 and 1');
    await expect(redis.call('WAIT', '0', '1.5')).rejects.toThrow('ERR timeout is not an integer or out of range');
    await expect(redis.call('WAIT', '0')).rejects.toThrow("ERR wrong number of arguments for 'wait' command");
  });

  it('inside MULTI WAIT does not block: EXEC answers 0', async () => {
    expect(await redis.multi().call('WAIT', '1', '0').exec()).toEqual([[null, 0]]);
  });

  it('WAITAOF does not exist before 7.2', async () => {
    const old = new Redis({ port: 23071, streams: { redisVersion: '7.0' } } as never);
    try {
      await expect(old.call('WAITAOF', '0', '0', '0')).rejects.toThrow("ERR unknown command 'WAITAOF', with args beginning with: '0' '0' '0' ");
    } finally {
      old.disconnect();
    }
  });
});

/** The commands that answer at once, on the fake (8.0 mode) and on the post-7.4 build, side by side. */
const UNSTABLE = process.env.REDIS_UNSTABLE_URL;
if (!UNSTABLE) console.warn('REDIS_UNSTABLE_URL not set: WAIT/WAITAOF replies on the post-7.4 build not compared');
// skip: no server URL (REDIS_URL / REDIS_UNSTABLE_URL): skipped with the warning printed above; CI sets both
(UNSTABLE ? describe : describe.skip)('WAIT/WAITAOF: the fake answers as the post-7.4 build (REDIS_UNSTABLE_URL)', () => {
  const cases = [
    ['WAIT', '0', '0'],
    ['WAIT', '-1', '0'],
    ['WAIT', '1', '10'],
    ['WAIT', 'x', '-1'],
    ['WAIT', '0', '-1'],
    ['WAIT', '0', 'abc'],
    ['WAIT', '0', '9223372036854775807'],
    ['WAITAOF', '0', '0', '0'],
    ['WAITAOF', '0', '1', '10'],
    ['WAITAOF', '1', '0', '0'],
    ['WAITAOF', '1', '0', '-1'],
    ['WAITAOF', '1', '0', 'abc'],
    ['WAITAOF', '2', 'x', '0'],
    ['WAITAOF', 'x', '0', '0'],
    ['WAITAOF', '0', '-1', '0'],
  ];
  const outcome = (p: Promise<unknown>) => p.then((v) => ({ reply: v }), (e: Error) => ({ error: e.message }));
  it.each(cases.map((c) => [c.join(' '), c] as const))('%s', async (_title, argv) => {
    const real = new IORedis(UNSTABLE as string);
    const fake = new Redis({ port: 23072, streams: { redisVersion: '8.0', clock: realClockForWait() } } as never);
    try {
      const [cmd, ...args] = argv;
      expect(await outcome(fake.call(cmd, ...args))).toEqual(await outcome(real.call(cmd, ...args)));
    } finally {
      real.disconnect();
      fake.disconnect();
    }
  });
});

function realClockForWait() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../lib/clock/real-clock') as typeof import('../../lib/clock/real-clock')).realClock;
}

describe('through the Upstash handler every command error is the 400 {error} Upstash gives, never a 500', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createUpstashHandler } = require('ioredis-mock-streams/upstash') as typeof import('../../lib/upstash');
  const post = async (path: string, body: unknown) => {
    const h = createUpstashHandler({ url: 'https://fake.upstash.io', streams: {} });
    try {
      const res = await h(new Request(`https://fake.upstash.io${path}`, { method: 'POST', body: JSON.stringify(body) }));
      return { status: res.status, body: (await res.json()) as unknown };
    } finally {
      h.close();
    }
  };

  it('WAIT 0 0 answers {result: 0}; WAITAOF 0 0 0 [0, 0]', async () => {
    expect(await post('/', ['WAIT', '0', '0'])).toEqual({ status: 200, body: { result: 0 } });
    expect(await post('/', ['WAITAOF', '0', '0', '0'])).toEqual({ status: 200, body: { result: [0, 0] } });
  });

  it('SHUTDOWN is a command the REST API does not serve (400)', async () => {
    expect(await post('/', ['SHUTDOWN', 'NOSAVE'])).toEqual({ status: 400, body: { error: "ERR Command is not available over the REST API: 'SHUTDOWN'" } });
  });

  it('a library error (an EVAL in SCRIPT DEBUG mode: the Lua debugger is not emulated) answers 400 in its pipeline entry', async () => {
    const error = "[ioredis-mock-streams] Redis's Lua debugger (SCRIPT DEBUG YES, then EVAL) is not emulated: send SCRIPT DEBUG NO first, or debug the script against a real server";
    expect(await post('/', ['SCRIPT', 'DEBUG', 'YES'])).toEqual({ status: 200, body: { result: 'OK' } });
    const many = await post('/pipeline', [['SET', 'k', 'v'], ['SCRIPT', 'DEBUG', 'YES'], ['EVAL', 'return 1', '0'], ['GET', 'k']]);
    expect(many).toEqual({ status: 200, body: [{ result: 'OK' }, { result: 'OK' }, { error }, { result: 'v' }] });
  });
});
