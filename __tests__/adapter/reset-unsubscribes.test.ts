/**
 * RESET (`call('reset')`) unsubscribes the connection from every channel and pattern on the
 * server's side. ioredis 6 on RESP3 (its default) lets a subscribed client send any command:
 * after RESET the client is out of subscriber mode (`mode` "normal") and GET answers. ioredis 5
 * (RESP2) refuses RESET itself in subscriber mode, on the client's side. Measured with ioredis
 * 5.11.1, 6.0.0 and 6.1.0 on redis-server 7.0.15 and the post-7.4 build.
 */
import { ioredisMajor } from '../helpers/real-server';
import { type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const SUBSCRIBER_MODE = 'Connection in subscriber mode, only subscriber commands may be used';
const outcome = (p: Promise<unknown>) => p.then((v) => v, (e: Error) => e.message);

const cases: ClientCase[] = [
  [
    "call('reset') on a subscribed client: out of subscriber mode on RESP3, refused on RESP2",
    {},
    async (r, { key, other }) => {
      await r.subscribe(`${key}:ch`, `${key}:ch2`);
      await r.psubscribe(`${key}:p*`);
      const reset = await outcome(r.call('reset'));
      const get = await outcome(r.get(`${key}:k`));
      const numsub = await other().pubsub('NUMSUB', `${key}:ch`);
      return [reset, get, r.mode, numsub];
    },
    (key: string) =>
      ioredisMajor === 5 ? [SUBSCRIBER_MODE, SUBSCRIBER_MODE, 'subscriber', [`${key}:ch`, 1]] : ['RESET', null, 'normal', [`${key}:ch`, 0]],
  ],
];

describe('RESET of a subscribed ioredis client', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 38_600, keyPrefix: 'resetsub', subject: 'RESET of a subscribed ioredis client', verb: 'unsubscribes' });
});
