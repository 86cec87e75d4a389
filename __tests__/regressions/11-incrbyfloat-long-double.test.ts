/**
 * Found by comparing with redis-server 7.0.15 (and the post-7.4 build): INCRBYFLOAT and
 * HINCRBYFLOAT read both numbers with strtold, add them in long double and write the sum with
 * `%.17Lf`, trailing zeros cut (ld2string LD_STR_HUMAN) — the reply and the stored text, in every
 * version. So 0.1 + 0.2 is `0.3` (ioredis-mock added JS doubles: `0.30000000000000004`), 1e400 is
 * a valid increment (within long double range; ioredis-mock's check called it an infinity) and is
 * stored as its 401 digits, a sum that rounds to -0 is `0`, hex and exponent forms are numbers;
 * the errors are Redis's (`value is not a valid float` for text, leading spaces, 1e5000 or
 * 1e-5000; `value is NaN or Infinity` for HINCRBYFLOAT's `inf`; `increment would produce NaN or
 * Infinity`, the value unchanged); the TTL stays. The same script runs with real ioredis on
 * redis-server when REDIS_URL (7.0.15) or REDIS_UNSTABLE_URL (the newer build) is set.
 */
import Redis from 'ioredis-mock-streams';

type AnyClient = Record<string, any>;
const major = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);
const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : Buffer.isBuffer(x) ? `B:${x}` : x);
const attempt = async (p: Promise<unknown>) => show(await p.catch((e: unknown) => e));
/** A long digit string by its length, head and tail. */
const digits = (s: unknown) => (typeof s === 'string' && s.length > 40 ? `${s.length}:${s.slice(0, 24)}…${s.slice(-6)}` : s);

async function script(r: AnyClient, p: string): Promise<Record<string, unknown>> {
  const [f, g, h, t] = [`${p}f`, `${p}g`, `${p}h`, `${p}t`];
  await r.del(f, g, h, t);
  const out: Record<string, unknown> = {};
  out.sum = [await r.incrbyfloat(f, '0.1'), await r.incrbyfloat(f, 0.2), await r.get(f), show(await r.incrbyfloatBuffer(f, '1e3')), await r.incrbyfloat(f, '0x10'), await r.incrbyfloat(f, '-1016.3')];
  out.forms = [await r.incrbyfloat(f, '.5'), await r.incrbyfloat(f, '5.'), await r.incrbyfloat(f, '-1e-20'), await r.incrbyfloat(f, '-5.5'), await r.incrbyfloat(f, '123456789012345678'), await r.incrbyfloat(f, '0.000001')];
  out.huge = [digits(await r.incrbyfloat(g, '1e400')), digits(await r.get(g)), await r.incrbyfloat(g, '-1e400'), digits(await r.incrbyfloat(g, '1e-4940'))];
  await r.set(g, '1e308');
  out.beyondDouble = digits(await r.incrbyfloat(g, '1e308'));
  out.errors = [
    await attempt(r.incrbyfloat(f, 'abc')), await attempt(r.incrbyfloat(f, ' 1')), await attempt(r.incrbyfloat(f, '1 ')), await attempt(r.incrbyfloat(f, '1e5000')),
    await attempt(r.incrbyfloat(f, '1e-5000')), await attempt(r.incrbyfloat(f, 'nan')), await attempt(r.incrbyfloat(f, 'inf')), await r.get(f),
  ];
  await r.set(t, 'inf');
  out.storedInf = [await attempt(r.incrbyfloat(t, '1')), await r.get(t)];
  await r.set(t, '10.5', 'EX', 100);
  out.ttlKept = [await r.incrbyfloat(t, '0.1'), (await r.ttl(t)) > 0];
  out.hash = [
    await r.hincrbyfloat(h, 'a', '0.1'), await r.hincrbyfloat(h, 'a', '0.2'), await r.hget(h, 'a'), await attempt(r.hincrbyfloat(h, 'a', 'inf')),
    await attempt(r.hincrbyfloat(h, 'a', 'x')), digits(await r.hincrbyfloat(h, 'big', '1e400')), await r.hincrbyfloat(h, 'e', '5.0e3'),
  ];
  await r.hset(h, 'bad', 'x', 'max', '1e308');
  out.hashErrors = [await attempt(r.hincrbyfloat(h, 'bad', '1')), digits(await r.hincrbyfloat(h, 'max', '1e308'))];
  out.pipeline = show(await r.pipeline().incrbyfloat(f, '0.7').incrbyfloat(f, 'x').hincrbyfloat(h, 'a', '0.4').exec());
  out.lua = await r.eval("redis.call('SET', KEYS[1], '0.1'); return {redis.call('INCRBYFLOAT', KEYS[1], '0.2'), redis.call('HINCRBYFLOAT', KEYS[2], 'l', '0.3')}", 2, f, h);
  await r.del(f, g, h, t);
  return out;
}

