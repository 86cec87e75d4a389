/**
 * CLIENT KILL USER <username> (networking.c clientKillCommand): closes the clients logged in as
 * that ACL user — any user, not only `default` — and combines with the other filters (ID …); a
 * user that does not exist is `ERR No such user '<name>'`. Measured on redis-server 7.0.15 and
 * the post-7.4 build (the fake refused every user but `default` and, for `default`, closed every
 * client whatever its user).
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const outcome = (p: Promise<unknown>) => p.then((v) => v, (e: Error) => e.message);

const cases: ClientCase[] = [
  [
    'CLIENT KILL USER closes the clients of that user only; with ID both filters apply; an unknown user is an error',
    {},
    async (admin, { key, other }) => {
      const [alice, bob] = [`${key}:alice`, `${key}:bob`];
      try {
        for (const u of [alice, bob]) await admin.call('ACL', 'SETUSER', u, 'on', '>pw', '+@all', '~*');
        const login = async (u: string): Promise<Client> => {
          const c = other({ username: u, password: 'pw', retryStrategy: () => null });
          await c.ping();
          return c;
        };
        const [a1, a2, b1] = [await login(alice), await login(alice), await login(bob)];
        const bobId = await b1.client('ID');
        const out = [
          await outcome(admin.client('KILL', 'ID', String(bobId), 'USER', alice)),
          await outcome(admin.client('KILL', 'USER', alice)),
          await outcome(admin.client('KILL', 'USER', `${key}:nosuch`)),
        ];
        await sleep(30);
        return [...out, a1.status, a2.status, b1.status];
      } finally {
        await admin.call('ACL', 'DELUSER', alice, bob);
      }
    },
    (key: string) => [0, 2, `ERR No such user '${key}:nosuch'`, 'end', 'end', 'ready'],
  ],
];

describe('CLIENT KILL USER', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 38_700, keyPrefix: 'killuser', subject: 'CLIENT KILL USER', verb: 'closes' });
});
