/**
 * Found by comparing with redis-server 7.0.15: Redis reads the bounds of a sorted-set score
 * range with strtod (t_zset.c zslParseRange), so `1.5` is 1.5, `1e2` is 100, `0x10` is 16,
 * `inf` / `-inf` / `+inf` are inclusive infinities, leading spaces are skipped, `(` makes a
 * bound exclusive and `nan` is `ERR min or max is not a float`; members come by score, then by
 * their bytes. ioredis-mock read the bounds with parseInt and took ±inf as exclusive:
 * `ZRANGEBYSCORE k -inf +inf` left out the members scored ±inf, `ZCOUNT k inf inf` counted
 * every member, `ZRANGEBYSCORE k 1.5 3` took in a member scored 1.2, and ZREMRANGEBYSCORE
 * removed members Redis keeps (`1.5 3` took 1.2 with it; `(inf inf` emptied the set). LIMIT:
 * a negative offset selects nothing, a negative count is no limit (ioredis-mock read -2 as
 * "all but the last two"). The same for ZREVRANGEBYSCORE, ZRANGE … BYSCORE [REV], in
 * pipelines, MULTI and Lua. The same script runs with real ioredis on redis-server when
 * REDIS_URL is set; the fake emulates 7.0 here, as REDIS_URL is 7.0.15 (8.0 reads doubles with
 * fast_float: no hex, no leading space, overflows are infinities — checked on the post-7.4
 * build, see __tests__/differential/zset-real-server.test.ts).
 */
import { type AnyClient, itOnFakeAndServer, replyShapeCases } from '../helpers/real-server';

const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : Buffer.isBuffer(x) ? `B:${x}` : x);
const attempt = async (p: Promise<unknown>) => show(await p.catch((e: unknown) => e));

async function script(r: AnyClient, k: string): Promise<Record<string, unknown>> {
  await r.del(k);
  const out: Record<string, unknown> = {};
  await r.zadd(k, '-inf', 'ninf', 1, 'one', 1.2, 'a12', 1.5, 'a15', 2, 'two', 2, 'b2', 3, 'three', 16, 'sixteen', 100, 'hundred', 'inf', 'pinf');
  out.infinities = [
    await r.zrangebyscore(k, '-inf', '+inf'), await r.zcount(k, '-inf', '+inf'), await r.zcount(k, 'inf', 'inf'), await r.zcount(k, '-inf', '-inf'),
    await r.zrangebyscore(k, 'inf', 'inf'), await r.zrangebyscore(k, '(inf', 'inf'), await r.zcount(k, '(-inf', '-inf'), await r.zrangebyscore(k, '(-inf', '(1.2'),
    await r.zrangebyscore(k, 'Infinity', '+INF'), await r.zrangebyscore(k, '1e400', 'inf'),
  ];
  out.fractions = [
    await r.zrangebyscore(k, '1.5', '3'), await r.zrangebyscore(k, '(1.2', '(2'), await r.zrangebyscore(k, '1.1', '1.3'), await r.zcount(k, '1.5', '3'),
    await r.zrevrangebyscore(k, '3', '(1.5'), await r.zrangebyscore(k, '(1', '(1.5'),
  ];
  out.floatForms = [
    await r.zrangebyscore(k, '1e2', '1e2'), await r.zrangebyscore(k, '0x10', '0x10'), await r.zrangebyscore(k, ' 1', '1.2'), await r.zrangebyscore(k, '\t\n1.5', ' 2'),
    await r.zrangebyscore(k, '', '1'), await r.zcount(k, '(', '1'), await r.zrangebyscore(k, '.5e1', '+1.6e1'), await r.zrangebyscore(k, '3', '1'),
  ];
  out.notFloats = [
    await attempt(r.zrangebyscore(k, 'nan', 1)), await attempt(r.zcount(k, 1, '(NaN')), await attempt(r.zrangebyscore(k, '1 ', 2)), await attempt(r.zrangebyscore(k, ' ', 2)),
    await attempt(r.zremrangebyscore(k, '0x', 2)), await attempt(r.zcount(k, '1.5x', 2)),
  ];
  out.order = [await r.zrange(k, '2', '2', 'BYSCORE'), await r.zrevrangebyscore(k, '2', '2'), await r.zrangebyscore(k, '(1.5', 3, 'WITHSCORES')];
  out.limit = [
    await r.zrangebyscore(k, '-inf', '+inf', 'LIMIT', 1, 2), await r.zrangebyscore(k, '-inf', '+inf', 'LIMIT', -1, 2), await r.zrangebyscore(k, '(3', '+inf', 'LIMIT', 1, -2),
    await r.zrangebyscore(k, '(3', '+inf', 'LIMIT', 0, 0), await r.zrangebyscore(k, '-inf', '+inf', 'LIMIT', 10, 1), await r.zrevrangebyscore(k, '+inf', '-inf', 'LIMIT', 7, 5),
    await r.zrevrangebyscore(k, '(16', '1.5', 'WITHSCORES', 'LIMIT', 1, 2),
  ];
  out.zrange = [
    await r.zrange(k, '1.5', 'inf', 'BYSCORE', 'LIMIT', 2, -1), await r.zrange(k, 'inf', '1.5', 'BYSCORE', 'REV', 'LIMIT', 0, 2, 'WITHSCORES'),
    await r.zrange(k, '(1', '1.2', 'BYSCORE', 'WITHSCORES'), await r.zrange(k, '1.2', '(1', 'BYSCORE', 'REV'), show(await r.zrangeBuffer(k, '-inf', '(1.2', 'BYSCORE')),
  ];
  out.buffers = [show(await r.zrangebyscoreBuffer(k, '(1.2', '1.5', 'WITHSCORES')), show(await r.zrevrangebyscoreBuffer(k, 'inf', '(16'))];
  out.missing = [await r.zcount(`${k}:none`, '-inf', 'inf'), await r.zrangebyscore(`${k}:none`, '1.5', 3), await r.zremrangebyscore(`${k}:none`, '1.5', 3)];
  // ZREMRANGEBYSCORE removes what Redis selects, and nothing else
  out.remove = [
    await r.zremrangebyscore(k, '1.5', '3'), await r.zrange(k, 0, -1), await r.zremrangebyscore(k, '(inf', 'inf'), await r.zremrangebyscore(k, '2', '1'),
    await r.zremrangebyscore(k, '1.1', '1.3'), await r.zremrangebyscore(k, 'inf', 'inf'), await r.zrange(k, 0, -1), await r.zremrangebyscore(k, '-inf', '+inf'), await r.exists(k),
  ];
  await r.zadd(k, 1.5, 'x', 2, 'y', 'inf', 'z');
  out.pipeline = show(await r.pipeline().zcount(k, '1.5', 'inf').zrangebyscore(k, '(1.5', '+inf').zremrangebyscore(k, '(1.5', '2').zrange(k, 0, -1).exec());
  await r.zadd(k, 2, 'y');
  out.lua = await r.eval(
    "return {redis.call('ZCOUNT', KEYS[1], '-inf', '+inf'), redis.call('ZRANGEBYSCORE', KEYS[1], '(1', 'inf', 'WITHSCORES'), redis.call('ZREVRANGEBYSCORE', KEYS[1], 'inf', '1.5', 'LIMIT', 1, -5), redis.call('ZREMRANGEBYSCORE', KEYS[1], '1.6', 'inf'), redis.call('ZRANGE', KEYS[1], 0, -1)}",
    1, k,
  );
  await r.zadd(k, 2, 'y', 'inf', 'z');
  out.multi = show(await r.multi().zrangebyscore(k, 'inf', 'inf').zremrangebyscore(k, '1.5', '1.5').zcount(k, '-inf', 'inf').exec());
  await r.multi({ pipeline: false });
  await r.zrangebyscore(k, '(2', 'inf');
  await r.zremrangebyscore(k, '(1.9', '2.1');
  await r.zcount(k, 'inf', '+inf');
  out.exec = show(await r.exec());
  await r.del(k);
  return out;
}

