/**
 * SUBSCRIBE channel … / PSUBSCRIBE pattern … / UNSUBSCRIBE [channel …] / PUNSUBSCRIBE
 * [pattern …] (pubsub.c) for engine connections. Subscriptions live on the server's channel
 * emitters, shared with ioredis-mock's own SUBSCRIBE/PUBLISH (pub/sub is server-wide, as in
 * Redis), so PUBLISH from any client of host:port reaches them.
 *
 * Each channel's confirmation — `[subscribe|psubscribe|unsubscribe|punsubscribe, name,
 * count]`, count = this connection's channels + patterns — and every message (`[message,
 * channel, payload]`, `[pmessage, pattern, channel, payload]`) is a `PushReply` delivered
 * through `Connection.onPush` (RESP3 push; RESP2 writes it as an array). The command itself
 * resolves with `NO_REPLY`: the front end writes nothing more for it. UNSUBSCRIBE without
 * subscriptions confirms with a nil name and 0.
 * In RESP2 a subscribed connection accepts only (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PING (which
 * answers `[pong, message]`), QUIT and RESET (server.c processCommand).
 */
import { PushReply, type Reply } from '../../reply/reply';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';

/** What a SUBSCRIBE-family command resolves with: its confirmations were pushed. */
export const NO_REPLY: PushReply = new PushReply([]);

/** Commands a RESP2 connection with subscriptions may send. */
export const ALLOWED_WHEN_SUBSCRIBED = new Set(['subscribe', 'ssubscribe', 'psubscribe', 'unsubscribe', 'sunsubscribe', 'punsubscribe', 'ping', 'quit', 'reset']);

function confirm(conn: Connection, kind: string, name: string | null): void {
  conn.push(new PushReply([kind, name, conn.subscriptionCount]));
}

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'subscribe',
    arity: -2,
    noScript: true,
    run(conn, argv): Reply {
      for (const channel of argv.slice(1)) {
        conn.subscribe(channel, false);
        confirm(conn, 'subscribe', channel);
      }
      return NO_REPLY;
    },
  },
  {
    name: 'psubscribe',
    arity: -2,
    noScript: true,
    run(conn, argv): Reply {
      for (const pattern of argv.slice(1)) {
        conn.subscribe(pattern, true);
        confirm(conn, 'psubscribe', pattern);
      }
      return NO_REPLY;
    },
  },
  {
    name: 'unsubscribe',
    arity: -1,
    noScript: true,
    run(conn, argv): Reply {
      const names = argv.length > 1 ? argv.slice(1) : conn.subscriptions(false);
      if (names.length === 0) confirm(conn, 'unsubscribe', null);
      for (const channel of names) {
        conn.unsubscribe(channel, false);
        confirm(conn, 'unsubscribe', channel);
      }
      return NO_REPLY;
    },
  },
  {
    name: 'punsubscribe',
    arity: -1,
    noScript: true,
    run(conn, argv): Reply {
      const names = argv.length > 1 ? argv.slice(1) : conn.subscriptions(true);
      if (names.length === 0) confirm(conn, 'punsubscribe', null);
      for (const pattern of names) {
        conn.unsubscribe(pattern, true);
        confirm(conn, 'punsubscribe', pattern);
      }
      return NO_REPLY;
    },
  },
];
