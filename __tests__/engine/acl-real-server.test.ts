/**
 * ACL against real servers: the same steps, each on an admin connection or on a connection that
 * authenticates as a user the steps create, on a fresh engine server and on the real one must
 * answer the same values and error texts (NOPERM wording per version, WRONGPASS, GETUSER maps,
 * DRYRUN, ACL LOG fields). Users get a name unique to the run and are deleted afterwards; the
 * real servers' `default` user is never touched. `REDIS_URL`: 7.0.15 (emulated 7.0);
 * `REDIS_UNSTABLE_URL`: the post-7.4 build (emulated 8.0).
 */
import { createConnection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { type Reply, toResp2Plain } from '../../lib/reply/reply';
import { type AnyClient, bytesReply, connectReal, describeOnRealServers } from '../helpers/real-server';

type Who = 'admin' | 'user';
type Step = [Who, ...string[]];

const U = `acl-jest-${process.pid}`;
const a = (...argv: string[]): Step => ['admin', ...argv];
const u = (...argv: string[]): Step => ['user', ...argv];

const SEQUENCES: Step[][] = [
  // password rules, enabling, WRONGPASS
  [a('ACL', 'SETUSER', U, '>p1'), u('AUTH', U, 'p1'), a('ACL', 'SETUSER', U, 'on', '+acl', '>p2'), u('AUTH', U, 'p1'), u('AUTH', U, 'p2'), u('ACL', 'WHOAMI'),
    a('ACL', 'SETUSER', U, '<p1'), u('AUTH', U, 'p1'), a('ACL', 'SETUSER', U, '#zz'), a('ACL', 'SETUSER', U, '!' + '0'.repeat(64)), a('ACL', 'GETUSER', U)],
  // command, key and channel permissions and their NOPERM texts
  [a('ACL', 'SETUSER', U, 'on', 'nopass', '~k:*', '%R~r:*', '&ch:*', '+get', '+set', '+publish', '+@hash', '-hdel', '+client|id'), u('AUTH', U, 'x'),
    u('SET', 'k:1', 'v'), u('GET', 'k:1'), u('GET', 'other'), u('SET', 'r:1', 'v'), u('GET', 'r:1'), u('INCR', 'k:1'), u('HSET', 'k:h', 'f', 'v'), u('HDEL', 'k:h', 'f'),
    u('PUBLISH', 'ch:1', 'm'), u('PUBLISH', 'zz', 'm'), u('CLIENT', 'ID'), u('CLIENT', 'LIST'), a('ACL', 'GETUSER', U), a('ACL', 'DRYRUN', U, 'get', 'other'),
    a('ACL', 'DRYRUN', U, 'incr', 'k:1'), a('ACL', 'DRYRUN', U, 'set', 'k:1', 'v'), a('ACL', 'DRYRUN', U, 'publish', 'no', 'm'), a('ACL', 'DRYRUN', 'nouser-' + U, 'get', 'x'),
    a('ACL', 'DRYRUN', U, 'nocmd'), a('ACL', 'DRYRUN', U, 'get'), a('DEL', 'k:1', 'r:1', 'k:h')],
  // rule errors and compaction of the retained rules
  [a('ACL', 'SETUSER', U, '+nosuch'), a('ACL', 'SETUSER', U, '+config|get|x'), a('ACL', 'SETUSER', U, '(+get'), a('ACL', 'SETUSER', U, '~*', '~x'), a('ACL', 'SETUSER', U, 'a b'),
    a('ACL', 'SETUSER', 'a b'), a('ACL', 'SETUSER', U, 'reset', '+@all', '-@hash', '-@slow', '+hget'), a('ACL', 'SETUSER', U, '-@hash'), a('ACL', 'SETUSER', U, '+@hash'),
    a('ACL', 'SETUSER', U, '%RW~x', '%W~y', 'resetchannels', '&a', '&b', '(~s +get)'), a('ACL', 'DELUSER', 'default'), a('ACL', 'CAT', 'nosuch'), a('ACL', 'GENPASS', '0'),
    a('ACL', 'LOAD'), a('ACL', 'SAVE'), a('ACL', 'HELP', 'x')],
  // redis.acl_check_cmd: the script's user, command and key permissions, unknown commands
  [a('ACL', 'SETUSER', U, 'on', 'nopass', '+@scripting', '+set', '~k:*'), u('AUTH', U, 'x'),
    u('EVAL', "return redis.acl_check_cmd('set', 'k:1', 1)", '0'), u('EVAL', "return redis.acl_check_cmd('hset', 'k:1', 'f', 1)", '0'),
    u('EVAL', "return redis.acl_check_cmd('set', 'other', 1)", '0'), u('EVAL', "return redis.acl_check_cmd('invalid-cmd', 'x')", '0'),
    u('EVAL', 'return redis.acl_check_cmd()', '0'), u('EVAL', "return redis.acl_check_cmd('set', {})", '0'),
    // a redis.call the user may not make: key, command (texts differ before 7.2)
    u('EVAL', "return redis.call('set', 'other', 1)", '0'), u('EVAL', "return redis.call('hset', 'k:1', 'f', 1)", '0')],
];

/** The keys the steps write (db 13), deleted before and after each sequence. */
const KEYS = ['k:1', 'r:1', 'k:h'];

/** A reply or error text, comparable between real ioredis and the engine. */
function plain(v: unknown): unknown {
  return bytesReply(v);
}

async function realOutcome(client: AnyClient, argv: string[]): Promise<unknown> {
  try {
    return { reply: plain(await client.call(...argv)) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function fakeOutcome(conn: ReturnType<typeof createConnection>, argv: string[]): Promise<unknown> {
  try {
    return { reply: plain(toResp2Plain((await conn.execute(argv)) as Reply)) };
  } catch (err) {
    if (err instanceof CommandError) return { error: err.message };
    throw err;
  }
}

/**
 * CLIENT ID and CLIENT LIST lines differ in ids, addresses and buffers: keep what ACL sets.
 * 7.0.15 rebuilds GETUSER's command rules from its bitmap in command-id order (a known gap: the
 * engine answers the post-7.2 retained order), so on 7.0 its rules compare as a set.
 */
function shaped(argv: string[], outcome: unknown, version: string): unknown {
  if (version === '7.0' && argv[0] === 'ACL' && argv[1] === 'GETUSER') {
    const o = outcome as { reply?: unknown[] };
    if (Array.isArray(o.reply)) {
      const r = [...o.reply];
      const i = r.indexOf('commands');
      if (i >= 0 && typeof r[i + 1] === 'string') r[i + 1] = (r[i + 1] as string).split(' ').sort();
      return { reply: r };
    }
  }
  if (argv[0] === 'CLIENT' && argv[1] === 'ID') {
    const o = outcome as { reply?: string };
    return o.reply !== undefined ? { id: /^\d+$/.test(String(o.reply)) } : outcome;
  }
  if (argv[0] === 'CLIENT' && argv[1] === 'LIST') {
    const o = outcome as { reply?: string };
    return typeof o.reply === 'string' ? { user: /user=(\S+)/.exec(o.reply)?.[1] } : outcome;
  }
  return outcome;
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('ACL', ({ url, version }) => {
  let port = 48_900 + (version === '7.0' ? 0 : 50);
  it.each(SEQUENCES.map((seq, i) => [i, seq.map((s) => s.slice(1, 3).join(' ')).join(' | ').slice(0, 100), seq] as const))('sequence %i: %s', async (_i, _text, seq) => {
    const admin = await connectReal(url, 13, {}, false);
    const user = await connectReal(url, 13, {}, false);
    const fakeAdmin = createConnection({ port, db: 13, streams: { redisVersion: version } });
    const fakeUser = createConnection({ port: port++, db: 13, streams: { redisVersion: version } });
    await admin.call('DEL', ...KEYS);
    try {
      for (const [who, ...argv] of seq) {
        const expected = shaped(argv, await realOutcome(who === 'admin' ? admin : user, argv), version);
        const got = shaped(argv, await fakeOutcome(who === 'admin' ? fakeAdmin : fakeUser, argv), version);
        expect({ who, argv, got }).toEqual({ who, argv, got: expected });
      }
    } finally {
      await admin.call('ACL', 'DELUSER', U);
      await admin.call('DEL', ...KEYS);
      admin.disconnect();
      user.disconnect();
      fakeAdmin.close();
      fakeUser.close();
    }
  });
});
