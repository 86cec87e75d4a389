/**
 * Lua scripts (EVAL, EVALSHA, defineCommand) reaching the stream commands through
 * `redis.call`/`redis.pcall`. Error texts were checked on redis-server 7.0.15.
 */
import { createHash } from 'crypto';
import IORedisReal from 'ioredis';
import Redis, { ReplyError, StreamsMockError, createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';
import type { Clock } from 'ioredis-mock-streams';

/** Resolves once the client is `ready`: commands sent before that wait for it, as on ioredis. */
const whenReady = (c: any): Promise<void> => // eslint-disable-line @typescript-eslint/no-explicit-any
  new Promise((resolve) => (c.status === 'ready' ? resolve() : void c.once('ready', () => resolve())));


let port = 36_000;
const T0 = Date.UTC(2024, 0, 1);
type Client = IORedisReal & Record<string, any>;
let clients: Client[] = [];
const client = (opts: Record<string, unknown> = {}): Client => {
  const c = new Redis({ port, streams: { clock: createFakeClock({ now: T0 }) }, ...opts } as never) as unknown as Client;
  clients.push(c);
  return c;
};
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const errorOf = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
};

beforeEach(() => {
  port++;
  clients = [];
});
afterEach(() => clients.forEach((c) => c.disconnect()));

const CLAIM_AND_ACK = `
  redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '0', 'MKSTREAM')
  local id1 = redis.call('XADD', KEYS[1], '*', 'job', ARGV[1])
  local id2 = redis.call('XADD', KEYS[1], '*', 'job', ARGV[2])
  local read = redis.call('XREADGROUP', 'GROUP', 'g', 'c1', 'COUNT', 10, 'STREAMS', KEYS[1], '>')
  local acked = redis.call('XACK', KEYS[1], 'g', id1)
  local claimed = redis.call('XAUTOCLAIM', KEYS[1], 'g', 'c2', 0, '0-0', 'COUNT', 10)
  return {id1, id2, read, acked, claimed}
`;

describe('EVAL reaches the stream commands', () => {
  it('runs XGROUP, XADD, XREADGROUP, XACK and XAUTOCLAIM with Redis replies', async () => {
    const r = client();
    const res = await r.eval(CLAIM_AND_ACK, 1, 'jobs', 'a', 'b');
    const [id1, id2] = [`${T0}-0`, `${T0}-1`];
    expect(res).toEqual([
      id1,
      id2,
      [['jobs', [[id1, ['job', 'a']], [id2, ['job', 'b']]]]],
      1,
      ['0-0', [[id2, ['job', 'b']]], []],
    ]);
    // The script's effects are visible outside it.
    expect(await r.xpending('jobs', 'g')).toEqual([1, id2, id2, [['c2', '1']]]);
  });

  it('gives Lua the Redis types: integers, false for nil, tables, {ok=…} for status replies', async () => {
    const r = client();
    const res = await r.eval(
      `
      local created = redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$', 'MKSTREAM')
      local nothing = redis.call('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', KEYS[1], '>')
      local len = redis.call('XLEN', KEYS[1])
      local help = redis.call('XGROUP', 'HELP')
      return {type(created), created.ok, tostring(nothing), type(len), len + 1, type(help), type(help[1])}
      `,
      1,
      's',
    );
    expect(res).toEqual(['table', 'OK', 'false', 'number', 1, 'table', 'table']);
  });

  it('returns a status reply from a stream command as the plain string', async () => {
    const r = client();
    expect(await r.eval("return redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$', 'MKSTREAM')", 1, 's')).toBe('OK');
  });

  it.each([
    ['7.0', '3.1400000000000001', '9.9999999999999995e-08'],
    ['8.10', '3.14', '1e-7'],
  ])('formats Lua number arguments as %s does (7.0 %%.17g, 7.4+ shortest), integers without a fraction', async (redisVersion, f, tiny) => {
    const r = client({ streams: { redisVersion } });
    await r.eval("return redis.call('XADD', KEYS[1], '1-1', 'i', 5, 'f', 3.14, 'big', 2^40, 'tiny', 1e-7)", 1, 's');
    expect(await r.xrange('s', '-', '+')).toEqual([['1-1', ['i', '5', 'f', f, 'big', '1099511627776', 'tiny', tiny]]]);
  });

  // recorded with EVAL "return {redis.call('ECHO', …)}" 0 on redis-server 7.0.15 and the post-7.4 build
  it.each([
    ['7.0', ['5e+18', '1e+19', '1.5e+20', '-1e+19', '4.6116860184273879e+18', '9.2233720368547758e+18']],
    ['8.10', ['5e+18', '1e+19', '1.5e+20', '-1e+19', '4611686018427387904', '9223372036854776000']],
  ])('formats integral Lua numbers past 2^62 as %s does (7.4+: fpconv_dtoa, not the digits)', async (redisVersion, expected) => {
    const r = client({ streams: { redisVersion } });
    const script = 'return {' + ['5e18', '1e19', '1.5e20', '-1e19', '2^62', '2^63'].map((n) => `redis.call('ECHO', ${n})`).join(', ') + '}';
    expect(await r.eval(script, 0)).toEqual(expected);
  });

  it('answers like ioredis-mock through the callback too, and evalBuffer answers Buffers', async () => {
    const r = client();
    const viaCallback = await new Promise((resolve, reject) =>
      r.eval("return redis.call('XADD', KEYS[1], '1-1', 'f', 'v')", 1, 's', (err: unknown, res: unknown) =>
        err ? reject(err) : resolve(res),
      ),
    );
    expect(viaCallback).toBe('1-1');
    const buf = await r.evalBuffer("return {redis.call('XADD', KEYS[1], '1-2', 'f', 'v'), 7}", 1, 's');
    expect(buf).toEqual([Buffer.from('1-2'), 7]);
  });
});

