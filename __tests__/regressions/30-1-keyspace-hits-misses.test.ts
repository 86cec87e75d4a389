/**
 * INFO stats `keyspace_hits` / `keyspace_misses` stayed 0 whatever a client read: nothing
 * counted them. Now every read lookup counts as Redis's db.c lookupKeyReadWithFlags does: a key
 * found is a hit (also when the type check then fails: WRONGTYPE), a missing or expired key a
 * miss; write lookups (SET, INCR, LPUSH, HDEL, XADD, LPOP, BLPOP …) count nothing. Some write
 * commands read first (GETEX, GETDEL, GETSET, SET … GET, COPY's source, SORT … STORE, the STORE
 * variants of the set/sorted-set algebra, PFMERGE with its destination); multi-key reads count
 * per key (MGET, EXISTS, SUNION …); XREAD/XREADGROUP look each key up twice (the IDs, then the
 * serving loop); OBJECT counts without sending `keymiss` (LOOKUP_NONOTIFY); scripts and
 * MULTI/EXEC count as direct calls. Blocked XREAD/XREADGROUP readers count again when re-run on
 * an XADD (7.2+); 7.0 serves them without a lookup that counts. The counts below were read from
 * redis-server 7.0.15 and the post-7.4 build (scripts/keyspace-stats-diff.js compares every
 * family; __tests__/differential/keyspace-hits-misses-real-server.test.ts checks on real servers).
 */
import Redis from 'ioredis-mock-streams';
import type { AnyClient } from '../helpers/real-server';

async function counters(r: AnyClient): Promise<[number, number]> {
  const info: string = await r.info('stats');
  return [Number(/keyspace_hits:(\d+)/.exec(info)![1]), Number(/keyspace_misses:(\d+)/.exec(info)![1])];
}

const STEPS: [string[], [number, number]][] = [
  [['GET', 's'], [1, 0]],
  [['GET', 'missing'], [0, 1]],
  [['GET', 'l'], [1, 0]], // WRONGTYPE after a hit
  [['MGET', 's', 'missing', 'l'], [2, 1]],
  [['SET', 's', 'x'], [0, 0]],
  [['INCR', 'missing'], [0, 0]],
  [['GETEX', 's', 'EX', '100'], [1, 0]],
  [['SET', 's', 'y', 'GET'], [1, 0]],
  [['EXISTS', 's', 'nope', 's'], [2, 1]],
  [['TYPE', 'nope'], [0, 1]],
  [['TTL', 's'], [1, 0]],
  [['OBJECT', 'ENCODING', 'nope'], [0, 1]],
  [['DUMP', 's'], [1, 0]],
  [['COPY', 's', 's2'], [1, 0]],
  [['RANDOMKEY'], [0, 0]],
  [['DEL', 's2', 'nope'], [0, 0]],
  [['HGET', 'h', 'f'], [1, 0]],
  [['HSET', 'h', 'g', 'v'], [0, 0]],
  [['LRANGE', 'l', '0', '-1'], [1, 0]],
  [['LPOP', 'l'], [0, 0]],
  [['BLPOP', 'nope', '0.01'], [0, 0]],
  [['SUNION', 'set', 'nope'], [1, 1]],
  [['SUNIONSTORE', 'd', 'set', 'nope'], [1, 1]],
  [['ZSCORE', 'z', 'a'], [1, 0]],
  [['ZUNIONSTORE', 'd2', '2', 'z', 'nope'], [1, 1]],
  [['SORT', 'l', 'ALPHA', 'STORE', 'd3'], [1, 0]],
  [['PFMERGE', 'hll2', 'hll', 'nope'], [1, 2]],
  [['XLEN', 'x'], [1, 0]],
  [['XRANGE', 'nope', '-', '+'], [0, 1]],
  [['XREAD', 'STREAMS', 'x', 'nope', '0', '0'], [2, 2]],
  [['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'x', '>'], [2, 0]],
  [['XADD', 'x', '*', 'f', 'v'], [0, 0]],
  [['EVAL', "return redis.call('GET', KEYS[1])", '1', 'nope'], [0, 1]],
  [['EXPIRE', 's', '100'], [0, 0]],
];

async function run(version: '7.0' | '8.0', port: number): Promise<void> {
  const r = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
  await r.call('SET', 's', 'v');
  await r.call('RPUSH', 'l', 'b', 'a');
  await r.call('HSET', 'h', 'f', 'v');
  await r.call('SADD', 'set', 'a');
  await r.call('ZADD', 'z', '1', 'a');
  await r.call('PFADD', 'hll', 'a');
  await r.call('XADD', 'x', '1-1', 'f', 'v');
  await r.call('XGROUP', 'CREATE', 'x', 'g', '0');
  await r.call('SET', 'gone', 'v', 'PX', '1');
  await new Promise((resolve) => setTimeout(resolve, 5));
  await r.call('CONFIG', 'RESETSTAT');
  expect(await counters(r)).toEqual([0, 0]);
  for (const [argv, expected] of STEPS) {
    const before = await counters(r);
    await r.call(...argv).catch(() => undefined);
    const after = await counters(r);
    expect({ argv, counted: [after[0] - before[0], after[1] - before[1]] }).toEqual({ argv, counted: expected });
  }
  // an expired key: a miss; MULTI/EXEC counts its commands as direct calls
  const before = await counters(r);
  await r.call('GET', 'gone');
  await r.multi().get('l').get('set').hget('h', 'f').exec();
  const after = await counters(r);
  expect([after[0] - before[0], after[1] - before[1]]).toEqual([3, 1]);
  r.disconnect();
}

describe('INFO keyspace_hits and keyspace_misses', () => {
  // the first run loads the command modules (slow under ts-jest on a cold cache)
  it('count the read lookups as redis-server 7.0.15 does (7.0)', () => run('7.0', 51_301), 30_000);
  it('count the read lookups as the post-7.4 build does (8.0)', () => run('8.0', 51_302));

  it('count again when a blocked XREAD is re-run on an XADD (7.2+), not in 7.0', async () => {
    for (const [version, port, expected] of [['7.0', 51_303, [0, 2]], ['8.0', 51_304, [2, 2]]] as const) {
      const a = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
      const b = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
      await a.call('CONFIG', 'RESETSTAT');
      const read = b.call('XREAD', 'BLOCK', '1000', 'STREAMS', 'k', '$');
      await new Promise((resolve) => setTimeout(resolve, 20));
      await a.call('XADD', 'k', '*', 'f', 'v');
      await read;
      expect(await counters(a)).toEqual(expected);
      a.disconnect();
      b.disconnect();
    }
  });
});
