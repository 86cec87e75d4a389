/**
 * Replies whose strings are all ASCII are handed over after one check of them all (ioredis-reply
 * decodeAll); any other reply decodes string by string. Both give what ioredis gives.
 */
import Redis from 'ioredis-mock-streams';

describe('array replies of strings, ASCII or not', () => {
  let redis: any;
  beforeEach(() => {
    redis = new Redis({ port: 47_751 });
  });
  afterEach(async () => {
    await redis.flushall();
    redis.disconnect();
  });

  it('HGETALL and MGET of ASCII strings', async () => {
    await redis.hset('h', 'f1', 'v1', 'f2', 'v2');
    expect(await redis.hgetall('h')).toEqual({ f1: 'v1', f2: 'v2' });
    await redis.mset('a', '1', 'b', 'two');
    expect(await redis.mget('a', 'b')).toEqual(['1', 'two']);
  });

  it('decodes UTF-8 and invalid bytes among ASCII strings as ioredis does', async () => {
    await redis.hset('h', 'plain', 'v', 'caf\u00e9', '\u00fcber', 'bin', Buffer.from([0x61, 0xff]));
    expect(await redis.hgetall('h')).toEqual({ plain: 'v', 'caf\u00e9': '\u00fcber', bin: 'a\ufffd' });
    await redis.mset('a', 'x', 'b', '\u65e5\u672c');
    expect(await redis.mget('a', 'b', 'missing')).toEqual(['x', '\u65e5\u672c', null]);
    expect(await redis.mgetBuffer('a', 'b')).toEqual([Buffer.from('x'), Buffer.from('\u65e5\u672c')]);
  });

  it('HGETALL of ASCII fields builds the object as ioredis does: __proto__ and constructor as own fields, an empty hash {}, Buffers from hgetallBuffer', async () => {
    await redis.hset('h', '__proto__', 'p', 'constructor', 'c', 'toString', 't');
    const got = await redis.hgetall('h');
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(['__proto__', 'constructor', 'toString']);
    expect([got.__proto__, got.constructor, got.toString]).toEqual(['p', 'c', 't']);
    expect(await redis.hgetall('missing')).toEqual({});
    expect(Object.entries(await redis.hgetallBuffer('h'))).toEqual([
      ['__proto__', Buffer.from('p')],
      ['constructor', Buffer.from('c')],
      ['toString', Buffer.from('t')],
    ]);
    const viaCall = await redis.call('HGETALL', 'h'); // no transformer for the name as written
    expect(viaCall).toEqual(['__proto__', 'p', 'constructor', 'c', 'toString', 't']);
  });

  it('hands over a new array each time (changing a reply changes nothing stored)', async () => {
    await redis.rpush('l', 'a', 'b', 'c');
    const first = await redis.lrange('l', 0, -1);
    first[0] = 'changed';
    first.push('more');
    expect(await redis.lrange('l', 0, -1)).toEqual(['a', 'b', 'c']);
  });
});
