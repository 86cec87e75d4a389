/**
 * CLIENT PAUSE on the keyspace clock, SLOWLOG with slowlog-log-slower-than 0, LATENCY HISTOGRAM
 * and MEMORY DOCTOR/STATS on engine connections (texts and orders read on redis-server 7.0.15
 * and the post-7.4 build; Redis's own suites: unit/pause, unit/slowlog, unit/latency-monitor).
 */
import { createConnection, type Connection } from '../../lib/engine';
import { createFakeClock } from '../../lib/clock/fake-clock';
import { CommandError } from '../../lib/errors';
import { MapReply, VerbatimReply, type Reply } from '../../lib/reply/reply';

let port = 46_800;
const conns: Connection[] = [];
const open = (options: Parameters<typeof createConnection>[0] = {}): Connection => {
  const c = createConnection({ port, ...options });
  conns.push(c);
  return c;
};
afterEach(() => {
  for (const c of conns.splice(0)) c.close();
  port++;
});
const settled = async (p: Promise<unknown>) => {
  let done = false;
  p.then(() => (done = true), () => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('CLIENT PAUSE', () => {
  it('WRITE holds writes (blocked) until the timeout on the keyspace clock; reads run', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const a = open({ streams: { clock } });
    const b = open();
    expect(await a.execute(['CLIENT', 'PAUSE', '5000', 'WRITE'])).toEqual(expect.objectContaining({ value: 'OK' }));
    expect(await b.execute(['GET', 'k'])).toBeNull();
    const write = b.execute(['SET', 'k', 'v']);
    expect(await settled(write)).toBe(false);
    expect(b.blocked).toBe(true);
    expect(String((await a.execute(['INFO', 'clients']) as VerbatimReply).text)).toContain('\r\nblocked_clients:1\r\n');
    await clock.tickAsync(4999);
    expect(await settled(write)).toBe(false);
    await clock.tickAsync(1);
    expect(await write).toEqual(expect.objectContaining({ value: 'OK' }));
    expect(b.blocked).toBe(false);
  });

  it('ALL holds every command, CLIENT UNPAUSE included; UNPAUSE under WRITE releases the waiting commands in order', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const a = open({ streams: { clock } });
    const b = open();
    await a.execute(['CLIENT', 'PAUSE', '100', 'ALL']);
    const unpause = a.execute(['CLIENT', 'UNPAUSE']);
    const read = b.execute(['PING']);
    expect(await settled(unpause)).toBe(false);
    expect(await settled(read)).toBe(false);
    await clock.tickAsync(100);
    await unpause;
    await read;
    await a.execute(['CLIENT', 'PAUSE', '100000', 'WRITE']);
    const order: string[] = [];
    const w1 = b.execute(['RPUSH', 'l', '1']).then(() => order.push('b'));
    const c = open();
    const w2 = c.execute(['RPUSH', 'l', '2']).then(() => order.push('c'));
    expect(await a.execute(['CLIENT', 'UNPAUSE'])).toEqual(expect.objectContaining({ value: 'OK' }));
    await Promise.all([w1, w2]);
    expect(order).toEqual(['b', 'c']);
    expect(await a.execute(['LRANGE', 'l', '0', '-1'])).toEqual(['1', '2']);
  });

  it('errors as the versions word them; a wrong arity is answered at once during a pause', async () => {
    const a = open({ streams: { redisVersion: '7.0' } });
    const b = open({ port: port + 1000 });
    const err = (c: Connection, ...argv: string[]) => c.execute(argv).then(() => 'no error', (e: CommandError) => e.message);
    expect(await err(a, 'CLIENT', 'PAUSE', 'x', 'foo')).toBe('ERR CLIENT PAUSE mode must be WRITE or ALL');
    expect(await err(a, 'CLIENT', 'PAUSE', '10', 'write', 'z')).toBe("ERR unknown subcommand or wrong number of arguments for 'PAUSE'. Try CLIENT HELP.");
    expect(await err(a, 'CLIENT', 'PAUSE', '-1')).toBe('ERR timeout is negative');
    expect(await err(a, 'CLIENT', 'PAUSE', '9223372036854775807', 'WRITE')).toBe('no error'); // 7.0.15: wraps, no pause
    expect(await err(b, 'CLIENT', 'PAUSE', '9223372036854775807', 'WRITE')).toBe('ERR timeout is out of range');
    await a.execute(['CLIENT', 'PAUSE', '100000', 'WRITE']);
    expect(await err(a, 'SET', 'k')).toBe("ERR wrong number of arguments for 'set' command");
    await a.execute(['CLIENT', 'UNPAUSE']);
  });
});

