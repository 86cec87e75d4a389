/**
 * The globals a script sees, per version, as the real servers have them (user trial, session 13):
 * 7.0.15 has no setfenv/getfenv/newproxy (the post-7.4 build has them), and both keep Redis's
 * `__redis__err__handler` (missing on the fake). Each script runs on the real server and on the
 * fake of its version (a client of the package, `streams: { redisVersion }`).
 */
import Redis from 'ioredis-mock-streams';
import { connectReal, describeOnRealServers } from '../helpers/real-server';

const SCRIPTS = [
  "local ks = {} for k in pairs(_G) do table.insert(ks, k) end table.sort(ks) return table.concat(ks, ',')",
  "return {type(setfenv) == 'function', type(getfenv) == 'function', type(newproxy) == 'function'}",
  "return __redis__err__handler('boom')",
  'local t = __redis__err__handler(\'boom\') return {t.err, t.source, t.line}',
  "local t = __redis__err__handler({err = 'MY code'}) return {t.err, t.source, t.line}",
  "local f = function() return __redis__err__handler(7) end local t = f() return {t.err, t.line}",
];

const outcome = (p: Promise<unknown>) => p.then((v) => ['ok', v], (e: Error) => ['err', e.message.replace(/ script: \w+, on @user_script:\d+\./, '')]);

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('the globals of a script', ({ url, version }) => {
  it.each(SCRIPTS)('%s', async (script) => {
    const real = await connectReal(url, 12, {}, false);
    const fake = new Redis({ port: version === '7.0' ? 38_970 : 38_971, streams: { redisVersion: version } } as never) as unknown as { eval(...a: unknown[]): Promise<unknown>; disconnect(): void };
    try {
      const expected = await outcome(real.eval(script, 0));
      expect(await outcome(fake.eval(script, 0))).toEqual(expected);
    } finally {
      real.disconnect();
      fake.disconnect();
    }
  });
}, 'are');

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('the globals of a function', ({ url, version }) => {
  it('a library function sees the globals of its version, without the EVAL error handler', async () => {
    const lib = "#!lua name=globalsprobe\nredis.register_function('globalsprobe', function() local ks = {} for k in pairs(_G) do table.insert(ks, k) end table.sort(ks) return table.concat(ks, ',') end)";
    const real = await connectReal(url, 12, {}, false);
    const fake = new Redis({ port: version === '7.0' ? 38_972 : 38_973, streams: { redisVersion: version } } as never) as unknown as { call(...a: unknown[]): Promise<unknown>; disconnect(): void };
    try {
      // a library on the shared server for a moment (FUNCTION LIST/DUMP are server-wide: the
      // DUMP comparison of lua-functions.test.ts skips while others' libraries are there)
      let expected: unknown;
      try {
        await real.call('FUNCTION', 'LOAD', 'REPLACE', lib);
        expected = await real.call('FCALL', 'globalsprobe', '0');
      } finally {
        await real.call('FUNCTION', 'DELETE', 'globalsprobe').catch(() => undefined);
      }
      await fake.call('FUNCTION', 'LOAD', 'REPLACE', lib);
      expect(await fake.call('FCALL', 'globalsprobe', '0')).toBe(expected);
    } finally {
      real.disconnect();
      fake.disconnect();
    }
  });
}, 'are');
