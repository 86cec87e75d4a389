/**
 * A fresh-user trial of idempotent XADD found XCFGSET (8.6) run by a read-only script, on a
 * read-only replica and by a script under min-replicas-to-write, where Redis refuses any command
 * flagged `write`; the same held for every command newer than the table the checks read (XNACK,
 * XACKDEL, DELEX, MSETEX …) and for XGROUP CREATE, a write subcommand of a flagless container
 * (EVAL_RO of it answers "Write commands are not allowed from read-only scripts" on the post-7.4
 * build and on 7.0.15, checked).
 */
import type IORedisReal from 'ioredis';
import Redis from 'ioredis-mock-streams';

const RO = 'ERR Write commands are not allowed from read-only scripts.';

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

let port = 47_400;
let r: IORedisReal;
beforeEach(async () => {
  r = new Redis({ port: port++ } as never) as unknown as IORedisReal;
  await r.xadd('s', '1-1', 'f', 'v');
});
afterEach(() => r.disconnect());

describe('write commands newer than ioredis\'s table, and write subcommands, are writes', () => {
  it.each([
    ['XCFGSET', "redis.call('XCFGSET', KEYS[1], 'IDMP-DURATION', 5)"],
    ['XGROUP CREATE', "redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$')"],
    ['DELEX', "redis.call('DELEX', KEYS[1])"],
    ['XACKDEL', "redis.call('XACKDEL', KEYS[1], 'g', 'IDS', 1, '1-1')"],
  ])('%s is refused by EVAL_RO', async (_name, call) => {
    expect(await errorOf(r.call('EVAL_RO', `return ${call}`, 1, 's'))).toMatch(new RegExp(`^${RO.replace(/\./g, '\\.')} script: `));
  });

  it('a read-only script may still read, and run a container\'s read subcommand (XGROUP HELP)', async () => {
    expect(await r.call('EVAL_RO', "return redis.call('XLEN', KEYS[1])", 1, 's')).toBe(1);
    expect(((await r.call('EVAL_RO', "return redis.call('XGROUP', 'HELP')", 0)) as string[])[0]).toMatch(/^XGROUP <subcommand>/);
  });

  it('a script\'s XCFGSET needs good replicas, as XCFGSET itself does', async () => {
    await r.call('CONFIG', 'SET', 'min-replicas-to-write', '1');
    expect(await errorOf(r.call('XCFGSET', 's', 'IDMP-DURATION', '5'))).toBe('NOREPLICAS Not enough good replicas to write.');
    expect(await errorOf(r.call('EVAL', "return redis.call('XCFGSET', KEYS[1], 'IDMP-DURATION', 5)", 1, 's'))).toMatch(/^NOREPLICAS Not enough good replicas to write\. script: /);
  });

  it('a read-only replica refuses XCFGSET, MSETEX and XGROUP CREATE (READONLY)', async () => {
    await r.call('REPLICAOF', '127.0.0.1', '1');
    const READONLY = "READONLY You can't write against a read only replica.";
    expect(await errorOf(r.call('XCFGSET', 's', 'IDMP-DURATION', '5'))).toBe(READONLY);
    expect(await errorOf(r.call('MSETEX', '1', 'a', 'b', 'EX', '10'))).toBe(READONLY);
    expect(await errorOf(r.call('XGROUP', 'CREATE', 's', 'g', '$'))).toBe(READONLY);
    expect(await r.xlen('s')).toBe(1);
  });
});
