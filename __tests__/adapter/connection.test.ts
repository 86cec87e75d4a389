/**
 * Client/keyspace wiring found by a fresh-user trial: duplicate(), connection order while
 * blocked, keyPrefix as ioredis applies it, non-ASCII keys, TTLs of built-ins on the fake
 * clock, WRONGTYPE for other types' commands on a stream, MULTI queue-time errors.
 */
import Redis, { createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

let port = 34_000;
type Client = Record<string, any>;
const make = (opts: Record<string, unknown> = {}) => new Redis({ port, ...opts } as never) as unknown as Client;
const settled = async (p: Promise<unknown>) => {
  let done = false;
  p.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};
beforeEach(() => {
  port++;
});

describe('duplicate()', () => {
  it('keeps every client, including ones created afterwards, on the same keyspace', async () => {
    const clock = createFakeClock({ now: 1000 });
    const redis = make({ streams: { clock } });
    await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const reader = redis.duplicate();
    const producer = make();
    expect(streamsKeyspace(producer as never).clock).toBe(clock);
    const read = reader.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 2000, 'STREAMS', 's', '>');
    await producer.xadd('s', '1-0', 'f', 'v');
    expect(await read).toEqual([['s', [['1-0', ['f', 'v']]]]]);
    [redis, reader, producer].forEach((c) => c.disconnect());
  });
});

