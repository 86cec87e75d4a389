/**
 * INFO over the server: the counters the Redis suites read (blocked clients, blocking keys,
 * rdb_changes_since_last_save), commandstats, errorstats and keyspace, per emulated version.
 * Expected dirty increments were measured on redis-server 7.0.15 and a build of the 7.4+ tree
 * (INFO persistence before and after each command).
 */
import { createFakeClock } from 'ioredis-mock-streams';
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { RawClient, request } from './raw-client';

/** INFO field value, as the suites' getInfoProperty reads it. */
function field(info: string, name: string): string | undefined {
  return new RegExp(`\\r\\n${name}:([^\\r]*)\\r\\n`).exec(info)?.[1];
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('condition not reached');
}

describe('INFO', () => {
  let server: RedisServer;
  let c: RawClient;
  beforeEach(async () => {
    server = await serve({ clock: createFakeClock({ now: Date.UTC(2024, 0, 1) }) });
    c = await RawClient.connect(server.port);
  });
  afterEach(async () => {
    c.close();
    await server.close();
  });

  it('counts blocking keys, and those a deletion wakes (XREADGROUP), with a BLPOP on the same key', async () => {
    const list = await RawClient.connect(server.port);
    const group = await RawClient.connect(server.port);
    const info = async (name: string) => field(await c.call('INFO', 'clients'), name);
    list.write(request('BLPOP', 'mystream', '0'));
    await waitFor(async () => (await info('blocked_clients')) === '1');
    expect(await info('total_blocking_keys')).toBe('1');
    expect(await info('total_blocking_keys_on_nokey')).toBe('0');
    await c.call('XADD', 'mystream', '666', 'key', 'value');
    await c.call('XGROUP', 'CREATE', 'mystream', 'mygroup', '$', 'MKSTREAM');
    group.write(request('XREADGROUP', 'GROUP', 'mygroup', 'myconsumer', 'BLOCK', '0', 'STREAMS', 'mystream', '>'));
    await waitFor(async () => (await info('blocked_clients')) === '2');
    expect(await info('total_blocking_keys')).toBe('1');
    expect(await info('total_blocking_keys_on_nokey')).toBe('1');
    await c.call('DEL', 'mystream');
    expect((await group.read())[0]).toMatch(/^-NOGROUP /);
    expect(await info('total_blocking_keys')).toBe('1');
    expect(await info('total_blocking_keys_on_nokey')).toBe('0');
    list.close();
    await waitFor(async () => (await info('blocked_clients')) === '0');
    expect(await info('total_blocking_keys')).toBe('0');
    group.close();
  });

  it('reports connected clients, commandstats (calls, failed and rejected calls) and errorstats', async () => {
    await c.call('CONFIG', 'RESETSTAT');
    await c.call('XADD', 's', '1-1', 'f', 'v');
    await c.call('XGROUP', 'CREATE', 's', 'g', '0');
    await c.call('XGROUP', 'CREATE', 's', 'g', '0'); // BUSYGROUP: a failed call
    await c.call('XADD', 's'); // arity: a rejected call
    await c.call('NOPE'); // unknown: errorstats only
    const stats = await c.call('INFO', 'commandstats');
    expect(stats).toMatch(/\r\ncmdstat_xadd:calls=1,usec=\d+,usec_per_call=[\d.]+,rejected_calls=1,failed_calls=0\r\n/);
    expect(stats).toMatch(/\r\ncmdstat_xgroup\|create:calls=2,usec=\d+,usec_per_call=[\d.]+,rejected_calls=0,failed_calls=1\r\n/);
    const errors = await c.call('INFO', 'errorstats');
    expect(errors).toContain('\r\nerrorstat_BUSYGROUP:count=1\r\n');
    expect(errors).toContain('\r\nerrorstat_ERR:count=2\r\n');
    const all = await c.call('INFO');
    expect(field(all, 'connected_clients')).toBe('1');
    expect(field(all, 'total_error_replies')).toBe('3');
    expect(field(all, 'tcp_port')).toBe(String(server.port));
    expect(field(all, 'redis_version')).toBe('8.10.0');
    expect(all).toContain('\r\n# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0,subexpiry=0\r\n');
    expect(all.match(/^\$\d+\r\n# Server\r\n/)).not.toBeNull();
  });

  it('reports the CONFIG values it shows (maxmemory, hz)', async () => {
    expect(await c.call('CONFIG', 'SET', 'maxmemory', '10mb', 'hz', '20')).toBe('+OK\r\n');
    const memory = await c.call('INFO', 'memory');
    expect(field(memory, 'maxmemory')).toBe('10485760');
    expect(field(memory, 'maxmemory_human')).toBe('10.00M');
    expect(field(await c.call('INFO', 'server'), 'hz')).toBe('20');
  });

  // the post-7.4 build (Redis's unit/info 'clients: pubsub clients')
  it('counts a client subscribed to shard channels only in pubsub_clients', async () => {
    const shard = await RawClient.connect(server.port);
    const plain = await RawClient.connect(server.port);
    const count = async () => field(await c.call('INFO', 'clients'), 'pubsub_clients');
    expect(await count()).toBe('0');
    expect(await shard.call('SSUBSCRIBE', 'chan1')).toBe('*3\r\n$10\r\nssubscribe\r\n$5\r\nchan1\r\n:1\r\n');
    await plain.call('SUBSCRIBE', 'chan2');
    expect(await count()).toBe('2');
    await plain.call('UNSUBSCRIBE', 'chan2');
    expect(await count()).toBe('1');
    await shard.call('SUNSUBSCRIBE');
    expect(await count()).toBe('0');
    shard.close();
    plain.close();
  });

  // the post-7.4 build and 7.0.15 (Redis's unit/info 'latencystats: disable/enable', 'configure percentiles')
  it('shows latencystats only while latency-tracking is yes, without the commands run while it was no, at the configured percentiles', async () => {
    const lines = async () => (await c.call('INFO', 'latencystats')).split('\r\n').filter((l) => l.startsWith('latency_percentiles_usec_'));
    const names = async () => (await lines()).map((l) => l.slice('latency_percentiles_usec_'.length, l.indexOf(':'))).sort();
    await c.call('CONFIG', 'RESETSTAT');
    await c.call('CONFIG', 'SET', 'latency-tracking', 'no');
    await c.call('GET', 'x');
    await c.call('SET', 'a', 'b');
    expect(await lines()).toEqual([]); // the section is empty while tracking is off
    await c.call('CONFIG', 'SET', 'latency-tracking', 'yes');
    await c.call('SET', 'a', 'b');
    // no get (it ran only while tracking was off); config|set: the call that turned it on
    expect(await names()).toEqual(['config|resetstat', 'config|set', 'set']); // INFO is recorded after its reply; the one run while off is not
    expect((await lines()).find((l) => l.startsWith('latency_percentiles_usec_set:'))).toMatch(/^latency_percentiles_usec_set:p50=\d+\.\d{3},p99=\d+\.\d{3},p99\.9=\d+\.\d{3}$/);
    expect(await c.call('CONFIG', 'SET', 'latency-tracking-info-percentiles', '0.0 50.0 100.0')).toBe('+OK\r\n');
    expect((await lines()).find((l) => l.startsWith('latency_percentiles_usec_set:'))).toMatch(/^latency_percentiles_usec_set:p0=[\d.]+,p50=[\d.]+,p100=[\d.]+$/);
    await c.call('CONFIG', 'SET', 'latency-tracking-info-percentiles', '');
    expect((await lines()).find((l) => l.startsWith('latency_percentiles_usec_set'))).toBe('latency_percentiles_usec_set:');
    await c.call('CONFIG', 'RESETSTAT');
    expect(await names()).toEqual(['config|resetstat']);
  });

  it('reports keys with a TTL and their average TTL on the server clock', async () => {
    await c.call('SET', 'a', '1', 'PX', '10000');
    await c.call('SET', 'b', '1');
    expect(await c.call('INFO', 'keyspace')).toBe('$60\r\n# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=10000,subexpiry=0\r\n\r\n');
  });
});

/** Each command and the dirty increment it made on 7.0.15 and on a 7.4+ build. */
const DIRTY: [argv: string[], v70: number, v74: number][] = [
  [['XADD', 's', '1-0', 'a', '1'], 1, 1],
  [['XADD', 's', '2-0', 'a', '2'], 1, 1],
  [['XADD', 's', '3-0', 'a', '3'], 1, 1],
  [['XADD', 's', 'MAXLEN', '1', '4-0', 'a', '4'], 1, 1],
  [['XADD', 's', 'NOMKSTREAM', '5-0', 'a', '5'], 1, 1],
  [['XADD', 't', 'NOMKSTREAM', '5-0', 'a', '5'], 0, 0],
  [['XADD', 's', '5-0', 'a', '5'], 0, 0],
  [['XADD', 's', '6-0', 'a', '6'], 1, 1],
  [['XADD', 's', '7-0', 'a', '7'], 1, 1],
  [['XGROUP', 'CREATE', 's', 'g', '0'], 1, 1],
  [['XGROUP', 'CREATE', 't', 'g', '$', 'MKSTREAM'], 1, 1],
  [['XGROUP', 'CREATE', 's', 'g', '0'], 0, 0],
  [['XGROUP', 'CREATECONSUMER', 's', 'g', 'c1'], 1, 1],
  [['XGROUP', 'CREATECONSUMER', 's', 'g', 'c1'], 0, 0],
  [['XREADGROUP', 'GROUP', 'g', 'c2', 'COUNT', '2', 'STREAMS', 's', '>'], 2, 2],
  [['XREADGROUP', 'GROUP', 'g', 'c2', 'STREAMS', 's', '0'], 1, 0],
  [['XREADGROUP', 'GROUP', 'g', 'c3', 'STREAMS', 's', '0'], 2, 1],
  [['XREADGROUP', 'GROUP', 'g', 'c2', 'NOACK', 'COUNT', '1', 'STREAMS', 's', '>'], 1, 1],
  [['XREADGROUP', 'GROUP', 'g', 'c4', 'STREAMS', 's', 't', '>', '>'], 2, 3],
  [['XREADGROUP', 'GROUP', 'g', 'c4', 'STREAMS', 's', '>'], 0, 0],
  [['XDEL', 's', '5-0', '99-0'], 1, 1],
  [['XACK', 's', 'g', '5-0', '6-0', '7-0', '42-0'], 2, 2],
  [['XCLAIM', 's', 'g', 'c5', '0', '4-0', '5-0', '6-0'], 2, 2],
  [['XCLAIM', 's', 'g', 'c5', '0', '99-0', 'LASTID', '100-0'], 1, 1],
  [['XCLAIM', 's', 'g', 'c5', '0', '99-0', 'LASTID', '50-0'], 0, 0],
  [['XCLAIM', 's', 'g', 'c6', '0', '99-0'], 0, 1],
  [['XADD', 's', '101-0', 'a', '1'], 1, 1],
  [['XREADGROUP', 'GROUP', 'g', 'c1', 'STREAMS', 's', '>'], 1, 1],
  [['XDEL', 's', '101-0'], 1, 1],
  [['XAUTOCLAIM', 's', 'g', 'c7', '0', '0-0'], 3, 3],
  [['XAUTOCLAIM', 's', 'g', 'c7', '0', '0-0'], 1, 1],
  [['XSETID', 's', '200-0'], 1, 1],
  [['XGROUP', 'SETID', 's', 'g', '0'], 1, 1],
  [['XGROUP', 'DELCONSUMER', 's', 'g', 'c1'], 1, 1],
  [['XGROUP', 'DELCONSUMER', 's', 'g', 'zz'], 0, 0],
  [['XTRIM', 's', 'MAXLEN', '0'], 3, 3],
  [['XTRIM', 's', 'MAXLEN', '0'], 0, 0],
  [['XGROUP', 'DESTROY', 's', 'g'], 1, 1],
  [['XGROUP', 'DESTROY', 's', 'g'], 0, 0],
  [['SET', 'k', 'v'], 1, 1],
  [['DEL', 'k', 's', 't', 'none'], 3, 3],
  [['LPUSH', 'l', 'a', 'b', 'c'], 3, 3],
  [['DEL', 'l'], 1, 1],
];

describe.each([
  ['7.0', 1],
  ['8.10', 2],
] as const)('rdb_changes_since_last_save follows Redis %s command by command', (redisVersion, column) => {
  it('matches the measured increments', async () => {
    const server = await serve({ redisVersion, clock: createFakeClock({ now: 1_000_000 }) });
    const c = await RawClient.connect(server.port);
    try {
      const dirty = async () => Number(field(await c.call('INFO', 'persistence'), 'rdb_changes_since_last_save'));
      const got: [string, number][] = [];
      for (const row of DIRTY) {
        const before = await dirty();
        await c.call(...row[0]);
        got.push([row[0].join(' '), (await dirty()) - before]);
      }
      expect(got).toEqual(DIRTY.map((row) => [row[0].join(' '), row[column]]));
    } finally {
      c.close();
      await server.close();
    }
  });
});

// lazyfreed_objects after each flush, recorded on redis-server 7.0.15 and the post-7.4 build (Redis's
// unit/lazyfree 'FLUSHALL SYNC optimized to run in bg as blocking FLUSHALL ASYNC' and the tests after it)
describe.each([
  ['7.0', [2, 4, 4, 4, 4, 4, 6, 8, 8]],
  ['8.10', [2, 4, 6, 8, 10, 10, 12, 14, 14]],
] as const)('lazyfreed_objects of FLUSHALL / FLUSHDB (%s)', (redisVersion, expected) => {
  it('counts the keys of a flush run lazily: ASYNC, lazyfree-lazy-user-flush, and from 7.4 a SYNC one outside MULTI and scripts', async () => {
    const server = await serve({ redisVersion, clock: createFakeClock({ now: Date.UTC(2024, 0, 1) }) });
    const c = await RawClient.connect(server.port);
    const counts: number[] = [];
    const step = async (...command: (string | number)[]) => {
      await c.call('MSET', 'a', '1', 'b', '2');
      expect(await c.call(...command)).not.toMatch(/^-/);
      counts.push(Number(field(await c.call('INFO', 'memory'), 'lazyfreed_objects')));
    };
    await step('FLUSHALL', 'ASYNC');
    await step('FLUSHDB', 'async');
    await step('FLUSHALL');
    await step('FLUSHDB');
    await step('FLUSHALL', 'SYNC');
    c.write(Buffer.concat([request('MULTI'), request('FLUSHALL')]));
    await c.read(2);
    await step('EXEC');
    await step('EVAL', "return redis.call('flushall', 'async')", 0);
    await c.call('CONFIG', 'SET', 'lazyfree-lazy-user-flush', 'yes');
    await step('FLUSHDB');
    await step('EVAL', "return redis.call('flushall', 'sync')", 0);
    expect(counts).toEqual(expected);
    c.close();
    await server.close();
  });
});
