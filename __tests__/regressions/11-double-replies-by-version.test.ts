/**
 * Found by comparing with redis-server 7.0.15 and the post-7.4 build: sorted-set scores are
 * replied as the version's addReplyDouble writes them — 7.0 `%.17g` (0.1 is `0.10000000000000001`,
 * 123456789012345678 is `1.2345678901234568e+17`), 7.2+ util.c d2string (an integral value within
 * ±2^62 as an integer, else fpconv_dtoa: `0.1`, `1.5e-6`, `4.380604360580891e+4`, `1.5e+300`).
 * ioredis-mock printed JS numbers (`0.1`, `0.0000015`, `43806.04360580891`). ZSCAN answers the
 * stored text: d2string for a listpack (7.0: `123456789012345680`), `%.17g` for a skiplist. With
 * `replyMapping: 'resp3'` doubles are numbers as ioredis 6's RESP3 decoder reads the text
 * (0.10000000000000001 reads 0.10000000000000002: ./11-resp3-doubles-as-ioredis-reads.test.ts).
 * The same script runs with real ioredis on REDIS_URL (7.0.15, fake '7.0') and REDIS_UNSTABLE_URL
 * (the newer build, fake '8.0').
 */
import Redis from 'ioredis-mock-streams';
import { doubleAsIoredisReads } from '../helpers/real-server';

type AnyClient = Record<string, any>;
const major = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);
const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : Buffer.isBuffer(x) ? `B:${x}` : x);
const SCORES = ['0.1', '123456789012345678', '1', '1.5e-6', '43806.04360580891', '1.5e300', '1e23', 'inf'];

async function script(r: AnyClient, p: string): Promise<Record<string, unknown>> {
  const [k, big] = [`${p}z`, `${p}big`];
  await r.del(k, big);
  const out: Record<string, unknown> = {};
  await r.zadd(k, ...SCORES.flatMap((s, i) => [s, `m${i}`]));
  out.zscore = [await r.zscore(k, 'm0'), show(await r.zscoreBuffer(k, 'm1'))];
  out.zmscore = await r.zmscore(k, ...SCORES.map((_, i) => `m${i}`));
  out.zincrby = [await r.zincrby(k, '0.2', 'm0'), await r.zadd(k, 'INCR', '0.1', 'm2')];
  out.zrange = await r.zrange(k, 0, 2, 'WITHSCORES');
  out.zrangebyscore = await r.zrangebyscore(k, '(1.1', '+inf', 'WITHSCORES', 'LIMIT', 0, 2);
  const pairs: string[] = (await r.zscan(k, 0))[1];
  out.zscan = Object.fromEntries(pairs.flatMap((m, i) => (i % 2 === 0 ? [[m, pairs[i + 1]]] : [])));
  await r.zadd(big, ...Array.from({ length: 129 }, (_, i) => [`${i}.1`, `n${i}`]).flat(), '123456789012345678', 'b');
  const scanned: string[] = (await r.zscan(big, 0, 'COUNT', 1000))[1];
  out.zscanSkiplist = [scanned[scanned.indexOf('n0') + 1], scanned[scanned.indexOf('b') + 1]];
  out.pop = [await r.zpopmin(k, 2), await r.zpopmax(k)];
  out.pipeline = show(await r.pipeline().zscore(k, 'm4').zadd(k, 'INCR', 0, 'm4').exec());
  out.lua = await r.eval("return {redis.call('ZSCORE', KEYS[1], 'm4'), redis.call('ZINCRBY', KEYS[1], 0, 'm4')}", 1, k);
  await r.del(k, big);
  return out;
}

function expected(version: '7.0' | '8.0', numbers: boolean): Record<string, unknown> {
  const v70 = version === '7.0';
  // 'resp3' numbers: the text as ioredis 6's RESP3 decoder reads it (not always Number(text))
  const d = (s: string) => (numbers ? doubleAsIoredisReads(s) : s);
  const t = v70
    ? ['0.10000000000000001', '1.2345678901234568e+17', '1', '1.5e-06', '43806.043605808911', '1.5000000000000001e+300', '9.9999999999999992e+22', 'inf']
    : ['0.1', '123456789012345680', '1', '1.5e-6', '4.380604360580891e+4', '1.5e+300', '99999999999999990000000', 'inf'];
  const sum = '0.30000000000000004';
  const two = v70 ? '1.1000000000000001' : '1.1';
  // ZSCAN of a listpack: the stored d2string text (7.0 prints an integral value as an integer)
  const stored = v70 ? ['0.10000000000000001', '123456789012345680', '1', '1.5e-06', '43806.043605808911', '1.5000000000000001e+300', '9.9999999999999992e+22', 'inf'] : t;
  return {
    zscore: [d(t[0]), numbers ? d(t[1]) : `B:${t[1]}`],
    zmscore: t.map(d),
    zincrby: [d(sum), d(two)],
    zrange: numbers ? [['m3', d(t[3])], ['m0', d(sum)], ['m2', d(two)]] : ['m3', t[3], 'm0', sum, 'm2', two],
    zrangebyscore: numbers ? [['m4', d(t[4])], ['m1', d(t[1])]] : ['m4', t[4], 'm1', t[1]],
    zscan: { m0: sum, m1: stored[1], m2: two, m3: stored[3], m4: stored[4], m5: stored[5], m6: stored[6], m7: 'inf' },
    zscanSkiplist: ['0.10000000000000001', '1.2345678901234568e+17'],
    pop: numbers ? [[['m3', d(t[3])], ['m0', d(sum)]], ['m7', Infinity]] : [['m3', t[3], 'm0', sum], ['m7', 'inf']],
    pipeline: [[null, d(t[4])], [null, d(t[4])]],
    lua: [t[4], t[4]],
  };
}

const cases: [string, Record<string, unknown>, boolean][] = [['default options', {}, false]];
if (major === 6) cases.push(["replyMapping 'resp3'", { replyMapping: 'resp3' }, true], ['protocol 2', { protocol: 2 }, false]);

describe.each(cases)('double replies by version (%s)', (_title, options, numbers) => {
  it.each(['7.0', '8.0'] as const)('as redisVersion %s prints them', async (version) => {
    const r = new Redis({ port: 50_913, streams: { redisVersion: version }, ...options } as any) as unknown as AnyClient;
    expect(await script(r, 'doubles-trial:')).toEqual(expected(version, numbers));
    r.disconnect();
  });

  const servers = [['REDIS_URL', process.env.REDIS_URL, 12, '7.0'], ['REDIS_UNSTABLE_URL', process.env.REDIS_UNSTABLE_URL, 0, '8.0']] as const;
  for (const [name, url, db, version] of servers) {
    // skip: the same script on a real server: skipped when its URL is not set (CI sets both)
    (url ? it : it.skip)(`as real ioredis on the server at ${name}`, async () => {
      const RealRedis = jest.requireActual('ioredis');
      const r = new (RealRedis.default ?? RealRedis)(url!, { db, ...options }) as AnyClient;
      try {
        expect(await script(r, `doubles-trial:${process.pid}:`)).toEqual(expected(version, numbers));
      } finally {
        r.disconnect();
      }
    });
  }
});
if (!process.env.REDIS_URL) console.warn('REDIS_URL not set: double replies on real ioredis skipped');
