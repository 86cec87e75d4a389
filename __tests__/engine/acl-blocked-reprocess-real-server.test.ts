/**
 * A blocked BLPOP whose user loses its key permission while it waits, then a push on its key:
 * the post-7.4 build re-runs the command through processCommand's ACL check and answers NOPERM
 * (a rejected call, logged in ACL LOG, the element left in the list); 7.0.15 serves it. The same
 * steps on a fresh engine server and on the real one (REDIS_URL: 7.0.15, emulated 7.0;
 * REDIS_UNSTABLE_URL: the post-7.4 build, emulated 8.0). Redis's tests/unit/acl.tcl "blocked
 * command gets rejected when reprocessed after permission change".
 */
import { createConnection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { type Reply, toResp2Plain } from '../../lib/reply/reply';
import { type AnyClient, bytesReply, connectReal, describeOnRealServers } from '../helpers/real-server';

const U = `acl-blocked-jest-${process.pid}`;
const KEY = `acl-blocked-list-${process.pid}`;

type Call = (argv: string[]) => Promise<unknown>;

async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { reply: bytesReply(await p) };
  } catch (err) {
    if (err instanceof CommandError || (err as Error).name === 'ReplyError') return { error: (err as Error).message };
    throw err;
  }
}

function rejectedCalls(info: string): number {
  return Number(/cmdstat_blpop:.*rejected_calls=(\d+)/.exec(info)?.[1] ?? 0);
}

/** The steps on one server: what the blocked BLPOP answered, what stayed in the list, ACL LOG's newest entry, the rejected BLPOPs. */
async function scenario(admin: Call, user: Call, blockedBy: () => Promise<boolean>): Promise<unknown> {
  await admin(['DEL', KEY]);
  await admin(['ACL', 'LOG', 'RESET']);
  const rejectedBefore = rejectedCalls(String(await admin(['INFO', 'commandstats'])));
  await admin(['ACL', 'SETUSER', U, 'reset', 'on', 'nopass', '+@all', 'allkeys']);
  await user(['AUTH', U, 'x']);
  const blpop = outcome(user(['BLPOP', KEY, '0']));
  for (let i = 0; i < 100 && !(await blockedBy()); i++) await new Promise((r) => setTimeout(r, 10));
  await admin(['ACL', 'SETUSER', U, 'resetkeys']);
  await admin(['LPUSH', KEY, 'foo']);
  const served = await blpop;
  const left = await admin(['LRANGE', KEY, '0', '-1']);
  const log = (await admin(['ACL', 'LOG', '1'])) as unknown[][];
  const entry = log.length === 0 ? null : Object.fromEntries(
    [0, 2, 4, 6, 8].map((i) => [String(log[0][i]), String(log[0][i + 1])]).filter(([k]) => ['reason', 'context', 'object', 'username'].includes(k)),
  );
  const rejected = rejectedCalls(String(await admin(['INFO', 'commandstats']))) - rejectedBefore;
  await admin(['DEL', KEY]);
  return { served, left, entry, rejected };
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('A blocked command re-run after an ACL change', ({ url, version }) => {
  it('is checked again (NOPERM) from 7.2 on, served in 7.0', async () => {
    const admin: AnyClient = await connectReal(url, 13, {}, false);
    const user: AnyClient = await connectReal(url, 13, {}, false);
    const port = 48_990 + (version === '7.0' ? 0 : 1);
    const fakeAdmin = createConnection({ port, db: 13, streams: { redisVersion: version } });
    const fakeUser = createConnection({ port, db: 13, streams: { redisVersion: version } });
    try {
      const real = await scenario(
        (argv) => admin.call(...argv),
        (argv) => user.call(...argv),
        async () => /cmd=blpop/.test(String(await admin.call('CLIENT', 'LIST'))),
      );
      const fake = await scenario(
        async (argv) => toResp2Plain((await fakeAdmin.execute(argv)) as Reply),
        async (argv) => toResp2Plain((await fakeUser.execute(argv)) as Reply),
        async () => true,
      );
      expect(fake).toEqual(real);
      if (version === '8.0') expect(real).toMatchObject({ left: ['foo'], rejected: 1 });
      else expect(real).toMatchObject({ served: { reply: [KEY, 'foo'] }, rejected: 0 });
    } finally {
      await admin.call('ACL', 'DELUSER', U);
      admin.disconnect();
      user.disconnect();
      fakeAdmin.close();
      fakeUser.close();
    }
  });
});
