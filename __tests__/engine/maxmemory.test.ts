/**
 * maxmemory (lib/engine/maxmemory.ts) and per-key LRU / LFU (lib/keyspace/store.ts), through
 * engine connections as `serve` runs them: OOM refusals of denyoom commands (alone, in MULTI, in
 * scripts), eviction by policy with the `evicted` event and INFO evicted_keys, OBJECT IDLETIME
 * and OBJECT FREQ on the fake clock, RESTORE IDLETIME / FREQ. Texts and behaviour checked by hand
 * on redis-server 7.0.15 and the post-7.4 build (spare servers: maxmemory changes their config).
 * The fake's used memory: 900000 bytes plus each key's bytes (lib/stats/memory-model.ts: 56 + the
 * key's and a string value's lengths, so `a` → `1` is 58 bytes).
 */
import Redis, { createFakeClock } from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine';
import { type Reply, SimpleString, toResp2Plain } from '../../lib/reply/reply';
import { engineConnections, errorOf } from '../helpers/engine-connections';

const OOM = "OOM command not allowed when used memory > 'maxmemory'.";
const OK = new SimpleString('OK');

const engine = engineConnections(53_400);
const conn = engine.conn;

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function infoField(c: Connection, section: string, field: string): Promise<string | undefined> {
  const text = String(toResp2Plain(await c.execute(['INFO', section])));
  return new RegExp(`^${field}:(.*)\\r?$`, 'm').exec(text)?.[1]?.trim();
}

describe('OOM with maxmemory-policy noeviction', () => {
  it('refuses denyoom commands over the limit, runs the others, and none once maxmemory is 0', async () => {
    const c = conn();
    await c.execute(['SET', 'k', 'v']);
    expect(await c.execute(['CONFIG', 'SET', 'maxmemory', '1'])).toEqual(OK);
    expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(OOM);
    expect(await errorOf(c.execute(['LPUSH', 'l', 'a']))).toBe(OOM);
    expect(await errorOf(c.execute(['XADD', 's', '*', 'f', 'v']))).toBe(OOM);
    expect(await errorOf(c.execute(['FUNCTION', 'LOAD', 'x']))).toBe(OOM);
    // unknown commands and wrong arities answer their own errors first
    expect(await errorOf(c.execute(['SET', 'x']))).toBe("ERR wrong number of arguments for 'set' command");
    expect(await c.execute(['GET', 'k'])).toBe('v');
    expect(await c.execute(['DEL', 'k'])).toBe(1); // not denyoom: frees memory
    expect(await infoField(c, 'errorstats', 'errorstat_OOM')).toBe('count=4');
    expect(await c.execute(['CONFIG', 'SET', 'maxmemory', '0'])).toEqual(OK);
    expect(await c.execute(['SET', 'x', '1'])).toEqual(OK);
  });

  it('compares used memory with the limit: a limit above it refuses nothing', async () => {
    const c = conn();
    await c.execute(['SET', 'a', '1']);
    expect(await infoField(c, 'memory', 'used_memory')).toBe('900058');
    await c.execute(['CONFIG', 'SET', 'maxmemory', '900116']);
    expect(await c.execute(['SET', 'b', '1'])).toEqual(OK); // 900058 <= 900116 before it ran
    expect(await c.execute(['SET', 'c', '1'])).toEqual(OK); // 900116: not over
    expect(await errorOf(c.execute(['SET', 'd', '1']))).toBe(OOM); // 900174 > 900116
  });

  it('8.x: inside MULTI a denyoom command is refused and flags the transaction; DISCARD still works', async () => {
    const c = conn();
    const admin = conn();
    await admin.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(await c.execute(['MULTI'])).toEqual(OK);
    expect(await c.execute(['GET', 'x'])).toEqual(new SimpleString('QUEUED'));
    expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(OOM);
    expect(await errorOf(c.execute(['EXEC']))).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect(await c.execute(['MULTI'])).toEqual(OK);
    expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(OOM);
    expect(await c.execute(['DISCARD'])).toEqual(OK);
    expect(await c.execute(['PING'])).toEqual(new SimpleString('PONG'));
  });

  it('7.0: inside MULTI every command but EXEC, DISCARD, QUIT and RESET is refused', async () => {
    const c = conn({ streams: { redisVersion: '7.0' } });
    await c.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(await c.execute(['MULTI'])).toEqual(OK);
    expect(await errorOf(c.execute(['GET', 'x']))).toBe(OOM);
    expect(await errorOf(c.execute(['PING']))).toBe(OOM);
    expect(await errorOf(c.execute(['WATCH', 'x']))).toBe(OOM);
    expect(await errorOf(c.execute(['EXEC']))).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect(await c.execute(['MULTI'])).toEqual(OK);
    expect(await c.execute(['DISCARD'])).toEqual(OK);
    await c.execute(['CONFIG', 'SET', 'maxmemory', '0']);
  });

  it('EXEC of a transaction holding a denyoom command is refused once memory ran out; a read-only one runs', async () => {
    const c = conn();
    const admin = conn();
    await c.execute(['SET', 'x', 'value']);
    await c.execute(['MULTI']);
    await c.execute(['GET', 'x']);
    await c.execute(['PING']);
    await admin.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(toResp2Plain(await c.execute(['EXEC']))).toEqual(['value', 'PONG']);
    await admin.execute(['CONFIG', 'SET', 'maxmemory', '0']);
    await c.execute(['MULTI']);
    await c.execute(['SET', 'x', '1']);
    await admin.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(await errorOf(c.execute(['EXEC']))).toBe(`EXECABORT Transaction discarded because of: ${OOM}`);
    expect(await c.execute(['GET', 'x'])).toBe('value');
  });
});

