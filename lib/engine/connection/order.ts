/**
 * The order a connection's commands run in: one submitted while an earlier one is blocked (or a
 * pipeline waits on one) waits behind it, as on a real connection; a command of another
 * connection waits while a script keeps the server busy (then answers BUSY past
 * busy-reply-threshold); CLIENT REPLY OFF/SKIP silence replies. The state lives on the
 * Connection (`occupied`, `waiting`, `closing`, the CLIENT REPLY flags).
 */
import { CommandError } from '../../errors';
import { PushReply, type Reply } from '../../reply/reply';
import { type BusyScript, pastBusyReplyThreshold } from '../registry';
import type { Connection } from '../connection';
import { checkBeforeRunning, reject } from './dispatch';
import { CONNECTION_COMMANDS } from '../commands/index';
import { lookupCommand } from '../../commands/dispatch';
import { BUSY_TEXT, allowedWhileBusy } from './server-state';

const CLOSED_MESSAGE = 'Connection is closed.';

/**
 * Marks the "Connection is closed." errors a test setup's end-of-test close causes (not the
 * client's nor the server's doing): a front end may keep them from being unhandled rejections.
 */
export const SETUP_CLOSE = Symbol.for('ioredis-mock-streams.setupClose');
let setupClosing = 0;

/** Run `fn` (a test setup closing a test's connections): the close errors made meanwhile are marked SETUP_CLOSE. */
export function closingForTestEnd<T>(fn: () => T): T {
  setupClosing++;
  try {
    return fn();
  } finally {
    setupClosing--;
  }
}

/** Was `err` made by a test setup's end-of-test close (`closingForTestEnd`)? */
export function isSetupClose(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { [SETUP_CLOSE]?: boolean })[SETUP_CLOSE] === true;
}

/** The error every call of a closed connection rejects with (ioredis's text). */
export function connectionClosedError(): Error {
  const err = new Error(CLOSED_MESSAGE);
  if (setupClosing > 0) (err as Error & { [SETUP_CLOSE]?: boolean })[SETUP_CLOSE] = true;
  return err;
}

/** A reply CLIENT REPLY OFF/SKIP silenced: front ends write nothing for it (as NO_REPLY). */
const SILENCED: PushReply = new PushReply([]);

/** `run`, with the reply silenced as CLIENT REPLY OFF/SKIP decide (a silenced reply is SILENCED). */
export function runReplying(conn: Connection, argv: string[]): Reply | Promise<Reply> {
  if (!conn.replyOff && !conn.replySkip) {
    const first = conn.run(argv);
    // resetClient: the command just run was CLIENT REPLY SKIP, the next one's reply goes
    if (conn.replySkipNext) {
      conn.replySkipNext = false;
      conn.replySkip = true;
    }
    return first;
  }
  let out: Reply | Promise<Reply>;
  let failed: unknown;
  let threw = false;
  try {
    out = conn.run(argv);
  } catch (err) {
    threw = true;
    failed = err;
    out = SILENCED;
  }
  const silenced = conn.replyOff || conn.replySkip;
  if (conn.replySkip) conn.replySkip = false;
  if (conn.replySkipNext) {
    conn.replySkip = true;
    conn.replySkipNext = false;
  }
  if (!silenced) {
    if (threw) throw failed;
    return out;
  }
  return out instanceof Promise ? out.then(() => SILENCED, () => SILENCED) : SILENCED;
}

/**
 * A command submitted while another connection's script keeps the server busy: it waits for
 * the script to end; once `busy-reply-threshold` ms (CONFIG, default 5000; 0: never) have
 * passed since the script started, it answers BUSY, or runs when Redis allows it then
 * (SCRIPT KILL, FUNCTION KILL/STATS, AUTH, HELLO, MULTI, …: CMD_ALLOW_BUSY), as server.c
 * processCommand does while scriptIsTimedout().
 */
export function afterBusy<T>(conn: Connection, busy: BusyScript, argv: string[] | null, start: () => T | Promise<T>, checksEachCommand = false): Promise<T> {
  if (pastBusyReplyThreshold(conn.server, busy.startedAt)) {
    // a front end's sequence that checks each of its commands as it runs them (refuseWhileBusy):
    // SCRIPT KILL in a pipeline ends the script as on Redis
    if (checksEachCommand || (argv !== null && allowedWhileBusy(argv))) return startNow(conn, start);
    // server.c processCommand: its earlier refusals first (unknown command, arity, DEBUG not
    // enabled, NOAUTH, ACL …), then BUSY; rejectCommand: inside MULTI the refusal flags the
    // transaction (EXEC aborts)
    if (argv !== null) {
      try {
        const name = String(argv[0]).toLowerCase();
        const spec = CONNECTION_COMMANDS.get(name);
        checkBeforeRunning(conn, name, argv, spec, spec ? undefined : lookupCommand(name));
        reject(conn, name, busy.busyText ?? BUSY_TEXT);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return Promise.reject(new CommandError(busy.busyText ?? BUSY_TEXT));
  }
  return new Promise<T>((resolve, rejectPromise) => {
    let settled = false;
    const proceed = () => {
      if (settled) return;
      settled = true;
      (argv !== null ? (conn.execute(argv) as Promise<unknown> as Promise<T>) : conn.enqueue(start, checksEachCommand)).then(resolve, rejectPromise);
    };
    busy.thresholdPassed.then(proceed, proceed);
    busy.done.then(proceed, proceed);
  });
}

/**
 * One command of a front end's sequence run inside `enqueue` (a pipeline's entry) while another
 * connection's script keeps the server busy past busy-reply-threshold: throws the BUSY error
 * (inside MULTI flagging the transaction, as server.c rejectCommand) unless Redis runs the command
 * then (SCRIPT KILL, FUNCTION KILL, …: CMD_ALLOW_BUSY); returns when nothing is busy.
 * @throws CommandError BUSY …
 */
export function refuseWhileBusy(conn: Connection, argv: string[]): void {
  const busy = conn.server.busyScript;
  if (busy === null || busy.conn === conn || allowedWhileBusy(argv)) return;
  reject(conn, String(argv[0]).toLowerCase(), busy.busyText ?? BUSY_TEXT);
}

/** Run `start` now; a Promise it returns holds the connection until it settles. */
export function startNow<T>(conn: Connection, start: () => T | Promise<T>): Promise<T> {
  if (conn.closing) return Promise.reject(connectionClosedError());
  let out: T | Promise<T>;
  try {
    out = start();
  } catch (err) {
    return Promise.reject(err);
  }
  if (out instanceof Promise) {
    occupy(conn, out);
    return out;
  }
  return Promise.resolve(out);
}

/** `p` holds the connection: commands submitted meanwhile wait until it settles. */
export function occupy(conn: Connection, p: Promise<unknown>): void {
  conn.occupied = true;
  const release = () => {
    conn.occupied = false;
    drain(conn);
  };
  p.then(release, release);
}

function drain(conn: Connection): void {
  const waiting = conn.waiting;
  if (waiting === null) return;
  while (!conn.occupied && waiting.length > 0) waiting.shift()!();
  if (waiting.length === 0 && conn.waiting === waiting) conn.waiting = null;
}