describe('connection order', () => {
  it('runs a command sent while the same client is blocked only after the blocked call answers', async () => {
    const clock = createFakeClock({ now: 1000 });
    const r = make({ streams: { clock } });
    const read = r.xread('BLOCK', 300, 'STREAMS', 's', '$');
    const add = r.xadd('s', '1-0', 'f', 'v');
    expect(await settled(add)).toBe(false);
    await clock.tickAsync(300);
    expect(await read).toBeNull(); // its own XADD did not wake it
    expect(await add).toBe('1-0');
    r.disconnect();
  });

  it('rejects commands still waiting behind a blocked call when the client disconnects', async () => {
    const r = make();
    const read = r.xread('BLOCK', 0, 'STREAMS', 's', '$');
    const len = r.xlen('s');
    r.disconnect();
    await expect(read).rejects.toThrow('Connection is closed.');
    await expect(len).rejects.toThrow('Connection is closed.');
  });

  it('rejects stream commands after disconnect() until connect()', async () => {
    const r = make();
    r.disconnect();
    await expect(r.xadd('s', '*', 'f', 'v')).rejects.toThrow('Connection is closed.');
    await r.connect();
    expect(await r.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    r.disconnect();
  });
});

describe('keyPrefix, applied as ioredis applies it', () => {
  it('prefixes XADD/XREADGROUP keys, so replies and errors carry the full key', async () => {
    const p = make({ keyPrefix: 'app:' });
    const raw = make();
    await p.xadd('s', '1-0', 'f', 'v');
    // XGROUP's key is prefixed by ioredis 6 only (__tests__/adapter/key-prefix.test.ts): use the full key.
    await raw.xgroup('CREATE', 'app:s', 'g', '0');
    expect(await p.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>')).toEqual([['app:s', [['1-0', ['f', 'v']]]]]);
    await expect(p.xreadgroup('GROUP', 'nope', 'c', 'STREAMS', 's', '>')).rejects.toThrow(
      "NOGROUP No such key 'app:s' or consumer group 'nope' in XREADGROUP with GROUP option",
    );
    expect(await p.xlen('s')).toBe(1);
    expect(await raw.xlen('s')).toBe(0);
    p.disconnect();
    raw.disconnect();
  });
});

describe('keys as ioredis-mock stores them', () => {
  it('lets EXISTS, DEL, KEYS and RENAME see streams with non-ASCII names', async () => {
    const r = make();
    await r.xadd('café', '1-0', 'f', 'v');
    expect(await r.exists('café')).toBe(1);
    expect(await r.keys('*')).toEqual(['café']);
    await r.rename('café', 'thé');
    expect(await r.xlen('thé')).toBe(1);
    expect(await r.del('thé')).toBe(1);
    await r.set('日本', 'x');
    await expect(r.xadd('日本', '*', 'f', 'v')).rejects.toThrow('WRONGTYPE');
    r.disconnect();
  });
});

describe('ioredis-mock commands on the keyspace clock and on stream keys', () => {
  it('runs SET … EX / SETEX TTLs on the fake clock', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const r = make({ streams: { clock } });
    expect(await r.set('lock', 'v', 'EX', 5, 'NX')).toBe('OK');
    expect(await r.pttl('lock')).toBe(5000);
    await r.setex('other', 2, 'v');
    clock.tick(5001); // past the deadline
    expect(await r.exists('lock', 'other')).toBe(0);
    expect(await r.set('lock', 'v2', 'NX')).toBe('OK');
    r.disconnect();
  });

  it('answers WRONGTYPE to commands of other types on a stream, and SET overwrites it', async () => {
    const r = make();
    await r.xadd('s', '1-0', 'f', 'v');
    for (const cmd of [() => r.get('s'), () => r.hset('s', 'a', 'b'), () => r.lpush('s', 'x'), () => r.incr('s'), () => r.append('s', 'x')]) {
      await expect(cmd()).rejects.toThrow('WRONGTYPE Operation against a key holding the wrong kind of value');
    }
    expect(await r.xlen('s')).toBe(1);
    // ioredis answers [err] (no reply element) for a failed pipeline command
    await expect(r.pipeline().get('s').exec()).resolves.toEqual([[expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') })]]);
    await r.set('str', 'x');
    expect(await r.mget('s', 'str')).toEqual([null, 'x']); // MGET answers nil for other types
    expect(await r.object('ENCODING', 's')).toBe('stream');
    expect(await r.pipeline().type('s').exec()).toEqual([[null, 'stream']]);
    expect(await r.eval("return redis.call('TYPE', KEYS[1])", 1, 's')).toBe('stream');
    expect(await r.set('s', 'x')).toBe('OK');
    expect(await r.type('s')).toBe('string');
    r.disconnect();
  });
});

describe('errors', () => {
  it('attaches the command to ReplyErrors as ioredis does', async () => {
    const r = make();
    const err = await r.xadd('s', '0-0', 'f', 'v').catch((e: unknown) => e);
    expect(err.command).toEqual({ name: 'xadd', args: ['s', '0-0', 'f', 'v'] });
    r.disconnect();
  });

  it('echoes the command name as sent in unknown-command errors', async () => {
    const r = make({ streams: { redisVersion: '7.0' } });
    await expect(r.call('XACKDEL', 's', 'g', 'IDS', '1', '1-0')).rejects.toThrow("ERR unknown command 'XACKDEL', with args beginning with: 's' 'g' 'IDS' '1' '1-0' ");
    r.disconnect();
  });

  it('discards a MULTI with a queue-time error (EXECABORT), like Redis', async () => {
    const r = make();
    const err = await r.multi().call('XADD', 's').xlen('s').exec().catch((e: unknown) => e);
    expect(err.message).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect(err.previousErrors[0].message).toBe("ERR wrong number of arguments for 'xadd' command");
    expect(await r.exists('s')).toBe(0);
    r.disconnect();
  });

  it('keeps the command name as sent when a pipeline queues a stream command through call()', async () => {
    const r = make({ streams: { redisVersion: '7.0' } });
    const res = await r.pipeline().call('XACKDEL', 's', 'g', 'IDS', '1', '1-0').exec();
    expect(res[0][0].message).toBe("ERR unknown command 'XACKDEL', with args beginning with: 's' 'g' 'IDS' '1' '1-0' ");
    expect(res[0]).toHaveLength(1);
    r.disconnect();
  });

  it('queues an unknown command in a pipeline and fails it at exec time', async () => {
    const r = make();
    const res = await r.pipeline().call('XGROUPX', 'a').xlen('s').exec();
    expect(res[0][0].message).toBe("ERR unknown command 'XGROUPX', with args beginning with: 'a' ");
    expect(res[1]).toEqual([null, 0]);
    r.disconnect();
  });

  it('rejects malformed streams options with a library error', () => {
    expect(() => make({ streams: { clock: 'x' } })).toThrow('[ioredis-mock-streams] invalid option streams.clock');
    expect(() => make({ streams: { foo: 1 } })).toThrow('[ioredis-mock-streams] invalid option streams');
    expect(() => make({ streams: { redisVersion: '6.2' } })).toThrow('[ioredis-mock-streams] unsupported redisVersion');
    expect(() => createFakeClock({ now: 'x' as never })).toThrow('[ioredis-mock-streams] createFakeClock: now must be');
  });
});

describe('long BLOCK timeouts', () => {
  it('keeps waiting past the 2^31-1 ms limit of JS timers', async () => {
    const clock = createFakeClock({ now: 0 });
    const r = make({ streams: { clock } });
    const read = r.xread('BLOCK', 3_000_000_000, 'STREAMS', 's', '$');
    await clock.tickAsync(2 ** 31);
    expect(await settled(read)).toBe(false);
    await clock.tickAsync(3_000_000_000 - 2 ** 31);
    expect(await read).toBeNull();
    r.disconnect();
  });
});

describe('WATCH', () => {
  it('aborts EXEC only when a watched key was modified, and EXEC ends the watch', async () => {
    const a = make();
    const b = make();
    await a.xadd('s', '1-0', 'f', 'v');
    await a.watch('s');
    await b.xadd('other', '1-0', 'f', 'v');
    await b.xlen('s');
    await b.xgroup('CREATE', 's', 'g', '0'); // not a modification WATCH sees (redis-server 7.0.15)
    expect(await a.multi().xlen('s').exec()).toEqual([[null, 1]]);
    await a.watch('s');
    await b.xadd('s', '2-0', 'f', 'v');
    expect(await a.multi().xlen('s').exec()).toBeNull();
    expect(await a.multi().xlen('s').exec()).toEqual([[null, 2]]); // the aborted EXEC unwatched
    a.disconnect();
    b.disconnect();
  });
});

describe('arity of ioredis-mock commands', () => {
  it('answers the Redis arity error where ioredis-mock would ignore missing or extra arguments', async () => {
    const r = make();
    await expect(r.type('a', 'b')).rejects.toThrow("ERR wrong number of arguments for 'type' command");
    await expect(r.call('DEL')).rejects.toThrow("ERR wrong number of arguments for 'del' command");
    expect(await r.hset('h', { a: '1', b: '2' })).toBe(2); // object arguments are expanded later
    r.disconnect();
  });
});
