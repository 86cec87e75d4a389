/**
 * A key or hash field is kept during the millisecond of its deadline, and expires only once the
 * clock is past it (db.c keyIsExpired `now > when`; expire.c activeExpireCycleTryExpire
 * `now > t`; t_hash.c hashTypeIsExpired / hfieldIsExpired `expireAt < now`): at now == deadline
 * PTTL answers 0 and GET still returns the value; 1 ms later the key is gone, and the active
 * expiry publishes `expired` / `hexpired` then, not before.
 *
 * The quirk kept: HTTL / HPTTL / HEXPIRETIME / HPEXPIRETIME of a field of a listpack hash answer
 * -2 when `expire <= now` (t_hash.c httlGenericCommand, listpackex path), so at the deadline ms
 * HPTTL says -2 while HGET returns the value; the hash table path tests `expire < now` (HPTTL 0).
 * Seen on 7.0.15 and the post-7.4 build by polling MULTI PTTL/GET (HPTTL/HGET) EXEC after
 * SET k v PX 5 (HPEXPIRE 5): `0 v` (`[-2] v` listpackex, `[0] v` hashtable) before `-2 nil`.
 *
 * Unchanged: an expire time already due when it is set (<= now) deletes at once
 * (checkAlreadyExpired `when <= now`); SET … PXAT now does not check, and its key lives through
 * that millisecond too.
 *
 * Found by a replay of Bull's suite on a manual clock: its locks and stalled-check keys (SET … PX)
 * meet the boundary, and the fake answered -2 where redis-server answered PTTL 0 (it expired keys
 * at now >= when). At the deadline ms the key is there for every reader: GET, EXISTS, RANDOMKEY,
 * WATCH (not broken), a Lua script's SET NX (fails).
 */
import { createFakeClock } from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine';
import { toResp2Plain, type Reply } from '../../lib/reply/reply';
import { engineConnections, keyevents } from '../helpers/engine-connections';
import { connectReal, describeOnRealServers, type AnyClient } from '../helpers/real-server';

const engine = engineConnections(58_400);
const turn = () => new Promise((resolve) => setImmediate(resolve));
const START = Date.UTC(2024, 0, 1);

function plain(r: Reply): unknown {
  return toResp2Plain(r);
}

async function run(c: Connection, ...argv: string[]): Promise<unknown> {
  return plain(await c.execute(argv));
}

/** A connection subscribed to every keyevent (helpers' keyevents: `event key`). */
async function subscriber(opts: Parameters<typeof engine.conn>[0]): Promise<{ conn: Connection; events: string[] }> {
  const conn = engine.conn(opts);
  return { conn, events: await keyevents(conn) };
}

async function setup(): Promise<{ clock: ReturnType<typeof createFakeClock>; c: Connection; events: string[] }> {
  const clock = createFakeClock({ now: START });
  const c = engine.conn({ streams: { clock } });
  await c.execute(['CONFIG', 'SET', 'notify-keyspace-events', 'KEA']);
  const sub = await subscriber({ streams: { clock } });
  return { clock, c, events: sub.events };
}

