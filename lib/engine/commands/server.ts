/**
 * Server commands (server.c, db.c, debug.c) for every front end:
 *
 * INFO [section …] — the server report (lib/commands/server/info.ts) from this server's live
 *   state: its connections, blocked calls and blocking keys, counters (lib/stats), databases.
 * COMMAND [COUNT | LIST | INFO … | DOCS … | HELP] — the commands this server answers
 *   (lib/commands/server/command.ts).
 * MOCKCLOCK GET | TICK ms | SET ms | HELP — clock control over the wire, when a front end
 *   enabled it (`ServerState.clockControl`); otherwise an unknown command, as on Redis.
 * TIME — the server clock as `[seconds, microseconds]`.
 * FLUSHALL / FLUSHDB [ASYNC|SYNC] — delete every key of every database / of this one (blocked
 *   XREADGROUP readers are woken as after a deletion); each deleted key counts as a change.
 * SAVE / BGSAVE / LASTSAVE — no file is written: SAVE `+OK` and BGSAVE `+Background saving
 *   started` reset the dirty counter and the last-save time, LASTSAVE answers that time (s).
 * MONITOR — every command of the server to this connection (lib/engine/connection/monitor.ts).
 * SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT] — db.c shutdownCommand's checks and texts (syntax
 *   errors, "ERR No shutdown in progress." for ABORT, BUSY without NOSAVE while a script keeps the
 *   server busy), then the server ends: a running script stops (its caller's connection closes),
 *   every connection closes without a reply (the caller's too), and the data, scripts and
 *   functions are gone (nothing is saved). Over `serve` the server closes (the CLI exits);
 *   in-process the next connection to that host:port finds an empty server.
 * DEBUG … — "ERR DEBUG command not allowed …", what a server with the default
 *   `enable-debug-command no` answers. With the setting on (`serve --enable-debug-command yes`),
 *   an error that says the fake runs no DEBUG subcommand (not the refusal, which would tell the
 *   user to turn on what is on).
 * FUNCTION and FCALL: ./functions.ts.
 */
import { microsWithin } from '../../clock/real-clock';
import { createHash } from 'crypto';
import { CommandError, ERR_SYNTAX, errSubcommandSyntax } from '../../errors';
import { predates } from '../../version';
import { COMMANDS } from '../../commands/index';
import type { InfoSource } from '../../commands/server/info';
import { OK, type Reply, SimpleString, VerbatimReply } from '../../reply/reply';
import type { ConnectionCommandSpec } from '../command-types';
import { librariesOf } from '../../scripting/libraries';
import { aclStateOf, categoriesOf, commandsInCategory } from '../acl';
import { type Connection, builtinArity, connectionClosedError, nodeConnections, openConnections } from '../connection';
import { type ServerState, pastBusyReplyThreshold } from '../registry';
import { RedisHash } from '../../model/hash';
import { supports } from '../../version';
import { CONNECTION_COMMANDS } from './index';
import { pubsubCounts } from './pubsub';
import { monitorCommand } from '../connection/monitor';
import { usedMemory } from '../maxmemory';
import { touchAllWatchedKeysInDbs } from '../watch';

// INFO, COMMAND and MOCKCLOCK load their modules on first use (FLUSHALL, TIME … do not need them)
/* eslint-disable @typescript-eslint/no-require-imports */
const info = (): typeof import('../../commands/server/info') => require('../../commands/server/info');
const command = (): typeof import('../../commands/server/command') => require('../../commands/server/command');
const mockclock = (): typeof import('../../commands/server/mockclock') => require('../../commands/server/mockclock');
/* eslint-enable @typescript-eslint/no-require-imports */

