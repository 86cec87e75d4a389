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
 * resolves with `NO_REPLY`: the front end writes nothing more for it (inside EXEC the first
 * confirmation is the command's reply instead, as Redis writes it). UNSUBSCRIBE without
 * subscriptions confirms with a nil name and 0.
 * In RESP2 a subscribed connection accepts only (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PING (which
 * answers `[pong, message]`), QUIT and RESET (server.c processCommand).
 */
import { realNextTick } from '../../clock/real-timers';
import { PushReply, SimpleString, type Reply } from '../../reply/reply';
import { CommandError, errSubcommandSyntax } from '../../errors';
import { globMatch } from '../../bytes/glob';
import { helpFooter } from '../../version';
import type { ConnectionCommandSpec, ConnectionHandler } from '../command-types';
import type { Connection } from '../connection';
import { EngineBuiltinHost } from '../connection/builtin-host';
import type { ServerState, ShardSubscriber } from '../registry';

/** What a SUBSCRIBE-family command resolves with: its confirmations were pushed. */
export const NO_REPLY: PushReply = new PushReply([]);

/** Commands a RESP2 connection with subscriptions may send. */
export const ALLOWED_WHEN_SUBSCRIBED = new Set(['subscribe', 'ssubscribe', 'psubscribe', 'unsubscribe', 'sunsubscribe', 'punsubscribe', 'ping', 'quit', 'reset']);

/**
 * Confirmations of one (P|S)(UN)SUBSCRIBE call. Inside EXEC the first one is the command's reply
 * (the EXEC array's element, as Redis writes it into the transaction's reply); the others, and
 * every one outside EXEC, are pushed.
 */
class Confirmations {
  private first: PushReply | null = null;
  constructor(private readonly conn: Connection) {}
  add(kind: string, name: string | null, count: number): void {
    const msg = new PushReply([kind, name, count]);
    if (this.first === null && this.conn.keyspace.inTransaction) this.first = msg;
    else this.conn.push(msg);
  }
  /** The command's reply: the first confirmation inside EXEC, else NO_REPLY. */
  get reply(): Reply {
    return this.first ?? NO_REPLY;
  }
}

/**
 * PUBLISH channel message (pubsub.c pubsubPublishMessage): delivers `message` to every
 * connection of the server subscribed to `channel` (any front end: ioredis clients, RESP
 * `serve` clients, Upstash), then to every subscription of a pattern matching it (glob, bytes,
 * case-sensitive: stringmatchlen). Channel and message are byte strings and reach the
 * subscribers as bytes. Returns the number of receivers as Redis counts them: channel
 * subscribers + (connection, pattern) pairs that matched. ioredis clients' listeners (ioredis-mock's)
 * deliver through `process.nextTick`: collected on the server and delivered on Node's own nextTick
 * (fake timers that fake nextTick never hold them back) or before the next command of any client,
 * whichever comes first.
 *
 * Cluster mode (`node`: the cluster node publishing; null outside a cluster): each node is a
 * Redis process of its own, so the count is that node's subscribers only. `reach` 'cluster' (the
 * PUBLISH command: the cluster bus carries the message to every node, cluster.c
 * clusterPropagatePublish) delivers to the subscribers of every node; 'node' (keyspace
 * notifications: notify.c publishes on the node that owns the key, nowhere else) to the node's own.
 */
export function publishMessage(server: ServerState, channel: string, message: string, node: number | null = null, reach: 'cluster' | 'node' = 'cluster'): number {
  const proc = process;
  const current = proc.nextTick;
  const outer = collectingFor;
  collectingFor = server;
  proc.nextTick = collectDelivery as typeof proc.nextTick;
  try {
    return node === null ? publishNow(server, channel, message) : publishOnNode(server, channel, message, node, reach === 'node');
  } finally {
    proc.nextTick = current;
    collectingFor = outer;
  }
}

/** The server whose PUBLISH is running (its deliveries are collected), or null. */
let collectingFor: ServerState | null = null;

/**
 * `process.nextTick` while a PUBLISH runs: ioredis-mock's listener's delivery, queued on the
 * server (ServerState.pendingDeliveries) and flushed on Node's own nextTick — or before the next
 * command, whichever comes first (Connection.beforeCommand).
 */
function collectDelivery(fn: (...args: unknown[]) => void, ...args: unknown[]): void {
  const server = collectingFor!;
  let queue = server.pendingDeliveries;
  if (queue === null) {
    queue = server.pendingDeliveries = [];
    realNextTick(() => server.deliverPending());
  }
  queue.push(() => fn(...args));
}

/**
 * The emitters name channels and patterns by their byte strings (every front end subscribes them
 * so: lib/engine/connection/pubsub.ts, the ioredis adapter), and messages travel as byte strings.
 */
function publishNow(server: ServerState, channel: string, message: string): number {
  const channels = server.channels;
  let receivers = channels.listenerCount(channel);
  if (receivers > 0) channels.emit(channel, message);
  const patterns = server.patternChannels;
  for (const pattern of subscribedNames(patterns)) {
    if (!globMatch(pattern, channel)) continue;
    receivers += patterns.listenerCount(pattern);
    patterns.emit(pattern, message, channel);
  }
  return receivers;
}

/**
 * 7.0: a PUBLISH to channels its own connection subscribed to writes the messages to it at once
 * (addReplyPubsubMessage into the client's buffer: inside EXEC's array, ahead of a script's
 * reply — FEATURE_SINCE.selfPushAfterReply); the emitters' later delivery to it is dropped.
 * `message` for the channel, then a `pmessage` per matching pattern, as pubsubPublishMessage.
 * Keyspace notifications of the connection's own commands go the same way (lib/engine/db.ts).
 */
export function publishToSelf(conn: Connection, channel: string, message: string): void {
  const echoes: PushReply[] = [];
  if (conn.subscriptions(false).includes(channel)) echoes.push(new PushReply(['message', channel, message]));
  for (const pattern of conn.subscriptions(true)) {
    if (globMatch(pattern, channel)) echoes.push(new PushReply(['pmessage', pattern, channel, message]));
  }
  for (const msg of echoes) {
    (conn.selfEchoes ??= []).push((msg.items as string[]).join('\0'));
    conn.push(msg);
  }
}

/** ioredis-mock's emitter: EventEmitter + its `instanceListeners` (channel → subscriber instance → listener). */
type ChannelEmitter = ServerState['channels'];
type Listeners = Map<unknown, (message: string, channel?: string) => void>;

function listenersOf(emitter: ChannelEmitter): Map<unknown, Listeners> | undefined {
  return (emitter as { instanceListeners?: Map<unknown, Listeners> }).instanceListeners;
}

/**
 * The cluster node a subscriber (an emitter's instance: a connection's EngineBuiltinHost, or an
 * ioredis-mock instance) is connected to; null when it has none (outside a cluster).
 */
function nodeOfSubscriber(instance: unknown): number | null {
  return instance instanceof EngineBuiltinHost ? instance.conn.clusterNode : null;
}

/** A subscriber counted on `node` (null: on every node). */
function onNode(instance: unknown, node: number | null): boolean {
  if (node === null) return true;
  const own = nodeOfSubscriber(instance);
  return own === null || own === node;
}

/** How many subscribers of `name` (channel or pattern) an emitter has on `node` (null: in all). */
function subscribersOn(emitter: ChannelEmitter, name: string, node: number | null): number {
  if (node === null) return emitter.listenerCount(name);
  let n = 0;
  for (const instance of listenersOf(emitter)?.get(name)?.keys() ?? []) if (onNode(instance, node)) n++;
  return n;
}

/**
 * The channels (or patterns: byte strings) with a subscriber on an emitter (ioredis-mock's
 * `instanceListeners`), on cluster node `node` (null: on any).
 */
function subscribedNames(emitter: ChannelEmitter, node: number | null = null): string[] {
  const out: string[] = [];
  for (const [k, listeners] of listenersOf(emitter) ?? []) {
    if (listeners.size === 0 || typeof k !== 'string' || emitter.listenerCount(k) === 0) continue;
    if (node !== null && subscribersOn(emitter, k, node) === 0) continue;
    out.push(k);
  }
  return out;
}

/**
 * `publishNow` in a cluster: the receivers counted are those of `node`; the message goes to
 * every node's subscribers, or only to `node`'s when `nodeOnly` (keyspace notifications).
 * Listeners run in the emitters' order (subscription order), as `emit` calls them.
 */
function publishOnNode(server: ServerState, channel: string, message: string, node: number, nodeOnly: boolean): number {
  let receivers = 0;
  // a channel's listener takes the message; a pattern's the message and the channel
  const deliver = (emitter: ChannelEmitter, name: string, channelOfPattern?: string): void => {
    for (const [instance, listener] of [...(listenersOf(emitter)?.get(name) ?? [])]) {
      const here = onNode(instance, node);
      if (here) receivers++;
      if (here || !nodeOnly) listener(message, channelOfPattern);
    }
  };
  deliver(server.channels, channel);
  const patterns = server.patternChannels;
  for (const pattern of subscribedNames(patterns)) if (globMatch(pattern, channel)) deliver(patterns, pattern, channel);
  return receivers;
}

/**
 * SPUBLISH shardchannel message: the shard channel's SSUBSCRIBE subscribers only (7.0). In a
 * cluster they are all on the node that owns the channel's slot (SSUBSCRIBE elsewhere is MOVED),
 * the node that runs the SPUBLISH; the count is `node`'s (null: every subscriber).
 */
export function publishShardMessage(server: ServerState, channel: string, message: string, node: number | null = null): number {
  const subs = server.shardChannels.get(channel);
  if (!subs) return 0;
  for (const s of [...subs]) s.deliverShardMessage(channel, message);
  return shardSubscribersOn(subs, node);
}

/** Shard-channel subscribers (connections) on cluster node `node` (null: all). */
function shardSubscribersOn(subs: ReadonlySet<ShardSubscriber>, node: number | null): number {
  if (node === null) return subs.size;
  let n = 0;
  for (const c of subs) if (c.clusterNode === null || c.clusterNode === node) n++;
  return n;
}

/** Active channels (with a subscriber on `node`, null: anywhere) of the emitters, byte strings, matching `pattern`. */
function activeChannels(server: ServerState, pattern: string | undefined, node: number | null): string[] {
  const out: string[] = [];
  for (const bytes of subscribedNames(server.channels, node)) if (pattern === undefined || globMatch(pattern, bytes)) out.push(bytes);
  return out;
}

/**
 * INFO's pub/sub figures for `conn`'s node (each cluster node counts its own subscribers):
 * pubsub_channels, pubsub_patterns (distinct names with a subscriber), pubsubshard_channels.
 */
export function pubsubCounts(conn: Connection): { channels: number; patterns: number; shardChannels: number } {
  const node = conn.clusterNode;
  const server = conn.server;
  let shardChannels = 0;
  for (const subs of server.shardChannels.values()) if (shardSubscribersOn(subs, node) > 0) shardChannels++;
  return { channels: subscribedNames(server.channels, node).length, patterns: subscribedNames(server.patternChannels, node).length, shardChannels };
}

/** PUBSUB HELP lines (pubsub.c pubsubCommand; "Prints" became "Print" in 7.2). */
function pubsubHelp(conn: Connection): SimpleString[] {
  const lines = [
    'PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
    'CHANNELS [<pattern>]',
    "    Return the currently active channels matching a <pattern> (default: '*').",
    'NUMPAT',
    '    Return number of subscriptions to patterns.',
    'NUMSUB [<channel> ...]',
    '    Return the number of subscribers for the specified channels, excluding',
    '    pattern subscriptions(default: no channels).',
    'SHARDCHANNELS [<pattern>]',
    "    Return the currently active shard level channels matching a <pattern> (default: '*').",
    'SHARDNUMSUB [<shardchannel> ...]',
    '    Return the number of subscribers for the specified shard level channel(s)',
    'HELP',
    helpFooter(conn.keyspace.redisVersion),
  ];
  return lines.map((l) => new SimpleString(l));
}

/** CHANNELS / SHARDCHANNELS take at most one pattern (else addReplySubcommandSyntaxError). */
function atMostPattern(argv: string[]): string | undefined {
  if (argv.length > 3) throw new CommandError(errSubcommandSyntax(argv[1], 'pubsub'));
  return argv[2];
}

// In a cluster each node answers for its own subscribers (conn.clusterNode; null: a single server)
const channelsRun: ConnectionHandler = (conn, argv) => activeChannels(conn.server, atMostPattern(argv), conn.clusterNode);
const numsubRun: ConnectionHandler = (conn, argv) => {
  const out: (string | number)[] = [];
  for (const ch of argv.slice(2)) out.push(ch, subscribersOn(conn.server.channels, ch, conn.clusterNode));
  return out;
};
const numpatRun: ConnectionHandler = (conn) => {
  // dictSize(server.pubsub_patterns): distinct patterns with a subscriber
  return subscribedNames(conn.server.patternChannels, conn.clusterNode).length;
};
const shardChannelsRun: ConnectionHandler = (conn, argv) => {
  const pattern = atMostPattern(argv);
  const out: string[] = [];
  for (const [ch, subs] of conn.server.shardChannels) {
    if (shardSubscribersOn(subs, conn.clusterNode) > 0 && (pattern === undefined || globMatch(pattern, ch))) out.push(ch);
  }
  return out;
};
const shardNumsubRun: ConnectionHandler = (conn, argv) => {
  const out: (string | number)[] = [];
  for (const ch of argv.slice(2)) {
    const subs = conn.server.shardChannels.get(ch);
    out.push(ch, subs === undefined ? 0 : shardSubscribersOn(subs, conn.clusterNode));
  }
  return out;
};

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'subscribe',
    arity: -2,
    noScript: true,
    run(conn, argv): Reply {
      const out = new Confirmations(conn);
      for (const channel of argv.slice(1)) {
        conn.subscribe(channel, false);
        out.add('subscribe', channel, conn.subscriptionCount);
      }
      return out.reply;
    },
  },
  {
    name: 'psubscribe',
    arity: -2,
    noScript: true,
    run(conn, argv): Reply {
      const out = new Confirmations(conn);
      for (const pattern of argv.slice(1)) {
        conn.subscribe(pattern, true);
        out.add('psubscribe', pattern, conn.subscriptionCount);
      }
      return out.reply;
    },
  },
  {
    name: 'unsubscribe',
    arity: -1,
    noScript: true,
    run(conn, argv): Reply {
      const names = argv.length > 1 ? argv.slice(1) : conn.subscriptions(false);
      const out = new Confirmations(conn);
      if (names.length === 0) out.add('unsubscribe', null, conn.subscriptionCount);
      for (const channel of names) {
        conn.unsubscribe(channel, false);
        out.add('unsubscribe', channel, conn.subscriptionCount);
      }
      return out.reply;
    },
  },
  {
    name: 'punsubscribe',
    arity: -1,
    noScript: true,
    run(conn, argv): Reply {
      const names = argv.length > 1 ? argv.slice(1) : conn.subscriptions(true);
      const out = new Confirmations(conn);
      if (names.length === 0) out.add('punsubscribe', null, conn.subscriptionCount);
      for (const pattern of names) {
        conn.unsubscribe(pattern, true);
        out.add('punsubscribe', pattern, conn.subscriptionCount);
      }
      return out.reply;
    },
  },
  {
    name: 'publish',
    arity: 3,
    run(conn, argv) {
      if (conn.pushesInline && conn.subscriptionCount > 0) publishToSelf(conn, argv[1], argv[2]);
      const receivers = publishMessage(conn.server, argv[1], argv[2], conn.clusterNode);
      if (conn.server.cluster === null) conn.forcePropagation(); // PUBLISH is replicated (not in a cluster)
      return receivers;
    },
  },
  {
    name: 'pubsub',
    arity: -2,
    subcommands: {
      channels: { arity: -2, run: channelsRun },
      numsub: { arity: -2, run: numsubRun },
      numpat: { arity: 2, run: numpatRun },
      shardchannels: { arity: -2, run: shardChannelsRun },
      shardnumsub: { arity: -2, run: shardNumsubRun },
      help: { arity: 2, run: (conn) => pubsubHelp(conn) },
    },
  },
  {
    name: 'spublish',
    arity: 3,
    run(conn, argv) {
      const receivers = publishShardMessage(conn.server, argv[1], argv[2], conn.clusterNode);
      if (conn.server.cluster === null) conn.forcePropagation();
      return receivers;
    },
  },
  {
    name: 'ssubscribe',
    arity: -2,
    noScript: true,
    run(conn, argv): Reply {
      // pubsub.c ssubscribeCommand: a client that must get one reply per command (CLIENT_DENY_BLOCKING:
      // inside EXEC) cannot subscribe — unlike SUBSCRIBE, with no exception for MULTI (7.0.15 and
      // the post-7.4 build: EXEC answers this error in its place and the client stays unsubscribed)
      if (conn.keyspace.inTransaction) throw new CommandError("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client");
      // SSUBSCRIBE/SUNSUBSCRIBE count the shard channels only (clientShardSubscriptionsCount)
      const out = new Confirmations(conn);
      for (const channel of argv.slice(1)) {
        conn.shardSubscribe(channel);
        out.add('ssubscribe', channel, conn.shardSubscriptionCount);
      }
      return out.reply;
    },
  },
  {
    name: 'sunsubscribe',
    arity: -1,
    noScript: true,
    run(conn, argv): Reply {
      const names = argv.length > 1 ? argv.slice(1) : conn.shardSubscriptions();
      const out = new Confirmations(conn);
      if (names.length === 0) out.add('sunsubscribe', null, conn.shardSubscriptionCount);
      for (const channel of names) {
        conn.shardUnsubscribe(channel);
        out.add('sunsubscribe', channel, conn.shardSubscriptionCount);
      }
      return out.reply;
    },
  },
];
