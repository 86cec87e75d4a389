/**
 * MONITOR (server.c monitorCommand, replication.c replicationFeedMonitors): every command a
 * client of the server runs is shown to the connections in MONITOR mode, as a status reply
 *
 *   +1339518083.107412 [0 127.0.0.1:60866] "keys" "*"
 *
 * — the time (s.µs, on the keyspace clock; on a wall clock the µs within the ms as TIME has them,
 * a fake clock's whole ms × 1000), the database after the
 * command, the client's address (`lua` for a script's redis.call), the arguments as sent
 * (sdscatrepr quoting; secrets "(redacted)" as SLOWLOG shows them). As Redis's call() feeds
 * them: after the command ran (a blocked command when it blocks, once), not when refused before
 * running (unknown, arity, NOAUTH, ACL, OOM …) nor when queued by MULTI (EXEC shows the queued
 * commands, then itself); never @admin commands (CONFIG, CLIENT LIST, MONITOR …); EVAL, EVALSHA,
 * FCALL and their _RO forms show themselves before the script runs, so the commands of the
 * script follow them. A monitor connection may not run commands that read or write keys
 * ("Replica can't interact with the keyspace"); RESET and closing end MONITOR mode. The same
 * in RESP2 and RESP3 (status replies, not pushes).
 */
import { microsWithin } from '../../clock/real-clock';
import { CommandError } from '../../errors';
import { OK, QUEUED, SimpleString, type Reply } from '../../reply/reply';
import { RejectedCommandError } from '../../stats/command-stats';
import { isAdminCommand, readsOrWritesKeys } from '../acl';
import { redactedArgv } from '../slowlog';
import { NO_REPLY } from '../commands/pubsub';
import type { Connection } from '../connection';
import { commandFullName } from './dispatch';

/** CMD_SKIP_MONITOR: the script commands, which feed the monitors themselves before running. */
export const FEEDS_ITSELF: ReadonlySet<string> = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);

/** MAY_REPLICATE commands (besides the scripts): refused on a monitor connection with the readers and writers. */
const MAY_REPLICATE = new Set(['eval', 'evalsha', 'fcall', 'pfcount', 'publish', 'spublish']);

export const ERR_REPLICA_KEYSPACE = "ERR Replica can't interact with the keyspace";
const ERR_DENY_BLOCKING = "ERR MONITOR isn't allowed for DENY BLOCKING client";

/** MONITOR: the connection receives every command from now on (nothing when it already does). */
export function monitorCommand(conn: Connection): Reply {
  if (conn.keyspace.inTransaction) throw new CommandError(ERR_DENY_BLOCKING);
  if (conn.monitoring || conn.replicaFeed !== null) return NO_REPLY; // ignored: no reply at all
  conn.monitoring = true;
  (conn.server.monitors ??= new Set()).add(conn);
  return OK;
}

/** Leave MONITOR mode (RESET, close). */
export function stopMonitoring(conn: Connection): void {
  if (!conn.monitoring) return;
  conn.monitoring = false;
  const monitors = conn.server.monitors;
  if (monitors === null) return;
  monitors.delete(conn);
  if (monitors.size === 0) conn.server.monitors = null;
}

/** processCommand on a monitor connection: a command that reads or writes keys is refused. */
export function refusedOnMonitor(conn: Connection, name: string, argv: string[]): boolean {
  if (MAY_REPLICATE.has(name)) return true;
  const full = commandFullName(conn, name, argv);
  return full !== null && readsOrWritesKeys(full, conn.keyspace.redisVersion);
}

/**
 * call()'s feed of a command that ran on `conn` (`err`: what it threw, if anything): shown unless
 * refused before running, queued, @admin, or a script command (shown before it ran).
 */
export function feedAfterCall(conn: Connection, argv: string[], out: unknown, err: unknown): void {
  if (err !== undefined && (!(err instanceof CommandError) || err instanceof RejectedCommandError)) return;
  const name = String(argv[0]).toLowerCase();
  if (FEEDS_ITSELF.has(name)) return;
  if (out === QUEUED) return; // queued by MULTI: EXEC runs (and shows) it
  feedMonitors(conn, argv, false);
}

/** A command of a Lua script (script.c scriptCall → call): shown as `[db lua]`. */
export function feedFromScript(conn: Connection, argv: string[]): void {
  feedMonitors(conn, argv, true);
}

/** replicationFeedMonitors: one line to every monitor (@admin commands never). */
export function feedMonitors(conn: Connection, argv: string[], fromScript: boolean): void {
  const monitors = conn.server.monitors;
  if (monitors === null) return;
  const version = conn.keyspace.redisVersion;
  const full = commandFullName(conn, String(argv[0]).toLowerCase(), argv);
  if (full !== null && isAdminCommand(full, version)) return;
  const clock = conn.keyspace.clock;
  const ms = Math.floor(clock.now());
  const seconds = Math.floor(ms / 1000);
  // Redis's gettimeofday(): on a wall clock the µs within the ms as TIME gives them (not ms × 1000)
  const usec = String((ms - seconds * 1000) * 1000 + microsWithin(clock, ms)).padStart(6, '0');
  let line = `${seconds}.${usec} [${conn.keyspace.dbIndex} ${fromScript ? 'lua' : conn.addr}]`;
  for (const arg of redactedArgv(argv, version)) line += ` ${repr(arg)}`;
  const msg = new SimpleString(line);
  // in a cluster a node's monitors see that node's commands only
  const node = conn.clusterNode;
  for (const m of [...monitors]) if (m.clusterNode === node) m.push(msg);
}

/** sdscatrepr: a quoted C string, \\ \" \n \r \t \a \b escaped, other unprintable bytes \xHH. */
export function repr(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c || c === 0x22) out += `\\${s[i]}`;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x07) out += '\\a';
    else if (c === 0x08) out += '\\b';
    else if (c >= 0x20 && c <= 0x7e) out += s[i];
    else out += `\\x${(c & 0xff).toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}
