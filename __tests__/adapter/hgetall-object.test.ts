/**
 * HGETALL through an ioredis method: a new object per call, as ioredis's transformer builds it,
 * even when the hash was not written between calls (the package then copies one object it made
 * from the hash's kept snapshot, lib/adapter/ioredis-reply.ts keptPairsObject).
 */
import IORedisReal from 'ioredis';
import Redis, { createFakeClock } from 'ioredis-mock-streams';

let port = 51_300;
const client = (opts: Record<string, unknown> = {}) => new Redis({ port: port++, ...opts } as never) as unknown as IORedisReal;

describe('HGETALL as an object (ioredis hgetall transformer)', () => {
  it('answers a fresh object each call: changing one does not change the next', async () => {
    const r = client();
    try {
      await r.hset('h', 'a', '1', 'b', '2');
      const first = await r.hgetall('h');
      first.a = 'changed';
      delete first.b;
      first.extra = 'x';
      const second = await r.hgetall('h');
      expect(second).toEqual({ a: '1', b: '2' });
      expect(second).not.toBe(first);
      expect(Object.getPrototypeOf(second)).toBe(Object.prototype);
    } finally {
      r.disconnect();
    }
  });

  it('follows each write: HSET of a value, a new field, HDEL, HINCRBY', async () => {
    const r = client();
    try {
      await r.hset('h', 'a', '1');
      expect(await r.hgetall('h')).toEqual({ a: '1' });
      await r.hset('h', 'a', '2', 'b', '3');
      expect(await r.hgetall('h')).toEqual({ a: '2', b: '3' });
      await r.hincrby('h', 'b', 4);
      expect(await r.hgetall('h')).toEqual({ a: '2', b: '7' });
      await r.hdel('h', 'a');
      expect(await r.hgetall('h')).toEqual({ b: '7' });
      await r.hdel('h', 'b');
      expect(await r.hgetall('h')).toEqual({});
    } finally {
      r.disconnect();
    }
  });

  it('drops a field whose TTL passed on the fake clock, though the hash was read just before', async () => {
    const clock = createFakeClock({ now: 1_000_000 });
    const r = client({ streams: { clock } });
    try {
      await r.hset('h', 'a', '1', 'b', '2');
      await r.call('HPEXPIRE', 'h', '100', 'FIELDS', '1', 'b');
      // listpackex: the field with a TTL first (HKEYS order), as the object's key order shows
      expect(Object.entries(await r.hgetall('h'))).toEqual([
        ['b', '2'],
        ['a', '1'],
      ]);
      clock.tick(100); // at the deadline ms the field is still there (expireAt < now expires)
      expect(await r.hgetall('h')).toEqual({ b: '2', a: '1' });
      clock.tick(1);
      expect(await r.hgetall('h')).toEqual({ a: '1' });
    } finally {
      r.disconnect();
    }
  });

  it('keeps __proto__ and constructor as own fields, in ioredis order, and decodes UTF-8 fields', async () => {
    const r = client();
    try {
      await r.hset('h', '__proto__', 'p', 'constructor', 'c', 'f', 'v', '10', 'n');
      for (let i = 0; i < 2; i++) {
        const o = await r.hgetall('h');
        expect(Object.keys(o)).toEqual(['10', '__proto__', 'constructor', 'f']);
        expect(Object.getOwnPropertyDescriptor(o, '__proto__')?.value).toBe('p');
        expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
        expect(o.constructor).toBe('c');
      }
      await r.hset('u', 'é', 'ü');
      expect(await r.hgetall('u')).toEqual({ é: 'ü' });
      expect(await r.hgetall('u')).toEqual({ é: 'ü' });
      expect(await r.hgetallBuffer('u')).toEqual({ é: Buffer.from('ü') });
    } finally {
      r.disconnect();
    }
  });
});
