import IORedisReal from 'ioredis';
import RedisMock = require('@ioredis-mock-streams/mock-runtime');
import Redis, { ReplyError, createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

let port = 30_000;
const client = (opts: Record<string, unknown> = {}) =>
  new Redis({ port: port, ...opts } as never) as unknown as IORedisReal & Record<string, any>;

beforeEach(() => {
  port++;
});

describe('ioredis-mock plugin', () => {
  it('installs the stream commands on every ioredis-mock instance, even ones built from ioredis-mock directly', async () => {
    const plain = new (RedisMock as any)({ port }) as Record<string, any>;
    expect(typeof plain.xreadgroup).toBe('function');
    expect(typeof plain.xautoclaimBuffer).toBe('function');
    expect(await plain.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    plain.disconnect();
  });

  it('shares streams between clients of the same host/port/db, and not across dbs', async () => {
    const a = client();
    const b = client();
    const other = client({ db: 1 });
    await a.xadd('s', '5-1', 'f', 'v');
    expect(await b.xlen('s')).toBe(1);
    expect(await other.xlen('s')).toBe(0);
    [a, b, other].forEach((c) => c.disconnect());
  });

  it('answers TYPE stream, and DEL / EXISTS / KEYS / FLUSHALL see streams', async () => {
    const r = client();
    await r.xadd('s', '1-0', 'f', 'v');
    await r.set('str', 'x');
    expect(await r.type('s')).toBe('stream');
    expect(await r.type('str')).toBe('string');
    expect(await r.exists('s')).toBe(1);
    expect((await r.keys('*')).sort()).toEqual(['s', 'str']);
    expect(await r.del('s')).toBe(1);
    expect(await r.exists('s')).toBe(0);
    await r.xadd('s', '1-0', 'f', 'v');
    await r.flushall();
    expect(await r.exists('s')).toBe(0);
    r.disconnect();
  });

  it('honours keyPrefix like ioredis does', async () => {
    const prefixed = client({ keyPrefix: 'app:' });
    const raw = client();
    await prefixed.xadd('s', '1-0', 'f', 'v');
    expect(await raw.xlen('app:s')).toBe(1);
    expect(await raw.exists('s')).toBe(0);
    expect(await prefixed.type('s')).toBe('stream');
    prefixed.disconnect();
    raw.disconnect();
  });

  it('returns Buffers from the …Buffer twins and round-trips binary and UTF-8 values', async () => {
    const r = client();
    const bin = Buffer.from([0xff, 0x00, 0xfe]);
    await r.xadd('s', '1-0', 'ключ', bin);
    const [[id, fields]] = await r.xrangeBuffer('s', '-', '+');
    expect(id).toEqual(Buffer.from('1-0'));
    expect(fields[0]).toEqual(Buffer.from('ключ'));
    expect(fields[1]).toEqual(bin);
    const [[, text]] = await r.xrange('s', '-', '+');
    expect(text[0]).toBe('ключ');
    r.disconnect();
  });

  it('rejects with ioredis ReplyError carrying the exact Redis text', async () => {
    const r = client();
    await r.set('str', 'x');
    const err = await r.xadd('str', '*', 'f', 'v').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplyError);
    expect((err as Error).message).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    r.disconnect();
  });

  it('runs stream commands through call() and callBuffer(), including ones ioredis has no typing for', async () => {
    const r = client();
    expect(await r.call('XADD', 's', '1-0', 'f', 'v')).toBe('1-0');
    expect(await r.call('xlen', 's')).toBe(1);
    expect(await r.call('SET', 'k', 'v')).toBe('OK');
    expect(await r.callBuffer('XADD', 's', '2-0', 'f', 'v')).toEqual(Buffer.from('2-0'));
    await expect(r.call('NOSUCH', 'a')).rejects.toThrow("ERR unknown command 'NOSUCH', with args beginning with: 'a' ");
    r.disconnect();
  });

  it('supports callbacks as ioredis does', async () => {
    const r = client();
    const reply = await new Promise((resolve, reject) =>
      r.xadd('s', '1-0', 'f', 'v', (err: unknown, res: unknown) => (err ? reject(err) : resolve(res))),
    );
    expect(reply).toBe('1-0');
    r.disconnect();
  });

  it('runs stream commands in pipeline() in order, with [err, reply] pairs', async () => {
    const r = client();
    const res = await r.pipeline().xadd('s', '1-0', 'f', 'v').xadd('s', '1-0', 'f', 'v').xlen('s').exec();
    expect(res![0]).toEqual([null, '1-0']);
    expect((res![1][0] as Error).message).toBe('ERR The ID specified in XADD is equal or smaller than the target stream top item');
    expect(res![2]).toEqual([null, 1]);
    r.disconnect();
  });

  it('runs MULTI atomically with one time snapshot: XADD * IDs share the millisecond', async () => {
    const clock = createFakeClock({ now: 5000 });
    const r = client({ streams: { clock } });
    const res = await r.multi().xadd('s', '*', 'a', '1').xadd('s', '*', 'b', '2').exec();
    expect(res).toEqual([
      [null, '5000-0'],
      [null, '5000-1'],
    ]);
    r.disconnect();
  });

  it('answers nil at once for BLOCK inside MULTI, even BLOCK 0', async () => {
    const r = client();
    await r.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const res = await r.multi().xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>').xread('BLOCK', 0, 'STREAMS', 's', '$').exec();
    expect(res).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(streamsKeyspace(r).blockedCount).toBe(0);
    r.disconnect();
  });

  it('gives duplicate() clients the same keyspace', async () => {
    const r = client();
    const d = r.duplicate() as typeof r;
    await r.xadd('s', '1-0', 'f', 'v');
    expect(await d.xlen('s')).toBe(1);
    expect(typeof d.xautoclaim).toBe('function');
    r.disconnect();
    d.disconnect();
  });

  it('uses the keyspace clock for XADD * IDs and key TTLs', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const r = client({ streams: { clock } });
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('1000000-0');
    expect(await r.pexpire('s', 1500)).toBe(1);
    expect(await r.pttl('s')).toBe(1500);
    clock.tick(1500); // the deadline ms: still there
    expect(await r.exists('s')).toBe(1);
    clock.tick(1);
    expect(await r.exists('s')).toBe(0);
    r.disconnect();
  });

  it('never moves XADD * IDs backwards when the clock does', async () => {
    const clock = createFakeClock({ now: 10_000 });
    const r = client({ streams: { clock } });
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('10000-0');
    clock.setSystemTime(5_000);
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('10000-1');
    r.disconnect();
  });

  it('rejects unknown emulated versions with a library error', () => {
    const r = client();
    expect(() => streamsKeyspace(r).setRedisVersion('6.0')).toThrow('[ioredis-mock-streams] unsupported redisVersion');
    r.disconnect();
  });
});

