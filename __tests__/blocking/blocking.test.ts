import FakeTimers from '@sinonjs/fake-timers';
import Redis, { createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

/** Resolves once the client is `ready`: commands sent before that wait for it, as on ioredis. */
const whenReady = (c: any): Promise<void> => // eslint-disable-line @typescript-eslint/no-explicit-any
  new Promise((resolve) => (c.status === 'ready' ? resolve() : void c.once('ready', () => resolve())));


let port = 31_000;
type Client = Record<string, any> & { disconnect(): void };
function setUp(opts: Record<string, unknown> = {}) {
  port++;
  const clock = createFakeClock({ now: 1_000_000 });
  const make = () => new Redis({ port, streams: { clock, ...opts } } as never) as unknown as Client;
  return { clock, make };
}
const settled = async (p: Promise<unknown>) => {
  let done = false;
  p.then(() => (done = true), () => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('blocking XREADGROUP / XREAD on the keyspace clock', () => {
  it('wakes a blocked XREADGROUP as soon as another client XADDs', async () => {
    const { make } = setUp();
    const [reader, writer] = [make(), make()];
    await writer.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = reader.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    expect(await settled(read)).toBe(false);
    await writer.xadd('s', '1-0', 'f', 'v');
    expect(await read).toEqual([['s', [['1-0', ['f', 'v']]]]]);
    reader.disconnect();
    writer.disconnect();
  });

  it('answers nil once the clock passes the BLOCK timeout, not before', async () => {
    const { clock, make } = setUp();
    const r = make();
    await r.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 1000, 'STREAMS', 's', '>');
    await clock.tickAsync(999);
    expect(await settled(read)).toBe(false);
    await clock.tickAsync(1);
    expect(await read).toBeNull();
    expect(clock.countTimers()).toBe(0);
    r.disconnect();
  });

  it('serves blocked group readers first-come-first-served: one entry wakes only the first', async () => {
    const { clock, make } = setUp();
    const [a, b, w] = [make(), make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const ra = a.xreadgroup('GROUP', 'g', 'a', 'BLOCK', 0, 'STREAMS', 's', '>');
    const rb = b.xreadgroup('GROUP', 'g', 'b', 'BLOCK', 1000, 'STREAMS', 's', '>');
    await clock.tickAsync(200);
    await w.xadd('s', '1-0', 'f', 'v');
    expect(await ra).toEqual([['s', [['1-0', ['f', 'v']]]]]);
    expect(await settled(rb)).toBe(false);
    await clock.tickAsync(800);
    expect(await rb).toBeNull();
    [a, b, w].forEach((c) => c.disconnect());
  });

  it('wakes every blocked XREAD reader with the same entry', async () => {
    const { make } = setUp();
    const [a, b, w] = [make(), make(), make()];
    const ra = a.xread('BLOCK', 0, 'STREAMS', 's', '$');
    const rb = b.xread('BLOCK', 0, 'STREAMS', 's', '$');
    await w.xadd('s', '1-0', 'f', 'v');
    const expected = [['s', [['1-0', ['f', 'v']]]]];
    expect(await ra).toEqual(expected);
    expect(await rb).toEqual(expected);
    [a, b, w].forEach((c) => c.disconnect());
  });

  it('wakes a reader blocked on several streams when any of them gets an entry', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's1', 'g', '$', 'MKSTREAM');
    await w.xgroup('CREATE', 's2', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's1', 's2', '>', '>');
    await w.xadd('s2', '7-0', 'f', 'v');
    expect(await read).toEqual([['s2', [['7-0', ['f', 'v']]]]]);
    r.disconnect();
    w.disconnect();
  });

  it('answers NOGROUP to a blocked XREADGROUP when its key is deleted (Redis 7.2+)', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'Alice', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.del('s');
    await expect(read).rejects.toThrow("NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option");
    r.disconnect();
    w.disconnect();
  });

  it('answers "UNBLOCKED the stream key no longer exists" when emulating Redis 7.0', async () => {
    const { make } = setUp({ redisVersion: '7.0' });
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'Alice', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.del('s');
    await expect(read).rejects.toThrow('UNBLOCKED the stream key no longer exists');
    r.disconnect();
    w.disconnect();
  });

  it('answers WRONGTYPE when the key is overwritten with another type, NOGROUP on XGROUP DESTROY and FLUSHALL', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const r1 = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.set('s', 'x');
    await expect(r1).rejects.toThrow('WRONGTYPE');
    await w.del('s');
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const r2 = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.xgroup('DESTROY', 's', 'g');
    await expect(r2).rejects.toThrow('NOGROUP');
    await w.xgroup('CREATE', 's', 'g', '$');
    const r3 = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.flushall();
    await expect(r3).rejects.toThrow('NOGROUP');
    r.disconnect();
    w.disconnect();
  });

  it('re-runs a blocked XREADGROUP when a stream is RENAMEd onto its key: served if that stream has the group', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await w.xadd('other', '5-0', 'f', 'v');
    await w.xgroup('CREATE', 'other', 'g', '0');
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.rename('other', 's');
    expect(await read).toEqual([['s', [['5-0', ['f', 'v']]]]]);
    r.disconnect();
    w.disconnect();
  });

  it('answers NOGROUP when a stream without the group is RENAMEd onto the key, and when the key is renamed away', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await w.xadd('other', '5-0', 'f', 'v');
    const r1 = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.rename('other', 's');
    await expect(r1).rejects.toThrow("NOGROUP No such key 's' or consumer group 'g'");
    await w.xgroup('CREATE', 's', 'g', '$');
    const r2 = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.rename('s', 'moved');
    await expect(r2).rejects.toThrow('NOGROUP');
    r.disconnect();
    w.disconnect();
  });

  it('keeps a blocked XREAD waiting when its key is deleted, and serves it from the re-created stream', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    await w.xadd('s', '1-0', 'f', 'v');
    const read = r.xread('BLOCK', 0, 'STREAMS', 's', '$');
    await w.del('s');
    expect(await settled(read)).toBe(false);
    await w.xadd('s', '2-0', 'g', 'v');
    expect(await read).toEqual([['s', [['2-0', ['g', 'v']]]]]);
    r.disconnect();
    w.disconnect();
  });

  it('re-runs every blocked group reader on each XADD: one with nothing new keeps waiting, its consumer re-created and seen now (7.2+)', async () => {
    const { clock, make } = setUp();
    const [a, b, w] = [make(), make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const ra = a.xreadgroup('GROUP', 'g', 'a', 'BLOCK', 0, 'STREAMS', 's', '>');
    const rb = b.xreadgroup('GROUP', 'g', 'b', 'BLOCK', 0, 'STREAMS', 's', '>');
    await clock.tickAsync(100);
    const events: string[] = [];
    streamsKeyspace(w as never).onEvent((event, key) => events.push(`${event} ${key}`));
    expect(await w.xgroup('DELCONSUMER', 's', 'g', 'b')).toBe(0);
    await clock.tickAsync(100);
    await w.xadd('s', '1-0', 'f', 'v');
    expect(await ra).toEqual([['s', [['1-0', ['f', 'v']]]]]);
    expect(await settled(rb)).toBe(false);
    expect(events).toEqual(['xgroup-delconsumer s', 'xadd s', 'xgroup-createconsumer s']);
    await clock.tickAsync(30);
    const consumers = (await w.xinfo('CONSUMERS', 's', 'g')) as unknown[][];
    expect(consumers.map((c) => [c[1], c[5]])).toEqual([['a', 30], ['b', 30]]); // idle since the XADD's re-run
    // A stream replaced under the reader (inside one MULTI) is re-run in full: served from the new one.
    await w.multi().del('s').xgroup('CREATE', 's', 'g', '$', 'MKSTREAM').xadd('s', '5-0', 'f', 'w').exec();
    expect(await rb).toEqual([['s', [['5-0', ['f', 'w']]]]]);
    [a, b, w].forEach((c) => c.disconnect());
  });

  it('does not re-run a blocked group reader when emulating Redis 7.0: a deleted consumer stays deleted', async () => {
    const { make } = setUp({ redisVersion: '7.0' });
    const [a, b, w] = [make(), make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const ra = a.xreadgroup('GROUP', 'g', 'a', 'BLOCK', 0, 'STREAMS', 's', '>');
    const rb = b.xreadgroup('GROUP', 'g', 'b', 'BLOCK', 0, 'STREAMS', 's', '>');
    await w.xreadgroup('GROUP', 'g', 'b', 'STREAMS', 's', '0'); // 7.0 creates the consumer when served (history read)
    expect(await w.xgroup('DELCONSUMER', 's', 'g', 'b')).toBe(0);
    await w.xadd('s', '1-0', 'f', 'v');
    expect(await ra).toEqual([['s', [['1-0', ['f', 'v']]]]]);
    expect(await settled(rb)).toBe(false);
    const consumers = (await w.xinfo('CONSUMERS', 's', 'g')) as unknown[][];
    expect(consumers.map((c) => c[1])).toEqual(['a']);
    [a, b, w].forEach((c) => c.disconnect());
  });

  it('wakes a blocked reader with NOGROUP when its key expires on the keyspace clock', async () => {
    const { clock, make } = setUp();
    const [r, w] = [make(), make()];
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await w.pexpire('s', 500);
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    await clock.tickAsync(500);
    expect(await settled(read)).toBe(false); // the deadline ms: the key is still there
    await clock.tickAsync(1);
    await expect(read).rejects.toThrow('NOGROUP');
    r.disconnect();
    w.disconnect();
  });

  it('releases blocked calls on disconnect() and leaves no timer behind', async () => {
    const { clock, make } = setUp();
    const r = make();
    await whenReady(r);
    const read = r.xread('BLOCK', 5000, 'STREAMS', 's', '$');
    expect(clock.countTimers()).toBe(1);
    r.disconnect();
    await expect(read).rejects.toThrow('Connection is closed.');
    expect(clock.countTimers()).toBe(0);
    expect(streamsKeyspace(r as never).blockedCount).toBe(0);
  });

  it('does not wake a blocked XREAD for XADD + DEL inside one MULTI', async () => {
    const { make } = setUp();
    const [r, w] = [make(), make()];
    const read = r.xread('BLOCK', 0, 'STREAMS', 's1', '$');
    await w.multi().xadd('s1', '*', 'old', 'x').del('s1').exec();
    expect(await settled(read)).toBe(false);
    await w.xadd('s1', '*', 'new', 'x');
    const reply = (await read) as [string, [string, string[]][]][];
    expect(reply[0][1][0][1]).toEqual(['new', 'x']);
    r.disconnect();
    w.disconnect();
  });

  describe.each(['7.0', '7.2', '8.10'])('a blocked XREAD whose key changes type keeps waiting (Redis %s)', (redisVersion) => {
    it('keeps waiting when its key is overwritten with a string (SET), and is served after DEL + XADD', async () => {
      const { make } = setUp({ redisVersion });
      const [r, w] = [make(), make()];
      await w.xadd('s', '1-0', 'f', 'v');
      const read = r.xread('BLOCK', 0, 'STREAMS', 's', '$');
      await w.set('s', 'foo');
      expect(await settled(read)).toBe(false);
      await w.del('s');
      await w.xadd('s', '2-0', 'g', 'v');
      expect(await read).toEqual([['s', [['2-0', ['g', 'v']]]]]);
      r.disconnect();
      w.disconnect();
    });

    it('is not woken by XADD + DEL + LPUSH in one MULTI; a later DEL + XADD serves it', async () => {
      const { make } = setUp({ redisVersion });
      const [r, w] = [make(), make()];
      const read = r.xread('BLOCK', 0, 'STREAMS', 's1', '$');
      await w.multi().xadd('s1', '*', 'old', 'x').del('s1').lpush('s1', 'foo', 'bar').exec();
      expect(await settled(read)).toBe(false);
      expect(await w.type('s1')).toBe('list');
      await w.del('s1');
      await w.xadd('s1', '*', 'new', 'x');
      const reply = (await read) as [string, [string, string[]][]][];
      expect(reply[0][0]).toBe('s1');
      expect(reply[0][1][0][1]).toEqual(['new', 'x']);
      r.disconnect();
      w.disconnect();
    });

    it('still answers WRONGTYPE when another of its keys is a string as a listed stream gets an entry', async () => {
      const { make } = setUp({ redisVersion });
      const [r, w] = [make(), make()];
      const read = r.xread('BLOCK', 0, 'STREAMS', 'a', 'b', '$', '$');
      await w.set('a', 'x');
      await w.xadd('b', '1-0', 'f', 'v');
      if (redisVersion === '7.0') {
        // 7.0 serves the signalled key without re-running the command
        expect(await read).toEqual([['b', [['1-0', ['f', 'v']]]]]);
      } else {
        await expect(read).rejects.toThrow('WRONGTYPE');
      }
      r.disconnect();
      w.disconnect();
    });
  });

  it('wakes XREADGROUP CLAIM when a pending entry becomes claimable as the clock moves (8.4+)', async () => {
    const { clock, make } = setUp();
    const [c1, c2] = [make(), make()];
    await c1.xgroup('CREATE', 's', 'g', '0', 'MKSTREAM');
    await c1.xadd('s', '1-0', 'f', 'v');
    await c1.xreadgroup('GROUP', 'g', 'c1', 'STREAMS', 's', '>');
    // lowercase: ioredis 6 applies its xreadgroup reply transformer by exact name (RESP3: `[key, entries]` pairs)
    const read = c2.call('xreadgroup', 'GROUP', 'g', 'c2', 'CLAIM', '100', 'BLOCK', '0', 'STREAMS', 's', '>');
    await clock.tickAsync(99);
    expect(await settled(read)).toBe(false);
    await clock.tickAsync(1);
    expect(await read).toEqual([['s', [['1-0', ['f', 'v'], 100, 1]]]]);
    c1.disconnect();
    c2.disconnect();
  });
});

