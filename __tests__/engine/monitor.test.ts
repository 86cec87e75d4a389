/**
 * MONITOR (replication.c replicationFeedMonitors, server.c call): the lines, as redis-server
 * 7.0.15 and the post-7.4 build print them for the same commands (checked on both with a raw
 * socket; only the client port differs): arguments as sent with sdscatrepr quoting, the db after
 * the command, secrets redacted, scripts' commands as `lua` after the script, MULTI … EXEC in
 * order, @admin commands and refused or queued commands never shown; a monitor connection may
 * not touch keys. The time is the keyspace clock's.
 */
import Redis, { createFakeClock, realClock } from 'ioredis-mock-streams';
import { Connection, NO_REPLY } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { OK, SimpleString } from '../../lib/reply/reply';
import { engineConnections } from '../helpers/engine-connections';

const engine = engineConnections(53_900);
const conn = engine.conn;
async function monitorOf(c: Connection): Promise<string[]> {
  const lines: string[] = [];
  c.onPush((m) => {
    if (m instanceof SimpleString) lines.push(m.value);
  });
  expect(await c.execute(['MONITOR'])).toBe(OK);
  return lines;
}
async function attempt(c: Connection, argv: string[]): Promise<unknown> {
  try {
    return await c.execute(argv);
  } catch (e) {
    if (e instanceof CommandError) return e.message;
    throw e;
  }
}
/** The lines without their time, the client's address as ADDR. */
const shown = (lines: string[], c: Connection): string[] => lines.map((l) => l.replace(/^\d+\.\d{6} /, '').split(c.addr).join('ADDR'));