/** The replies: `numbers` when scores reach the client as numbers and pairs nested (ioredis 6, replyMapping 'resp3'). */
function expected(numbers: boolean): Record<string, unknown> {
  const ws = (...flat: string[]) => {
    if (!numbers) return flat;
    const pairs: [string, number][] = [];
    for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1] === 'inf' ? Infinity : flat[i + 1] === '-inf' ? -Infinity : Number(flat[i + 1])]);
    return pairs;
  };
  const NOT_FLOAT = 'E:ERR min or max is not a float';
  const all = ['ninf', 'one', 'a12', 'a15', 'b2', 'two', 'three', 'sixteen', 'hundred', 'pinf'];
  return {
    infinities: [all, 10, 1, 1, ['pinf'], [], 0, ['one'], ['pinf'], ['pinf']],
    fractions: [['a15', 'b2', 'two', 'three'], ['a15'], ['a12'], 4, ['three', 'two', 'b2'], ['a12']],
    floatForms: [['hundred'], ['sixteen'], ['one', 'a12'], ['a15', 'b2', 'two'], ['one'], 1, ['sixteen'], []],
    notFloats: [NOT_FLOAT, NOT_FLOAT, NOT_FLOAT, NOT_FLOAT, NOT_FLOAT, NOT_FLOAT],
    order: [['b2', 'two'], ['two', 'b2'], ws('b2', '2', 'two', '2', 'three', '3')],
    limit: [['one', 'a12'], [], ['hundred', 'pinf'], [], [], ['a12', 'one', 'ninf'], ws('two', '2', 'b2', '2')],
    zrange: [['two', 'three', 'sixteen', 'hundred', 'pinf'], ws('pinf', 'inf', 'hundred', '100'), ws('a12', '1.2'), ['a12'], ['B:ninf', 'B:one']],
    buffers: [numbers ? [['B:a15', 1.5]] : ['B:a15', 'B:1.5'], ['B:pinf', 'B:hundred']],
    missing: [0, [], 0],
    remove: [4, ['ninf', 'one', 'a12', 'sixteen', 'hundred', 'pinf'], 0, 0, 1, 1, ['ninf', 'one', 'sixteen', 'hundred'], 4, 0],
    pipeline: [[null, 3], [null, ['y', 'z']], [null, 1], [null, ['x', 'z']]],
    lua: [3, ['x', '1.5', 'y', '2', 'z', 'inf'], ['y', 'x'], 2, ['x']],
    multi: [[null, ['z']], [null, 1], [null, 2]],
    exec: [[null, ['z']], [null, 1], [null, 1]],
  };
}

describe.each(replyShapeCases())('sorted-set score ranges (%s)', (_title, options, numbers) => {
  itOnFakeAndServer('select, count and remove the members Redis does', 'score ranges', { port: 50_912, key: 'zranges', options: { ...options, streams: { redisVersion: '7.0' } } }, script, expected(numbers));
});
