/**
 * Found by a new-user trial against redis-server 7.0.15: a Lua number a script returns becomes
 * an integer reply by the C cast `(long long)` of the double (script_lua.c
 * luaReplyToRedisReply). On x86-64 that truncates toward zero (-0.5 is 0, never -0) and makes
 * NaN, ±inf and anything outside [-2^63, 2^63) LLONG_MIN; the fake answered NaN, Infinity,
 * -Infinity, 1e20 and -0. A number past 2^53 reaches the client as ioredis reads the exact
 * integer (2^63-1024 is not 9223372036854774784 once parsed). A NaN passed to redis.call is the
 * text `-nan` (glibc's `%.17g` of x86's NaN). The same script runs with real ioredis on
 * redis-server when REDIS_URL is set.
 */
import { type AnyClient, integerAsRead, itOnFakeAndServer } from '../helpers/real-server';

const asRead = integerAsRead;
const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : Object.is(x, -0) ? '-0' : x);


const RETURNS = ['0/0', 'math.huge', '-math.huge', '1e20', '-1e20', '{math.huge, 1.5, -2.5}', '-0.5', '2^63', '2^63 - 1024', '-2^63', '3.99', '-3.99', '2^53 + 2'];

async function script(r: AnyClient, k: string): Promise<Record<string, unknown>> {
  await r.del(k);
  const out: Record<string, unknown> = {};
  for (const expr of RETURNS) out[expr] = show(await r.eval(`return ${expr}`, 0));
  out.nanArgument = await r.eval("redis.call('SET', KEYS[1], 0/0); return redis.call('GET', KEYS[1])", 1, k);
  out.multi = show((await r.multi().eval('return math.huge', 0).eval('return -0.9', 0).exec()).map(([e, v]: [Error | null, unknown]) => e ?? v));
  await r.del(k);
  return out;
}

const LLONG_MIN = asRead('-9223372036854775808');
const EXPECTED: Record<string, unknown> = {
  '0/0': LLONG_MIN,
  'math.huge': LLONG_MIN,
  '-math.huge': LLONG_MIN,
  '1e20': LLONG_MIN,
  '-1e20': LLONG_MIN,
  '{math.huge, 1.5, -2.5}': [LLONG_MIN, 1, -2],
  '-0.5': 0,
  '2^63': LLONG_MIN,
  '2^63 - 1024': asRead('9223372036854774784'),
  '-2^63': LLONG_MIN,
  '3.99': 3,
  '-3.99': -3,
  '2^53 + 2': 9007199254740994,
  nanArgument: '-nan',
  multi: [LLONG_MIN, 0],
};

describe('Lua numbers returned by a script', () => {
  itOnFakeAndServer('are integer replies by the C (long long) cast of the double', 'Lua number replies', { port: 50_913, key: 'luanum' }, script, EXPECTED);
});