/** INFO's view of `server` now (`conn` asks). */
export function infoSource(conn: Connection): InfoSource {
  const server = conn.server;
  const conns = [...nodeConnections(conn)]; // in a cluster: the node's own clients
  const node = conn.clusterNode;
  const blockingKeys = new Map<string, boolean>();
  const keyspace: { db: number; keys: number; expires: number; avgTtl: number; subexpiry: number }[] = [];
  for (const ks of [...server.keyspaces()].sort((a, b) => a.dbIndex - b.dbIndex)) {
    for (const [key, requests] of ks.blocking.waitingKeys()) {
      const id = `${ks.dbIndex}\n${key}`;
      blockingKeys.set(id, (blockingKeys.get(id) ?? false) || requests.some((r) => r.unblockOnNoKey === true));
    }
    const keys = ks.store.keyNames();
    if (keys.length === 0) continue;
    const now = ks.now();
    let expires = 0;
    let ttl = 0;
    let subexpiry = 0; // hashes with fields that have a TTL (7.4 `subexpiry`)
    for (const k of keys) {
      const v = ks.store.peekRaw(k);
      if (v instanceof RedisHash && v.volatileCount > 0) subexpiry++;
      const at = ks.store.expiryOf(k);
      if (at === undefined) continue;
      expires++;
      ttl += Math.max(0, at - now);
    }
    keyspace.push({ db: ks.dbIndex, keys: keys.length, expires, avgTtl: expires ? Math.floor(ttl / expires) : 0, subexpiry });
  }
  // server.pubsub_clients: channels, patterns or shard channels, the front end's own included (Connection.listedAsSubscriber)
  const subscribed = (c: Connection) => c.listedAsSubscriber;
  const nowMs = conn.keyspace.clock.now();
  return {
    version: conn.keyspace.redisVersion,
    nowMs,
    aclDenied: aclStateOf(server).denied,
    startMs: server.startedAt ?? nowMs,
    // a cluster node: its own port and run id (one Redis process each)
    tcpPort: node === null ? server.tcpPort : (server.cluster?.nodes[node]?.port ?? server.tcpPort),
    runId: node === null ? server.runId : createHash('sha1').update(`${server.runId} node ${node}`).digest('hex'),
    replId: server.replId,
    processId: process.pid,
    executable: process.execPath,
    clients: {
      connected: conns.filter((c) => c.replicaFeed === null).length, // replicas are not counted (server.slaves)
      blocked: conns.filter((c) => c.blocked).length,
      pubsub: conns.filter(subscribed).length,
      watching: conns.filter((c) => c.watchCount > 0).length,
      totalWatchedKeys: conns.reduce((n, c) => n + c.watchCount, 0),
      totalBlockingKeys: blockingKeys.size,
      totalBlockingKeysOnNokey: [...blockingKeys.values()].filter(Boolean).length,
      maxclients: Number(server.config.get('maxclients') ?? 10000),
    },
    stats: server.stats,
    pubsub: pubsubCounts(conn),
    keyspace,
    usedMemory: usedMemory(server),
    scripts: server.scripts.size,
    scriptBytes: [...server.scripts.values()].reduce((n, body) => n + body.length, 0),
    functionLibraries: librariesOf(server),
    config: server.config,
    clusterEnabled: server.cluster !== null,
    clusterNodes: server.cluster?.nodes.length,
    connectedReplicas: server.replication?.replicaCount ?? 0,
    tracking: server.tracking === null ? undefined : { clients: server.tracking.clients, keys: server.tracking.totalKeys, items: server.tracking.totalItems, prefixes: server.tracking.totalPrefixes },
  };
}

/** Every command name a connection of `server` answers. */
function commandNames(conn: Connection): string[] {
  const names = new Set<string>();
  for (const name of CONNECTION_COMMANDS.keys()) names.add(name); // (COMMAND leaves out MOCKCLOCK itself)
  for (const name of Object.keys(conn.emulators)) {
    if (/^[a-z]+$/.test(name) && builtinArity(name) !== undefined && !COMMANDS.has(name)) names.add(name);
  }
  return [...names];
}

/**
 * Delete every key of `dbs`; each key deleted counts as a change (db.c emptyData).
 * `blockingAsync`: 7.4's blocking async flush (see `runsBlockingAsync`).
 */