describe('SLOWLOG and LATENCY HISTOGRAM', () => {
  it('slowlog-log-slower-than 0 logs every command that ran (SLOWLOG itself too), newest first, trimmed to slowlog-max-len; EXEC itself is not logged', async () => {
    const a = open({ name: 'me' });
    await a.execute(['CONFIG', 'SET', 'slowlog-log-slower-than', '0', 'slowlog-max-len', '3']);
    await a.execute(['SLOWLOG', 'RESET']);
    await a.execute(['SET', 'k', 'v']);
    await a.execute(['MULTI']);
    await a.execute(['INCR', 'n']);
    await a.execute(['EXEC']);
    await a.execute(['SADD', 's', ...Array.from({ length: 40 }, (_, i) => String(i))]);
    expect(await a.execute(['SLOWLOG', 'LEN'])).toBe(3);
    const entries = (await a.execute(['SLOWLOG', 'GET', '-1'])) as Reply[][];
    // SLOWLOG LEN ran too: the newest entry
    expect(entries.map((e) => e[3])).toEqual([
      ['SLOWLOG', 'LEN'],
      ['SADD', 's', ...Array.from({ length: 29 }, (_, i) => String(i)), '... (11 more arguments)'],
      ['INCR', 'n'],
    ]);
    expect(entries[1][5]).toBe('me');
    expect(entries[1][0]).toBe((entries[2][0] as number) + 1);
    await a.execute(['CONFIG', 'SET', 'slowlog-log-slower-than', '-1']);
    await a.execute(['SLOWLOG', 'RESET']);
    await a.execute(['PING']);
    expect(await a.execute(['SLOWLOG', 'LEN'])).toBe(0);
    await a.execute(['CONFIG', 'SET', 'slowlog-log-slower-than', '10000', 'slowlog-max-len', '128']);
  });

  it('LATENCY HISTOGRAM counts the calls since CONFIG RESETSTAT; a container names its subcommands; unknown names are skipped', async () => {
    const a = open();
    await a.execute(['CONFIG', 'RESETSTAT']);
    await a.execute(['SET', 'a', 'b']);
    await a.execute(['SET', 'c', 'd']);
    await a.execute(['CLIENT', 'ID']);
    const h = (await a.execute(['LATENCY', 'HISTOGRAM', 'set', 'client', 'blabla'])) as MapReply;
    expect(h.items).toEqual([
      'set', new MapReply(['calls', 2, 'histogram_usec', new MapReply([1, 2])]),
      'client|id', new MapReply(['calls', 1, 'histogram_usec', new MapReply([1, 1])]),
    ]);
  });
});

describe('MEMORY DOCTOR and STATS', () => {
  it('a small instance gets the "empty" doctor text; STATS lists a db.N per database holding keys', async () => {
    const a = open();
    expect(((await a.execute(['MEMORY', 'DOCTOR'])) as VerbatimReply).text).toMatch(/^Hi Sam, this instance is empty or is using very little memory/);
    await a.execute(['SET', 'k', 'v']);
    await a.execute(['SELECT', '3']);
    await a.execute(['SET', 'k', 'v']);
    const stats = (await a.execute(['MEMORY', 'STATS'])) as MapReply;
    const keys = stats.items.filter((_, i) => i % 2 === 0);
    expect(keys.slice(0, 12)).toEqual(['peak.allocated', 'total.allocated', 'startup.allocated', 'replication.backlog', 'clients.slaves', 'clients.normal', 'cluster.links', 'aof.buffer', 'lua.caches', 'functions.caches', 'db.0', 'db.3']);
    expect(stats.items[stats.items.indexOf('keys.count') + 1]).toBe(2);
    expect(await a.execute(['MEMORY', 'MALLOC-STATS'])).toBe('Stats not supported for the current allocator');
  });
});

describe('LATENCY DOCTOR', () => {
  it('says monitoring is disabled while latency-monitor-threshold is 0, and that no spike was observed once it is set', async () => {
    const a = open();
    expect(((await a.execute(['LATENCY', 'DOCTOR'])) as VerbatimReply).text).toMatch(/^I'm sorry, Dave, I can't do that\. Latency monitoring is disabled/);
    await a.execute(['CONFIG', 'SET', 'latency-monitor-threshold', '100']);
    // latency.c: the "disabled" text only with no events and a threshold of 0 (7.0.15 and the post-7.4 build alike)
    expect(((await a.execute(['LATENCY', 'DOCTOR'])) as VerbatimReply).text).toBe(
      'Dave, no latency spike was observed during the lifetime of this Redis instance, not in the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think things over.\n',
    );
    await a.execute(['CONFIG', 'SET', 'latency-monitor-threshold', '0']);
    expect(((await a.execute(['LATENCY', 'DOCTOR'])) as VerbatimReply).text).toMatch(/^I'm sorry, Dave/);
  });
});

describe('CLIENT REPLY', () => {
  it('ON right after SKIP answers OK (ON clears the skip, as networking.c does; checked on 7.0.15)', async () => {
    const a = open();
    expect(await a.execute(['CLIENT', 'REPLY', 'SKIP'])).toEqual(expect.objectContaining({ items: [] }));
    expect(await a.execute(['CLIENT', 'REPLY', 'ON'])).toEqual(expect.objectContaining({ value: 'OK' }));
    expect(await a.execute(['PING'])).toEqual(expect.objectContaining({ value: 'PONG' }));
  });
});
