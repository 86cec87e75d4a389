/**
 * DUMP, RESTORE and COPY through the ioredis-mock front end. Expected payloads were recorded on
 * redis-server 7.0.15 and on the post-7.4 build (RDB 12, the '8.0' row of the fake); error texts
 * checked on both.
 */
import type IORedisReal from 'ioredis';
import Redis, { createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

/** Resolves once the client is `ready`: commands sent before that wait for it, as on ioredis. */
const whenReady = (c: any): Promise<void> => // eslint-disable-line @typescript-eslint/no-explicit-any
  new Promise((resolve) => (c.status === 'ready' ? resolve() : void c.once('ready', () => resolve())));


let port = 42_000;
const client = (opts: Record<string, unknown> = {}) =>
  new Redis({ port, ...opts } as never) as unknown as IORedisReal & Record<string, any>;

beforeEach(() => {
  port++;
});

async function error(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

const hex = (s: string) => Buffer.from(s, 'hex');

/** XADD s 1-1 f v, DUMPed by redis-server 7.0.15. */
const STREAM_70 = hex('130110000000000000000100000000000000011d1d0000000a0001010001010181660200010201000100018176020401ff0101010101000001000a00ff55ab626ac035db');

/** Redis's test suite: "Loading from legacy (Redis <= v7.0.x, rdb_ver < 11) persistence". */
const LEGACY_70 = Buffer.from(
  '\x13\x01\x10\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x1D\x1D\x00\x00\x00\x0A\x00\x01\x01\x00\x01\x01\x01\x81\x66\x02\x00\x01\x02\x01\x00\x01\x00\x01\x81\x76\x02\x04\x01\xFF\x01\x01\x01\x01\x01\x00\x00\x01\x01\x01\x67\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\xF5\x5A\x71\xC7\x84\x01\x00\x00\x01\x01\x05\x41\x6C\x69\x63\x65\xF5\x5A\x71\xC7\x84\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x0B\x00\xA7\xA9\x14\xA5\x27\xFF\x9B\x9B',
  'latin1',
);

/** Returns the value after `name` in a flat XINFO reply. */
const field = (reply: unknown[], name: string) => reply[reply.indexOf(name) + 1];

describe('DUMP', () => {
  it('answers nil for a missing key', async () => {
    const r = client();
    expect(await r.dumpBuffer('nokey')).toBeNull();
    r.disconnect();
  });

  it("serializes a stream byte for byte like the emulated version's server", async () => {
    const r70 = client({ streams: { redisVersion: '7.0' } });
    await r70.xadd('s', '1-1', 'f', 'v');
    expect(await r70.dumpBuffer('s')).toEqual(STREAM_70);
    const r80 = client({ port: ++port, streams: { redisVersion: '8.0' } });
    await r80.xadd('s', '1-1', 'f', 'v');
    expect((await r80.dumpBuffer('s')).toString('hex')).toBe(
      '150110000000000000000100000000000000011d1d0000000a0001010001010181660200010201000100018176020401ff0101010101000001000c0047f32561afb1fbb3',
    );
    [r70, r80].forEach((c) => c.disconnect());
  });

  it('stamps the RDB version of each release and writes its stream type', async () => {
    const expected: [string, number, number][] = [
      ['7.0', 0x13, 10], ['7.2', 0x15, 11], ['7.4', 0x15, 12], ['8.0', 0x15, 12], ['8.2', 0x15, 12],
      ['8.4', 0x15, 12], ['8.6', 0x1a, 13], ['8.8', 0x1b, 14], ['8.10', 0x1b, 15],
    ];
    for (const [version, type, rdb] of expected) {
      const r = client({ port: ++port, streams: { redisVersion: version } });
      await r.xadd('s', '1-1', 'f', 'v');
      const d: Buffer = await r.dumpBuffer('s');
      expect([version, d[0], d.readUInt16LE(d.length - 10)]).toEqual([version, type, rdb]);
      r.disconnect();
    }
  });

  it('serializes strings like Redis: integers, LZF when it saves 4+ bytes, verbatim otherwise', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    const vectors: [string, string][] = [
      ['12', '00c00c0a003c2af8515c04bcd5'],
      ['-129', '00c17fff0a001760822854808480'],
      ['2147483648', '000a323134373438333634380a00e7b129a34c1d76ee'],
      ['hello world hello world hello world', '00c314230c68656c6c6f20776f726c642068e00b0b016c640a00778390696934acb7'],
      ['abcdefghijklmnopqrstuvwxyz', '001a6162636465666768696a6b6c6d6e6f707172737475767778797a0a009e1b3f34abfc5f79'],
      ['007', '00033030370a007258e27b4c69bad9'],
    ];
    for (const [value, payload] of vectors) {
      await r.set('k', value);
      expect([value, (await r.dumpBuffer('k')).toString('hex')]).toEqual([value, payload]);
    }
    r.disconnect();
  });

  it('follows CONFIG SET rdbcompression no (strings and listpacks stored verbatim)', async () => {
    const r = client();
    await r.config('SET', 'rdbcompression', 'no');
    await r.set('k', 'hello world hello world hello world');
    expect((await r.dumpBuffer('k')).subarray(0, 2).toString('hex')).toBe('0023');
    r.disconnect();
  });

  it('works through call/callBuffer, pipelines, MULTI and Lua', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    await r.xadd('s', '1-1', 'f', 'v');
    expect(await r.callBuffer('DUMP', 's')).toEqual(STREAM_70);
    const [[, viaPipeline]] = (await r.pipeline().dumpBuffer('s').exec()) as [unknown, Buffer][];
    expect(viaPipeline).toEqual(STREAM_70);
    const [[, viaMulti]] = (await r.multi().dumpBuffer('s').exec()) as [unknown, Buffer][];
    expect(viaMulti).toEqual(STREAM_70);
    expect(await r.eval("return #redis.call('DUMP', KEYS[1])", 1, 's')).toBe(STREAM_70.length);
    r.disconnect();
  });

  it('applies the keyPrefix to the key, as ioredis does', async () => {
    const r = client({ keyPrefix: 'p:' });
    const plain = client();
    await r.xadd('s', '1-1', 'f', 'v');
    expect(await plain.dumpBuffer('p:s')).toEqual(await r.dumpBuffer('s'));
    [r, plain].forEach((c) => c.disconnect());
  });

  it('serializes lists, sets, sorted sets and hashes in the encoding Redis gives them', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    await r.rpush('l', 'a', 'b', '12');
    await r.sadd('s', 1, 2, 300000);
    await r.hset('h', 'f', 'v', 'n', '12');
    await r.zadd('z', 1.5, 'a', 0.1, 'b', 3, 'c');
    const latin1 = async (k: string) => ((await r.dumpBuffer(k)) as Buffer).toString('latin1');
    expect(await latin1('l')).toBe('\x12\x01\x02\x0f\x0f\x00\x00\x00\x03\x00\x81a\x02\x81b\x02\x0c\x01\xff\n\x00\x1d\xc97:\xed\xb70@');
    expect(await latin1('s')).toBe('\x0b\x14\x04\x00\x00\x00\x03\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\xe0\x93\x04\x00\n\x00t/3HHlj9');
    expect(await latin1('h')).toBe('\x10\x12\x12\x00\x00\x00\x04\x00\x81f\x02\x81v\x02\x81n\x02\x0c\x01\xff\n\x00\x016\x94\x81\xd3[\x89t');
    expect(await latin1('z')).toBe(
      '\x11\xc3#,\r,\x00\x00\x00\x06\x00\x81b\x02\x930.10\xe0\x05\x00\x0f1\x14\x81a\x02\x831.5\x04\x81c\x02\x03\x01\xff\n\x00%r\xe0\x9fnT\xdc\x00',
    );
    r.disconnect();
  });

  it('follows CONFIG SET of the listpack limits when choosing an encoding', async () => {
    const r = client();
    await r.config('SET', 'zset-max-listpack-entries', '1');
    await r.zadd('z', 1, 'a', 2, 'b');
    expect(((await r.dumpBuffer('z')) as Buffer)[0]).toBe(5); // skiplist (RDB_TYPE_ZSET_2)
    r.disconnect();
  });
});