describe('EVALSHA and defineCommand', () => {
  it('EVALSHA runs a script cached by EVAL (sha case-insensitive), NOSCRIPT otherwise', async () => {
    const r = client();
    const script = "return redis.call('XADD', KEYS[1], ARGV[1], 'f', 'v')";
    await r.eval(script, 1, 's', '1-1');
    expect(await r.evalsha(sha1(script), 1, 's', '1-2')).toBe('1-2');
    expect(await r.evalsha(sha1(script).toUpperCase(), 1, 's', '1-3')).toBe('1-3');
    expect(await r.xlen('s')).toBe(3);
    const err = await errorOf(r.evalsha(sha1('return 0'), 0));
    expect(err).toBeInstanceOf(ReplyError);
    expect(err.message).toBe('NOSCRIPT No matching script. Please use EVAL.');
  });

  it('EVALSHA runs the claim script end to end', async () => {
    const r = client();
    await r.eval('return 1', 0);
    const s = sha1(CLAIM_AND_ACK);
    await r.eval(CLAIM_AND_ACK, 1, 'a', 'x', 'y');
    const res = await r.evalsha(s, 1, 'b', 'x', 'y');
    expect((res as unknown[])[3]).toBe(1);
    expect(await r.xlen('b')).toBe(2);
  });

  it('defineCommand: with numberOfKeys, without (numkeys first, as ioredis), Buffer twin, pipeline and multi', async () => {
    const r = client();
    r.defineCommand('enqueue', {
      numberOfKeys: 1,
      lua: "return redis.call('XADD', KEYS[1], '*', 'job', ARGV[1])",
    });
    r.defineCommand('claimAll', {
      lua: "return redis.call('XAUTOCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, '0-0', 'JUSTID')",
    });
    await r.xgroup('CREATE', 'q', 'g', '$', 'MKSTREAM');
    expect(await r.enqueue('q', 'a')).toBe(`${T0}-0`);
    expect(await r.enqueueBuffer('q', 'b')).toEqual(Buffer.from(`${T0}-1`));
    await r.xreadgroup('GROUP', 'g', 'c1', 'STREAMS', 'q', '>');
    expect(await r.claimAll(1, 'q', 'g', 'c2')).toEqual(['0-0', [`${T0}-0`, `${T0}-1`], []]);
    const pipeline = r.pipeline() as any;
    expect(await pipeline.enqueue('q', 'c').claimAll(1, 'q', 'g', 'c3').exec()).toEqual([
      [null, `${T0}-2`],
      [null, ['0-0', [`${T0}-0`, `${T0}-1`], []]],
    ]);
    const multi = r.multi() as any;
    expect(await multi.enqueue('q', 'd').xlen('q').exec()).toEqual([
      [null, `${T0}-3`],
      [null, 4],
    ]);
  });

  it('EVAL and EVALSHA work in pipeline() and multi()', async () => {
    const r = client();
    const script = "return redis.call('XADD', KEYS[1], '*', 'n', ARGV[1])";
    const res = await r.multi().eval(script, 1, 's', 1).evalsha(sha1(script), 1, 's', 2).xlen('s').exec();
    // MULTI shares one time snapshot with the scripts inside it.
    expect(res).toEqual([
      [null, `${T0}-0`],
      [null, `${T0}-1`],
      [null, 2],
    ]);
    const p = await r.pipeline().eval("return redis.call('XLEN', KEYS[1])", 1, 's').exec();
    expect(p).toEqual([[null, 2]]);
  });

  it('checks numkeys like Redis', async () => {
    const r = client();
    expect((await errorOf(r.eval('return 1', 2, 'a'))).message).toBe("ERR Number of keys can't be greater than number of args");
    expect((await errorOf(r.eval('return 1', -1))).message).toBe("ERR Number of keys can't be negative");
    expect((await errorOf(r.eval('return 1', 'x'))).message).toBe('ERR value is not an integer or out of range');
  });
});

