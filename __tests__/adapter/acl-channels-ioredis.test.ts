/**
 * ACL channel permissions on an ioredis client's SUBSCRIBE and PSUBSCRIBE (which the ioredis
 * front end runs on ioredis-mock's channel tables, not through the engine's dispatch): a channel
 * or pattern the user may not access is refused with NOPERM (its text by version: 7.0.15 "this
 * user has no permissions to access one of the channels used as arguments", later "No
 * permissions to access a channel"; compared here by its first word), and ACL SETUSER taking
 * away a channel a client is subscribed to closes that client (acl.c
 * ACLKillPubsubClientsIfNeeded), as on redis-server 7.0.15 and the post-7.4 build.
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const outcome = (p: Promise<unknown>) => p.then(String, (e: Error) => e.message.split(' ')[0]);

/** A user named `key` allowed `channels` only, and a client logged in as it (with `options`). */
async function userClient(ctx: { key: string; other(o?: Record<string, unknown>): Client }, admin: Client, channels: string[], options: Record<string, unknown> = {}): Promise<Client> {
  await admin.call('ACL', 'SETUSER', ctx.key, 'on', '>pw', '+@all', '~*', 'resetchannels', ...channels.map((c) => `&${c}`));
  const c = ctx.other({ username: ctx.key, password: 'pw', ...options });
  await c.ping();
  return c;
}

const cases: ClientCase[] = [
  [
    'SUBSCRIBE and PSUBSCRIBE of a channel or pattern the user may not access answer NOPERM; an allowed one subscribes',
    {},
    async (admin, ctx) => {
      try {
        const c = await userClient(ctx, admin, [`${ctx.key}:ok`]);
        return [
          await outcome(c.subscribe(`${ctx.key}:no`)),
          await outcome(c.subscribe(`${ctx.key}:ok`)),
          await outcome(c.subscribe(`${ctx.key}:ok`, `${ctx.key}:no`)),
          await outcome(c.psubscribe(`${ctx.key}:*`)),
          await outcome(c.psubscribe(`${ctx.key}:ok`)),
        ];
      } finally {
        await admin.call('ACL', 'DELUSER', ctx.key);
      }
    },
    ['NOPERM', '1', 'NOPERM', 'NOPERM', '2'],
  ],
  [
    'ACL SETUSER taking away a channel a client is subscribed to closes the client; one it keeps does not',
    {},
    async (admin, ctx) => {
      try {
        const kept = await userClient(ctx, admin, [`${ctx.key}:a`, `${ctx.key}:b`], { retryStrategy: () => null });
        await kept.subscribe(`${ctx.key}:a`);
        await admin.call('ACL', 'SETUSER', ctx.key, 'resetchannels', `&${ctx.key}:a`);
        await sleep(50);
        const keptStatus = kept.status;
        await kept.subscribe(`${ctx.key}:a`);
        const ended = new Promise((res) => kept.once('end', res));
        await admin.call('ACL', 'SETUSER', ctx.key, 'resetchannels', `&${ctx.key}:b`);
        await ended;
        return [keptStatus, kept.status, await admin.pubsub('NUMSUB', `${ctx.key}:a`)];
      } finally {
        await admin.call('ACL', 'DELUSER', ctx.key);
      }
    },
    (key: string) => ['ready', 'end', [`${key}:a`, 0]],
  ],
];

describe('ACL channel permissions of an ioredis client', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 38_500, keyPrefix: 'aclch', subject: 'ACL channel permissions of an ioredis client', verb: 'are kept' });
});