describe('through an ioredis client', () => {
  it('refuses denyoom built-ins and stream commands alike, and writes while replicas are lacking', async () => {
    const redis = new Redis({ port: engine.port });
    try {
      await redis.set('k', 'v');
      await redis.config('SET', 'maxmemory', '1');
      await expect(redis.set('x', '1')).rejects.toThrow(OOM);
      await expect(redis.xadd('s', '*', 'f', 'v')).rejects.toThrow(OOM);
      expect(await redis.get('k')).toBe('v');
      await redis.config('SET', 'maxmemory', '0');
      await redis.config('SET', 'min-replicas-to-write', '1');
      await expect(redis.set('x', '1')).rejects.toThrow('NOREPLICAS Not enough good replicas to write.');
      await expect(redis.xadd('s', '*', 'f', 'v')).rejects.toThrow('NOREPLICAS Not enough good replicas to write.');
      expect(await redis.get('k')).toBe('v');
      await redis.config('SET', 'min-replicas-to-write', '0');
      expect(await redis.set('x', '1')).toBe('OK');
    } finally {
      redis.disconnect();
    }
  });
});

describe('min-replicas-to-write (the fake has no replica)', () => {
  it('refuses write commands, EXEC of writes, and scripts with flags but not no-writes; not with max-lag 0', async () => {
    const c = conn();
    await c.execute(['SET', 'x', 'v']);
    await c.execute(['CONFIG', 'SET', 'min-slaves-to-write', '1']);
    const NOREPLICAS = 'NOREPLICAS Not enough good replicas to write.';
    expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(NOREPLICAS);
    expect(await c.execute(['GET', 'x'])).toBe('v');
    expect(await errorOf(c.execute(['EVAL', "return redis.call('set','x',1)", '0']))).toMatch(/^NOREPLICAS Not enough good replicas to write\. script: [0-9a-f]{40}, on @user_script:1\.$/);
    expect(await errorOf(c.execute(['EVAL', "#!lua\nreturn redis.call('get','x')", '0']))).toBe(NOREPLICAS);
    expect(await c.execute(['EVAL', "#!lua flags=no-writes\nreturn redis.call('get','x')", '0'])).toBe('v');
    expect(await c.execute(['EVAL', "return redis.call('get','x')", '0'])).toBe('v');
    await c.execute(['MULTI']);
    expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(NOREPLICAS);
    expect(await errorOf(c.execute(['EXEC']))).toBe('EXECABORT Transaction discarded because of previous errors.');
    await c.execute(['CONFIG', 'SET', 'min-replicas-max-lag', '0']);
    expect(await c.execute(['SET', 'x', '1'])).toEqual(OK);
    await c.execute(['CONFIG', 'SET', 'min-replicas-to-write', '0', 'min-replicas-max-lag', '10']);
  });

  it('SAVE, SHUTDOWN, SYNC and PSYNC are refused inside MULTI and flag it', async () => {
    const c = conn();
    await c.execute(['MULTI']);
    expect(await errorOf(c.execute(['SAVE']))).toBe('ERR Command not allowed inside a transaction');
    expect(await errorOf(c.execute(['SHUTDOWN']))).toBe('ERR Command not allowed inside a transaction');
    expect(await errorOf(c.execute(['EXEC']))).toBe('EXECABORT Transaction discarded because of previous errors.');
  });
});

