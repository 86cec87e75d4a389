/**
 * Found by comparing with redis-server 7.0.15: `ZPOPMIN k 0` / `ZPOPMAX k 0` answer an empty
 * array and pop nothing (t_zset.c genericZpopCommand, after the type check: a key of another
 * type is still WRONGTYPE). The fake emptied the whole sorted set (ioredis-mock reads a count of
 * 0 as no count). Negative and malformed counts are errors that pop nothing. The same script
 * runs with real ioredis on redis-server when REDIS_URL is set.
 */
import { type AnyClient, itOnFakeAndServer } from '../helpers/real-server';

const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : x);
const attempt = async (p: Promise<unknown>) => show(await p.catch((e: unknown) => e));

async function script(r: AnyClient, k: string): Promise<unknown[]> {
  const s = `${k}:s`;
  await r.del(k, s);
  await r.zadd(k, 1, 'a', 2, 'b', 3, 'c');
  await r.set(s, 'x');
  const out: unknown[] = [];
  out.push(await r.zpopmin(k, 0), await r.zpopmax(k, '0'), await r.zcard(k));
  for (const count of [-1, '-0', '+0', '00', '1.5', 'x']) out.push(await attempt(r.zpopmin(k, count)));
  out.push(await attempt(r.zpopmax(k, -2)), await r.zcard(k));
  out.push(await attempt(r.zpopmin(s, 0)), await r.zpopmin(`${k}:missing`, 0));
  out.push(await r.call('ZPOPMAX', k, '0'));
  out.push(show(await r.pipeline().zpopmin(k, 0).zpopmax(k, 0).zcard(k).exec()));
  out.push(show(await r.multi().zpopmin(k, 0).zcard(k).exec()));
  out.push(await r.eval("return {redis.call('ZPOPMIN', KEYS[1], 0), redis.call('ZPOPMAX', KEYS[1], '0'), redis.call('ZCARD', KEYS[1])}", 1, k));
  out.push(await r.zpopmin(k, 1), await r.zcard(k));
  await r.del(k, s);
  return out;
}

const POSITIVE = 'E:ERR value is out of range, must be positive';
const EXPECTED = [
  [], [], 3,
  POSITIVE, POSITIVE, POSITIVE, POSITIVE, POSITIVE, POSITIVE,
  POSITIVE, 3,
  'E:WRONGTYPE Operation against a key holding the wrong kind of value', [],
  [],
  [[null, []], [null, []], [null, 3]],
  [[null, []], [null, 3]],
  [[], [], 3],
  ['a', '1'], 2,
];

describe('ZPOPMIN/ZPOPMAX with a count of 0', () => {
  itOnFakeAndServer('answer an empty array and leave the sorted set whole', 'ZPOPMIN count 0', { port: 50_910, key: 'zp0' }, script, EXPECTED);
});
