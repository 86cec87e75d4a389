/**
 * The master's side of replication (replication.c syncCommand): SYNC and PSYNC make the
 * connection a replica. It gets a full resynchronisation — `$<len>\r\n` and an RDB file of the
 * whole dataset (PSYNC: `+FULLRESYNC <replid> <offset>\r\n` first) — then the replication
 * stream (lib/engine/replication.ts), and no reply to anything it sends afterwards.
 */
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';
import { createDumpPayload } from '../../rdb/payload';
import { createRdbFile, type RdbFileDb, type RdbFileEntry } from '../../rdb/rdb-file';
import { byteString } from '../../rdb/rdb-io';
import { RDB_FORMAT } from '../../version';
import { makeDb } from '../db';
import { NO_REPLY } from './pubsub';
import { ReplicaFeed } from '../replication';
import { OK, SimpleString, type Reply } from '../../reply/reply';
import { CommandError, ERR_NOT_INTEGER, ERR_SYNTAX } from '../../errors';
import { parseInt64 } from '../../commands/args';
import { StreamsMockError } from '../../clock/clock';
import { splitArgs } from '../../scripting/libraries';

/** The RDB file of every database of the connection's server (rdbSaveRio). */
export function rdbSnapshot(conn: Connection): string {
  const version = conn.keyspace.redisVersion;
  const format = RDB_FORMAT[version];
  const dbs: RdbFileDb[] = [];
  const keyspaces = [...conn.server.keyspaces()].sort((a, b) => a.dbIndex - b.dbIndex);
  for (const ks of keyspaces) {
    const db = makeDb(conn, ks);
    const compression = ks.config.rdbCompression;
    const limits = ks.config.collectionLimits;
    const entries: RdbFileEntry[] = [];
    for (const key of db.keyNames()) {
      const value = db.getValue!(key);
      if (value === undefined) continue;
      let payload: Uint8Array;
      try {
        payload = createDumpPayload(value, format, { compression, limits });
      } catch {
        continue; // a value no RDB type of this version holds
      }
      entries.push({ key, payload: payload.slice(), expireAt: db.expireAt!(key) });
    }
    dbs.push({ index: ks.dbIndex, entries });
  }
  return byteString(createRdbFile(dbs, format.rdbVersion));
}

function fullResync(conn: Connection, psync: boolean): Reply {
  if (conn.replicaFeed !== null) return NO_REPLY; // already a replica: SYNC is ignored
  const rdb = rdbSnapshot(conn);
  const repl = conn.server.replicationStream();
  const head = psync ? `+FULLRESYNC ${conn.server.replId} 0\r\n` : '';
  const feed = new ReplicaFeed(`${head}$${rdb.length}\r\n${rdb}`, () => conn.close());
  conn.replicaFeed = feed;
  repl.attach(feed);
  conn.onClose(() => repl.detach(feed));
  return NO_REPLY;
}

/** replicaofCommand: `NO ONE` makes the server a master again; `host port` a replica of it. */
function replicaof(conn: Connection, argv: string[]): Reply {
  if (conn.server.cluster !== null) throw new CommandError('ERR REPLICAOF not allowed in cluster mode.');
  if (argv[1].toLowerCase() === 'no' && argv[2].toLowerCase() === 'one') {
    conn.server.master = null;
    return OK;
  }
  if (conn.replicaFeed !== null) throw new CommandError('ERR Command is not valid when client is a replica.');
  const port = parseInt64(argv[2]);
  if (port === null || port < 0n || port > 65535n) throw new CommandError('ERR Invalid master port');
  const master = conn.server.master;
  if (master !== null && master.host.toLowerCase() === argv[1].toLowerCase() && master.port === Number(port)) {
    return new SimpleString('OK Already connected to specified master');
  }
  conn.server.master = { host: argv[1], port: Number(port) };
  return OK;
}

/**
 * failoverCommand (replication.c, 6.2+): `FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT ms]`,
 * options parsed in order (each at most once, else `ERR syntax error`; TIMEOUT ≤ 0 refused; a
 * port that is not an integer: `ERR value is not an integer or out of range`), then the state
 * checks in Redis's order: cluster mode, a replica server, no connected replica, FORCE without
 * TIMEOUT and TO, a TO address that is no replica. `FAILOVER ABORT` alone: no failover is in
 * progress. The fake's replicas (SYNC/PSYNC feeds) cannot take over.
 * @throws StreamsMockError when a failover would start (a replica is attached and every check passes)
 */