describe('atomicity and time', () => {
  it('XADD * twice in one script shares the millisecond even when the clock moves', async () => {
    const fake = createFakeClock({ now: T0 });
    let t = T0;
    // A clock that advances 5 ms every time it is read.
    const moving: Clock = { kind: 'custom', now: () => (t += 5), schedule: (fn: () => void, ms: number) => fake.schedule(fn, ms) };
    const r = client({ streams: { clock: moving } });
    const [a, b] = (await r.eval(
      "return {redis.call('XADD', KEYS[1], '*', 'n', 1), redis.call('XADD', KEYS[1], '*', 'n', 2)}",
      1,
      's',
    )) as string[];
    const ms = a.split('-')[0];
    expect(a).toBe(`${ms}-0`);
    expect(b).toBe(`${ms}-1`);
  });

  it('serves a blocked reader only after the script, with everything the script added', async () => {
    const r = client();
    const reader = client();
    const blocked = reader.xread('BLOCK', 0, 'STREAMS', 's', '$');
    await whenReady(reader); // the read was held until the new client was ready
    expect(streamsKeyspace(r).blockedCount).toBe(1);
    await r.eval(
      "redis.call('XADD', KEYS[1], '1-1', 'n', 1); redis.call('XADD', KEYS[1], '1-2', 'n', 2); return 1",
      1,
      's',
    );
    expect(await blocked).toEqual([['s', [['1-1', ['n', '1']], ['1-2', ['n', '2']]]]]);
  });

  it('EXPIRE and TTL inside a script follow the keyspace clock', async () => {
    const clock = createFakeClock({ now: T0 });
    const r = client({ streams: { clock } });
    await r.xadd('s', '1-1', 'f', 'v');
    expect(await r.eval("redis.call('EXPIRE', KEYS[1], 10); return redis.call('TTL', KEYS[1])", 1, 's')).toBe(10);
    clock.tick(4_000);
    expect(await r.eval("return redis.call('PTTL', KEYS[1])", 1, 's')).toBe(6_000);
    clock.tick(6_000); // the deadline ms: still there (PTTL 0)
    expect(await r.eval("return redis.call('PTTL', KEYS[1])", 1, 's')).toBe(0);
    clock.tick(1);
    expect(await r.eval("return redis.call('EXISTS', KEYS[1])", 1, 's')).toBe(0);
  });
});