describe('OOM in scripts', () => {
  it('EVAL without flags runs, but its first denyoom call fails; flags decide before running', async () => {
    const c = conn();
    await c.execute(['SET', 'x', '123']);
    await c.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    const err = await errorOf(c.execute(['EVAL', "redis.call('set','x',1)", '0']));
    expect(err).toMatch(/^OOM command not allowed when used memory > 'maxmemory'\. script: [0-9a-f]{40}, on @user_script:1\.$/);
    expect(await c.execute(['EVAL', "return redis.call('get','x')", '0'])).toBe('123');
    expect(await errorOf(c.execute(['EVAL', '#!lua flags=\nreturn 1', '0']))).toBe(OOM);
    expect(await errorOf(c.execute(['EVAL', '#!lua\nreturn 1', '0']))).toBe(OOM);
    expect(await c.execute(['EVAL', "#!lua flags=allow-oom\nreturn redis.call('set','x',1)", '0'])).toEqual(OK);
    expect(await c.execute(['EVAL_RO', "#!lua flags=no-writes\nreturn redis.call('get','x')", '0'])).toBe('1');
    // a write before it: the script is past its first write, a denyoom command then runs
    expect(await c.execute(['EVAL', "redis.call('del','nokey'); return redis.call('set','x',2)", '0'])).toEqual(OK);
  });

  it('FCALL of a function without allow-oom / no-writes is refused; with them it runs', async () => {
    const c = conn();
    await c.execute(['FUNCTION', 'LOAD', "#!lua name=t\nredis.register_function('w', function() return redis.call('set', 'x', '1') end)\nredis.register_function{function_name='o', callback=function() return redis.call('set', 'x', '2') end, flags={'allow-oom'}}\nredis.register_function{function_name='r', callback=function() return 'hello' end, flags={'no-writes'}}"]);
    await c.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(await errorOf(c.execute(['FCALL', 'w', '1', 'x']))).toBe(OOM);
    expect(await c.execute(['FCALL', 'o', '1', 'x'])).toEqual(OK);
    expect(await c.execute(['FCALL_RO', 'r', '0'])).toBe('hello');
    expect(await c.execute(['GET', 'x'])).toBe('2');
  });
});

