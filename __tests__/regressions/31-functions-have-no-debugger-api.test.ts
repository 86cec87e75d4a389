/**
 * Inside a function (FUNCTION LOAD … FCALL), `redis.breakpoint`, `redis.debug` and
 * `redis.replicate_commands` were defined as in EVAL: eval.c adds them to EVAL's `redis` table
 * only, function_lua.c does not, so calling one raises "attempt to call field 'breakpoint' (a nil
 * value)" (redis-server 7.0.15 and the post-7.4 build); EVAL keeps them.
 */
import Redis from 'ioredis-mock-streams';
import type { AnyClient } from '../helpers/real-server';

const LIB = `#!lua name=dbg
redis.register_function('bp', function() return redis.breakpoint() end)
redis.register_function('dbg', function() return redis.debug('x') end)
redis.register_function('rc', function() return redis.replicate_commands() end)
redis.register_function('ty', function() return {type(redis.breakpoint), type(redis.debug), type(redis.replicate_commands), type(redis.set_repl)} end)`;

async function run(version: '7.0' | '8.0', port: number): Promise<void> {
  const r = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
  await r.call('FUNCTION', 'LOAD', LIB);
  await expect(r.call('FCALL', 'bp', '0')).rejects.toThrow("ERR user_function:2: attempt to call field 'breakpoint' (a nil value) script: bp, on @user_function:2.");
  await expect(r.call('FCALL', 'dbg', '0')).rejects.toThrow("ERR user_function:3: attempt to call field 'debug' (a nil value) script: dbg, on @user_function:3.");
  await expect(r.call('FCALL', 'rc', '0')).rejects.toThrow("ERR user_function:4: attempt to call field 'replicate_commands' (a nil value) script: rc, on @user_function:4.");
  expect(await r.call('FCALL', 'ty', '0')).toEqual(['nil', 'nil', 'nil', 'function']);
  // EVAL's scripts still have them
  expect(await r.call('EVAL', "return {type(redis.breakpoint), type(redis.debug), redis.replicate_commands()}", '0')).toEqual(['function', 'function', 1]);
  r.disconnect();
}

describe('the redis table of functions', () => {
  it('has no breakpoint/debug/replicate_commands, as redis-server 7.0.15 (7.0)', () => run('7.0', 51_321), 30_000);
  it('has no breakpoint/debug/replicate_commands, as the post-7.4 build (8.0)', () => run('8.0', 51_322));
});
