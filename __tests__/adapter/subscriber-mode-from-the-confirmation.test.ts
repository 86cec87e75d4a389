/**
 * ioredis enters subscriber mode when SUBSCRIBE's confirmation arrives (DataHandler sets
 * condition.subscriber as the reply comes, before the command settles), not when it sends it, and
 * leaves it when the last UNSUBSCRIBE's confirmation arrives. On a RESP2 connection (ioredis 5;
 * ioredis 6 with `protocol: 2`):
 * - a command sent in the same turn as an unawaited SUBSCRIBE reaches the server, which refuses it
 *   (a ReplyError "ERR Can't execute …"); once the confirmation came, ioredis refuses it itself;
 * - a command sent in the same turn as the last UNSUBSCRIBE is still refused by ioredis;
 * - in a pipeline, the commands after a SUBSCRIBE are refused by the server, each in its place.
 * Compared with real ioredis (5.11.1, 6.0.0, 6.1.0) on both real servers.
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => ['resolved', v],
    (e: Error) => [e.name, e.message],
  );

const cases: ClientCase[] = [
  [
    'a command sent in the same turn as an unawaited SUBSCRIBE is refused by the server, then by the client',
    { protocol: 2 },
    async (r: Client, { key }) => {
      const subscribed = outcome(r.subscribe(key));
      const sameTurn = outcome(r.get(key));
      const channels = outcome(r.pubsub('CHANNELS', key));
      const results = [await subscribed, await sameTurn, await channels];
      return [...results, await outcome(r.get(key))];
    },
    [
      ['resolved', 1],
      ['ReplyError', "ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"],
      ['ReplyError', "ERR Can't execute 'pubsub|channels': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"],
      ['Error', 'Connection in subscriber mode, only subscriber commands may be used'],
    ],
  ],
  [
    'the same with PSUBSCRIBE and a stream command',
    { protocol: 2 },
    async (r: Client, { key }) => {
      const subscribed = outcome(r.psubscribe(`${key}*`));
      const sameTurn = outcome(r.xadd(key, '*', 'f', 'v'));
      return [await subscribed, await sameTurn, await outcome(r.exists(key))];
    },
    [
      ['resolved', 1],
      ['ReplyError', "ERR Can't execute 'xadd': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"],
      ['Error', 'Connection in subscriber mode, only subscriber commands may be used'],
    ],
  ],
  [
    'a command sent in the same turn as the last UNSUBSCRIBE is still refused by the client, and runs once it was confirmed',
    { protocol: 2 },
    async (r: Client, { key }) => {
      await r.subscribe(key);
      const left = outcome(r.unsubscribe(key));
      const sameTurn = outcome(r.get(key));
      return [await left, await sameTurn, await outcome(r.get(key))];
    },
    [['resolved', 0], ['Error', 'Connection in subscriber mode, only subscriber commands may be used'], ['resolved', null]],
  ],
  [
    'in a pipeline the commands after a SUBSCRIBE are refused by the server, each in its place',
    { protocol: 2 },
    async (r: Client, { key }) => {
      const results = await r.pipeline().get(key).subscribe(key).get(key).ping().exec();
      return results.map(([err, value]: [Error | null, unknown]) => (err ? [err.name, err.message] : value));
    },
    [
      null,
      1,
      ['ReplyError', "ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"],
      ['pong', ''],
    ],
  ],
];

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(cases, { firstPort: 56_240, base: { db: 13 }, keyPrefix: 'subscriber-mode', subject: 'real ioredis', verb: 'enters subscriber mode' });