describe('MONITOR', () => {
  it('shows every command a client ran, as redis-server prints it', async () => {
    const m = conn();
    const c = conn({ password: null });
    const lines = await monitorOf(m);
    const run: string[][] = [
      ['SET', 'foo', 'bar'], ['GET', 'foo'], ['SELECT', '5'], ['SET', 'k', 'a"b\\c\n\x01\xff'], ['SELECT', '0'], ['INCR', 'cnt'],
      ['CLIENT', 'SETNAME', 'x'], ['CLIENT', 'LIST'], ['CONFIG', 'GET', 'maxmemory'], ['AUTH', 'nope'], ['AUTH', 'u', 'p'],
      ['HELLO', '2', 'AUTH', 'u', 'p'], ['HELLO', '2'], ['MULTI'], ['SET', 'a', '1'], ['EXEC'], ['MULTI'], ['NOSUCH'], ['EXEC'],
      ['EVAL', "redis.call('set',KEYS[1],'v'); return redis.pcall('nosuch')", '1', 'kk'], ['EVAL', "return redis.call('incr','s')", '0'],
      ['EXPIRE', 'foo', '100'], ['LPUSH', 'l', 'x'], ['BLPOP', 'l', '0'], ['PING'], ['WRONGTYPE'], ['HGET', 'foo', 'x'],
    ];
    for (const argv of run) await attempt(c, argv);
    expect(shown(lines, c)).toEqual([
      '[0 ADDR] "SET" "foo" "bar"',
      '[0 ADDR] "GET" "foo"',
      '[5 ADDR] "SELECT" "5"',
      '[5 ADDR] "SET" "k" "a\\"b\\\\c\\n\\x01\\xff"',
      '[0 ADDR] "SELECT" "0"',
      '[0 ADDR] "INCR" "cnt"',
      '[0 ADDR] "CLIENT" "SETNAME" "x"',
      '[0 ADDR] "AUTH" "(redacted)"',
      '[0 ADDR] "AUTH" "(redacted)" "(redacted)"',
      '[0 ADDR] "HELLO" "2" "AUTH" "(redacted)" "(redacted)"',
      '[0 ADDR] "HELLO" "2"',
      '[0 ADDR] "MULTI"',
      '[0 ADDR] "SET" "a" "1"',
      '[0 ADDR] "EXEC"',
      '[0 ADDR] "MULTI"',
      '[0 ADDR] "EXEC"',
      '[0 ADDR] "EVAL" "redis.call(\'set\',KEYS[1],\'v\'); return redis.pcall(\'nosuch\')" "1" "kk"',
      '[0 lua] "set" "kk" "v"',
      '[0 ADDR] "EVAL" "return redis.call(\'incr\',\'s\')" "0"',
      '[0 lua] "incr" "s"',
      '[0 ADDR] "EXPIRE" "foo" "100"',
      '[0 ADDR] "LPUSH" "l" "x"',
      '[0 ADDR] "BLPOP" "l" "0"',
      '[0 ADDR] "PING"',
      '[0 ADDR] "HGET" "foo" "x"',
    ]);
  });

  it('shows a blocked command once, when it blocks', async () => {
    const m = conn();
    const c = conn();
    const w = conn();
    const lines = await monitorOf(m);
    const blocked = c.execute(['BLPOP', 'q', '0']);
    await w.execute(['LPUSH', 'q', '1']);
    expect(await blocked).toEqual(['q', '1']);
    await w.execute(['LPUSH', 'q', '2']);
    expect(lines.map((l) => l.replace(/^\S+ \[0 \S+\] /, ''))).toEqual(['"BLPOP" "q" "0"', '"LPUSH" "q" "1"', '"LPUSH" "q" "2"']);
  });

  it('stamps lines with the keyspace clock (s.µs)', async () => {
    const clock = createFakeClock({ now: 1_339_518_083_107 });
    const m = conn({ streams: { clock } });
    const lines = await monitorOf(m);
    await conn().execute(['keys', '*']);
    expect(lines).toEqual([expect.stringMatching(/^1339518083\.107000 \[0 127\.0\.0\.1:\d+\] "keys" "\*"$/)]);
  });

  it('stamps lines on a wall clock with the µs within the ms, as gettimeofday gives them (not ms × 1000)', async () => {
    const m = conn({ streams: { clock: realClock } });
    const lines = await monitorOf(m);
    const c = conn({ streams: { clock: realClock } });
    for (let i = 0; i < 50; i++) await c.execute(['PING']);
    const micros = lines.map((l) => Number(/^\d+\.(\d{6}) /.exec(l)![1]));
    expect(micros).toHaveLength(50);
    // 50 lines all on a whole ms would be a 1 in 10^150 chance
    expect(micros.some((us) => us % 1000 !== 0)).toBe(true);
    // and they never go back
    const stamps = lines.map((l) => Number(l.slice(0, l.indexOf(' ')).replace('.', '')));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
  });

  it("refuses a monitor's own key commands, ignores a second MONITOR, and ends with RESET", async () => {
    const m = conn();
    const lines = await monitorOf(m);
    expect(await attempt(m, ['GET', 'foo'])).toBe("ERR Replica can't interact with the keyspace");
    expect(await attempt(m, ['PUBLISH', 'ch', 'x'])).toBe("ERR Replica can't interact with the keyspace");
    expect(await m.execute(['MONITOR'])).toBe(NO_REPLY); // no reply at all, as Redis
    expect(await m.execute(['PING'])).toEqual(new SimpleString('PONG'));
    expect(shown(lines, m)).toEqual(['[0 ADDR] "PING"']);
    expect(m.server.monitors?.size).toBe(1);
    await m.execute(['RESET']);
    expect(m.server.monitors).toBeNull();
    await conn().execute(['SET', 'x', '1']);
    expect(lines).toHaveLength(1);
  });

  it('stops when the monitor closes', async () => {
    const m = conn();
    await monitorOf(m);
    m.close();
    expect(m.server.monitors).toBeNull();
  });

  it("ioredis's monitor(): a client emitting 'monitor' (time, args, source, database)", async () => {
    const redis = new Redis({ port: engine.port });
    const monitor = await redis.monitor();
    const events: unknown[][] = [];
    monitor.on('monitor', (time: string, args: string[], source: string, database: string) => events.push([/^\d+\.\d{6}$/.test(time), args, source === 'lua' ? source : 'client', database]));
    await redis.set('foo', 'bar');
    await redis.eval("return redis.call('get', KEYS[1])", 1, 'foo');
    await redis.xadd('s', '1-1', 'f', 'v');
    expect(events).toEqual([
      [true, ['set', 'foo', 'bar'], 'client', '0'],
      [true, ['eval', "return redis.call('get', KEYS[1])", '1', 'foo'], 'client', '0'],
      [true, ['get', 'foo'], 'lua', '0'],
      [true, ['xadd', 's', '1-1', 'f', 'v'], 'client', '0'],
    ]);
    monitor.disconnect();
    redis.disconnect();
  });
});