describe('BLOCK inside a script', () => {
  const xread = "return tostring(redis.call('XREAD', 'BLOCK', 0, 'STREAMS', KEYS[1], '$'))";
  const xreadgroup = `
    redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$', 'MKSTREAM')
    return tostring(redis.call('XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 1000, 'STREAMS', KEYS[1], '>'))`;

  it.each(['8.10', '7.4'])('answers nil at once on %s', async (redisVersion) => {
    const r = client({ streams: { clock: createFakeClock({ now: T0 }), redisVersion } });
    expect(await r.eval(xread, 1, 's')).toBe('false');
    expect(await r.eval(xreadgroup, 1, 's')).toBe('false');
    expect(streamsKeyspace(r).blockedCount).toBe(0);
  });

  it.each(['7.0', '7.2'])('is an error on %s, with the command name as typed', async (redisVersion) => {
    const r = client({ streams: { clock: createFakeClock({ now: T0 }), redisVersion } });
    const err = await errorOf(r.eval(xread, 1, 's'));
    expect(err).toBeInstanceOf(ReplyError);
    expect(err.message).toBe(
      `ERR XREAD command is not allowed with BLOCK option from scripts script: ${sha1(xread)}, on @user_script:1.`,
    );
    const typed = "return redis.pcall('XrEaD', 'BLOCK', 'x', 'STREAMS', KEYS[1], '$').err";
    expect(await r.eval(typed, 1, 's')).toBe('ERR XrEaD command is not allowed with BLOCK option from scripts');
    // Errors of options before BLOCK come first.
    const countFirst = "return redis.pcall('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 'x', 'BLOCK', 0, 'STREAMS', KEYS[1], '>').err";
    expect(await r.eval(countFirst, 1, 's')).toBe('ERR value is not an integer or out of range');
    expect((await errorOf(r.eval(xreadgroup, 1, 's'))).message).toBe(
      `ERR XREADGROUP command is not allowed with BLOCK option from scripts script: ${sha1(xreadgroup)}, on @user_script:3.`,
    );
  });

  it('does not touch BLOCK outside scripts on 7.0', async () => {
    const r = client({ streams: { clock: createFakeClock({ now: T0 }), redisVersion: '7.0' } });
    expect(await r.multi().xread('BLOCK', 0, 'STREAMS', 's', '$').exec()).toEqual([[null, null]]);
  });
});