describe('a key is kept during the ms of its deadline and expires once the clock is past it', () => {
  it('SET k v PX 3: at the deadline PTTL is 0 and GET returns v; 1 ms later GET is nil and expired is published then', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'SET', 'k', 'v', 'PX', '3');
    await turn();
    events.length = 0;
    clock.tick(3);
    await turn();
    expect(events).toEqual([]); // no active expiry at the deadline
    expect(await run(c, 'PTTL', 'k')).toBe(0);
    expect(await run(c, 'TTL', 'k')).toBe(0);
    expect(await run(c, 'GET', 'k')).toBe('v');
    expect(await run(c, 'EXISTS', 'k')).toBe(1);
    expect(await run(c, 'DBSIZE')).toBe(1);
    await turn();
    expect(events).toEqual([]);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['expired k']); // the active expiry, before any command
    expect(await run(c, 'GET', 'k')).toBeNull();
    expect(await run(c, 'PTTL', 'k')).toBe(-2);
    expect(events).toEqual(['expired k']);
  });

  it('at the deadline EXISTS is 1 and a WATCH of the key is not broken (EXEC runs); 1 ms later both keys expire, in order', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'SET', 'k', 'v', 'PX', '100');
    await run(c, 'SET', 'w', 'v', 'PX', '100');
    await turn();
    events.length = 0;
    clock.tick(100);
    await turn();
    expect(events).toEqual([]);
    expect(await run(c, 'EXISTS', 'k')).toBe(1);
    expect(await run(c, 'GET', 'k')).toBe('v');
    expect(await run(c, 'PTTL', 'k')).toBe(0);
    expect(await run(c, 'TTL', 'k')).toBe(0);
    expect(await run(c, 'DBSIZE')).toBe(2);
    expect(await run(c, 'WATCH', 'w')).toBe('OK');
    await c.execute(['MULTI']);
    await c.execute(['PING']);
    expect(await run(c, 'EXEC')).toEqual(['PONG']);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['expired k', 'expired w']);
    expect(await run(c, 'EXISTS', 'k')).toBe(0);
    expect(await run(c, 'PTTL', 'k')).toBe(-2);
  });

  it('a Lua script run at the deadline ms sees the key alive (a lock: SET NX fails); 1 ms later SET NX succeeds', async () => {
    const { clock, c } = await setup();
    await run(c, 'SET', 'lock', 'token', 'PX', '30');
    clock.tick(30);
    const script = "return redis.call('SET', KEYS[1], 'other', 'NX', 'PX', 30) and 1 or 0";
    expect(await run(c, 'EVAL', script, '1', 'lock')).toBe(0);
    clock.tick(1);
    expect(await run(c, 'EVAL', script, '1', 'lock')).toBe(1);
  });

  it('the active expiry takes keys only once the clock is past their deadline, each 1 ms after it', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'SET', 'a', 'v', 'PX', '10');
    await run(c, 'SET', 'b', 'v', 'PX', '20');
    await run(c, 'SET', 'stay', 'v');
    await turn();
    events.length = 0;
    clock.tick(10);
    await turn();
    expect(events).toEqual([]);
    expect(await run(c, 'DBSIZE')).toBe(3);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['expired a']);
    clock.tick(9); // b's deadline
    await turn();
    expect(events).toEqual(['expired a']);
    expect(await run(c, 'KEYS', '*')).toEqual(expect.arrayContaining(['b', 'stay']));
    clock.tick(1);
    await turn();
    expect(events).toEqual(['expired a', 'expired b']);
    expect(await run(c, 'KEYS', '*')).toEqual(['stay']);
  });

  it('a clock jump to the deadline expires nothing before the next command; a jump past it does', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'SET', 'k', 'v', 'PX', '50');
    await turn();
    events.length = 0;
    clock.setSystemTime(START + 50);
    expect(await run(c, 'EXISTS', 'k')).toBe(1);
    expect(await run(c, 'GET', 'k')).toBe('v');
    expect(await run(c, 'RANDOMKEY')).toBe('k');
    await turn();
    expect(events).toEqual([]);
    clock.setSystemTime(START + 51);
    expect(await run(c, 'RANDOMKEY')).toBeNull();
    expect(await run(c, 'EXISTS', 'k')).toBe(0);
    await turn();
    expect(events).toEqual(['expired k']);
  });

  it('an expire time already due when set (<= now) still deletes the key at once (EXPIRE family, GETEX)', async () => {
    const { c } = await setup();
    const now = START;
    await run(c, 'SET', 'k', 'v');
    expect(await run(c, 'PEXPIREAT', 'k', String(now))).toBe(1);
    expect(await run(c, 'EXISTS', 'k')).toBe(0);
    await run(c, 'SET', 'k', 'v');
    expect(await run(c, 'GETEX', 'k', 'PXAT', String(now))).toBe('v');
    expect(await run(c, 'EXISTS', 'k')).toBe(0);
  });

  it('SET PXAT now is no checkAlreadyExpired case (setGenericCommand only sets the TTL): the key is kept for that ms', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'SET', 'k', 'v', 'PXAT', String(START));
    expect(await run(c, 'GET', 'k')).toBe('v');
    expect(await run(c, 'PTTL', 'k')).toBe(0);
    await turn();
    events.length = 0;
    clock.tick(1);
    await turn();
    expect(events).toEqual(['expired k']);
  });
});

