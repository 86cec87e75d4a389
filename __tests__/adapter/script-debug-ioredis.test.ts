/**
 * SCRIPT DEBUG (node-redis's own suite runs `scriptDebug('NO')`, which the fake refused as not
 * emulated): the debug mode as Redis keeps it, on the fake and as real ioredis on both real
 * servers. YES/SYNC answer OK and EVALSHA is then refused as Redis refuses it; RESET keeps the
 * mode; inside a pipeline behind another command, or inside EXEC, "must be called outside a
 * pipeline". An EVAL in debug mode would start Redis's Lua debugger: not emulated (last test).
 */
import Redis from 'ioredis-mock-streams';
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const outcome = (p: Promise<unknown>) => p.then((v) => v, (e: Error) => `error: ${e.message}`);

const cases: ClientCase[] = [
  [
    'SCRIPT DEBUG NO/YES/SYNC answer OK, other modes and arities are refused',
    {},
    async (r: Client) => [
      await outcome(r.call('SCRIPT', 'DEBUG', 'NO')),
      await outcome(r.call('SCRIPT', 'DEBUG', 'no')),
      await outcome(r.call('SCRIPT', 'DEBUG', 'maybe')),
      await outcome(r.call('SCRIPT', 'DEBUG')),
      await outcome(r.call('SCRIPT', 'DEBUG', 'NO', 'x')),
      await outcome(r.call('SCRIPT', 'DEBUG', 'SYNC')),
      await outcome(r.call('SCRIPT', 'DEBUG', 'NO')),
    ],
    ['OK', 'OK', 'error: ERR Use SCRIPT DEBUG YES/SYNC/NO', "error: ERR wrong number of arguments for 'script|debug' command", "error: ERR wrong number of arguments for 'script|debug' command", 'OK', 'OK'],
  ],
  [
    'in debug mode EVALSHA is refused (a SHA of another length: NOSCRIPT first), RESET keeps the mode, NO ends it',
    {},
    async (r: Client) => {
      // a script of this test alone (other tests on the same real servers expect `return 1` not cached)
      const sha = await r.script('LOAD', `return ${process.pid}`);
      return [
        await outcome(r.call('SCRIPT', 'DEBUG', 'YES')),
        await outcome(r.call('EVALSHA', sha, '0')),
        await outcome(r.call('EVALSHA_RO', sha, '0')),
        await outcome(r.call('EVALSHA', 'abc', '0')),
        await outcome(r.call('EVALSHA', sha, 'x')),
        await outcome(r.call('RESET')),
        await outcome(r.call('EVALSHA', sha, '0')),
        await outcome(r.call('SCRIPT', 'DEBUG', 'NO')),
        await outcome(r.call('EVALSHA', sha, '0')),
      ];
    },
    [
      'OK',
      'error: ERR Please use EVAL instead of EVALSHA for debugging',
      'error: ERR Please use EVAL instead of EVALSHA for debugging',
      'error: NOSCRIPT No matching script. Please use EVAL.',
      'error: ERR Please use EVAL instead of EVALSHA for debugging',
      'RESET',
      'error: ERR Please use EVAL instead of EVALSHA for debugging',
      'OK',
      process.pid,
    ],
  ],
  [
    'behind another command of a pipeline, or inside MULTI, SCRIPT DEBUG must be called outside a pipeline',
    {},
    async (r: Client) => {
      const piped = await r.pipeline().ping().script('DEBUG', 'NO').exec();
      const first = await r.pipeline().script('DEBUG', 'NO').ping().exec();
      const multi = await r.multi().script('DEBUG', 'NO').exec();
      const show = (pairs: [Error | null, unknown][]) => pairs.map(([e, v]) => (e ? `error: ${e.message}` : v));
      return [show(piped), show(first), show(multi)];
    },
    [['PONG', 'error: ERR SCRIPT DEBUG must be called outside a pipeline'], ['OK', 'PONG'], ['error: ERR SCRIPT DEBUG must be called outside a pipeline']],
  ],
];

describe('SCRIPT DEBUG', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 38_800, keyPrefix: 'scriptdebug', subject: 'SCRIPT DEBUG', verb: 'sets the debug mode' });

  it("an EVAL in debug mode throws a StreamsMockError naming the fix (Redis's Lua debugger is not emulated)", async () => {
    const r = new Redis({ port: 38_899 });
    try {
      await r.call('SCRIPT', 'DEBUG', 'YES');
      await expect(r.call('EVAL', 'return 1', '0')).rejects.toThrow("Redis's Lua debugger (SCRIPT DEBUG YES, then EVAL) is not emulated: send SCRIPT DEBUG NO first");
      await r.call('SCRIPT', 'DEBUG', 'NO');
      expect(await r.call('EVAL', 'return 1', '0')).toBe(1);
    } finally {
      r.disconnect();
    }
  });
});
