/**
 * The key access command modules get (`Db`, lib/commands/types.ts) for one connection on one
 * keyspace: stream lookups, whole-key values (DUMP/RESTORE/COPY), the generic access of the
 * engine-owned families, and keyspace notifications published as Redis's notifyKeyspaceEvent.
 */
import type { Db } from '../commands/types';
import { CommandError, ERR_WRONGTYPE } from '../errors';
import type { Keyspace } from '../keyspace/keyspace';
import { wholeKeyAccess } from '../keyspace/key-values';
import { Stream } from '../model/stream';
import { bytesOf as toByteString, utf8Of as decodeBytes } from '../bytes/index';
import { publishMessage, publishToSelf } from './commands/pubsub';
import { type Connection, openConnections } from './connection';
import type { ServerState } from './registry';
import { prngOf } from '../keyspace/prng';
import { touchAllWatchedKeysInDbs } from './watch';
import { hasUnrestrictedKeyAccess } from './acl';

/**
 * A keyspace notification for the issuing connection, as Redis's notifyKeyspaceEvent sends it
 * when `notify-keyspace-events` has the event's class `type` (or `A` for any of g$lshzxetd)
 * with `K` and/or `E`: published on `__keyspace@<db>__:<key>` (message: the event) and
 * `__keyevent@<db>__:<event>` (message: the key). Delivered on Node's own process.nextTick
 * (./commands/pubsub.ts publishMessage): fake timers do not hold notifications back.
 */
export function publishKeyspaceEvent(conn: Connection, ks: Keyspace, type: string, event: string, fullKey: string): void {
  const flags = conn.notifyKeyspaceEvents;
  if (!flags || !(flags.includes(type) || (flags.includes('A') && 'g$lshzxetd'.includes(type)))) return;
  const server = conn.server;
  // channel and message are byte strings: a __keyspace channel carries the key's bytes, UTF-8 or not
  // 7.0: a notification for the connection's own subscription is written at once (inside EXEC's
  // array, ahead of the command's reply), as a PUBLISH to itself; a key whose bytes are not UTF-8
  // is left to the server's delivery
  const self = conn.pushesInline && conn.subscriptionCount > 0 && toByteString(decodeBytes(fullKey)) === fullKey;
  // in a cluster the node the command ran on (the key's) publishes, to its own subscribers only
  const node = conn.clusterNode;
  if (flags.includes('K')) {
    const channel = `__keyspace@${ks.dbIndex}__:${fullKey}`;
    if (self) publishToSelf(conn, channel, event);
    publishMessage(server, channel, event, node, 'node');
  }
  if (flags.includes('E')) {
    const channel = `__keyevent@${ks.dbIndex}__:${event}`;
    if (self) publishToSelf(conn, channel, fullKey);
    publishMessage(server, channel, fullKey, node, 'node');
  }
}

/**
 * The `notify-keyspace-events` flags of events no connection causes (a key expiring): the
 * server's once CONFIG SET has set them, else every flag some open connection of the server has
 * as its own option (ioredis-mock's per-client `notifyKeyspaceEvents`).
 */
function serverNotifyFlags(server: ServerState): string {
  const configured = server.config.notifyKeyspaceEvents;
  if (configured !== undefined) return configured;
  let flags = '';
  for (const c of openConnections()) {
    if (c.server !== server) continue;
    for (const f of c.ownNotifyKeyspaceEvents) if (!flags.includes(f)) flags += f;
  }
  return flags;
}

/** The server's publisher of keyspace events no connection causes (ServerState.eventSink). */
export function serverEventSink(server: ServerState): (db: number, type: string, event: string, fullKey: string) => void {
  return (db, type, event, fullKey) => {
    const flags = serverNotifyFlags(server);
    if (!flags || !(flags.includes(type) || (flags.includes('A') && 'g$lshzxetd'.includes(type)))) return;
    // in a cluster the node that owns the key's slot publishes (to its own subscribers only)
    const cluster = server.cluster;
    const node = cluster === null ? null : cluster.nodeOfKey(fullKey);
    if (flags.includes('K')) publishMessage(server, `__keyspace@${db}__:${fullKey}`, event, node, 'node');
    if (flags.includes('E')) publishMessage(server, `__keyevent@${db}__:${event}`, fullKey, node, 'node');
  };
}

/**
 * Key access of the commands on `ks` for `conn`. A key argument is the store's key as it is
 * (keys are byte strings end to end: lib/bytes).
 */
