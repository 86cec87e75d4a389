/**
 * `keymiss` (class m) from the generic key commands: EXISTS and TOUCH (once per missing argument,
 * repeats included), TYPE, TTL/PTTL/EXPIRETIME/PEXPIRETIME, DUMP, COPY's source, SORT's key and
 * each missing key its BY/GET patterns name (db.c lookupKeyRead*; OBJECT and MEMORY USAGE look
 * up without notifying), and from the reads of hashes, sets, sorted sets (GEO), lists and the
 * set/sorted-set algebra sources. The fake sent keymiss from the string, bit and HyperLogLog reads
 * only. Streams: XLEN, XRANGE/XREVRANGE, XINFO, XPENDING, XACK, XCLAIM, XAUTOCLAIM (XREAD, which
 * looks each key up twice, and XREADGROUP are not covered).
 * Recorded on 7.0.15 and the post-7.4 build (the same sequence), and checked against the real
 * servers (REDIS_URL / REDIS_UNSTABLE_URL; skipped with a message when unset).
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { describeOnRealServers, realKeyspaceEvents } from '../helpers/real-server';

const STEPS = [
  ['SET', 'k', 'v'], ['EXISTS', 'k', 'n1', 'n1', 'n2'], ['TOUCH', 'n1', 'k'], ['TYPE', 'n1'], ['TYPE', 'k'], ['TTL', 'n1'], ['PTTL', 'n1'],
  ['EXPIRETIME', 'n1'], ['PEXPIRETIME', 'n1'], ['DUMP', 'n1'], ['COPY', 'n1', 'n2'], ['OBJECT', 'ENCODING', 'n1'], ['MEMORY', 'USAGE', 'n1'],
  ['SORT', 'n1'], ['SORT', 'n1', 'STORE', 'dst'], ['RPUSH', 'l', '3', '1', '2'], ['SET', 'w_1', '5'], ['HSET', 'o_2', 'f', 'x'],
  ['SORT', 'l', 'BY', 'w_*', 'GET', 'o_*->f', 'GET', '#'], ['SORT', 'l', 'BY', 'nosort', 'GET', 'w_*'],
];
const EXPECTED = [
  // EXISTS k n1 n1 n2, TOUCH n1 k, TYPE n1, TTL, PTTL, EXPIRETIME, PEXPIRETIME, DUMP, COPY, (OBJECT, MEMORY: none)
  '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n2', '__keyevent@9__:keymiss n1',
  '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1',
  '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1',
  // SORT n1, SORT n1 STORE dst
  '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n1',
  // SORT l BY w_* GET o_*->f GET #: the weights of 3 and 2 (w_1 exists), then the GETs in sorted order
  '__keyevent@9__:keymiss w_3', '__keyevent@9__:keymiss w_2', '__keyevent@9__:keymiss o_3', '__keyevent@9__:keymiss o_1',
  // SORT l BY nosort GET w_*
  '__keyevent@9__:keymiss w_3', '__keyevent@9__:keymiss w_2',
];

// the read commands of hashes, sets, sorted sets (GEO too), lists and streams; set and sorted-set algebra
// looks its sources up for reading, the STORE variants too; writes (HDEL, SREM, ZREM, LSET …)
// look up for writing and send none
const FAMILY_STEPS = [
  ['HGET', 'n1', 'f'], ['HMGET', 'n1', 'f'], ['HGETALL', 'n1'], ['HLEN', 'n1'], ['HEXISTS', 'n1', 'f'], ['HSTRLEN', 'n1', 'f'],
  ['HRANDFIELD', 'n1', '2'], ['HSCAN', 'n1', '0'], ['HDEL', 'n1', 'f'], ['SADD', 'a', '1'], ['SISMEMBER', 'n1', 'x'], ['SCARD', 'n1'],
  ['SMEMBERS', 'n1'], ['SRANDMEMBER', 'n1'], ['SINTER', 'a', 'n1', 'n2'], ['SUNIONSTORE', 'd', 'n1', 'a'], ['SREM', 'n1', 'x'],
  ['ZADD', 'z', '1', 'x'], ['ZSCORE', 'n1', 'x'], ['ZRANGE', 'n1', '0', '-1'], ['ZCOUNT', 'n1', '0', '1'], ['ZUNIONSTORE', 'd', '2', 'n1', 'z'],
  ['ZREM', 'n1', 'x'], ['GEOPOS', 'n1', 'm'], ['LLEN', 'n1'], ['LRANGE', 'n1', '0', '-1'], ['LINDEX', 'n1', '0'], ['LSET', 'n1', '0', 'x'],
  ['XLEN', 'n1'], ['XRANGE', 'n1', '-', '+'], ['XREVRANGE', 'n1', '+', '-'], ['XINFO', 'STREAM', 'n1'], ['XPENDING', 'n1', 'g'],
  ['XACK', 'n1', 'g', '1-1'], ['XCLAIM', 'n1', 'g', 'c', '0', '1-1'], ['XAUTOCLAIM', 'n1', 'g', 'c', '0', '0'], ['XDEL', 'n1', '1-1'],
  // XREAD looks each key up twice (the IDs' loop, then the serving loop); XREADGROUP once, before NOGROUP
  ['XREAD', 'STREAMS', 'n1', 'n2', '0', '0'], ['XREAD', 'COUNT', '1', 'STREAMS', 'n1', '$'], ['XADD', 'x1', '1-0', 'f', 'v'],
  ['XREAD', 'STREAMS', 'x1', 'n1', '0', '0'], ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'n1', '>'],
];
const FAMILY_EXPECTED = [
  // 8 hash reads, 4 set reads, SINTER a n1 n2, SUNIONSTORE d n1 a, 3 sorted-set reads, ZUNIONSTORE, GEOPOS, 3 list reads,
  // XLEN, XRANGE, XREVRANGE, XINFO, XPENDING, XACK, XCLAIM, XAUTOCLAIM (not XDEL)
  ...Array(13).fill('__keyevent@9__:keymiss n1'),
  '__keyevent@9__:keymiss n2',
  ...Array(17).fill('__keyevent@9__:keymiss n1'),
  '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n2', '__keyevent@9__:keymiss n1', '__keyevent@9__:keymiss n2',
  ...Array(5).fill('__keyevent@9__:keymiss n1'),
];

async function fakeEvents(version: '7.0' | '8.0' | '8.10', port: number, steps: string[][] = STEPS): Promise<string[]> {
  const fake = createConnection({ port, streams: { redisVersion: version } });
  const sub = createConnection({ port, streams: { redisVersion: version } });
  const events: string[] = [];
  sub.onPush((msg) => {
    const items = toResp2Plain(msg) as string[];
    if (items[0] === 'pmessage') events.push(`${items[2]} ${items[3]}`);
  });
  try {
    await fake.execute(['CONFIG', 'SET', 'notify-keyspace-events', 'Em']);
    await fake.execute(['SELECT', '9']);
    await sub.execute(['PSUBSCRIBE', '__key*@9__:*']);
    for (const step of steps) await Promise.resolve(fake.execute(step)).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return events;
  } finally {
    fake.close();
    sub.close();
  }
}

describe.each(['7.0', '8.10'] as const)('keymiss from the key commands in %s mode', (version) => {
  it('is sent for each missing key a read lookup meets', async () => {
    expect(await fakeEvents(version, version === '7.0' ? 48_770 : 48_771)).toEqual(EXPECTED);
  });

  it('is sent by the read commands of the collection types', async () => {
    expect(await fakeEvents(version, version === '7.0' ? 48_774 : 48_775, FAMILY_STEPS)).toEqual(FAMILY_EXPECTED);
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('keymiss from the key commands', ({ url, version }) => {
  it('is sent by the collection reads as by the real server', async () => {
    const events = await realKeyspaceEvents(url, 'Em', FAMILY_STEPS, { ignoreErrors: true });
    expect(events).toEqual(FAMILY_EXPECTED);
    expect(await fakeEvents(version, version === '7.0' ? 48_776 : 48_777, FAMILY_STEPS)).toEqual(events);
  });

  it('is sent as by the real server', async () => {
    const events = await realKeyspaceEvents(url, 'Em', STEPS);
    expect(events).toEqual(EXPECTED);
    expect(await fakeEvents(version, version === '7.0' ? 48_772 : 48_773)).toEqual(events);
  });
});