function flush(server: ServerState, keyspaces: Iterable<ReturnType<ServerState['keyspace']>>, lazy = false, blockingAsync = false): void {
  let removed = 0;
  const dbs = [...keyspaces];
  const empty = () => {
    for (const ks of dbs) {
      removed += ks.store.keyNames().length;
      ks.store.clearAll();
      ks.blocking.flush();
    }
  };
  // WATCH: touchAllWatchedKeysInDb (watchers dirty, their keys kept)
  const touch = (fn: () => void) => touchAllWatchedKeysInDbs(dbs.map((ks) => [ks, null]), fn);
  // client-side caching: one null invalidation instead of one per key (trackingInvalidateKeysOnFlush)
  if (server.tracking !== null) server.tracking.flush(() => touch(empty), blockingAsync);
  else touch(empty);
  server.stats.addDirty(removed);
  if (lazy) server.stats.lazyfreedObjects += removed; // emptyDbAsync: every key, freed by the lazyfree thread
}

const ERR_BGSAVE_RUNNING = 'ERR Background save already in progress';

/**
 * BGSAVE [SCHEDULE] (rdb.c bgsaveCommand). Nothing is written; with `rdb-key-save-delay` (µs per
 * key, a test knob) above 0 and keys to save, a pretended child runs for keys × delay on the
 * keyspace clock (INFO rdb_bgsave_in_progress 1; SAVE and BGSAVE then answer "ERR Background
 * save already in progress"; FLUSHALL kills it); else the save is done at once.
 */
function bgsave(conn: Connection, argv: string[]): Reply {
  if (argv.length > 2 || (argv.length === 2 && argv[1].toLowerCase() !== 'schedule')) throw new CommandError(ERR_SYNTAX);
  const stats = conn.server.stats;
  const now = conn.keyspace.clock.now();
  if (stats.bgsaveInProgress(now)) throw new CommandError(ERR_BGSAVE_RUNNING);
  const delayUs = Number(conn.server.config.get('rdb-key-save-delay') ?? '0');
  let keys = 0;
  if (delayUs > 0) for (const ks of conn.server.keyspaces()) keys += ks.store.keyNames().length;
  if (keys > 0) stats.bgsaveStart(now, (keys * delayUs) / 1000);
  else stats.saved(now);
  return new SimpleString('Background saving started');
}

/**
 * FLUSHALL/FLUSHDB [ASYNC|SYNC] (db.c getFlushCommandFlags): true when the keys are freed lazily
 * (INFO lazyfreed_objects counts them): ASYNC, no argument with lazyfree-lazy-user-flush yes,
 * and from 7.4 (redis#13167) a SYNC flush too, run as a blocking ASYNC one, unless the client
 * cannot block (MULTI/EXEC, a script: CLIENT_AVOID_BLOCKING_ASYNC_FLUSH). Checked on 7.0.15 and
 * the post-7.4 build.
 */
function flushLazily(conn: Connection, argv: string[]): boolean {
  if (argv.length > 2 || (argv.length === 2 && !/^(a?sync)$/i.test(argv[1]))) throw new CommandError(ERR_SYNTAX);
  if (argv.length === 2 ? argv[1].toLowerCase() === 'async' : conn.server.config.get('lazyfree-lazy-user-flush') === 'yes') return true;
  return runsBlockingAsync(conn);
}

/**
 * db.c flushCommandCommon from 7.4 (redis#13167): a SYNC flush (the default without
 * lazyfree-lazy-user-flush) runs as blocking async — freed by the lazyfree thread, the client
 * answered once the flush is done, after its own tracking invalidation — except where the client
 * may not block (inside MULTI/EXEC or a script: CLIENT_AVOID_BLOCKING_ASYNC_FLUSH). The tracking
 * order checked on the post-7.4 build. For a flush `flushLazily` found not ASYNC.
 */
function runsBlockingAsync(conn: Connection): boolean {
  return !predates(conn.keyspace.redisVersion, '7.4') && !conn.keyspace.inTransaction;
}

