/**
 * From Redis 8.2 the key (and a volatile key's expire time) is embedded in the value object
 * (kvobj), with a short string value in the same allocation and no dictEntry. Redis's newer
 * tests/unit/type/string.tcl (`MEMORY USAGE - STRINGS`) bounds MEMORY USAGE of a string by
 * 16 + key length + value length and by max(64, twice that); the fake still counted 8.0's robj,
 * key sds and dictEntry (72 bytes for a 1-byte key and value). 8.0 and earlier are unchanged.
 */
import Redis from 'ioredis-mock-streams';

type Client = any; // eslint-disable-line @typescript-eslint/no-explicit-any
let port = 53_950;
const client = (redisVersion: string): Client => new Redis({ port: ++port, streams: { redisVersion } } as never);
const SIZES = [1, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257];

describe('MEMORY USAGE of a string with its key embedded (8.2+)', () => {
  it('stays within string.tcl\'s bounds for every key and value size', async () => {
    const r = client('8.10');
    const outside: unknown[] = [];
    for (const ks of SIZES) {
      const key = 'k'.repeat(ks);
      for (const vs of SIZES) {
        await r.set(key, 'v'.repeat(vs));
        const used = await r.memory('USAGE', key);
        const min = 16 + ks + vs;
        const max = min < 32 ? 64 : min * 2;
        if (used < min || used > max) outside.push([ks, vs, used]);
      }
      for (const v of [1, 100, 10000, 10000000]) {
        await r.set(key, v);
        if ((await r.memory('USAGE', key)) < 16 + ks) outside.push([ks, v]);
      }
    }
    expect(outside).toEqual([]);
    r.disconnect();
  });

  it('one glibc chunk for a short key and value, its expire time included (8.2+)', async () => {
    const r = client('8.10');
    await r.set('x234', 'y2345');
    expect(await r.memory('USAGE', 'x234')).toBe(40); // 16 + 1 + 1 + 4 + 1 + 3 + 5 + 1 = 32: a 40-byte chunk
    await r.set('x234', 'y234561234567', 'EX', 5678315);
    expect(await r.memory('USAGE', 'x234')).toBe(56); // 48 with the expire time: a 56-byte chunk
    r.disconnect();
  });

  it('8.0 keeps the robj, the key sds and the dictEntry', async () => {
    const r = client('8.0');
    await r.set('k', 'v');
    expect(await r.memory('USAGE', 'k')).toBe(72);
    r.disconnect();
  });
});
