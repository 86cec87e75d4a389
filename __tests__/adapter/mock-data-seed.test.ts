/**
 * ioredis-mock's `data` constructor option (and `redis.data.set`), as users migrating from
 * ioredis-mock seed their tests: its stream shape (`[id, [field, value, …]]` entries, with
 * `stream:<key>:<id>` = `{ polled: false }` bookkeeping keys) becomes a stream, and empty
 * containers are no keys, as on a real server (found by running ioredis-mock's own test suite
 * against the package: a seeded stream answered as a list, `LPOP` of a seeded `[]` resolved
 * `undefined`). Expected replies: redis-server 7.0.15 and the 8.x build given the same entries
 * with XADD.
 */
import Redis from 'ioredis-mock-streams';

const WRONG_ID = 'ERR The ID specified in XADD is equal or smaller than the target stream top item';

describe("ioredis-mock's data option", () => {
  it('seeds a stream from [id, [field, value]] entries: TYPE, XLEN, XRANGE, XADD and groups answer as for a stream', async () => {
    const redis = new Redis({
      port: 51_101,
      data: {
        stream: [
          ['1-0', ['key', 'val']],
          ['2-0', ['key', 'val', 'k2', 'v2']],
          ['3-5', ['key', 'val']],
        ],
        'stream:stream:1-0': { polled: false },
        'stream:stream:2-0': { polled: false },
        'stream:stream:3-5': { polled: true },
      },
    }) as any;
    expect(await redis.type('stream')).toBe('stream');
    expect(await redis.xlen('stream')).toBe(3);
    expect(await redis.xrange('stream', '-', '+')).toEqual([
      ['1-0', ['key', 'val']],
      ['2-0', ['key', 'val', 'k2', 'v2']],
      ['3-5', ['key', 'val']],
    ]);
    await expect(redis.xadd('stream', '3-5', 'f', 'v')).rejects.toThrow(WRONG_ID);
    expect(await redis.xadd('stream', '3-6', 'f', 'v')).toBe('3-6');
    await redis.xgroup('CREATE', 'stream', 'g', '0');
    const read = await redis.xreadgroup('GROUP', 'g', 'c', 'COUNT', 2, 'STREAMS', 'stream', '>');
    expect(read).toEqual([['stream', [['1-0', ['key', 'val']], ['2-0', ['key', 'val', 'k2', 'v2']]]]]);
    // XINFO STREAM as after three XADDs and one more
    const info = await redis.xinfo('STREAM', 'stream');
    expect(info[info.indexOf('entries-added') + 1]).toBe(4);
    expect(info[info.indexOf('max-deleted-entry-id') + 1]).toBe('0-0');
    // ioredis-mock's XREAD bookkeeping keys are no keys of a server
    expect((await redis.keys('*')).sort()).toEqual(['stream']);
    redis.disconnect();
  });

  it('blocks and wakes an XREAD on a seeded stream', async () => {
    const redis = new Redis({ port: 51_102, data: { s: [['5-0', ['a', '1']]] } }) as any;
    const other = new Redis({ port: 51_102 }) as any;
    const read = redis.xread('BLOCK', 0, 'STREAMS', 's', '$');
    await other.xadd('s', '6-0', 'b', '2');
    expect(await read).toEqual([['s', [['6-0', ['b', '2']]]]]);
    redis.disconnect();
    other.disconnect();
  });

  it('stores no key for an empty array, Set, Map or object: LPOP answers nil, SMOVE from it 0', async () => {
    const redis = new Redis({ port: 51_103, data: { l: [], s: new Set(), z: new Map(), h: {}, bar: 'x' } }) as any;
    expect(await redis.dbsize()).toBe(1);
    expect(await redis.exists('l', 's', 'z', 'h')).toBe(0);
    expect(await redis.type('l')).toBe('none');
    expect(await redis.lpop('l')).toBeNull();
    expect(await redis.rpop('l')).toBeNull();
    // the source set does not exist: 0, before the destination's type is looked at
    expect(await redis.smove('s', 'bar', 'two')).toBe(0);
    redis.disconnect();
  });

  it('keeps lists, sets, hashes and strings given in its shapes', async () => {
    const redis = new Redis({ port: 51_104, data: { l: ['a', 'b'], s: new Set(['m']), h: { f: 'v' }, str: 'text' } }) as any;
    expect(await redis.lrange('l', 0, -1)).toEqual(['a', 'b']);
    expect(await redis.smembers('s')).toEqual(['m']);
    expect(await redis.hgetall('h')).toEqual({ f: 'v' });
    expect(await redis.get('str')).toBe('text');
    expect(await redis.type('l')).toBe('list');
    redis.disconnect();
  });

  it('seeds a sorted set from a Map of member → { score, value }, and names the fix for a Map of member → score', async () => {
    const redis = new Redis({ port: 51_110, data: { z: new Map([['m2', { score: 2, value: 'm2' }], ['m1', { score: 1, value: 'm1' }]]) } }) as any;
    expect(await redis.zrange('z', 0, -1, 'WITHSCORES')).toEqual(['m1', '1', 'm2', '2']);
    redis.disconnect();
    expect(() => new Redis({ port: 51_111, data: { z: new Map([['m1', 1]]) } })).toThrow(
      'data for key "z": a sorted set is a Map of member → { score, value } (ioredis-mock\'s shape), e.g. new Map([[\'m1\', { score: 1, value: \'m1\' }]]); member "m1" has 1',
    );
  });

  it('redis.data.set takes the same shapes as the option', async () => {
    const redis = new Redis({ port: 51_105 }) as any;
    redis.data.set('s', [['1-1', ['f', 'v']]]);
    redis.data.set('l', []);
    expect(await redis.xrange('s', '-', '+')).toEqual([['1-1', ['f', 'v']]]);
    expect(await redis.exists('l')).toBe(0);
    redis.disconnect();
  });

  it('refuses stream entries out of order with a StreamsMockError that names the key and the entry', () => {
    expect(() => new Redis({ port: 51_106, data: { s: [['2-0', ['f', 'v']], ['1-0', ['f', 'v']]] } })).toThrow(
      'data for key "s": stream entry "1-0": IDs must be increasing (the entry before is 2-0); order the entries by ID',
    );
    expect(() => new Redis({ port: 51_109, data: { s: [['0-0', ['f', 'v']]] } })).toThrow('data for key "s": stream entry "0-0": IDs must be above 0-0 (as XADD requires); start at 0-1 or 1-0');
    expect(() => new Redis({ port: 51_107, data: { s: [['x', ['f', 'v']]] } })).toThrow(/stream entry "x": not a stream ID/);
    expect(() => new Redis({ port: 51_108, data: { s: [['1-0', ['f']]] } })).toThrow(/flat \[field, value, …\] list/);
  });
});
