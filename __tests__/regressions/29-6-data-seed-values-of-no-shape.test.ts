/**
 * ioredis-mock's `data` option (and `redis.data.set`) stored any value: `{ s: null }` made a key
 * that TYPE called none while EXISTS counted it and GET answered WRONGTYPE; `{ b: true }` (and a
 * bigint) a "string" GET refused; a Date a key that was not there (found by a fresh-user trial).
 * Now a boolean or bigint is its text, as ioredis sends one (`set('b', true)` stores "true"), and
 * a value of no shape a key holds is refused with a StreamsMockError naming the key and the shapes.
 */
import Redis from '../../lib/index';
import { StreamsMockError } from '../../lib/clock/clock';

describe('data seed values', () => {
  it('stores a boolean and a bigint as their text', async () => {
    const redis = new Redis({ port: 58_360, data: { b: true, n: 12345678901234567890n } });
    expect(await redis.type('b')).toBe('string');
    expect(await redis.get('b')).toBe('true');
    expect(await redis.get('n')).toBe('12345678901234567890');
    redis.disconnect();
  });

  it.each([
    ['null', null, 'null is no value a key holds'],
    ['a function', () => 1, 'a function is no value a key holds'],
    ['a Date', new Date(0), 'a Date is no value a key holds'],
  ])('refuses %s, naming the key', (_, value, message) => {
    const make = () => new Redis({ port: 58_361, data: { s: value } });
    expect(make).toThrow(StreamsMockError);
    expect(make).toThrow(`data for key "s": ${message}`);
  });

  it('refuses it through redis.data.set too, and keeps the shapes it takes', async () => {
    const redis = new Redis({ port: 58_362, data: { h: { f: 'v' }, l: ['a'], s: new Set(['m']), str: Buffer.from([0xff]) } });
    expect(() => (redis as unknown as { data: { set(k: string, v: unknown): void } }).data.set('x', null)).toThrow(StreamsMockError);
    expect(await redis.exists('x')).toBe(0);
    expect([await redis.type('h'), await redis.type('l'), await redis.type('s'), await redis.type('str')]).toEqual(['hash', 'list', 'set', 'string']);
    expect(await redis.getBuffer('str')).toEqual(Buffer.from([0xff]));
    // a Uint8Array that is no Buffer: its bytes too (it was stored as a hash of its indexes)
    (redis as unknown as { data: { set(k: string, v: unknown): void } }).data.set('u8', new Uint8Array([65, 66]));
    expect([await redis.type('u8'), await redis.get('u8')]).toEqual(['string', 'AB']);
    redis.disconnect();
  });
});
