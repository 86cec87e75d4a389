/**
 * The keyspace machinery behind the generic key commands, through fake ioredis clients and
 * engine connections: active expiry on the keyspace clock (the `expired` event without any
 * command touching the key), CONFIG SET notify-keyspace-events for every connection of a server,
 * SCAN's guarantee over deletions, and OBJECT IDLETIME on the keyspace clock.
 */
import Redis, { createFakeClock } from 'ioredis-mock-streams';
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';

type Client = InstanceType<typeof Redis>;
let port = 47_300;
const clients: Client[] = [];
const make = (opts: Record<string, unknown> = {}): Client => {
  const r = new Redis({ port, ...opts } as never);
  clients.push(r);
  return r;
};
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
  port++;
});
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('active expiry', () => {
  it('deletes a key when its TTL passes on the fake clock and publishes expired, with nobody touching it', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const redis = make({ streams: { clock } });
    const sub = make({ streams: { clock } });
    const seen: [string, string][] = [];
    sub.on('pmessage', (_p: string, channel: string, message: string) => seen.push([channel, message]));
    await redis.config('SET', 'notify-keyspace-events', 'Ex');
    await sub.psubscribe('__keyevent@0__:*');
    await redis.set('session', 'v');
    await redis.pexpire('session', 1500);
    await redis.set('other', 'v');
    await redis.expire('other', 10);
    clock.tick(1500); // the deadline ms: kept (db.c keyIsExpired now > when)
    await turn();
    expect(seen).toEqual([]);
    expect(await redis.dbsize()).toBe(2);
    clock.tick(1);
    await turn();
    expect(seen).toEqual([['__keyevent@0__:expired', 'session']]);
    expect(await redis.dbsize()).toBe(1);
    clock.tick(8500);
    await turn();
    expect(seen).toEqual([
      ['__keyevent@0__:expired', 'session'],
      ['__keyevent@0__:expired', 'other'],
    ]);
    expect(await redis.dbsize()).toBe(0);
  });

  it('removes hash fields when their TTL passes on the fake clock (hexpired, then del with the last one), with nobody touching the hash', async () => {
    // t_hash.c hashTypeDbActiveExpire: EXISTS/DBSIZE see the hash go without a hash command (the
    // suite's COPY/RENAME/SWAPDB/RESTORE tests of unit/type/hash-field-expire wait for exactly this)
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const redis = make({ streams: { clock } });
    const sub = make({ streams: { clock } });
    const seen: [string, string][] = [];
    sub.on('pmessage', (_p: string, channel: string, message: string) => seen.push([channel, message]));
    await redis.config('SET', 'notify-keyspace-events', 'KEA');
    await sub.psubscribe('__keyevent@0__:*');
    await redis.hset('h', 'a', '1', 'b', '2');
    await redis.call('HPEXPIRE', 'h', '100', 'FIELDS', '1', 'a');
    await redis.call('HPEXPIRE', 'h', '300', 'FIELDS', '1', 'b');
    await redis.hset('other', 'x', '1');
    await redis.call('HPEXPIRE', 'other', '200', 'FIELDS', '1', 'x');
    await redis.copy('h', 'h2');
    await turn();
    seen.length = 0;
    clock.tick(100); // the deadline ms: kept (t_hash.c hashTypeIsExpired expireAt < now)
    await turn();
    expect(seen).toEqual([]);
    clock.tick(1);
    await turn();
    expect(seen).toEqual([
      ['__keyevent@0__:hexpired', 'h'],
      ['__keyevent@0__:hexpired', 'h2'],
    ]);
    clock.tick(100);
    await turn();
    expect(await redis.exists('other')).toBe(0);
    clock.tick(100);
    await turn();
    expect(seen.slice(2, 4)).toEqual([
      ['__keyevent@0__:hexpired', 'other'],
      ['__keyevent@0__:del', 'other'],
    ]);
    // h and h2 both at +300 ms: each its hexpired then its del (the two hashes in either order)
    const byKey = (k: string) => seen.slice(4).filter(([, key]) => key === k);
    expect(seen).toHaveLength(8);
    expect(byKey('h')).toEqual([
      ['__keyevent@0__:hexpired', 'h'],
      ['__keyevent@0__:del', 'h'],
    ]);
    expect(byKey('h2')).toEqual([
      ['__keyevent@0__:hexpired', 'h2'],
      ['__keyevent@0__:del', 'h2'],
    ]);
    expect(await redis.dbsize()).toBe(0);
  });

  it('follows hash fields through RENAME and SWAPDB, and forgets persisted ones', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const redis = make({ streams: { clock } });
    await redis.hset('h', 'a', '1');
    await redis.call('HPEXPIRE', 'h', '100', 'FIELDS', '1', 'a');
    await redis.rename('h', 'renamed');
    await redis.hset('kept', 'a', '1', 'b', '2');
    await redis.call('HPEXPIRE', 'kept', '100', 'FIELDS', '2', 'a', 'b');
    await redis.call('HPERSIST', 'kept', 'FIELDS', '1', 'b');
    await redis.hset('swapped', 'a', '1');
    await redis.call('HPEXPIRE', 'swapped', '100', 'FIELDS', '1', 'a');
    await redis.swapdb(0, 1);
    clock.tick(101); // past the fields' deadline
    await turn();
    expect(await redis.dbsize()).toBe(0);
    await redis.select(1);
    expect((await redis.keys('*')).sort()).toEqual(['kept']);
    expect(await redis.hgetall('kept')).toEqual({ b: '2' });
  });

  it('publishes expired once when a command finds the key expired first, and follows TTL changes', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const redis = make({ streams: { clock }, notifyKeyspaceEvents: 'KEgx' });
    const sub = make({ streams: { clock } });
    const seen: [string, string][] = [];
    sub.on('pmessage', (_p: string, channel: string, message: string) => seen.push([channel, message]));
    await sub.psubscribe('__key*@0__:*');
    await redis.set('k', 'v');
    await redis.pexpire('k', 100);
    await redis.pexpire('k', 5000); // the later TTL replaces the earlier one
    await redis.persist('k');
    clock.tick(6000);
    await turn();
    expect(await redis.exists('k')).toBe(1);
    await redis.pexpire('k', 10);
    clock.setSystemTime(clock.now() + 11); // time jumps past the deadline: no timer fired yet
    expect(await redis.get('k')).toBeNull();
    clock.tick(0);
    await turn();
    expect(seen.filter(([, m]) => m === 'expired')).toEqual([['__keyspace@0__:k', 'expired']]);
    expect(seen.filter(([c]) => c === '__keyevent@0__:expired')).toEqual([['__keyevent@0__:expired', 'k']]);
    expect(seen.map(([c, m]) => (c.startsWith('__keyspace') ? m : `E:${c.split(':')[1]}`))).toEqual([
      'expire', 'E:expire', 'expire', 'E:expire', 'persist', 'E:persist', 'expire', 'E:expire', 'expired', 'E:expired',
    ]);
  });

  it('publishes the __keyspace channel of a non-UTF-8 key with the key bytes, for a command and for an expiry (as the post-7.4 build)', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const redis = make({ streams: { clock } });
    const sub = make({ streams: { clock } });
    await redis.config('SET', 'notify-keyspace-events', 'KEA');
    const seen: string[] = [];
    sub.on('pmessageBuffer', (_p: Buffer, channel: Buffer, message: Buffer) => seen.push(`${channel.toString('hex')} ${message.toString('hex')}`));
    await sub.psubscribe('__key*@0__:*');
    const key = Buffer.from([0x6b, 0xff, 0x00, 0xfe]);
    await redis.set(key, 'v', 'PX', 10);
    clock.tick(11); // past the deadline
    await turn();
    const hex = (s: string) => Buffer.from(s).toString('hex');
    expect(seen).toEqual([
      `${hex('__keyspace@0__:')}6bff00fe ${hex('set')}`,
      `${hex('__keyevent@0__:set')} 6bff00fe`,
      `${hex('__keyspace@0__:')}6bff00fe ${hex('expire')}`, // SET … PX (t_string.c setGenericCommand)
      `${hex('__keyevent@0__:expire')} 6bff00fe`,
      `${hex('__keyspace@0__:')}6bff00fe ${hex('expired')}`,
      `${hex('__keyevent@0__:expired')} 6bff00fe`,
    ]);
  });

  it('leaves no timer behind: a keyspace reset cancels it, a real-clock timer does not hold the process', async () => {
    const clock = createFakeClock({ now: 1_000 });
    const redis = make({ streams: { clock } });
    await redis.set('k', 'v');
    await redis.expire('k', 100);
    expect(clock.countTimers()).toBe(1);
    await redis.flushall();
    expect(clock.countTimers()).toBe(0);
    const real = make();
    await real.set('k', 'v');
    await real.expire('k', 3600); // an unref'd real timer: jest exits all the same
    expect(await real.ttl('k')).toBe(3600);
  });
});

