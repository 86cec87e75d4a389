/**
 * Found by a new-user trial against redis-server 7.0.15: INCR, DECR, INCRBY, DECRBY and HINCRBY
 * are exact signed 64-bit arithmetic in Redis. ioredis-mock added JS numbers: `SET n
 * 9007199254740993` then `INCR n` stored 9007199254740992 (Redis: 9007199254740994), and INCR of
 * 9223372036854775807 stored '9223372036854776000' (Redis: `ERR increment or decrement would
 * overflow`, value unchanged) which later commands refused. Also: `DECRBY k
 * -9223372036854775808` is `ERR decrement would overflow` (before the key's type is looked at),
 * HINCRBY's overflow text is the same as INCRBY's, the TTL is kept. Replies past 2^53 reach the
 * client as ioredis reads them (a rounded number; the exact text with `stringNumbers`). The same
 * script runs with real ioredis on redis-server when REDIS_URL is set.
 */
import { type AnyClient, integerAsRead, itOnFakeAndServer } from '../helpers/real-server';

const asRead = integerAsRead;
const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : x);
const attempt = async (p: Promise<unknown>) => show(await p.catch((e: unknown) => e));

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

async function script(r: AnyClient, k: string): Promise<Record<string, unknown>> {
  const [n, m, h, l] = [`${k}:n`, `${k}:m`, `${k}:h`, `${k}:l`];
  await r.del(n, m, h, l);
  const out: Record<string, unknown> = {};
  await r.set(n, '9007199254740993');
  out.pastDoubles = [await r.incr(n), await r.get(n), await r.incrby(n, '9007199254740993'), await r.get(n), await r.decr(n), await r.decrby(n, 2), await r.get(n)];
  await r.set(m, MAX, 'EX', 1000);
  out.overflow = [await attempt(r.incr(m)), await attempt(r.incrby(m, 1)), await attempt(r.decrby(m, -5)), await r.get(m), await r.incrby(m, -1), await r.get(m), await r.ttl(m) > 0];
  await r.set(m, MIN);
  out.underflow = [await attempt(r.decr(m)), await attempt(r.incrby(m, -1)), await r.get(m), await r.incrby(m, MAX), await r.get(m)];
  await r.rpush(l, 'x');
  out.decrbyMin = [await attempt(r.decrby(m, MIN)), await attempt(r.decrby(l, MIN)), await attempt(r.decrby(l, 1)), await r.get(m), await attempt(r.incrby(m, MIN)), await r.get(m)];
  out.badArguments = [await attempt(r.incrby(m, '9223372036854775808')), await attempt(r.incrby(m, '1.0')), await attempt(r.incrby(m, '+1')), await attempt(r.incrby(m, '01'))];
  await r.set(m, '9223372036854775808');
  out.badStored = [await attempt(r.incr(m)), await r.get(m)];
  out.hincrby = [
    await r.hincrby(h, 'a', '9007199254740993'), await r.hincrby(h, 'a', 1), await r.hget(h, 'a'),
    await r.hset(h, 'b', MAX), await attempt(r.hincrby(h, 'b', 1)), await r.hget(h, 'b'), await r.hincrby(h, 'b', -7), await r.hget(h, 'b'),
    await attempt(r.hincrby(h, 'c', 'x')), await r.hset(h, 'd', '1.5'), await attempt(r.hincrby(h, 'd', 1)),
    await r.hincrby(h, 'e', MIN), await attempt(r.hincrby(h, 'e', -1)), await r.hget(h, 'e'),
  ];
  await r.set(n, '9007199254740993');
  // [error] or [error, undefined] (ioredis 5 / 6): compared as the error or the value
  const results = (rows: [Error | null, unknown][]) => rows.map(([e, v]) => (e ? show(e) : v));
  out.pipeline = results(await r.pipeline().incrby(n, 2).decrby(n, 1).get(n).incrby(m, 1).exec());
  out.multi = results(await r.multi().set(n, MAX).decr(n).incr(n).incr(n).get(n).exec());
  out.lua = await r.eval(
    "local e = redis.pcall('INCR', KEYS[1])['err']; local g = redis.call('GET', KEYS[1]); local z = redis.call('DECRBY', KEYS[1], ARGV[1]);" +
      " local b = redis.call('INCRBY', KEYS[1], '9007199254740993'); return {e, g, z, b, redis.call('GET', KEYS[1])}",
    1, n, MAX,
  );
  out.missing = [await r.incr(`${k}:new`), await r.decrby(`${k}:new2`, MAX), await r.get(`${k}:new2`)];
  await r.del(n, m, h, l, `${k}:new`, `${k}:new2`);
  return out;
}


/** The replies: integers past 2^53 as ioredis reads them (rounded numbers; text with `stringNumbers`). */
function expected(stringNumbers: boolean): Record<string, unknown> {
  const i = (s: string) => (stringNumbers ? s : asRead(s));
  const OVERFLOW = 'E:ERR increment or decrement would overflow';
  const NOT_INTEGER = 'E:ERR value is not an integer or out of range';
  return {
    pastDoubles: [i('9007199254740994'), '9007199254740994', i('18014398509481987'), '18014398509481987', i('18014398509481986'), i('18014398509481984'), '18014398509481984'],
    overflow: [OVERFLOW, OVERFLOW, OVERFLOW, MAX, i('9223372036854775806'), '9223372036854775806', true],
    underflow: [OVERFLOW, OVERFLOW, MIN, i('-1'), '-1'],
    decrbyMin: ['E:ERR decrement would overflow', 'E:ERR decrement would overflow', 'E:WRONGTYPE Operation against a key holding the wrong kind of value', '-1', OVERFLOW, '-1'],
    badArguments: [NOT_INTEGER, NOT_INTEGER, NOT_INTEGER, NOT_INTEGER],
    badStored: [NOT_INTEGER, '9223372036854775808'],
    hincrby: [
      i('9007199254740993'), i('9007199254740994'), '9007199254740994',
      i('1'), OVERFLOW, MAX, i('9223372036854775800'), '9223372036854775800',
      NOT_INTEGER, i('1'), 'E:ERR hash value is not an integer',
      i(MIN), OVERFLOW, MIN,
    ],
    pipeline: [i('9007199254740995'), i('9007199254740994'), '9007199254740994', NOT_INTEGER],
    multi: ['OK', i('9223372036854775806'), i(MAX), OVERFLOW, MAX],
    // in Lua an integer reply is a double (9007199254740993 → 9007199254740992)
    lua: ['ERR increment or decrement would overflow', MAX, i('0'), i('9007199254740992'), '9007199254740993'],
    missing: [i('1'), i('-9223372036854775807'), '-9223372036854775807'],
  };
}

const cases: [string, Record<string, unknown>, boolean][] = [
  ['default options', {}, false],
  ['stringNumbers', { stringNumbers: true }, true],
];

describe.each(cases)('INCR, DECR, INCRBY, DECRBY, HINCRBY as 64-bit integers (%s)', (_title, options, stringNumbers) => {
  itOnFakeAndServer('store and reply the exact values Redis does, and refuse to overflow', '64-bit INCR', { port: 50_912, key: 'incr64', options }, script, expected(stringNumbers));
});
