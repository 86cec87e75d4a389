/**
 * MULTI/EXEC/DISCARD/WATCH/UNWATCH (multi.c): commands between MULTI and EXEC are checked
 * (processCommand's refusals: ./dispatch.ts checkBeforeRunning) and queued; EXEC runs them atomically with one time
 * snapshot, BLOCK answering nil, blocked readers served after it; a queue-time error makes EXEC
 * answer EXECABORT; a modified WATCHed key makes it answer the nil array. The state lives on the
 * Connection (`multiQueue`, `multiErrored`, `watchState`).
 */
import { lookupCommand } from '../../commands/dispatch';
import { CommandError } from '../../errors';
import { ErrorReply, NIL_ARRAY, QUEUED, type Reply } from '../../reply/reply';
import { CONNECTION_COMMANDS } from '../commands/index';
import { WatchState } from '../watch';
import type { Connection } from '../connection';
import { checkAcl } from './acl-checks';
import { runBuiltin, runConnectionCommand, runStream } from './dispatch';
import { counted } from './stats';

const ERR_EXECABORT = 'EXECABORT Transaction discarded because of previous errors.';

/** Commands flagged no_multi (7.0.15 and the post-7.4 build), by arity: refused inside MULTI (processCommand). */
export const NO_MULTI = new Map([['save', 1], ['sync', 1], ['psync', -3], ['shutdown', -1]]);
export const ERR_NO_MULTI = 'ERR Command not allowed inside a transaction';

/** MULTI. */
export function beginMulti(conn: Connection): void {
  conn.multiQueue = [];
  conn.multiErrored = false;
}

/** DISCARD (and EXEC's end): leave MULTI, forget queued commands, UNWATCH. */
export function discardTransaction(conn: Connection): void {
  conn.multiQueue = null;
  conn.multiErrored = false;
  unwatchAll(conn);
}

/** A command inside MULTI, past processCommand's refusals (checkBeforeRunning): queued. */
export function queueInMulti(conn: Connection, argv: string[]): Reply {
  // multi.c queueMultiCommand: nothing is kept once EXEC is bound to fail (a touched WATCH or an
  // earlier queueing error): CLIENT LIST `multi=` stops counting (both real servers)
  if (!conn.multiErrored && !conn.watchState?.dirty) conn.multiQueue!.push(argv);
  return QUEUED;
}

/** EXEC: run the queued commands atomically (see the module doc). */
export function exec(conn: Connection): Reply | Promise<Reply> {
  const queued = conn.multiQueue!;
  if (conn.multiErrored) {
    discardTransaction(conn);
    throw new CommandError(ERR_EXECABORT);
  }
  conn.multiQueue = null;
  const replies = transaction(conn, () => {
    conn.execLength = queued.length;
    conn.execQueued = queued;
    conn.execArgvStrings = new Map();
    try {
      return queued.map((argv, i) => {
        conn.execIndex = i;
        try {
          const before = ARGV_STORING.has(argv[0].toLowerCase()) ? presentBefore(conn, argv) : undefined;
          const reply = runQueued(conn, argv);
          if (before !== undefined) recordArgvStrings(conn, argv, before, reply);
          return reply;
        } finally {
          conn.execIndex = -1;
        }
      });
    } finally {
      conn.execLength = -1;
      conn.execQueued = null;
      conn.execArgvStrings = null;
    }
  });
  if (replies === null) return NIL_ARRAY;
  return replies.some((r) => r instanceof Promise) ? Promise.all(replies) : (replies as Reply[]);
}

/**
 * Commands whose stored string is their own argument object (t_string.c setKey(c->argv[i]) after
 * tryObjectEncoding, APPEND's dbAdd on a missing key), and RENAME's which move one. Inside EXEC
 * the transaction's queued argv still holds that object until EXEC ends: OBJECT REFCOUNT 2 (not a
 * shared integer; checked on 7.0.15 and the post-7.4 build). A script's calls free theirs at once.
 */
const ARGV_STORING = new Set(['set', 'setnx', 'setex', 'psetex', 'getset', 'mset', 'msetnx', 'append', 'rename', 'renamenx']);

