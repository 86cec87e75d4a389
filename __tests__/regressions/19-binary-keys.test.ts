/**
 * Issue 19: keys are bytes. Two keys that differ only in bytes that are not valid UTF-8
 * (`x\xff`, `x\xfe`) are two keys, on the fake as on redis-server; KEYS and SCAN give back
 * their bytes.
 */
import { itOnFakeAndServer } from '../helpers/real-server';

const bin = (hex: string) => Buffer.from(hex, 'hex');

describe('keys are byte strings (issue 19)', () => {
  itOnFakeAndServer(
    'keeps x\\xff and x\\xfe apart: a stream at each, each with its own entry',
    'binary stream keys',
    { port: 19001, key: 'bk1' },
    async (r, key) => {
      const a = Buffer.concat([Buffer.from(key), bin('ff')]);
      const b = Buffer.concat([Buffer.from(key), bin('fe')]);
      await r.del(a, b);
      const out = [await r.xadd(a, '1-1', 'f', 'v'), await r.xadd(b, '1-1', 'f', 'v'), await r.exists(a, b)];
      const found = (await r.keysBuffer(`${key}*`)).map((k: Buffer) => k.subarray(key.length).toString('hex')).sort();
      await r.del(a, b);
      return [...out, found];
    },
    ['1-1', '1-1', 2, ['fe', 'ff']],
  );

  itOnFakeAndServer(
    'answers KEYS with the key bytes as written, invalid UTF-8 included',
    'binary KEYS',
    { port: 19002, key: 'bk2' },
    async (r, key) => {
      const a = Buffer.concat([Buffer.from(key), bin('ff00c3a9')]);
      await r.del(a);
      await r.xadd(a, '1-1', 'f', 'v');
      const found = (await r.keysBuffer(`${key}*`)).map((k: Buffer) => k.subarray(key.length).toString('hex'));
      const type = await r.type(a);
      await r.del(a);
      return [found, type];
    },
    [['ff00c3a9'], 'stream'],
  );
});
