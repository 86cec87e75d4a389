/**
 * INFO errorstats counts an error reply under the first word of its text whatever that word is
 * (server.c afterErrorReply: up to the first space within the reply's first 32 bytes, else ERR),
 * so a script's own errors count under their own words — `redis.error_reply('no prefix here')` as
 * `no`, `{err='-X y'}` as `-X`, `{err=' x'}` as an empty code — and the lines come in the order of
 * the codes' bytes. The fake counted every word not in capitals as ERR and listed codes in the
 * order first seen (found by a helper running @upstash/ratelimit's and @fastify/rate-limit's
 * scripts). Recorded from redis-server 7.0.15 and the post-7.4 build (the same on both), compared
 * live on REDIS_URL / REDIS_UNSTABLE_URL as deltas (the servers may be shared).
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers, fakeOutcome } from '../helpers/real-server';

const STEPS: string[][] = [
  ['EVAL', "return redis.error_reply('no prefix here')", '0'],
  ['EVAL', "error({err='custom'})", '0'],
  ['EVAL', 'error({err=12})', '0'],
  ['EVAL', "return {err='lower case'}", '0'],
  ['EVAL', "return {err='-X y'}", '0'],
  ['EVAL', "return redis.error_reply('-Y z')", '0'],
  ['EVAL', "return redis.error_reply('Upper')", '0'],
  ['EVAL', "return {err=' x'}", '0'],
  // 31 bytes before the space: past the first 32 of the reply ('-' included), so ERR
  ['EVAL', "return {err='abcdefghijklmnopqrstuvwxyz01234 x'}", '0'],
  // 30 bytes: its own code
  ['EVAL', "return {err='abcdefghijklmnopqrstuvwxyz0123 x'}", '0'],
  ['EVALSHA', 'a'.repeat(40), '0'],
];

/** errorstat_<code> → count, of every errorstats line. */
function errorstats(info: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of info.split('\r\n')) {
    const m = /^errorstat_(.*):count=(\d+)$/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

function delta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [code, n] of after) if (n !== (before.get(code) ?? 0)) out[code] = n - (before.get(code) ?? 0);
  return out;
}

const EXPECTED = { '': 1, '-X': 1, '12': 1, ERR: 2, NOSCRIPT: 1, Y: 1, abcdefghijklmnopqrstuvwxyz0123: 1, custom: 1, lower: 1, no: 1 };

const fakeInfo = async (fake: { execute(argv: string[]): unknown }) => String(toResp2Plain((await fake.execute(['INFO', 'errorstats'])) as never));

describe.each(['7.0', '8.0'] as const)("a script's error codes in INFO errorstats (emulated %s)", (version) => {
  it('counts each under the first word of its text, in the order of the codes', async () => {
    const fake = createConnection({ port: 48_880 + (version === '7.0' ? 0 : 1), streams: { redisVersion: version } });
    try {
      for (const argv of STEPS) await fakeOutcome(fake, argv);
      const stats = errorstats(await fakeInfo(fake));
      expect(Object.fromEntries(stats)).toEqual(EXPECTED);
      // byte order: '' < '-X' < '12' < 'ERR' < 'NOSCRIPT' < 'Y' < 'abc…' < 'custom' < 'lower' < 'no'
      expect([...stats.keys()]).toEqual(['', '-X', '12', 'ERR', 'NOSCRIPT', 'Y', 'abcdefghijklmnopqrstuvwxyz0123', 'custom', 'lower', 'no']);
    } finally {
      fake.close();
    }
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers("a script's error codes in INFO errorstats", ({ url, version }) => {
  it('change the same counters on both sides', async () => {
    const real = await connectReal(url, 9, {}, false);
    const fake = createConnection({ port: 48_882 + (version === '7.0' ? 0 : 1), streams: { redisVersion: version } });
    try {
      const realBefore = errorstats(String(await real.call('INFO', 'errorstats')));
      const fakeBefore = errorstats(await fakeInfo(fake));
      for (const argv of STEPS) {
        await real.call(argv[0], ...argv.slice(1)).catch(() => undefined);
        await fakeOutcome(fake, argv);
      }
      const realDelta = delta(realBefore, errorstats(String(await real.call('INFO', 'errorstats'))));
      expect(delta(fakeBefore, errorstats(await fakeInfo(fake)))).toEqual(realDelta);
      expect(realDelta).toEqual(EXPECTED);
    } finally {
      real.disconnect();
      fake.close();
    }
  });
});