/** A flush's mode: lazy (ASYNC, or a blocking async SYNC) and whether it is a blocking async one. */
function flushMode(conn: Connection, argv: string[]): { lazy: boolean; blockingAsync: boolean } {
  const lazy = flushLazily(conn, argv);
  const explicitAsync = argv.length === 2 ? argv[1].toLowerCase() === 'async' : conn.server.config.get('lazyfree-lazy-user-flush') === 'yes';
  return { lazy, blockingAsync: lazy && !explicitAsync };
}


export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'info',
    arity: -1,
    run: (conn, argv): Reply => new VerbatimReply(info().infoText(infoSource(conn), argv.slice(1))),
  },
  {
    name: 'command',
    arity: -1,
    noScript: true,
    run: (conn, argv): Reply => command().commandReply(argv, { version: conn.keyspace.redisVersion, names: commandNames(conn), inCategory: (cat) => commandsInCategory(conn.keyspace.redisVersion, cat), categoriesOf: (name) => categoriesOf(name, conn.keyspace.redisVersion) }),
  },
  {
    name: 'mockclock',
    arity: -2,
    noScript: true,
    // runs only where `available` (lib/engine/commands/index.ts): the server has a clock control
    run: (conn, argv): Reply => {
      // timers the move fires (BLOCK timeouts, expiries, CONFIG timeout's idle check) see this
      // connection as active: it is running a command, and its reply is written after the move
      const server = conn.server;
      const outer = server.clockMover;
      server.clockMover = conn;
      try {
        return mockclock().mockclockReply(argv, server.clockControl!);
      } finally {
        server.clockMover = outer;
        conn.noteWrite();
      }
    },
  },
  {
    name: 'time',
    arity: 1,
    run(conn): Reply {
      // 7.2+: the outer command's time snapshot (frozen in a script, function or EXEC) — until the
      // script passes busy-reply-threshold: the server then refreshes its cached time each time it
      // serves other clients meanwhile (processEventsWhileBlocked), which TIME reads
      // (server.ustime), so a script waiting on TIME ends (~5 s on the post-7.4 build); 7.0: live
      const ks = conn.keyspace;
      const busy = conn.server.busyScript;
      const refreshed = busy !== null && busy.conn === conn && pastBusyReplyThreshold(conn.server, busy.startedAt);
      const frozen = supports(ks.redisVersion, 'timeFrozenInScripts') && !refreshed;
      const ms = Math.floor(frozen ? ks.now() : ks.clock.now());
      // a wall clock's microseconds within that millisecond (Redis: ustime()); a fake clock's time has none
      // (a snapshot's microseconds: those read when the script or EXEC began, as Redis 7.2+'s
      // cmd_time_snapshot is one ustime(); each EXEC or script has its own)
      const us = BigInt(ms) * 1000n + BigInt(frozen && ks.inAtomicSection ? ks.snapshotMicros : microsWithin(ks.clock, ms));
      return [String(us / 1000000n), String(us % 1000000n)];
    },
  },
  {
    name: 'flushall',
    arity: -1,
    run(conn, argv): Reply {
      const { lazy, blockingAsync } = flushMode(conn, argv);
      conn.server.stats.bgsaveKill();
      flush(conn.server, conn.server.keyspaces(), lazy, blockingAsync);
      conn.forcePropagation(); // replicated even when every db was empty already
      return OK;
    },
  },
  {
    name: 'flushdb',
    arity: -1,
    run(conn, argv): Reply {
      const { lazy, blockingAsync } = flushMode(conn, argv);
      flush(conn.server, [conn.keyspace], lazy, blockingAsync);
      conn.forcePropagation();
      return OK;
    },
  },
  {
    name: 'save',
    arity: 1,
    noScript: true,
    run(conn): Reply {
      const now = conn.keyspace.clock.now();
      if (conn.server.stats.bgsaveInProgress(now)) throw new CommandError(ERR_BGSAVE_RUNNING);
      conn.server.stats.saved(now);
      return OK;
    },
  },
  {
    name: 'bgsave',
    arity: -1,
    noScript: true,
    run: bgsave,
  },
  {
    // aof.c bgrewriteaofCommand: "scheduled" while a BGSAVE runs or inside EXEC (the rewrite
    // waits for the child), else "started" (the fake's rewrite ends at once: never "already in
    // progress")
    name: 'bgrewriteaof',
    arity: 1,
    noScript: true,
    run(conn): Reply {
      const busy = conn.server.stats.bgsaveInProgress(conn.keyspace.clock.now()) || conn.keyspace.inTransaction;
      return new SimpleString(busy ? 'Background append only file rewriting scheduled' : 'Background append only file rewriting started');
    },
  },
  {
    name: 'lastsave',
    arity: 1,
    run(conn): Reply {
      conn.server.stats.bgsaveInProgress(conn.keyspace.clock.now());
      return Math.floor(conn.server.stats.lastSaveMs / 1000);
    },
  },
  {
    name: 'shutdown',
    arity: -1,
    noScript: true,
    run: shutdown,
  },
  {
    name: 'debug',
    arity: -2,
    noScript: true,
    run(_conn, argv): Reply {
      // refused before running while enable-debug-command is `no` (the dispatcher: `protectedBy`)
      if (argv[1].toLowerCase() === 'sleep') return debugSleep(argv);
      throw new CommandError(`ERR DEBUG ${argv[1]} is not emulated: ioredis-mock-streams runs DEBUG SLEEP only (enable-debug-command is on)`);
    },
  },
  {
    // MONITOR: lib/engine/connection/monitor.ts
    name: 'monitor',
    arity: 1,
    noScript: true,
    run: (conn): Reply => monitorCommand(conn),
  },
];