export function makeDb(conn: Connection, ks: Keyspace): Db {
  return {
    getStream(key) {
      const v = ks.store.getRaw(key);
      if (v === undefined) return undefined;
      if (v instanceof Stream) return v;
      throw new CommandError(ERR_WRONGTYPE);
    },
    readStream(key) {
      const v = ks.store.getRaw(key);
      if (v === undefined) {
        conn.server.stats.keyspaceMisses++;
        publishKeyspaceEvent(conn, ks, 'm', 'keymiss', key);
        return undefined;
      }
      conn.server.stats.keyspaceHits++;
      if (v instanceof Stream) return v;
      throw new CommandError(ERR_WRONGTYPE);
    },
    exists: (key) => ks.store.hasKey(key),
    createStream(key) {
      const s = new Stream();
      ks.store.setRaw(key, s);
      return s;
    },
    signalReady: (key) => ks.blocking.signal(key),
    touch: (key) => ks.store.markModified(key),
    notify: (event, key) => {
      ks.emitEvent(event, key);
      publishKeyspaceEvent(conn, ks, 't', event, key);
    },
    // the store's own method (bound: no function of ours between a command and the store)
    lookup: ks.store.getRaw.bind(ks.store),
    store(key, value, keepTtl, mark) {
      ks.store.setRaw(key, value, mark); // leaves the TTL as it was
      if (!keepTtl) ks.store.removeExpiry(key);
    },
    remove(key) {
      if (!ks.store.hasKey(key)) return false;
      ks.store.deleteKey(key);
      return true;
    },
    stringMark: (key) => ks.store.stringMarkOf(key),
    queuedArgvString: (key) => conn.execArgvStrings?.get(ks)?.get(key),
    setStringMark: (key, mark) => ks.store.markString(key, mark),
    ttlAt: (key) => (ks.store.hasKey(key) ? ks.store.expiryOf(key) : undefined),
    setTtlAt: (key, at, exact) => ks.store.setExpiry(key, at, exact),
    ttlAtExact: (key) => (ks.store.hasKey(key) ? ks.store.exactExpiryOf(key) : undefined),
    persist: (key) => ks.store.removeExpiry(key),
    notifyEvent: (type, event, key) => {
      if (type === 't') ks.emitEvent(event, key);
      publishKeyspaceEvent(conn, ks, type, event, key);
    },
    keyHit: (count = 1) => void (conn.server.stats.keyspaceHits += count),
    keyMiss(key, notify = true) {
      conn.server.stats.keyspaceMisses++;
      if (notify) publishKeyspaceEvent(conn, ks, 'm', 'keymiss', key);
    },
    keyNames: () => ks.store.keyNames(),
    random: () => prngOf(ks).random(),
    fullKeyReadAccess: (argv) => conn.user.unrestricted || hasUnrestrictedKeyAccess(conn.user, String(argv[0]).toLowerCase(), argv, conn.keyspace.redisVersion),
    size: () => ks.store.size,
    randomKey: () => ks.store.randomKey(),
    scan: (cursor, count) => ks.store.scan(cursor, count),
    accessedAt: (key) => ks.store.accessedAt(key),
    lfuCounter: (key) => ks.store.lfuCounter(key),
    setAccess: (key, idleSeconds, freq) => void ks.store.setAccess(key, idleSeconds, freq),
    swapDb(index1, index2) {
      if (index1 === index2) return;
      const [a, b] = [conn.server.keyspace(index1), conn.server.keyspace(index2)];
      touchAllWatchedKeysInDbs([[a, b], [b, a]], () => a.store.swapWith(b.store));
    },
    dirty: (n) => conn.server.stats.addDirty(n),
    subkeysExpired: (n) => void (conn.server.stats.expiredSubkeys += n),
    lazyfreed: () => void conn.server.stats.lazyfreedObjects++,
    resetStats: () => conn.server.stats.resetStats(),
    propagation() {
      const repl = conn.server.replication;
      return repl !== null && repl.active ? repl : null;
    },
    // a cluster node's own port (CONFIG GET port): the masters share one configuration
    nodePort: conn.clusterNode === null ? undefined : conn.server.cluster?.nodes[conn.clusterNode]?.port,
    // DUMP, RESTORE, COPY (… DB n) and CONFIG: whole values and the server's other databases
    ...wholeKeyAccess(ks, ks.dbIndex, (index) => makeDb(conn, conn.server.keyspace(index))),
  };
}