describe('a hash field is kept during the ms of its deadline and expires once the clock is past it', () => {
  it('HPEXPIRE 3 on a listpack hash: at the deadline HGET returns the value while HPTTL says -2; 1 ms later the field is gone and hexpired is published then', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'HSET', 'h', 'f', 'v', 'g', 'w');
    expect(await run(c, 'HPEXPIRE', 'h', '3', 'FIELDS', '1', 'f')).toEqual([1]);
    expect(await run(c, 'OBJECT', 'ENCODING', 'h')).toBe('listpackex');
    await turn();
    events.length = 0;
    clock.tick(3);
    await turn();
    expect(events).toEqual([]);
    expect(await run(c, 'HGET', 'h', 'f')).toBe('v');
    expect(await run(c, 'HPTTL', 'h', 'FIELDS', '1', 'f')).toEqual([-2]);
    expect(await run(c, 'HTTL', 'h', 'FIELDS', '1', 'f')).toEqual([-2]);
    expect(await run(c, 'HPEXPIRETIME', 'h', 'FIELDS', '1', 'f')).toEqual([-2]);
    expect(await run(c, 'HLEN', 'h')).toBe(2);
    expect(await run(c, 'HGETALL', 'h')).toEqual(['f', 'v', 'g', 'w']);
    await turn();
    expect(events).toEqual([]);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['hexpired h']);
    expect(await run(c, 'HGET', 'h', 'f')).toBeNull();
    expect(await run(c, 'HPTTL', 'h', 'FIELDS', '1', 'f')).toEqual([-2]);
    expect(await run(c, 'HGETALL', 'h')).toEqual(['g', 'w']);
  });

  it('HPEXPIRE 3 on a hash table: at the deadline HGET returns the value and HPTTL says 0 (httlGenericCommand tests expire < now there)', async () => {
    const { clock, c, events } = await setup();
    const long = 'x'.repeat(100);
    await run(c, 'HSET', 'h', 'f', 'v', 'g', long);
    expect(await run(c, 'HPEXPIRE', 'h', '3', 'FIELDS', '1', 'f')).toEqual([1]);
    expect(await run(c, 'OBJECT', 'ENCODING', 'h')).toBe('hashtable');
    await turn();
    events.length = 0;
    clock.tick(3);
    await turn();
    expect(await run(c, 'HGET', 'h', 'f')).toBe('v');
    expect(await run(c, 'HPTTL', 'h', 'FIELDS', '1', 'f')).toEqual([0]);
    expect(await run(c, 'HTTL', 'h', 'FIELDS', '1', 'f')).toEqual([0]);
    expect(await run(c, 'HPEXPIRETIME', 'h', 'FIELDS', '1', 'f')).toEqual([START + 3]);
    await turn();
    expect(events).toEqual([]);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['hexpired h']);
    expect(await run(c, 'HGET', 'h', 'f')).toBeNull();
  });

  it('the last field going 1 ms after its deadline takes the key with it (hexpired, then del)', async () => {
    const { clock, c, events } = await setup();
    await run(c, 'HSET', 'h', 'f', 'v');
    await run(c, 'HPEXPIRE', 'h', '5', 'FIELDS', '1', 'f');
    await turn();
    events.length = 0;
    clock.tick(5);
    await turn();
    expect(await run(c, 'EXISTS', 'h')).toBe(1);
    expect(events).toEqual([]);
    clock.tick(1);
    await turn();
    expect(events).toEqual(['hexpired h', 'del h']);
    expect(await run(c, 'EXISTS', 'h')).toBe(0);
  });

  it('an expire time already due when set (<= now) still deletes the field at once', async () => {
    const { c } = await setup();
    await run(c, 'HSET', 'h', 'f', 'v', 'g', 'w');
    expect(await run(c, 'HPEXPIREAT', 'h', String(START), 'FIELDS', '1', 'f')).toEqual([2]);
    expect(await run(c, 'HEXISTS', 'h', 'f')).toBe(0);
  });
});

