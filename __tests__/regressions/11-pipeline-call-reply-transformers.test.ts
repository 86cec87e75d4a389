/**
 * Found by a new-user trial, checked with real ioredis 5.11.1 and 6.0.0 on redis-server 7.0.15:
 * ioredis looks its reply transformers up by the command name exactly as given, in a pipeline
 * and in multi() as for a direct `call()`: `pipeline().call('HGETALL', k)` gives the flat array
 * (hgetall's transformer makes the object only for `hgetall`), and on ioredis 6 (RESP3, legacy
 * mapping) `call('ZRANGE', …, 'WITHSCORES')` keeps the `[member, score]` pairs that `zrange()`
 * flattens. The fake lower-cased the name of a built-in queued with `call()`, so it answered the
 * object and the flat list. ioredis 6.1.0 (IOREDIS_VERSION=6.1) flattens `call('ZRANGE', …,
 * 'WITHSCORES')` too (Command.js caseInsensitiveReplyTransformers), HGETALL stays flat.
 */
import { type AnyClient, ioredisMajor, ioredisVersion, itOnFakeAndServer } from '../helpers/real-server';

async function script(r: AnyClient, k: string): Promise<unknown[]> {
  const [h, z] = [`${k}:h`, `${k}:z`];
  await r.del(h, z);
  await r.hset(h, 'a', 1);
  await r.zadd(z, 1, 'm', 2, 'n');
  const piped = await r.pipeline().call('HGETALL', h).hgetall(h).call('ZRANGE', z, 0, -1, 'WITHSCORES').zrange(z, 0, -1, 'WITHSCORES').call('hgetall', h).exec();
  const multi = await r.multi().call('HGETALL', h).call('ZRANGE', z, 0, -1, 'WITHSCORES').exec();
  const fromArray = await r.pipeline([['call', 'HGETALL', h]]).exec();
  await r.del(h, z);
  return [piped.map((p: [unknown, unknown]) => p[1]), multi.map((p: [unknown, unknown]) => p[1]), fromArray[0][1]];
}

// ioredis 6.1.0 finds zrange's transformer from 'ZRANGE' too (flat, as zrange()); hgetall's still only by its exact name
const PAIRS = ioredisMajor >= 6 && ioredisVersion.startsWith('6.0.') ? [['m', '1'], ['n', '2']] : ['m', '1', 'n', '2'];
const EXPECTED = [
  [['a', '1'], { a: '1' }, PAIRS, ['m', '1', 'n', '2'], { a: '1' }],
  [['a', '1'], PAIRS],
  ['a', '1'],
];

describe('call() in a pipeline and in multi()', () => {
  itOnFakeAndServer('applies the reply transformers of the name exactly as given (HGETALL, ZRANGE … WITHSCORES)', 'pipeline call() reply shapes', { port: 50_961, key: 'pipecall' }, script, EXPECTED);
});