describe('blocking list pops (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP) on the ioredis fake', () => {
  it('BLPOP waits for a push from another client, first come first served', async () => {
    const { make } = setUp();
    const [a, b, w] = [make(), make(), make()];
    const ra = a.blpop('q', 0);
    const rb = b.brpop('q', 0);
    expect(await settled(ra)).toBe(false);
    await w.rpush('q', 'x', 'y', 'z');
    expect(await ra).toEqual(['q', 'x']);
    expect(await rb).toEqual(['q', 'z']);
    expect(await w.lrange('q', 0, -1)).toEqual(['y']);
    [a, b, w].forEach((c) => c.disconnect());
  });

  it('times out on the keyspace clock (seconds, as a float) with null', async () => {
    const { clock, make } = setUp();
    const r = make();
    const read = r.blmove('src', 'dst', 'LEFT', 'RIGHT', 1.5);
    await clock.tickAsync(1499);
    expect(await settled(read)).toBe(false);
    await clock.tickAsync(1);
    expect(await read).toBeNull();
    r.disconnect();
  });

  it('answers at once inside MULTI (nil) and keeps a TTL of the popped list', async () => {
    const { clock, make } = setUp();
    const r = make();
    expect(await r.multi().blpop('none', 0).brpoplpush('none', 'x', 0).exec()).toEqual([
      [null, null],
      [null, null],
    ]);
    await r.rpush('l', 'a', 'b');
    await r.pexpire('l', 10_000);
    expect(await r.blpop('l', 0)).toEqual(['l', 'a']);
    expect(await r.pttl('l')).toBe(10_000);
    await clock.tickAsync(10_000); // the deadline ms: still there
    expect(await r.exists('l')).toBe(1);
    await clock.tickAsync(1);
    expect(await r.exists('l')).toBe(0);
    r.disconnect();
  });
});