describe('eviction', () => {
  it('allkeys-lru evicts the least recently accessed keys first, publishing evicted and counting evicted_keys', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = conn({ streams: { clock } });
    const sub = conn({ streams: { clock } });
    const pushed: Reply[] = [];
    sub.onPush((m) => pushed.push(toResp2Plain(m) as Reply));
    await c.execute(['CONFIG', 'SET', 'notify-keyspace-events', 'Ee', 'maxmemory-policy', 'allkeys-lru']);
    await sub.execute(['PSUBSCRIBE', '*']);
    await c.execute(['SET', 'a', '1']);
    clock.tick(1000);
    await c.execute(['SET', 'b', '1']);
    clock.tick(1000);
    await c.execute(['SET', 'c', '1']);
    clock.tick(1000);
    await c.execute(['GET', 'a']); // a is now the most recent
    // 3 keys: 900174 bytes; the limit leaves room for 2
    expect(await c.execute(['CONFIG', 'SET', 'maxmemory', '900116'])).toEqual(OK);
    await turn();
    expect(pushed.slice(1)).toEqual([['pmessage', '*', '__keyevent@0__:evicted', 'b']]);
    expect((toResp2Plain(await c.execute(['KEYS', '*'])) as string[]).sort()).toEqual(['a', 'c']);
    // at the limit, not over it: SET runs; the next command first evicts the least recent key (c)
    expect(await c.execute(['SET', 'd', '1'])).toEqual(OK);
    expect(await c.execute(['PING'])).toEqual(new SimpleString('PONG'));
    await turn();
    expect(pushed.slice(2)).toEqual([['pmessage', '*', '__keyevent@0__:evicted', 'c']]);
    expect(await infoField(c, 'stats', 'evicted_keys')).toBe('2');
    // everything evictable gone and still over: denyoom commands are refused
    await c.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(await c.execute(['DBSIZE'])).toBe(0);
    expect(await errorOf(c.execute(['SET', 'e', '1']))).toBe(OOM);
    expect(await infoField(c, 'stats', 'evicted_keys')).toBe('4');
    await c.execute(['CONFIG', 'SET', 'maxmemory', '0', 'maxmemory-policy', 'noeviction']);
  });

  it('volatile-ttl evicts the nearest TTL first and never a key without one', async () => {
    const c = conn();
    await c.execute(['CONFIG', 'SET', 'maxmemory-policy', 'volatile-ttl']);
    await c.execute(['SET', 'far', '1', 'EX', '1000']);
    await c.execute(['SET', 'near', '1', 'EX', '10']);
    await c.execute(['SET', 'keep', '1']);
    // 60 + 61 + 60 bytes; room for two of them
    await c.execute(['CONFIG', 'SET', 'maxmemory', '900125']);
    expect((toResp2Plain(await c.execute(['KEYS', '*'])) as string[]).sort()).toEqual(['far', 'keep']);
    await c.execute(['CONFIG', 'SET', 'maxmemory', '1']);
    expect(toResp2Plain(await c.execute(['KEYS', '*']))).toEqual(['keep']);
    expect(await errorOf(c.execute(['SET', 'x', '1']))).toBe(OOM);
  });

  it('allkeys-lfu evicts the least frequently used key; evicts across databases', async () => {
    const c = conn();
    await c.execute(['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lfu', 'lfu-log-factor', '0']);
    await c.execute(['SET', 'hot', '1']);
    await c.execute(['SELECT', '1']);
    await c.execute(['SET', 'cold', '1']);
    for (let i = 0; i < 3; i++) await c.execute(['GET', 'cold']);
    await c.execute(['SELECT', '0']);
    for (let i = 0; i < 5; i++) await c.execute(['GET', 'hot']);
    await c.execute(['SET', 'new', '1']);
    // counters: hot 10, cold 8, new 5; 60 + 61 + 59 bytes: room for 2 keys, then for 1
    await c.execute(['CONFIG', 'SET', 'maxmemory', '900125']);
    expect((toResp2Plain(await c.execute(['KEYS', '*'])) as string[]).sort()).toEqual(['hot']);
    await c.execute(['SELECT', '1']);
    expect(toResp2Plain(await c.execute(['KEYS', '*']))).toEqual(['cold']);
    await c.execute(['CONFIG', 'SET', 'maxmemory', '900100']);
    expect(await c.execute(['DBSIZE'])).toBe(0);
    await c.execute(['SELECT', '0']);
    expect(toResp2Plain(await c.execute(['KEYS', '*']))).toEqual(['hot']);
  });
});

