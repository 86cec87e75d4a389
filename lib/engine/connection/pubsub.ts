/**
 * A connection's pub/sub (pubsub.c): its channel, pattern and shard-channel subscriptions, and
 * the out-of-band messages (push replies) it receives. Channels and patterns ride on the
 * server's ioredis-mock emitters (shared with ioredis-mock clients' SUBSCRIBE/PUBLISH); shard
 * channels on the server's own table. The state lives on the Connection (`channelSubs`,
 * `patternSubs`, `shardSubs`, `pushListeners`).
 */
import { PushReply, type Reply } from '../../reply/reply';
import type { Connection } from '../connection';

/** Out-of-band messages as push replies; returns a function that removes the listener. */
export function onPush(conn: Connection, listener: (msg: Reply) => void): () => void {
  (conn.pushListeners ??= new Set()).add(listener);
  return () => void conn.pushListeners?.delete(listener);
}

/** Deliver an out-of-band reply to the push listeners. */
export function push(conn: Connection, msg: Reply): void {
  if (!conn.pushListeners || conn.isClosed) return;
  conn.noteWrite(); // CLIENT LIST idle and CONFIG timeout count from it
  for (const l of conn.pushListeners) l(msg);
}

/**
 * A pub/sub message from the server's channel emitters (`message`/`pmessage` events): channel,
 * pattern and message are byte strings there (lib/engine/commands/pubsub.ts `publishNow`).
 */
export function deliverMessage(conn: Connection, event: string, args: unknown[]): void {
  const kind = event.replace(/Buffer$/, '');
  if (kind !== 'message' && kind !== 'pmessage') return;
  const items = [kind, ...args].map((a) => (Buffer.isBuffer(a) ? a.toString('latin1') : String(a)));
  if (conn.selfEchoes !== undefined && conn.selfEchoes[0] === items.join('\0')) {
    conn.selfEchoes.shift();
    if (conn.selfEchoes.length === 0) conn.selfEchoes = undefined;
    return;
  }
  push(conn, new PushReply(items));
}

/** SSUBSCRIBE one shard channel (byte string) on the server's shard channel table. */
export function shardSubscribe(conn: Connection, channel: string): void {
  const subs = (conn.shardSubs ??= new Set());
  if (subs.has(channel)) return;
  subs.add(channel);
  const table = conn.server.shardChannels;
  let set = table.get(channel);
  if (!set) table.set(channel, (set = new Set()));
  set.add(conn);
}

/** SUNSUBSCRIBE one shard channel. */
export function shardUnsubscribe(conn: Connection, channel: string): void {
  if (!conn.shardSubs?.delete(channel)) return;
  if (conn.shardSubs.size === 0) conn.shardSubs = undefined;
  const table = conn.server.shardChannels;
  const set = table.get(channel);
  if (!set) return;
  set.delete(conn);
  if (set.size === 0) table.delete(channel);
}

/**
 * Subscribe to a channel or pattern (byte string) on the server's emitters, under its byte
 * string: distinct bytes are distinct channels, whatever their UTF-8 decoding.
 */
export function subscribe(conn: Connection, name: string, pattern: boolean): void {
  const subs = pattern ? (conn.patternSubs ??= new Set()) : (conn.channelSubs ??= new Set());
  if (subs.has(name)) return;
  subs.add(name);
  const emulator = conn.emulators[pattern ? 'psubscribe' : 'subscribe'];
  if (typeof emulator === 'function') emulator.call(conn.builtinHost, name);
}

/** Unsubscribe from a channel or pattern. */
export function unsubscribe(conn: Connection, name: string, pattern: boolean): void {
  const subs = pattern ? conn.patternSubs : conn.channelSubs;
  if (!subs?.delete(name)) return;
  const emulator = conn.emulators[pattern ? 'punsubscribe' : 'unsubscribe'];
  if (typeof emulator === 'function') emulator.call(conn.builtinHost, name);
}

/** Drop every subscription (RESET, close). */
export function unsubscribeAll(conn: Connection): void {
  for (const name of conn.subscriptions(false)) unsubscribe(conn, name, false);
  for (const name of conn.subscriptions(true)) unsubscribe(conn, name, true);
  for (const name of conn.shardSubscriptions()) shardUnsubscribe(conn, name);
}
