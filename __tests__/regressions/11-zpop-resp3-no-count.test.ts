/**
 * Found by a new-user trial: with `replyMapping: 'resp3'` (ioredis 6), ZPOPMIN/ZPOPMAX without a
 * count answer the member and its score flat (`['a', 1]`), and nested pairs only when a count is
 * given — Redis's RESP3 reply (t_zset.c genericZpopCommand). The fake nested them always. The
 * same script runs with real ioredis on redis-server when REDIS_URL is set (7.0.15 and the 8.x
 * build give the same replies).
 */
import Redis from 'ioredis-mock-streams';
import { itOnServer } from '../helpers/real-server';

const major = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);

async function script(r: any, k: string): Promise<unknown[]> {
  await r.del(k);
  await r.zadd(k, 1, 'a', 2, 'b', 3, 'c', 4, 'd');
  const out = [await r.zpopmin(k), await r.zpopmin(k, 1), await r.zpopmax(k, 2), await r.zpopmin(k)];
  const p = await r.pipeline().zadd(k, 5, 'e').zpopmax(k).exec();
  out.push(p[1][1]);
  await r.del(k);
  return out;
}

const EXPECTED = [['a', 1], [['b', 2]], [['d', 4], ['c', 3]], [], ['e', 5]];

// skip: under ioredis 5 (npm run test:ioredis5): ioredis 5 has no replyMapping, nothing to check; runs on ioredis 6
(major === 6 ? describe : describe.skip)('ZPOPMIN/ZPOPMAX with replyMapping resp3 (ioredis 6 only: ioredis 5 has no replyMapping)', () => {
  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 5 has no replyMapping; runs on ioredis 6
  // skip: with its describe under ioredis 5 (npm run test:ioredis5): an ioredis 6 behaviour; runs on ioredis 6
  it('answer member and score flat without a count, pairs with one', async () => {
    const r = new Redis({ port: 50_900, replyMapping: 'resp3' } as any);
    expect(await script(r, 'zp')).toEqual(EXPECTED);
    r.disconnect();
  });

  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  // skip: with its describe under ioredis 5 (npm run test:ioredis5): an ioredis 6 behaviour; runs on ioredis 6
  itOnServer('as real ioredis 6 on redis-server', 'ZPOPMIN resp3 shapes', { replyMapping: 'resp3' }, async (r) => {
    expect(await script(r, `zp:${process.pid}`)).toEqual(EXPECTED);
  });
});