describe('clock modes', () => {
  afterEach(() => jest.useRealTimers());

  it('follows jest modern fake timers by default (sync and async advance)', async () => {
    jest.useFakeTimers({ now: 50_000 });
    port++;
    const r = new Redis({ port } as never) as unknown as Client;
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('50000-0');
    await r.xgroup('CREATE', 's', 'g', '$');
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 2000, 'STREAMS', 's', '>');
    jest.advanceTimersByTime(1999);
    expect(await settled(read)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await read).toBeNull();
    r.disconnect();
  });

  it('follows an installed @sinonjs/fake-timers clock, even one faking nextTick and queueMicrotask', async () => {
    const sinon = FakeTimers.install({ now: 70_000, toFake: ['Date', 'setTimeout', 'clearTimeout', 'nextTick', 'queueMicrotask', 'setImmediate'] });
    try {
      port++;
      const r = new Redis({ port } as never) as unknown as Client;
      expect(await r.xadd('s', '*', 'f', 'v')).toBe('70000-0');
      await r.xgroup('CREATE', 's', 'g', '0');
      await r.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
      await sinon.tickAsync(1234);
      const [[, , idle]] = await r.xpending('s', 'g', '-', '+', 10);
      expect(idle).toBe(1234);
      const read = r.xread('BLOCK', 100, 'STREAMS', 's', '$');
      await sinon.tickAsync(100);
      expect(await read).toBeNull();
      r.disconnect();
    } finally {
      sinon.uninstall();
    }
  });

  it('runs on real time with realClock', async () => {
    const { realClock } = require('ioredis-mock-streams');
    port++;
    const r = new Redis({ port, streams: { clock: realClock } } as never) as unknown as Client;
    const before = Date.now();
    const read = await r.xread('BLOCK', 30, 'STREAMS', 's', '$');
    expect(read).toBeNull();
    expect(Date.now() - before).toBeGreaterThanOrEqual(25);
    r.disconnect();
  });
});