/**
 * On a real server (whose clock no test controls): poll `MULTI; <ttl>; <get>; EXEC` in a tight
 * loop after giving a 5 ms TTL, until the value is gone. Every pair seen must be one the fake
 * gives at some ms (before, at, or past the deadline), and the deadline-ms pair (TTL 0 or -2 with
 * the value still there) must show up in some trial.
 */
// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('the deadline ms of a key and of a hash field', (server) => {
  const DB = 13;
  const tag = `deadline:${process.pid}`;

  async function poll(real: AnyClient, setup: string[][], ttl: string[], get: string[]): Promise<Set<string>> {
    const seen = new Set<string>();
    for (let trial = 0; trial < 20; trial++) {
      await real.call('DEL', setup[0][1]);
      for (const argv of setup) await real.call(argv[0], ...argv.slice(1));
      for (;;) {
        const [[, t], [, v]] = (await real.multi().call(ttl[0], ...ttl.slice(1)).call(get[0], ...get.slice(1)).exec()) as [unknown, unknown][];
        const tt = Array.isArray(t) ? t[0] : t;
        seen.add(`${Number(tt) > 0 ? '+' : String(tt)} ${String(v)}`);
        if (v === null) break;
      }
      if ([...seen].some((x) => /^(0|-2) v$/.test(x))) break;
    }
    return seen;
  }

  async function fakeAt(setup: string[][], ttl: string[], get: string[]): Promise<Set<string>> {
    const clock = createFakeClock({ now: START });
    const c = engine.conn({ streams: { clock, redisVersion: server.version === '7.0' ? '7.0' : '8.0' } });
    const seen = new Set<string>();
    for (const argv of setup) await c.execute(argv);
    for (let ms = 0; ms <= 6; ms++) {
      const t = await run(c, ...ttl);
      const v = await run(c, ...get);
      const tt = Array.isArray(t) ? t[0] : t;
      seen.add(`${Number(tt) > 0 ? '+' : String(tt)} ${String(v)}`);
      clock.tick(1);
    }
    return seen;
  }

  const cases: [string, string[][], string[], string[]][] = [
    ['a key (PTTL 0 and GET v at the deadline ms)', [['SET', `${tag}:k`, 'v', 'PX', '5']], ['PTTL', `${tag}:k`], ['GET', `${tag}:k`]],
  ];
  if (server.version !== '7.0') {
    cases.push(
      [
        'a field of a listpack hash (HPTTL -2 and HGET v at the deadline ms)',
        [['HSET', `${tag}:h`, 'f', 'v', 'g', 'w'], ['HPEXPIRE', `${tag}:h`, '5', 'FIELDS', '1', 'f']],
        ['HPTTL', `${tag}:h`, 'FIELDS', '1', 'f'],
        ['HGET', `${tag}:h`, 'f'],
      ],
      [
        'a field of a hash table (HPTTL 0 and HGET v at the deadline ms)',
        [['HSET', `${tag}:h`, 'f', 'v', 'g', 'x'.repeat(100)], ['HPEXPIRE', `${tag}:h`, '5', 'FIELDS', '1', 'f']],
        ['HPTTL', `${tag}:h`, 'FIELDS', '1', 'f'],
        ['HGET', `${tag}:h`, 'f'],
      ],
    );
  }

  it.each(cases)('%s', async (_name, setup, ttl, get) => {
    const real = await connectReal(server.url, DB, {}, false);
    try {
      const realSeen = await poll(real, setup, ttl, get);
      const fakeSeen = await fakeAt(setup, ttl, get);
      // Every pair the server showed is one the fake gives at some ms; a loaded machine can
      // miss the "+ v" pairs (the first poll already past the 5 ms), so the sets need not be equal.
      for (const pair of realSeen) expect([...fakeSeen]).toContain(pair);
      expect([...realSeen].some((x) => /^(0|-2) v$/.test(x))).toBe(true);
      expect([...fakeSeen].filter((x) => /^(0|-2) v$/.test(x))).toEqual([...realSeen].filter((x) => /^(0|-2) v$/.test(x)));
    } finally {
      await real.call('DEL', `${tag}:k`, `${tag}:h`);
      real.disconnect();
    }
  });
});
