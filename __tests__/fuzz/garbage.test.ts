/**
 * Seeded garbage fuzz (issue 10): random commands with odd arguments on every call path the
 * package offers — method, `…Buffer` twin, `call`, `pipeline()`, `multi()` and Lua
 * `redis.call` — against a keyspace holding every type. For each command it asserts:
 * - nothing throws synchronously;
 * - the outcome is a value, or a rejection carrying a ReplyError (a Redis error reply) or a
 *   StreamsMockError (a limit of the fake or library misuse); a pipeline/MULTI answers the same
 *   inside its `[err, reply]` pairs;
 * - an error reply changes nothing (every key's type, value, stream state and TTL compared
 *   before and after);
 * - blocked calls end: after the clock moves past any BLOCK and the connection closes,
 *   `streamsKeyspace(r).blockedCount` is 0.
 * Fixed seeds, a frozen fake clock, no server: deterministic and fast. Reproduce a failure with
 * the seed and step the message names (FUZZ_SEEDS=7 FUZZ_STEPS=2000 to explore more).
 */
import Redis, { ReplyError, StreamsMockError, createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

const SEEDS = process.env.FUZZ_SEEDS ? process.env.FUZZ_SEEDS.split(',').map(Number) : [1, 2, 3, 4, 5];
const STEPS = Number(process.env.FUZZ_STEPS ?? 200);

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STREAM_COMMANDS = ['xadd', 'xtrim', 'xdel', 'xlen', 'xrange', 'xrevrange', 'xsetid', 'xdelex', 'xgroup', 'xack', 'xackdel', 'xpending', 'xinfo', 'xclaim', 'xautoclaim', 'xnack', 'xcfgset', 'xread', 'xreadgroup'];
const BUILTINS = [
  'get', 'set', 'del', 'unlink', 'exists', 'type', 'rename', 'renamenx', 'expire', 'pexpire', 'ttl', 'pttl', 'persist',
  'incr', 'incrby', 'append', 'getrange', 'setrange', 'mget', 'mset', 'getdel', 'getex', 'lpush', 'rpush', 'lpop', 'lrange',
  'lindex', 'lset', 'llen', 'hset', 'hget', 'hgetall', 'hincrby', 'hdel', 'sadd', 'srem', 'smembers', 'sunionstore', 'smove',
  'zadd', 'zrange', 'zrangebyscore', 'zincrby', 'zpopmin', 'object', 'scan', 'keys', 'move', 'swapdb', 'touch', 'dbsize',
  'setbit', 'getbit', 'bitcount', 'pfadd', 'copy', 'sort',
];
const NOT_COMMANDS = ['foo', 'xfoo', ''];

const KEYS = ['s', 't', 'empty', 'str', 'lst', 'hsh', 'set', 'zs', 'missing'];
const WORDS = [
  '', '0', '1', '-1', '2', '5', '100', 'abc', '1.5', '-inf', '+inf', '9223372036854775807', '9223372036854775808',
  '0-0', '1-0', '1-1', '2-0', '3-0', '$', '>', '*', '+', '-', '(1-0', '1-*', '18446744073709551615-18446744073709551615',
  'g', 'g2', 'c', 'c2', 'f', 'v', 'GROUP', 'STREAMS', 'COUNT', 'BLOCK', 'NOACK', 'MKSTREAM', 'CREATE', 'DESTROY', 'SETID',
  'CREATECONSUMER', 'DELCONSUMER', 'ENTRIESREAD', 'JUSTID', 'IDLE', 'TIME', 'RETRYCOUNT', 'FORCE', 'LASTID', 'MAXLEN',
  'MINID', 'LIMIT', '~', '=', 'NOMKSTREAM', 'FULL', 'STREAM', 'GROUPS', 'CONSUMERS', 'HELP', 'IDS', 'KEEPREF', 'DELREF',
  'ACKED', 'CLAIM', 'MAXCOUNT', 'MAXSIZE', 'IDMP', 'IDMPAUTO', 'IDMP-DURATION', 'IDMP-MAXSIZE', 'NX', 'XX', 'GT', 'LT', 'EX', 'PX', 'KEEPTTL', 'GET', 'WITHSCORES',
  'TYPE', 'MATCH', 'ENCODING', 'FREQ', 'LEFT', 'RIGHT', 'SILENT', 'FAIL', 'FATAL',
];

type Path = 'method' | 'buffer' | 'call' | 'pipeline' | 'multi' | 'lua';
const PATHS: Path[] = ['method', 'buffer', 'call', 'pipeline', 'multi', 'lua'];

function garbageArg(rnd: () => number): unknown {
  const r = rnd();
  if (r < 0.35) return KEYS[Math.floor(rnd() * KEYS.length)];
  if (r < 0.85) return WORDS[Math.floor(rnd() * WORDS.length)];
  if (r < 0.9) return Buffer.from([0xff, 0x00, Math.floor(rnd() * 256)]);
  if (r < 0.95) return [-1, 0, 1.5, 7, 1e21][Math.floor(rnd() * 5)];
  return [WORDS[Math.floor(rnd() * WORDS.length)], KEYS[Math.floor(rnd() * KEYS.length)]]; // a nested array, as ioredis flattens
}

/** Seed a keyspace with every type, a stream with groups, consumers and pending entries. */
async function populate(r: any): Promise<void> {
  await r.xadd('s', '1-0', 'f', 'v');
  await r.xadd('s', '2-0', 'f', 'v');
  await r.xadd('s', '3-0', 'f', 'v');
  await r.xgroup('CREATE', 's', 'g', '0');
  await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', 2, 'STREAMS', 's', '>');
  await r.xadd('t', '5-0', 'a', 'b');
  await r.xgroup('CREATE', 'empty', 'g', '$', 'MKSTREAM');
  await r.set('str', 'hello');
  await r.rpush('lst', 'a', 'b');
  await r.hset('hsh', 'f', '1');
  await r.sadd('set', 'a');
  await r.zadd('zs', 1, 'a');
  await r.pexpire('t', 100_000);
}

/** Every key's type, value (streams: XINFO STREAM FULL) and expiry time, read with commands. */
async function snapshot(r: any): Promise<string> {
  const out: unknown[] = [];
  for (const db of [0, 1]) {
    const c = db === 0 ? r : r.db1;
    for (const key of (await c.keys('*')).sort()) {
      const type = await c.type(key);
      let value: unknown;
      if (type === 'string') value = await c.get(key);
      else if (type === 'list') value = await c.lrange(key, 0, -1);
      else if (type === 'hash') value = await c.hgetall(key);
      else if (type === 'set') value = (await c.smembers(key)).sort();
      else if (type === 'zset') value = await c.zrange(key, 0, -1, 'WITHSCORES');
      else if (type === 'stream') {
        // XINFO STREAM FULL has every group, consumer and PEL entry with absolute times
        value = await c.xinfo('STREAM', key, 'FULL');
      }
      // the absolute expiry time: PTTL would change whenever the clock moves
      out.push([db, key, type, value, await c.pexpiretime(key)]);
    }
  }
  return JSON.stringify(out);
}

const isAllowedError = (e: unknown) => e instanceof ReplyError || e instanceof StreamsMockError;

/**
 * Lets pending work run: replies settle as microtasks, and a command the spin guard made wait
 * runs after one turn of the event loop.
 */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

interface StepResult {
  /** Each settled outcome: a value, or the rejection. */
  outcomes: { ok: boolean; value: unknown }[];
  /** The call was still blocked and was released by closing its connection. */
  released: boolean;
}

async function runOn(path: Path, conn: any, name: string, args: unknown[], clock: ReturnType<typeof createFakeClock>): Promise<StepResult> {
  let promise: Promise<unknown>;
  let batch = false;
  switch (path) {
    case 'method':
    case 'buffer': {
      const method = conn[path === 'buffer' ? `${name}Buffer` : name];
      promise = typeof method === 'function' ? method.apply(conn, args) : conn.call(name, ...args);
      break;
    }
    case 'call':
      promise = conn.call(name, ...args);
      break;
    case 'pipeline':
    case 'multi': {
      const p = path === 'multi' ? conn.multi() : conn.pipeline();
      p.call(name, ...args);
      promise = p.exec();
      batch = true;
      break;
    }
    case 'lua': {
      const luaArgs = args.flat().map((a) => (Buffer.isBuffer(a) ? a : String(a)));
      promise = conn.eval('return redis.call(unpack(ARGV))', 0, name, ...luaArgs);
      break;
    }
  }
  let settled: { ok: boolean; value: unknown } | undefined;
  promise.then((value) => (settled = { ok: true, value }), (value) => (settled = { ok: false, value }));
  await drain();
  let released = false;
  if (!settled) {
    await clock.tickAsync(10_000); // past every finite BLOCK of the pool
    await drain();
  }
  if (!settled) {
    conn.disconnect(); // BLOCK 0: closing the connection releases it
    released = true;
    await drain();
  }
  if (!settled) throw new Error('the call settled neither on time, nor when its connection closed');
  const s = settled as { ok: boolean; value: unknown };
  if (batch && s.ok && Array.isArray(s.value)) {
    // [err, reply] pairs
    return { outcomes: (s.value as unknown[][]).map(([err, reply]) => (err ? { ok: false, value: err } : { ok: true, value: reply })), released };
  }
  return { outcomes: [s], released };
}

describe.each(SEEDS.map((seed) => [seed]))('garbage on every call path, seed %i', (seed) => {
  it(`${STEPS} commands answer values or ReplyError/StreamsMockError, errors change nothing, no call stays blocked`, async () => {
    const rnd = prng(seed);
    const port = 52_000 + seed;
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = new Redis({ port, streams: { clock } }) as any;
    r.db1 = new Redis({ port, db: 1, streams: { clock } });
    await populate(r);
    const log: string[] = [];
    for (let step = 0; step < STEPS; step++) {
      const pick = rnd();
      const pool = pick < 0.6 ? STREAM_COMMANDS : pick < 0.95 ? BUILTINS : NOT_COMMANDS;
      const name = pool[Math.floor(rnd() * pool.length)];
      const args = Array.from({ length: Math.floor(rnd() * 8) }, () => garbageArg(rnd));
      const path = PATHS[Math.floor(rnd() * PATHS.length)];
      const where = `seed ${seed} step ${step}: ${path} ${name} ${JSON.stringify(args)}`;
      log.push(where);
      const before = await snapshot(r);
      const conn = r.duplicate();
      let result: StepResult;
      try {
        result = await runOn(path, conn, name, args, clock);
      } catch (e) {
        throw new Error(`${where}: threw synchronously or never settled: ${(e as Error)?.stack ?? e}`);
      }
      conn.disconnect();
      for (const o of result.outcomes) {
        if (!o.ok && !result.released && !isAllowedError(o.value)) {
          throw new Error(`${where}: rejected with ${(o.value as Error)?.constructor?.name}: ${(o.value as Error)?.message}`);
        }
      }
      if (result.outcomes.every((o) => !o.ok) && !result.released) {
        const after = await snapshot(r);
        if (after !== before) throw new Error(`${where}: an error reply changed the keyspace\nbefore ${before}\nafter  ${after}`);
      }
      await drain();
      expect({ where, blocked: streamsKeyspace(r).blockedCount }).toEqual({ where, blocked: 0 });
      // keep the keyspace interesting: bring back what the garbage deleted
      if (step % 25 === 24) {
        await r.flushall();
        await populate(r);
      }
    }
    r.db1.disconnect();
    r.disconnect();
  }, 60_000);
});
