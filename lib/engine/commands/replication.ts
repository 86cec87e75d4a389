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
import { CommandError } from '../../errors';
import { parseInt64 } from '../../commands/args';

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

export const specs: ConnectionCommandSpec[] = [
  { name: 'sync', arity: 1, noScript: true, run: (conn) => fullResync(conn, false) },
  { name: 'psync', arity: -3, noScript: true, run: (conn) => fullResync(conn, true) },
  { name: 'replicaof', arity: 3, noScript: true, run: replicaof },
  { name: 'slaveof', arity: 3, noScript: true, run: replicaof },
];