/** Whether each key the storing command `argv` names exists before it runs (key → present). */
function presentBefore(conn: Connection, argv: string[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const store = conn.keyspace.store;
  const name = argv[0].toLowerCase();
  const step = name === 'mset' || name === 'msetnx' ? 2 : argv.length;
  for (let i = 1; i < argv.length; i += step) out.set(argv[i], store.peekLive(argv[i]) !== undefined);
  return out;
}

/** After a storing command inside EXEC: remember the strings it stored as its own argv (see ARGV_STORING). */
function recordArgvStrings(conn: Connection, argv: string[], before: Map<string, boolean>, reply: unknown): void {
  if (reply instanceof ErrorReply || reply instanceof Promise) return;
  const ks = conn.keyspace;
  const map = conn.execArgvStrings;
  if (map === null) return;
  let held = map.get(ks);
  const name = argv[0].toLowerCase();
  const put = (key: string, value: string): void => {
    if (held === undefined) map.set(ks, (held = new Map()));
    held.set(key, value);
  };
  switch (name) {
    case 'rename': case 'renamenx': {
      if (argv.length !== 3 || (name === 'renamenx' && reply !== 1)) return;
      const value = held?.get(argv[1]);
      held?.delete(argv[1]);
      if (value !== undefined) put(argv[2], value);
      else held?.delete(argv[2]);
      return;
    }
    case 'set': {
      if (argv.length < 3) return;
      const opts = argv.slice(3).map((a) => a.toUpperCase());
      if (opts.some((o) => o !== 'NX' && o !== 'XX' && o !== 'GET' && o !== 'KEEPTTL' && o !== 'EX' && o !== 'PX' && o !== 'EXAT' && o !== 'PXAT' && !/^-?\d+$/.test(o))) return;
      const existed = before.get(argv[1]) === true;
      if ((opts.includes('NX') && existed) || (opts.includes('XX') && !existed)) return;
      put(argv[1], argv[2]);
      return;
    }
    case 'setnx': if (reply === 1 && argv.length === 3) put(argv[1], argv[2]); return;
    case 'getset': if (argv.length === 3) put(argv[1], argv[2]); return;
    case 'setex': case 'psetex': if (argv.length === 4) put(argv[1], argv[3]); return;
    case 'append': if (argv.length === 3 && before.get(argv[1]) === false) put(argv[1], argv[2]); return;
    case 'mset': case 'msetnx':
      if (argv.length % 2 !== 1 || (name === 'msetnx' && reply !== 1)) return;
      for (let i = 1; i + 1 < argv.length; i += 2) put(argv[i], argv[i + 1]);
      return;
  }
}

/** One command inside EXEC: its reply, or its error reply in place. */
function runQueued(conn: Connection, argv: string[]): Reply | Promise<Reply> {
  try {
    const out = counted(conn, argv, runQueuedCommand);
    return out instanceof Promise ? out.catch(errorReplyOf) : out;
  } catch (err) {
    return errorReplyOf(err);
  }
}

/** What EXEC runs for one queued command: a connection, stream or built-in command. */
function runQueuedCommand(conn: Connection, argv: string[]): Reply | Promise<Reply> {
  const name = argv[0].toLowerCase();
  const spec = CONNECTION_COMMANDS.get(name);
  if (!conn.user.unrestricted) checkAcl(conn, name, argv, spec, !spec && lookupCommand(name) !== undefined, true);
  if (spec) return runConnectionCommand(conn, spec, name, argv);
  if (lookupCommand(name)) return runStream(conn, argv);
  return runBuiltin(conn, name, argv);
}

/** An error thrown inside EXEC as its reply in place; library errors propagate. */
function errorReplyOf(err: unknown): ErrorReply {
  if (err instanceof CommandError) return new ErrorReply(err.message);
  throw err;
}

/**
 * Run `body` as the transaction of this connection's EXEC:
 * null when a WATCHed key was modified (or expired since WATCH), else `body()` run atomically
 * (one time snapshot, BLOCK answers nil, blocked readers served after it). Always UNWATCHes.
 */
export function transaction<T>(conn: Connection, body: () => T): T | null {
  if (watchFailed(conn)) {
    unwatchAll(conn);
    return null;
  }
  unwatchAll(conn);
  return conn.keyspace.atomically(body);
}

/** WATCH full keys (byte strings) of the current keyspace. */
export function watchKeys(conn: Connection, keys: string[]): void {
  (conn.watchState ??= new WatchState()).watch(conn.keyspace, keys);
}

/** UNWATCH every key. */
export function unwatchAll(conn: Connection): void {
  const state = conn.watchState;
  if (!state) return;
  conn.watchState = null;
  state.release();
}

/** EXEC must fail: a watched key was modified, or expired after WATCH (isWatchedKeyExpired). */
function watchFailed(conn: Connection): boolean {
  return conn.watchState !== null && conn.watchState.failed();
}