describe('RESTORE', () => {
  it('recreates a stream with its groups, PEL, consumers and counters (round trip)', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = client({ streams: { clock } });
    for (let i = 1; i <= 250; i++) await r.xadd('s', `${i}-0`, 'f', String(i), 'g', 'x'.repeat(i % 17));
    await r.xdel('s', '3-0', '120-0');
    await r.xgroup('CREATE', 's', 'g', '0');
    await r.xreadgroup('GROUP', 'g', 'alice', 'COUNT', 5, 'STREAMS', 's', '>');
    clock.tick(1000);
    await r.xreadgroup('GROUP', 'g', 'bob', 'COUNT', 3, 'STREAMS', 's', '>');
    await r.xack('s', 'g', '2-0');
    const before = await r.xinfo('STREAM', 's', 'FULL');
    const payload: Buffer = await r.dumpBuffer('s');
    expect(await r.restore('copy', 0, payload)).toBe('OK');
    expect(await r.xinfo('STREAM', 'copy', 'FULL')).toEqual(before);
    expect(await r.dumpBuffer('copy')).toEqual(payload);
    r.disconnect();
  });

  it('loads the legacy 7.0 payload of Redis\'s test suite: active-time becomes seen-time', async () => {
    const r = client();
    expect(await r.restore('x', 0, LEGACY_70)).toBe('OK');
    const info = (await r.xinfo('STREAM', 'x', 'FULL')) as unknown[];
    const group = (field(info, 'groups') as unknown[][])[0];
    const consumer = (field(group, 'consumers') as unknown[][])[0];
    expect(field(consumer, 'seen-time')).toBe(field(consumer, 'active-time'));
    expect(field(consumer, 'name')).toBe('Alice');
    r.disconnect();
  });

  it('honours REPLACE, ttl in ms, ABSTTL, and creates nothing for a TTL already in the past', async () => {
    const clock = createFakeClock({ now: 1_700_000_000_000 });
    const r = client({ streams: { clock, redisVersion: '7.0' } });
    await r.set('k', 'old');
    expect(await error(r.restore('k', 0, STREAM_70))).toBe('BUSYKEY Target key name already exists.');
    expect(await r.restore('k', 5000, STREAM_70, 'REPLACE')).toBe('OK');
    expect(await r.type('k')).toBe('stream');
    expect(await r.pttl('k')).toBe(5000);
    expect(await r.restore('a', 1_700_000_009_000, STREAM_70, 'ABSTTL')).toBe('OK');
    expect(await r.pttl('a')).toBe(9000);
    expect(await r.call('RESTORE', 'k', 1_600_000_000_000, STREAM_70, 'ABSTTL', 'REPLACE')).toBe('OK');
    expect(await r.exists('k')).toBe(0); // deleted by REPLACE, not recreated
    expect(await r.restore('b', 0, STREAM_70, 'IDLETIME', 10)).toBe('OK');
    expect(await r.restore('c', 0, STREAM_70, 'FREQ', 255)).toBe('OK');
    r.disconnect();
  });

  it('wakes a reader blocked on the key', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    const reader = r.duplicate();
    const read = reader.xread('BLOCK', 0, 'STREAMS', 's', '$');
    await whenReady(reader); // the read was held until the new client was ready
    await r.restore('s', 0, STREAM_70);
    expect(await read).toEqual([['s', [['1-1', ['f', 'v']]]]]);
    [r, reader].forEach((c) => c.disconnect());
  });

  it('keeps the keyspace node limits for the restored stream', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    await r.config('SET', 'stream-node-max-entries', '1');
    await r.restore('s', 0, STREAM_70);
    await r.xadd('s', '2-0', 'f', 'v');
    expect(field((await r.xinfo('STREAM', 's')) as unknown[], 'radix-tree-keys')).toBe(2);
    r.disconnect();
  });

  describe('error cases', () => {
    it('options, BUSYKEY and TTL errors in Redis\'s order', async () => {
      const r = client();
      await r.set('k', 'v');
      expect(await error(r.call('RESTORE', 'k', 0, 'x', 'foo'))).toBe('ERR syntax error');
      expect(await error(r.restore('k', 0, 'x', 'IDLETIME', -1))).toBe('ERR Invalid IDLETIME value, must be >= 0');
      expect(await error(r.restore('k', 0, 'x', 'FREQ', 256))).toBe('ERR Invalid FREQ value, must be >= 0 and <= 255');
      expect(await error(r.call('RESTORE', 'k', 0, 'x', 'FREQ', 1, 'IDLETIME', 1))).toBe('ERR syntax error');
      expect(await error(r.restore('k', 0, 'x', 'IDLETIME', 'x'))).toBe('ERR value is not an integer or out of range');
      expect(await error(r.restore('k', 0, 'x'))).toBe('BUSYKEY Target key name already exists.');
      expect(await error(r.restore('n', -1, 'x'))).toBe('ERR Invalid TTL value, must be >= 0');
      expect(await error(r.restore('n', 'abc', 'x'))).toBe('ERR value is not an integer or out of range');
      expect(await error(r.call('RESTORE', 'n', '0'))).toBe("ERR wrong number of arguments for 'restore' command");
      r.disconnect();
    });

    it('payloads: too short, bad checksum, newer RDB version, bad data', async () => {
      const r70 = client({ streams: { redisVersion: '7.0' } });
      const r = client({ port: ++port });
      await r.xadd('s', '1-1', 'f', 'v');
      const newer: Buffer = await r.dumpBuffer('s');
      expect(await error(r70.restore('n', 0, '0123456789'))).toBe('ERR DUMP payload version or checksum are wrong');
      expect(await error(r70.restore('n', 0, newer))).toBe('ERR DUMP payload version or checksum are wrong');
      const flipped = Buffer.from(STREAM_70);
      flipped[5] ^= 1;
      expect(await error(r70.restore('n', 0, flipped))).toBe('ERR DUMP payload version or checksum are wrong');
      // a valid footer around a truncated body: the loader refuses it
      const body = Buffer.concat([STREAM_70.subarray(0, 20), Buffer.from([0x0a, 0x00])]);
      const { crc64Bytes } = await import('../../lib/rdb/crc64');
      const forged = Buffer.concat([body, Buffer.from(crc64Bytes(body))]);
      expect(await error(r70.restore('n', 0, forged))).toBe('ERR Bad data format');
      expect(await r70.exists('n')).toBe(0);
      [r70, r].forEach((c) => c.disconnect());
    });

    it('loads a list payload from redis-server 7.0.15; a malformed pre-7.0 payload is bad data', async () => {
      const r = client({ streams: { redisVersion: '7.0' } });
      const list = Buffer.from('\x12\x01\x02\r\r\x00\x00\x00\x02\x00\x81a\x02\x81b\x02\xff\n\x00h\xeb\n\x89\x13A\xbb\xb1', 'latin1');
      expect(await r.restore('l', 0, list)).toBe('OK');
      expect(await r.lrange('l', 0, -1)).toEqual(['a', 'b']);
      const { crc64Bytes } = await import('../../lib/rdb/crc64');
      const body = Buffer.from([0x0d, 0x00, 0x0a, 0x00]); // a 6.x hash ziplist of 0 bytes (at least 11 needed)
      expect(await error(r.restore('z', 0, Buffer.concat([body, Buffer.from(crc64Bytes(body))])))).toBe('ERR Bad data format');
      expect(await r.exists('z')).toBe(0);
      r.disconnect();
    });
  });
});