const expected = {
  sum: ['0.1', '0.3', '0.3', 'B:1000.29999999999999999', '1016.29999999999999999', '0'], // %.17Lf shows the long double's error
  forms: ['0.5', '5.5', '5.5', '0', '123456789012345678', '123456789012345678'], // 64-bit significand: + 0.000001 is lost
  huge: ['401:100000000000000000002818…946880', '401:100000000000000000002818…946880', '0', '0'],
  beyondDouble: '309:199999999999999999993371…156096',
  errors: ['E:ERR value is not a valid float', 'E:ERR value is not a valid float', 'E:ERR value is not a valid float', 'E:ERR value is not a valid float', 'E:ERR value is not a valid float', 'E:ERR value is not a valid float', 'E:ERR increment would produce NaN or Infinity', '123456789012345678'],
  storedInf: ['E:ERR increment would produce NaN or Infinity', 'inf'],
  ttlKept: ['10.6', true],
  hash: ['0.1', '0.3', '0.3', 'E:ERR value is NaN or Infinity', 'E:ERR value is not a valid float', '401:100000000000000000002818…946880', '5000'],
  hashErrors: ['E:ERR hash value is not a float', '309:199999999999999999993371…156096'],
  pipeline: [[null, '123456789012345678.703125'], ['E:ERR value is not a valid float'], [null, '0.7']],
  lua: ['0.3', '0.3'],
};

const cases: [string, Record<string, unknown>][] = [['default options', {}]];
if (major === 6) cases.push(["replyMapping 'resp3'", { replyMapping: 'resp3' }], ['protocol 2', { protocol: 2 }]);

describe.each(cases)('INCRBYFLOAT / HINCRBYFLOAT in long double (%s)', (_title, options) => {
  it.each(['7.0', '8.0'])('store and answer %%.17Lf text (redisVersion %s)', async (version) => {
    const r = new Redis({ port: 50_912, streams: { redisVersion: version }, ...options } as any) as unknown as AnyClient;
    expect(await script(r, 'doubles-trial:')).toEqual(expected);
    r.disconnect();
  });

  const servers = [['REDIS_URL', process.env.REDIS_URL, 12], ['REDIS_UNSTABLE_URL', process.env.REDIS_UNSTABLE_URL, 0]] as const;
  for (const [name, url, db] of servers) {
    // skip: the same script on a real server: skipped when its URL is not set (CI sets both)
    (url ? it : it.skip)(`as real ioredis on the server at ${name}`, async () => {
      const RealRedis = jest.requireActual('ioredis');
      const r = new (RealRedis.default ?? RealRedis)(url!, { db, ...options }) as AnyClient;
      try {
        expect(await script(r, `doubles-trial:${process.pid}:`)).toEqual(expected);
      } finally {
        r.disconnect();
      }
    });
  }
});
if (!process.env.REDIS_URL) console.warn('REDIS_URL not set: INCRBYFLOAT on real ioredis skipped');