function failover(conn: Connection, argv: string[]): Reply {
  const server = conn.server;
  if (server.cluster !== null) throw new CommandError('ERR FAILOVER not allowed in cluster mode.');
  if (argv.length === 2 && argv[1].toLowerCase() === 'abort') throw new CommandError('ERR No failover in progress.');
  let timeoutMs = 0n;
  let force = false;
  let host: string | null = null;
  for (let j = 1; j < argv.length; j++) {
    const opt = argv[j].toLowerCase();
    if (opt === 'timeout' && j + 1 < argv.length && timeoutMs <= 0n) {
      const ms = parseInt64(argv[++j]);
      if (ms === null) throw new CommandError(ERR_NOT_INTEGER);
      if (ms <= 0n) throw new CommandError('ERR FAILOVER timeout must be greater than 0');
      timeoutMs = ms;
    } else if (opt === 'to' && j + 2 < argv.length && host === null) {
      if (parseInt64(argv[j + 2]) === null) throw new CommandError(ERR_NOT_INTEGER);
      host = argv[j + 1];
      j += 2;
    } else if (opt === 'force' && !force) {
      force = true;
    } else {
      throw new CommandError(ERR_SYNTAX);
    }
  }
  if (server.master !== null) throw new CommandError('ERR FAILOVER is not valid when server is a replica.');
  if ((server.replication?.replicaCount ?? 0) === 0) throw new CommandError('ERR FAILOVER requires connected replicas.');
  if (force && (timeoutMs === 0n || host === null)) throw new CommandError('ERR FAILOVER with force option requires both a timeout and target HOST and IP.');
  // a SYNC/PSYNC feed announces no address a TO could name
  if (host !== null) throw new CommandError('ERR FAILOVER target HOST and PORT is not a replica.');
  throw new StreamsMockError('FAILOVER with a connected replica is not emulated: the fake has no replica that could take over (its replicas are SYNC/PSYNC feeds)');
}

/**
 * replconfCommand (replication.c): option/value pairs (an even count of arguments: `ERR syntax
 * error`), each checked in turn: listening-port (an integer), ip-address (shorter than 46
 * bytes), capa (any), rdb-only (0 or 1), rdb-filter-only (sdssplitargs words, only
 * `functions`); ACK and GETACK answer nothing (ACK from a client that is no replica is ignored;
 * GETACK asks a master's link, which the fake has none of); any other option: `ERR
 * Unrecognized REPLCONF option: <name>`. Then OK.
 */
function replconf(_conn: Connection, argv: string[]): Reply {
  if (argv.length % 2 === 0) throw new CommandError(ERR_SYNTAX);
  for (let j = 1; j < argv.length; j += 2) {
    const opt = argv[j].toLowerCase();
    const value = argv[j + 1];
    if (opt === 'listening-port') {
      if (parseInt64(value) === null) throw new CommandError(ERR_NOT_INTEGER);
    } else if (opt === 'ip-address') {
      // sdslen(addr) < NET_HOST_STR_LEN (256)
      if (value.length >= 256) throw new CommandError(`ERR REPLCONF ip-address provided by replica instance is too long: ${value.length} bytes`);
    } else if (opt === 'capa') {
      // capabilities the master does not know are ignored
    } else if (opt === 'ack' || opt === 'getack') {
      return NO_REPLY;
    } else if (opt === 'rdb-only') {
      const v = parseInt64(value);
      if (v === null) throw new CommandError(ERR_NOT_INTEGER);
      if (v < 0n || v > 1n) throw new CommandError('ERR value is out of range, value must between 0 and 1');
    } else if (opt === 'rdb-filter-only') {
      const filters = splitArgs(value);
      if (filters === null) throw new CommandError('ERR Missing rdb-filter-only values');
      for (const f of filters) if (f.toLowerCase() !== 'functions') throw new CommandError(`ERR Unsupported rdb-filter-only option: ${f}`);
    } else {
      throw new CommandError(`ERR Unrecognized REPLCONF option: ${argv[j]}`);
    }
  }
  return OK;
}

export const specs: ConnectionCommandSpec[] = [
  { name: 'sync', arity: 1, noScript: true, run: (conn) => fullResync(conn, false) },
  { name: 'psync', arity: -3, noScript: true, run: (conn) => fullResync(conn, true) },
  { name: 'replicaof', arity: 3, noScript: true, run: replicaof },
  { name: 'slaveof', arity: 3, noScript: true, run: replicaof },
  { name: 'failover', arity: -1, noScript: true, run: failover },
  { name: 'replconf', arity: -1, noScript: true, run: replconf },
];