describe('errors', () => {
  it('redis.pcall returns the error table; Lua pcall sees the error text', async () => {
    const r = client();
    await r.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const res = await r.eval(
      `
      local e = redis.pcall('XGROUP', 'CREATE', KEYS[1], 'g', '$')
      local ok, msg = pcall(redis.call, 'XADD', KEYS[1], '0-0', 'f', 'v')
      return {type(e), e.err, tostring(ok), type(msg), msg}
      `,
      1,
      's',
    );
    expect(res).toEqual([
      'table',
      'BUSYGROUP Consumer Group name already exists',
      'false',
      'string',
      'ERR The ID specified in XADD must be greater than 0-0',
    ]);
  });

  it('returning the pcall error table answers that error', async () => {
    const r = client();
    const err = await errorOf(r.eval("return redis.pcall('XADD', KEYS[1], 'bad', 'f', 'v')", 1, 's'));
    expect(err).toBeInstanceOf(ReplyError);
    expect(err.message).toBe('ERR Invalid stream ID specified as stream command argument');
  });

  it('a stream-command error in redis.call aborts the script; earlier writes stay (no rollback)', async () => {
    const r = client();
    const script = [
      "redis.call('XADD', KEYS[1], '1-1', 'f', 'v')",
      "redis.call('SET', KEYS[2], 'x')",
      "redis.call('XREADGROUP', 'GROUP', 'nogroup', 'c', 'STREAMS', KEYS[1], '>')",
      "redis.call('XADD', KEYS[1], '1-2', 'f', 'v')",
    ].join('\n');
    const err = await errorOf(r.eval(script, 2, 's', 'k'));
    expect(err).toBeInstanceOf(ReplyError);
    expect(err.message).toBe(
      `NOGROUP No such key 's' or consumer group 'nogroup' in XREADGROUP with GROUP option script: ${sha1(script)}, on @user_script:3.`,
    );
    expect(await r.xlen('s')).toBe(1);
    expect(await r.get('k')).toBe('x');
  });

  it('uses the script error texts of Redis for arity, unknown and refused commands', async () => {
    const r = client({ streams: { clock: createFakeClock({ now: T0 }), redisVersion: '7.0' } });
    const pe = (call: string) => r.eval(`return redis.pcall(${call}).err`, 0);
    expect(await pe("'XADD', 's'")).toBe('ERR Wrong number of args calling Redis command from script');
    expect(await pe("'XGROUP'")).toBe('ERR Wrong number of args calling Redis command from script');
    expect(await pe("'XGROUP', 'FOO'")).toBe('ERR Unknown Redis command called from script');
    expect(await pe("'XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-1'")).toBe('ERR Unknown Redis command called from script');
    expect(await pe("'NOSUCH'")).toBe('ERR Unknown Redis command called from script');
    expect(await pe("'MULTI'")).toBe('ERR This Redis command is not allowed from script');
    expect(await pe("'EVAL', 'return 1', '0'")).toBe('ERR This Redis command is not allowed from script');
    expect(await pe('')).toBe('ERR Please specify at least one argument for this redis lib call');
    expect(await pe("'XLEN', {}")).toBe('ERR Lua redis lib command arguments must be strings or integers');
  });

  it('checks arity before the no-script flag, for every kind of command (script.c scriptCall)', async () => {
    const r = client();
    const pe = (call: string) => r.eval(`return redis.pcall(${call}).err`, 0);
    // Each text as redis-server 7.0.15 and the 4f8cdc2a tree answer it.
    const ARITY = 'ERR Wrong number of args calling Redis command from script';
    const expected: [string, string][] = [
      ["'TYPE'", ARITY],
      ["'TYPE', 'a', 'b'", ARITY],
      ["'SET', 'k'", ARITY],
      ["'MULTI', 'x'", ARITY],
      ["'EXEC', 'x'", ARITY],
      ["'WATCH'", ARITY],
      ["'CLIENT'", ARITY],
      ["'CONFIG'", ARITY],
      ["'CONFIG', 'GET'", ARITY],
      ["'SUBSCRIBE'", ARITY],
      ["'EVAL'", ARITY],
      ["'AUTH'", ARITY],
      ["'SELECT'", ARITY],
      ["'QUIT', 'x'", 'ERR This Redis command is not allowed from script'],
      ["'HELLO', 'x'", 'ERR This Redis command is not allowed from script'],
      ["'PING', 'a', 'b'", "ERR wrong number of arguments for 'ping' command"],
    ];
    for (const [call, text] of expected) expect([call, await pe(call)]).toEqual([call, text]);
    const script = "return redis.call('TYPE')";
    expect((await errorOf(r.eval(script, 0))).message).toBe(`${ARITY} script: ${sha1(script)}, on @user_script:1.`);
  });

  it('reports Lua errors and compile errors as Redis does', async () => {
    const r = client();
    const boom = "local x = 1\nerror('boom')";
    expect((await errorOf(r.eval(boom, 0))).message).toBe(`ERR user_script:2: boom script: ${sha1(boom)}, on @user_script:2.`);
    expect((await errorOf(r.eval('return redis.error_reply("MY failure")', 0))).message).toBe('MY failure');
    expect((await errorOf(r.eval('return {err="plain"}', 0))).message).toBe('plain');
    expect((await errorOf(r.eval('return +', 0))).message).toMatch(/^ERR Error compiling script \(new function\): user_script:1: /);
  });

  it('re-throws library misuse (StreamsMockError) even when the script catches it', async () => {
    const r = client();
    // a repeated-members ZRANDMEMBER beyond what the fake builds (Redis would stream them)
    const script = "redis.call('ZADD', KEYS[1], 1, 'm'); redis.pcall('ZRANDMEMBER', KEYS[1], -100000000); return 1";
    const err = await errorOf(r.eval(script, 1, 's'));
    expect(err).toBeInstanceOf(StreamsMockError);
  });
});