describe('jest.mock default export', () => {
  it('is usable as the ioredis module (default, named Redis, and the module itself)', () => {
    const mod = require('ioredis-mock-streams');
    expect(typeof mod).toBe('function');
    expect(mod.default).toBe(mod);
    expect(mod.Redis).toBe(mod);
    expect(typeof mod.createFakeClock).toBe('function');
    const r = new mod({ port: 39_999 });
    expect(typeof r.xreadgroup).toBe('function');
    r.disconnect();
  });
});

describe('keyspace notifications', () => {
  it('publishes stream events (class t) on __keyspace@db__ and __keyevent@db__ channels when enabled', async () => {
    port++;
    const writer = new Redis({ port, notifyKeyspaceEvents: 'KEt' } as never) as any;
    const sub = new Redis({ port } as never) as any;
    const got: [string, string][] = [];
    sub.on('message', (channel: string, message: string) => got.push([channel, message]));
    await sub.subscribe('__keyspace@0__:s', '__keyevent@0__:xgroup-create');
    await writer.xadd('s', '1-0', 'f', 'v');
    await writer.xgroup('CREATE', 's', 'g', '0');
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([
      ['__keyspace@0__:s', 'xadd'],
      ['__keyspace@0__:s', 'xgroup-create'],
      ['__keyevent@0__:xgroup-create', 's'],
    ]);
    writer.disconnect();
    sub.disconnect();
  });
});

describe('MULTI through call()', () => {
  it('queues commands sent between MULTI and EXEC and runs them atomically, errors in place', async () => {
    port++;
    const r = new Redis({ port } as never) as any;
    expect(await r.call('MULTI')).toBe('OK');
    expect(await r.call('XADD', 's', '1-0', 'f', 'v')).toBe('QUEUED');
    expect(await r.call('XADD', 's', '1-0', 'f', 'v')).toBe('QUEUED');
    expect(await r.call('XREAD', 'BLOCK', '0', 'STREAMS', 's', '$')).toBe('QUEUED');
    expect(await r.call('SET', 'k', 'v')).toBe('QUEUED');
    const res = await r.call('EXEC');
    expect(res[0]).toBe('1-0');
    expect((res[1] as Error).message).toBe('ERR The ID specified in XADD is equal or smaller than the target stream top item');
    expect(res[2]).toBeNull();
    expect(res[3]).toBe('OK');
    await expect(r.call('EXEC')).rejects.toThrow('ERR EXEC without MULTI');
    r.disconnect();
  });
});

describe('streamsKeyspace().onEvent', () => {
  it('reports stream keyspace events with the full key, including implicit consumer creation', async () => {
    port++;
    const r = new Redis({ port, keyPrefix: 'p:' } as never) as any;
    const events: [string, string][] = [];
    const off = streamsKeyspace(r).onEvent((event, key) => events.push([event, key]));
    await r.xadd('s', '1-0', 'f', 'v');
    // XGROUP's key is prefixed by ioredis 6 only (key-prefix.test.ts): an unprefixed client of the keyspace creates the group.
    const raw = new Redis({ port } as never) as any;
    await raw.xgroup('CREATE', 'p:s', 'g', '0');
    raw.disconnect();
    await r.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
    off();
    await r.xdel('s', '1-0');
    expect(events).toEqual([
      ['xadd', 'p:s'],
      ['xgroup-create', 'p:s'],
      ['xgroup-createconsumer', 'p:s'],
    ]);
    r.disconnect();
  });
});
