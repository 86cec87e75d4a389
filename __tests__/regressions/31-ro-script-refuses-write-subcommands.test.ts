/**
 * A read-only script (EVAL_RO, EVALSHA_RO, FCALL_RO, `#!lua flags=no-writes`) ran XGROUP CREATE
 * (… MKSTREAM), XGROUP SETID, DESTROY … : the `write` flag was looked up on the container XGROUP,
 * which has none, not on the subcommand. script.c scriptVerifyWriteCommandAllow checks the flags
 * of the command lookupCommand found, the subcommand: redis-server 7.0.15 and the post-7.4 build
 * answer "Write commands are not allowed from read-only scripts." before the command runs (so no
 * WRONGTYPE, no BUSYGROUP, no stream created); a read subcommand (XINFO STREAM) still runs.
 */
import Redis from 'ioredis-mock-streams';
import type { AnyClient } from '../helpers/real-server';

const RO = (sha: string) => `ERR Write commands are not allowed from read-only scripts. script: ${sha}, on @user_script:1.`;

async function run(version: '7.0' | '8.0', port: number): Promise<void> {
  const r = new Redis({ port, streams: { redisVersion: version } }) as unknown as AnyClient;
  await r.call('SET', 'str', 'x');
  await r.call('XADD', 's', '1-1', 'f', 'v');
  const create = "return redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '0', 'MKSTREAM')";
  const sha = (await r.call('SCRIPT', 'LOAD', create)) as string;
  for (const key of ['str', 'fresh', 's']) {
    await expect(r.call('EVAL_RO', create, '1', key)).rejects.toThrow(RO(sha));
    await expect(r.call('EVALSHA_RO', sha, '1', key)).rejects.toThrow(RO(sha));
  }
  expect(await r.call('EXISTS', 'fresh')).toBe(0);
  expect(await r.call('XINFO', 'GROUPS', 's')).toEqual([]);
  await r.call('XGROUP', 'CREATE', 's', 'g', '0');
  const setid = "return redis.call('XGROUP', 'SETID', 's', 'g', '1-1')";
  await expect(r.call('EVAL_RO', setid, '0')).rejects.toThrow(/^ERR Write commands are not allowed from read-only scripts\./);
  await expect(r.call('EVAL', `#!lua flags=no-writes\n${setid}`, '0')).rejects.toThrow(/^ERR Write commands are not allowed from read-only scripts\./);
  await r.call('FUNCTION', 'LOAD', "#!lua name=ro\nredis.register_function{function_name='d', callback=function() return redis.call('XGROUP', 'DESTROY', 's', 'g') end, flags={'no-writes'}}");
  await expect(r.call('FCALL_RO', 'd', '0')).rejects.toThrow(/^ERR Write commands are not allowed from read-only scripts\./);
  expect(await r.call('XINFO', 'GROUPS', 's')).toHaveLength(1);
  // a read subcommand of the same container runs
  expect(await r.call('EVAL_RO', "return redis.call('XINFO', 'STREAM', 's')[2]", '0')).toBe(1);
  r.disconnect();
}

describe('read-only scripts and write subcommands', () => {
  it('refuse XGROUP CREATE/SETID/DESTROY as redis-server 7.0.15 does (7.0)', () => run('7.0', 51_311), 30_000);
  it('refuse XGROUP CREATE/SETID/DESTROY as the post-7.4 build does (8.0)', () => run('8.0', 51_312));
});

/**
 * BLPOP, BRPOP, BLMOVE … lost `noscript` after 7.0, and the fake read the flags of ioredis's
 * table (which still has it) to decide whether a read-only script may run them: an EVAL_RO
 * calling BLPOP ran it (WRONGTYPE, or popped an element). The post-7.4 build refuses them as
 * writes; redis-server 7.0.15 refuses BLPOP as a noscript command and BLMPOP (never noscript) as
 * a write.
 */
describe('read-only scripts and blocking list commands', () => {
  const ro = (cmd: string) => `return redis.pcall(${cmd})`;
  it('refuses BLPOP/BLMOVE as writes on the post-7.4 build (8.0)', async () => {
    const r = new Redis({ port: 51_313, streams: { redisVersion: '8.0' } }) as unknown as AnyClient;
    await r.call('RPUSH', 'l', 'x');
    await r.call('SET', 's', 'v');
    for (const cmd of ["'blpop', 'l', '0'", "'blpop', 's', '0'", "'blmove', 'l', 'm', 'LEFT', 'LEFT', '0'", "'blmpop', '0', '1', 'l', 'LEFT'"]) {
      await expect(r.call('EVAL_RO', ro(cmd), '0')).rejects.toThrow(/^ERR Write commands are not allowed from read-only scripts\.$/);
    }
    expect(await r.call('LRANGE', 'l', '0', '-1')).toEqual(['x']);
    r.disconnect();
  });
  it('refuses BLPOP as noscript and BLMPOP as a write on redis-server 7.0.15 (7.0)', async () => {
    const r = new Redis({ port: 51_314, streams: { redisVersion: '7.0' } }) as unknown as AnyClient;
    await r.call('RPUSH', 'l', 'x');
    await expect(r.call('EVAL_RO', ro("'blpop', 'l', '0'"), '0')).rejects.toThrow(/^ERR This Redis command is not allowed from script$/);
    await expect(r.call('EVAL_RO', ro("'blmpop', '0', '1', 'l', 'LEFT'"), '0')).rejects.toThrow(/^ERR Write commands are not allowed from read-only scripts\.$/);
    expect(await r.call('LRANGE', 'l', '0', '-1')).toEqual(['x']);
    r.disconnect();
  });
});