describe('ioredis-mock built-ins inside scripts', () => {
  it('SET/GET/HSET/HGETALL/INCR/RPUSH/LRANGE work, mixed with stream commands', async () => {
    const r = client();
    const res = await r.eval(
      `
      redis.call('SET', KEYS[1], ARGV[1])
      redis.call('HSET', KEYS[2], 'f', 'v', 'g', 'w')
      redis.call('RPUSH', KEYS[3], 'a', 'b')
      local id = redis.call('XADD', KEYS[4], '*', 'v', redis.call('GET', KEYS[1]))
      local list = redis.call('LRANGE', KEYS[3], 0, -1)
      return {redis.call('GET', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('INCR', 'n'),
              #list, list[2], tostring(redis.call('GET', 'missing')), id, redis.call('TYPE', KEYS[4])}
      `,
      4,
      'str',
      'h',
      'l',
      's',
      'hello',
    );
    expect(res).toEqual(['hello', ['f', 'v', 'g', 'w'], 1, 2, 'b', 'false', `${T0}-0`, 'stream']);
    expect(await r.hgetall('h')).toEqual({ f: 'v', g: 'w' });
    expect(await r.xrange('s', '-', '+')).toEqual([[`${T0}-0`, ['v', 'hello']]]);
  });

  it('converts script return values as Redis does: arrays, KEYS/ARGV, numbers truncated, true → 1, false/nil → nil', async () => {
    const r = client();
    expect(await r.eval('return {1, "a", {2, "b"}}', 0)).toEqual([1, 'a', [2, 'b']]);
    expect(await r.eval('return {KEYS[1], ARGV[1], #KEYS, #ARGV}', 1, 'k', 'a')).toEqual(['k', 'a', 1, 1]);
    expect(await r.eval('return 3.5', 0)).toBe(3);
    expect(await r.eval('return true', 0)).toBe(1);
    expect(await r.eval('return false', 0)).toBeNull();
    expect(await r.eval('return nil', 0)).toBeNull();
    expect(await r.eval('return {1, false, 3}', 0)).toEqual([1, null, 3]);
    expect(await r.eval('return unpack({7})', 0)).toBe(7);
    // Tables built one element at a time are arrays too.
    expect(await r.eval('local t = {} t[1] = "x" t[2] = "y" return t', 0)).toEqual(['x', 'y']);
    expect(await r.eval('return redis.status_reply("FINE")', 0)).toBe('FINE');
  });
});

describe('keyPrefix', () => {
  it('scripts see KEYS already prefixed by the client (ioredis prefixes EVAL keys); redis.call adds nothing', async () => {
    const prefixed = client({ keyPrefix: 'p:' });
    const plain = client();
    const res = await prefixed.eval(
      `
      redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$', 'MKSTREAM')
      redis.call('XADD', KEYS[1], '1-1', 'f', 'v')
      redis.call('SET', KEYS[2], 'x')
      return {redis.call('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', KEYS[1], '>'), redis.call('TYPE', KEYS[1])}
      `,
      2,
      's',
      'k',
    );
    expect(res).toEqual([[['p:s', [['1-1', ['f', 'v']]]]], 'stream']);
    expect(await plain.xlen('p:s')).toBe(1);
    expect(await plain.get('p:k')).toBe('x');
    expect(await plain.exists('s')).toBe(0);
    expect(await plain.xpending('p:s', 'g')).toEqual([1, '1-1', '1-1', [['c', '1']]]);
  });
});