/** SHUTDOWN (db.c shutdownCommand), see the module doc. */
function shutdown(conn: Connection, argv: string[]): Reply {
  let nosave = false;
  let save = false;
  let flags = false;
  let abort = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i].toLowerCase();
    if (arg === 'nosave') nosave = flags = true;
    else if (arg === 'save') save = flags = true;
    else if (arg === 'now' || arg === 'force') flags = true;
    else if (arg === 'abort') abort = true;
    else throw new CommandError(ERR_SYNTAX);
  }
  if ((abort && flags) || (nosave && save)) throw new CommandError(ERR_SYNTAX);
  if (abort) throw new CommandError('ERR No shutdown in progress.');
  const server = conn.server;
  const busy = server.busyScript;
  // only NOSAVE ends a server kept busy by a script (SHUTDOWN runs then: CMD_ALLOW_BUSY)
  if (!nosave && busy !== null && busy.conn !== conn) throw new CommandError(busy.busyText ?? 'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.');
  shutdownServer(server);
  throw connectionClosedError();
}

/** The server ends (SHUTDOWN): see the module doc. */
export function shutdownServer(server: ServerState): void {
  for (const c of openConnections()) if (c.server === server) c.closedByShutdown = true;
  server.busyScript?.abort?.(connectionClosedError());
  if (server.shutdownHook !== null) {
    server.shutdownHook(); // serve: the server closes
    return;
  }
  for (const c of [...openConnections()]) if (c.server === server) c.close();
  for (const ks of server.keyspaces()) ks.reset();
  if (server.scripts.size > 0 || librariesOf(server).libraries.size > 0) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const lua = require('../../scripting/index') as typeof import('../../scripting/index');
    server.scripts.clear();
    lua.resetScripting(server);
    lua.flushLibrariesOf(server);
  }
}

/**
 * DEBUG SLEEP seconds (debug.c): the server does nothing for that long, then answers OK — here
 * the process's thread waits (a server does nothing else meanwhile either; in process, neither
 * does the test). The seconds as strtod reads them: their leading number, 0 when none; a time
 * of 0 or less is no wait. The keyspace clock is not moved (a fake clock keeps its time).
 */
function debugSleep(argv: readonly string[]): Reply {
  if (argv.length !== 3) throw new CommandError(errSubcommandSyntax(argv[1], 'debug'));
  const m = /^[ \t\n\v\f\r]*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(argv[2]);
  // C: long long utime = dtime * 1000000 (truncated), then that many µs
  const us = m === null ? 0 : Math.trunc(Number(m[0].trim()) * 1_000_000);
  if (us > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, us / 1000);
  return OK;
}

