/**
 * Found by comparing with redis-server 7.0.15: Redis reads sorted-set scores with strtod, so
 * `ZADD k inf m` (`+inf`, `-inf`, `Infinity`, any case) stores an infinity and ZSCORE, ZMSCORE,
 * ZRANGE … WITHSCORES, ZSCAN, ZPOPMAX reply `inf` / `-inf` (RESP3 doubles: numbers with
 * `replyMapping: 'resp3'`). ioredis-mock read them with Number() and stored NaN. Also:
 * ZINCRBY / ZADD … INCR refuse a NaN result (`ERR resulting score is not a number (NaN)`) and
 * change nothing; ZADD … INCR answers the new score (nil when NX/XX skip the member; ioredis-mock
 * answered the count of added members), in EXEC of `multi({ pipeline: false })` too; scores
 * strtod overflows or underflows (`1e400`, `1e-400`) are not valid floats; hex scores count.
 * The same script runs with real ioredis on redis-server when REDIS_URL is set; the fake emulates
 * 7.0 here, as REDIS_URL is 7.0.15 (8.0 reads doubles with fast_float: no hex, no leading
 * space, overflows are infinities — checked on the post-7.4 build, see
 * __tests__/differential/zset-real-server.test.ts).
 */
import { type AnyClient, itOnFakeAndServer, replyShapeCases } from '../helpers/real-server';

const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : Buffer.isBuffer(x) ? `B:${x}` : x);
const attempt = async (p: Promise<unknown>) => show(await p.catch((e: unknown) => e));

async function script(r: AnyClient, k: string): Promise<Record<string, unknown>> {
  await r.del(k);
  const out: Record<string, unknown> = {};
  out.zadd = await r.zadd(k, 'inf', 'p', '+INF', 'q', '-inf', 'n', 'Infinity', 'r', 1, 'one');
  out.zscore = [await r.zscore(k, 'p'), await r.zscore(k, 'q'), await r.zscore(k, 'n'), await r.zscore(k, 'r'), show(await r.zscoreBuffer(k, 'n'))];
  out.zmscore = await r.zmscore(k, 'p', 'n', 'one');
  out.zrange = [await r.zrange(k, 0, 1, 'WITHSCORES'), await r.zrevrange(k, 0, 0, 'WITHSCORES'), await r.zrank(k, 'one')];
  out.zincrby = [await r.zincrby(k, 'inf', 'one'), await attempt(r.zincrby(k, '-inf', 'one')), await r.zscore(k, 'one'), await r.zincrby(k, '-inf', 'new')];
  out.zaddIncr = [
    await r.zadd(k, 'INCR', '0x10', 'h'), await r.zadd(k, 'incr', 2.5, 'h'), await r.zadd(k, 'NX', 'INCR', 1, 'h'), await r.zadd(k, 'XX', 'INCR', 1, 'none'),
    await attempt(r.zadd(k, 'INCR', '-inf', 'p')), await r.zscore(k, 'p'), await r.zscore(k, 'none'),
  ];
  out.invalid = [await attempt(r.zadd(k, '1e400', 'x')), await attempt(r.zadd(k, '1e-400', 'x')), await attempt(r.zincrby(k, '-1e400', 'x')), await r.zscore(k, 'x')];
  out.pop = [await r.zpopmax(k), await r.zpopmin(k, 2)];
  await r.zrem(k, 'r', 'one', 'h', 'new');
  out.zscan = await r.zscan(k, 0);
  out.pipeline = show(await r.pipeline().zadd(k, '-inf', 'm').zscore(k, 'm').zadd(k, 'INCR', 1, 'm').exec());
  out.lua = await r.eval("redis.call('ZADD', KEYS[1], 'inf', 'l'); return {redis.call('ZSCORE', KEYS[1], 'l'), redis.call('ZADD', KEYS[1], 'INCR', 1, 'l')}", 1, k);
  await r.multi({ pipeline: false });
  await r.zadd(k, 'INCR', 2, 'e');
  await r.zadd(k, 'INCR', '-inf', 'e');
  await r.zadd(k, 'NX', 'INCR', 1, 'e');
  await r.zincrby(k, 1, 'e');
  out.exec = show(await r.exec());
  await r.del(k);
  return out;
}

/** The replies: `numbers` when doubles reach the client as numbers (ioredis 6, replyMapping 'resp3'). */
function expected(numbers: boolean): Record<string, unknown> {
  const d = (s: string) => (numbers ? (s === 'inf' ? Infinity : s === '-inf' ? -Infinity : Number(s)) : s);
  const NAN = 'E:ERR resulting score is not a number (NaN)';
  const FLOAT = 'E:ERR value is not a valid float';
  return {
    zadd: 5,
    zscore: [d('inf'), d('inf'), d('-inf'), d('inf'), numbers ? -Infinity : 'B:-inf'],
    zmscore: [d('inf'), d('-inf'), d('1')],
    zrange: [numbers ? [['n', -Infinity], ['one', 1]] : ['n', '-inf', 'one', '1'], numbers ? [['r', Infinity]] : ['r', 'inf'], 1],
    zincrby: [d('inf'), NAN, d('inf'), d('-inf')],
    zaddIncr: [d('16'), d('18.5'), null, null, NAN, d('inf'), null],
    invalid: [FLOAT, FLOAT, FLOAT, null],
    pop: [['r', numbers ? Infinity : 'inf'], numbers ? [['n', -Infinity], ['new', -Infinity]] : ['n', '-inf', 'new', '-inf']],
    zscan: ['0', ['p', 'inf', 'q', 'inf']],
    pipeline: [[null, 1], [null, d('-inf')], [null, d('-inf')]],
    lua: ['inf', 'inf'],
    exec: [[null, d('2')], [null, d('-inf')], [null, null], [null, d('-inf')]],
  };
}

describe.each(replyShapeCases())('infinite sorted-set scores (%s)', (_title, options, numbers) => {
  itOnFakeAndServer('are stored and replied as Redis does', 'infinite scores', { port: 50_911, key: 'zinf', options: { ...options, streams: { redisVersion: '7.0' } } }, script, expected(numbers));
});