describe('WATCH', () => {
  it('sees RESTORE and COPY modify the key', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    const other = r.duplicate();
    await r.watch('k');
    await other.restore('k', 0, STREAM_70);
    expect(await r.multi().xlen('k').exec()).toBeNull();
    await r.watch('k2');
    await other.copy('k', 'k2');
    expect(await r.multi().xlen('k2').exec()).toBeNull();
    [r, other].forEach((c) => c.disconnect());
  });
});

describe('COPY', () => {
  it('deep-copies a stream: the copy evolves on its own', async () => {
    const r = client();
    await r.xadd('s', '1-1', 'f', 'v');
    await r.xgroup('CREATE', 's', 'g', '0');
    await r.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
    expect(await r.copy('s', 'd')).toBe(1);
    expect(await r.xinfo('STREAM', 'd', 'FULL')).toEqual(await r.xinfo('STREAM', 's', 'FULL'));
    await r.xack('d', 'g', '1-1');
    await r.xadd('d', '2-0', 'f', 'w');
    expect(await r.xpending('s', 'g')).toEqual([1, '1-1', '1-1', [['c', '1']]]);
    expect(await r.xlen('s')).toBe(1);
    expect(await r.dumpBuffer('s')).not.toEqual(await r.dumpBuffer('d'));
    r.disconnect();
  });

  it('copies the TTL, respects REPLACE, answers 0 for a missing source or an existing destination', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const r = client({ streams: { clock } });
    await r.xadd('s', '1-1', 'f', 'v');
    await r.pexpire('s', 5000);
    await r.set('d', 'x');
    expect(await r.copy('nokey', 'z')).toBe(0);
    expect(await r.copy('s', 'd')).toBe(0);
    expect(await r.copy('s', 'd', 'REPLACE')).toBe(1);
    expect(await r.pttl('d')).toBe(5000);
    r.disconnect();
  });

  it('copies every type ioredis-mock stores', async () => {
    const r = client();
    await r.set('str', 'héllo');
    await r.rpush('list', 'a', 'b');
    await r.hset('hash', 'f', 'v', 'g', 'w');
    await r.sadd('set', 'x', 'y');
    await r.zadd('zset', 1, 'one', 2, 'two');
    for (const k of ['str', 'list', 'hash', 'set', 'zset']) expect(await r.copy(k, `${k}2`)).toBe(1);
    expect(await r.get('str2')).toBe('héllo');
    expect(await r.lrange('list2', 0, -1)).toEqual(['a', 'b']);
    expect(await r.hgetall('hash2')).toEqual({ f: 'v', g: 'w' });
    expect((await r.smembers('set2')).sort()).toEqual(['x', 'y']);
    // (ioredis 6.0.0 types ZRANGE's stop as string | Buffer only)
    expect(await r.zrange('zset2', 0, '-1', 'WITHSCORES')).toEqual(['one', '1', 'two', '2']);
    await r.rpush('list2', 'c');
    expect(await r.llen('list')).toBe(2);
    r.disconnect();
  });

  it('keeps the encoding of a hash: a hashtable hash shrunk small stays a hashtable, a listpack one stays a listpack (hashTypeDup, as 7.0.15 and the post-7.4 build answer)', async () => {
    for (const redisVersion of ['7.0', '8.10']) {
      port++; // a server of its own for each version
      const r = client({ streams: { redisVersion } });
      await r.config('SET', 'hash-max-listpack-entries', '1');
      await r.hset('big', 'a', '1', 'b', '2');
      await r.hdel('big', 'a');
      await r.hset('small', 'a', '1');
      await r.config('SET', 'hash-max-listpack-entries', '128');
      expect(await r.object('ENCODING', 'big')).toBe('hashtable');
      expect(await r.copy('big', 'big2')).toBe(1);
      expect(await r.copy('big', 'big3', 'DB', 1)).toBe(1);
      await r.config('SET', 'hash-max-listpack-entries', '0');
      expect(await r.copy('small', 'small2')).toBe(1);
      expect(await r.object('ENCODING', 'big2')).toBe('hashtable');
      expect(await r.object('ENCODING', 'small2')).toBe('listpack');
      await r.select(1);
      expect(await r.object('ENCODING', 'big3')).toBe('hashtable');
      expect(await r.hgetall('big3')).toEqual({ b: '2' });
      r.disconnect();
    }
  });

  it('copies to another database of the same server (DB n) and wakes readers there', async () => {
    const r = client({ streams: { redisVersion: '7.0' } });
    const db3 = client({ db: 3, streams: { redisVersion: '7.0' } });
    const reader = db3.duplicate();
    const read = reader.xread('BLOCK', 0, 'STREAMS', 's', '$');
    await r.xadd('s', '1-1', 'f', 'v');
    expect(await r.copy('s', 's', 'DB', 3)).toBe(1);
    expect(await read).toEqual([['s', [['1-1', ['f', 'v']]]]]);
    expect(await db3.dumpBuffer('s')).toEqual(STREAM_70);
    expect(streamsKeyspace(db3)).not.toBe(streamsKeyspace(r));
    [r, db3, reader].forEach((c) => c.disconnect());
  });

  describe('error cases', () => {
    it('same object, DB arguments, syntax', async () => {
      const r = client();
      await r.set('k', 'v');
      expect(await error(r.copy('k', 'k'))).toBe('ERR source and destination objects are the same');
      expect(await error(r.copy('k', 'k', 'DB', 0))).toBe('ERR source and destination objects are the same');
      expect(await error(r.copy('k', 'k2', 'DB', 16))).toBe('ERR DB index is out of range');
      expect(await error(r.copy('k', 'k2', 'DB', -1, 'REPLACE'))).toBe('ERR DB index is out of range');
      expect(await error(r.copy('k', 'k2', 'DB', 'x'))).toBe('ERR value is not an integer or out of range');
      expect(await error(r.copy('k', 'k2', 'DB', '99999999999'))).toBe(
        'ERR value is out of range, value must between -2147483648 and 2147483647',
      );
      expect(await error(r.call('COPY', 'k', 'k2', 'DB', 1, 'foo'))).toBe('ERR syntax error');
      expect(await error(r.call('COPY', 'k', 'k2', 'foo'))).toBe('ERR syntax error');
      r.disconnect();
    });
  });
});