describe('CONFIG SET notify-keyspace-events', () => {
  it('switches generic events on and off for every connection of the server, whatever their option', async () => {
    const a = make();
    const b = make({ notifyKeyspaceEvents: 'KEA' });
    const sub = make();
    const seen: string[] = [];
    sub.on('pmessage', (_p: string, channel: string, message: string) => seen.push(`${channel} ${message}`));
    await sub.psubscribe('__key*__:*');
    await a.set('x', '1');
    await a.del('x');
    expect(seen).toEqual([]);
    await a.config('SET', 'notify-keyspace-events', 'Eg');
    await a.set('x', '1');
    await a.rename('x', 'y');
    await b.del('y');
    await a.config('SET', 'notify-keyspace-events', '');
    await b.set('z', '1');
    await b.del('z');
    await turn();
    expect(seen).toEqual(['__keyevent@0__:rename_from x', '__keyevent@0__:rename_to y', '__keyevent@0__:del y']);
  });

  it('sends move_from and move_to on their own databases', async () => {
    const a = make();
    const sub = make();
    const seen: string[] = [];
    sub.on('pmessage', (_p: string, channel: string, message: string) => seen.push(`${channel} ${message}`));
    await sub.psubscribe('__keyevent*');
    await a.config('SET', 'notify-keyspace-events', 'Egn');
    // SET of a new key sends new (dbAdd), as redis-server does with n in the flags
    await a.set('k', 'v');
    expect(await a.move('k', 3)).toBe(1);
    await turn();
    expect(seen).toEqual(['__keyevent@0__:new k', '__keyevent@3__:new k', '__keyevent@0__:move_from k', '__keyevent@3__:move_to k']);
  });
});