describe('LRU and LFU per key', () => {
  it('OBJECT IDLETIME follows the fake clock; reads refresh it, OBJECT and TYPE do not', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = conn({ streams: { clock } });
    await c.execute(['SET', 'k', 'v']);
    clock.tick(7000);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(7);
    expect(await c.execute(['OBJECT', 'ENCODING', 'k'])).toBe('embstr');
    expect(await c.execute(['TYPE', 'k'])).toEqual(new SimpleString('string'));
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(7);
    await c.execute(['GET', 'k']);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(0);
    clock.tick(3000);
    await c.execute(['TOUCH', 'k']);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(0);
  });

  it('CLIENT NO-TOUCH ON: reads leave the idle time alone, TOUCH still refreshes it', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = conn({ streams: { clock } });
    await c.execute(['SET', 'k', 'v']);
    await c.execute(['CLIENT', 'NO-TOUCH', 'ON']);
    clock.tick(4000);
    expect(await c.execute(['GET', 'k'])).toBe('v');
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(4);
    expect(await c.execute(['TOUCH', 'k'])).toBe(1);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(0);
    clock.tick(2000);
    await c.execute(['CLIENT', 'NO-TOUCH', 'OFF']);
    await c.execute(['GET', 'k']);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'k'])).toBe(0);
  });

  it('RESTORE … IDLETIME sets the idle time (non-LFU policies), FREQ the counter (LFU policies)', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = conn({ streams: { clock } });
    await c.execute(['SET', 'foo', 'bar']);
    const dump = (await c.execute(['DUMP', 'foo'])) as string;
    await c.execute(['DEL', 'foo']);
    await c.execute(['RESTORE', 'foo', '0', dump, 'IDLETIME', '1000']);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'foo'])).toBe(1000);
    clock.tick(5000);
    expect(await c.execute(['OBJECT', 'IDLETIME', 'foo'])).toBe(1005);
    await c.execute(['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lfu']);
    await c.execute(['RESTORE', 'foo', '0', dump, 'FREQ', '100', 'REPLACE']);
    expect(await c.execute(['OBJECT', 'FREQ', 'foo'])).toBe(100);
    expect(await errorOf(c.execute(['OBJECT', 'IDLETIME', 'foo']))).toMatch(/^ERR An LFU maxmemory policy is selected, idle time not tracked\./);
  });

  it('OBJECT FREQ: 5 for a new key, raised on access (lfu-log-factor), one less per lfu-decay-time minutes', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = conn({ streams: { clock } });
    await c.execute(['SET', 'k', 'v']);
    expect(await errorOf(c.execute(['OBJECT', 'FREQ', 'k']))).toMatch(/^ERR An LFU maxmemory policy is not selected, access frequency not tracked\./);
    await c.execute(['CONFIG', 'SET', 'maxmemory-policy', 'volatile-lfu', 'lfu-log-factor', '0', 'lfu-decay-time', '2']);
    await c.execute(['SET', 'n', 'v']);
    expect(await c.execute(['OBJECT', 'FREQ', 'n'])).toBe(5);
    await c.execute(['GET', 'n']); // at or below 5 every access counts
    expect(await c.execute(['OBJECT', 'FREQ', 'n'])).toBe(6);
    for (let i = 0; i < 4; i++) await c.execute(['GET', 'n']); // log factor 0: every access counts
    expect(await c.execute(['OBJECT', 'FREQ', 'n'])).toBe(10);
    clock.tick(6 * 60_000); // 3 periods of 2 minutes
    expect(await c.execute(['OBJECT', 'FREQ', 'n'])).toBe(7);
    await c.execute(['CONFIG', 'SET', 'lfu-log-factor', '10']);
    // well above 5, one access in many counts: 20 accesses raise it by a little
    for (let i = 0; i < 20; i++) await c.execute(['GET', 'n']);
    const f = (await c.execute(['OBJECT', 'FREQ', 'n'])) as number;
    // each access from 7 counts with p = 1/21, then 1/31 …: 12 or more has p ~ 1.4e-4 (seen once in
    // a full run), 14 or more ~ 1e-7
    expect(f).toBeGreaterThanOrEqual(7);
    expect(f).toBeLessThan(14);
    await c.execute(['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
  });
});
