/**
 * A command as a frame of the replication stream (Redis call() → propagatePendingCommands),
 * once a replica attached (lib/engine/replication.ts).
 */
import type { Reply } from '../../reply/reply';
import type { CommandResult } from '../../commands/types';
import type { Replication } from '../replication';
import type { Connection } from '../connection';

/**
 * Run `body` (one command: argv) as a frame of the replication stream: the command propagates
 * when it changed the dataset; blocked calls its writes wake are served after the unit was fed
 * to the replicas, each as a unit of its own. A script that outlives its first slice keeps the
 * frame open until it ends.
 */
export function propagating<T extends Reply | Promise<Reply> | CommandResult>(conn: Connection, repl: Replication, argv: string[], body: () => T): T {
  const ks = conn.keyspace;
  const name = String(argv[0]).toLowerCase();
  const changesBefore = conn.server.stats.changes;
  const outer = repl.enterCommand(ks.dbIndex, name);
  const end = () => repl.leaveCommand(outer, argv, name, conn.server.stats.changes !== changesBefore, conn.keyspace.dbIndex);
  ks.blocking.hold();
  let deferred = false;
  try {
    const out = body();
    const busy = conn.server.busyScript;
    if (out instanceof Promise && busy !== null && busy.conn === conn) {
      deferred = true;
      out.then(end, end).finally(() => ks.blocking.release());
    }
    return out;
  } finally {
    if (!deferred) {
      try {
        end();
      } finally {
        ks.blocking.release();
      }
    }
  }
}

/** The running command propagates to replicas even if it changed nothing (forceCommandPropagation). */
export function forcePropagation(conn: Connection): void {
  const repl = conn.server.replication;
  if (repl !== null && repl.active) repl.force();
}