describe('SCAN over the key index', () => {
  it('returns every key present for the whole iteration once, across deletions, compactions and insertions', async () => {
    const conn = createConnection({ port: port++ });
    const run = async (...argv: string[]) => toResp2Plain(await conn.execute(argv));
    for (let i = 0; i < 1000; i++) await run('SET', `k${i}`, 'v');
    const kept = new Set<string>();
    for (let i = 0; i < 1000; i += 3) kept.add(`k${i}`);
    const seen: string[] = [];
    let cursor = '0';
    let round = 0;
    do {
      const [next, keys] = (await run('SCAN', cursor, 'COUNT', '37')) as [string, string[]];
      seen.push(...keys);
      cursor = next;
      // delete the keys not kept, a few per step (holes, then compactions), and add new ones
      for (let j = 0; j < 40; j++) {
        const victim = round * 40 + j;
        if (victim < 1000 && victim % 3 !== 0) await run('DEL', `k${victim}`);
      }
      await run('SET', `new${round}`, 'v');
      round++;
    } while (cursor !== '0');
    for (const k of kept) expect(seen.filter((s) => s === k)).toHaveLength(1);
    expect(new Set(seen).size).toBe(seen.length);
    conn.close();
  });

  it('keeps KEYS, SCAN, DBSIZE, RANDOMKEY, TTLs and OBJECT answers right while keys are set and deleted over and over', async () => {
    const conn = createConnection({ port: port++ });
    const run = async (...argv: string[]) => toResp2Plain(await conn.execute(argv));
    for (let i = 0; i < 300; i++) await run('SET', `k${i}`, 'v', 'EX', '1000');
    // one key set and deleted many times (tombstones revived), then most keys deleted (tables rebuilt)
    for (let i = 0; i < 500; i++) {
      await run('SET', 'lock', String(i), 'EX', '100');
      await run('DEL', 'lock');
    }
    for (let i = 0; i < 300; i++) if (i % 10 !== 0) await run('DEL', `k${i}`);
    await run('SET', 'lock', 'last', 'PX', '5000');
    const live = [...Array.from({ length: 30 }, (_, i) => `k${i * 10}`), 'lock'].sort();
    expect(((await run('KEYS', '*')) as string[]).sort()).toEqual(live);
    expect(await run('DBSIZE')).toBe(31);
    const scanned: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = (await run('SCAN', cursor, 'COUNT', '7')) as [string, string[]];
      scanned.push(...keys);
      cursor = next;
    } while (cursor !== '0');
    expect(scanned.sort()).toEqual(live);
    for (let i = 0; i < 20; i++) expect(live).toContain(await run('RANDOMKEY'));
    expect(await run('GET', 'lock')).toBe('last');
    expect(Number(await run('PTTL', 'lock'))).toBeGreaterThan(4000);
    expect(await run('TTL', 'k10')).toBe(1000);
    expect(await run('TTL', 'k11')).toBe(-2);
    expect(await run('OBJECT', 'ENCODING', 'lock')).toBe('embstr');
    expect(await run('PERSIST', 'k20')).toBe(1);
    expect(await run('TTL', 'k20')).toBe(-1);
    conn.close();
  });
});

describe('OBJECT IDLETIME', () => {
  it('counts seconds on the keyspace clock since the last read or write', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const redis = make({ streams: { clock } });
    await redis.set('k', 'v');
    clock.tick(5000);
    expect(await redis.object('IDLETIME', 'k')).toBe(5);
    expect(await redis.type('k')).toBe('string'); // TYPE is no access
    expect(await redis.object('IDLETIME', 'k')).toBe(5);
    await redis.get('k');
    expect(await redis.object('IDLETIME', 'k')).toBe(0);
  });
});
