/**
 * MULTI / EXEC / DISCARD / WATCH / UNWATCH (multi.c).
 *
 * MULTI — starts a transaction: later commands are checked (unknown command, arity, NOAUTH)
 * and answer `+QUEUED`; a check failure answers its error and makes EXEC fail with EXECABORT.
 * EXEC — runs the queued commands atomically (one time snapshot; BLOCK answers nil; blocked
 * readers served after it) and answers the array of their replies, errors in place; the nil
 * array when a WATCHed key was modified or expired; always UNWATCHes.
 * DISCARD — drops the queue and UNWATCHes. WATCH key… — EXEC fails if a key is modified
 * before it (not allowed inside MULTI). UNWATCH — forgets every watched key.
 * Errors: "ERR MULTI calls can not be nested", "ERR EXEC without MULTI", "ERR DISCARD without
 * MULTI", "ERR WATCH inside MULTI is not allowed", "EXECABORT Transaction discarded because of
 * previous errors." (texts of redis-server 7.0.15, unchanged through 8.x).
 */
import { CommandError } from '../../errors';
import { OK } from '../../reply/reply';
import type { ConnectionCommandSpec } from '../command-types';

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'multi',
    arity: 1,
    immediate: true,
    noScript: true,
    run(conn) {
      if (conn.inMulti) throw new CommandError('ERR MULTI calls can not be nested');
      conn.beginMulti();
      return OK;
    },
  },
  {
    name: 'exec',
    arity: 1,
    immediate: true,
    noScript: true,
    run(conn) {
      if (!conn.inMulti) throw new CommandError('ERR EXEC without MULTI');
      return conn.exec();
    },
  },
  {
    name: 'discard',
    arity: 1,
    immediate: true,
    noScript: true,
    run(conn) {
      if (!conn.inMulti) throw new CommandError('ERR DISCARD without MULTI');
      conn.discardTransaction();
      return OK;
    },
  },
  {
    name: 'watch',
    arity: -2,
    immediate: true,
    noScript: true,
    run(conn, argv) {
      if (conn.inMulti) throw new CommandError('ERR WATCH inside MULTI is not allowed');
      conn.watchKeys(argv.slice(1));
      return OK;
    },
  },
  {
    name: 'unwatch',
    arity: 1,
    noScript: true,
    run(conn) {
      conn.unwatchAll();
      return OK;
    },
  },
];
