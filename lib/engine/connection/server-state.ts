/**
 * processCommand's refusals that depend on the server's state rather than the command: a busy
 * script (BUSY), CLIENT PAUSE (the command waits), maxmemory (OOM, after evicting), too few good
 * replicas (NOREPLICAS), a read-only or stale replica (READONLY, MASTERDOWN), cluster slots
 * (MOVED, CROSSSLOT). Each runs after the unknown-command and arity checks, in checkBeforeRunning
 * (./dispatch.ts).
 */
import { commandSpec } from '../../commands/command-data';
import type { Reply } from '../../reply/reply';
import { RejectedCommandError } from '../../stats/command-stats';
import { predates } from '../../version';
import { redirectionError } from '../cluster';
import { NOREPLICAS_TEXT, OOM_TEXT, hasWriteFlag, isDenyOom, isScriptCommand, isWriteCommand, performEvictions, scriptIsDenyOom } from '../maxmemory';
import { mustWait, untilUnpaused } from '../pause';
import type { ServerState } from '../registry';
import type { Connection } from '../connection';
import { builtinArity } from './builtin-host';
import { arityOk, reject, runCommand } from './dispatch';
import { connectionClosedError } from './order';
import { discardTransaction } from './transactions';

export const ERR_READONLY = "READONLY You can't write against a read only replica.";
export const ERR_MASTERDOWN = "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.";

/** server.c processCommand while a script is busy (7.0.15 and the 8.x sources). */
export const BUSY_TEXT = 'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.';

/** Commands a busy server still runs once busy-reply-threshold has passed (CMD_ALLOW_BUSY). */
export function allowedWhileBusy(argv: string[]): boolean {
  const name = String(argv[0]).toLowerCase();
  if (name === 'script' || name === 'function') return String(argv[1] ?? '').toLowerCase() === 'kill' || String(argv[1] ?? '').toLowerCase() === 'stats';
  return name === 'auth' || name === 'hello' || name === 'multi' || name === 'discard' || name === 'watch' || name === 'unwatch' || name === 'reset' || name === 'quit' || name === 'shutdown' || name === 'replconf';
}

/** CLIENT PAUSE: argv (past processCommand's refusals) waits for the pause to end. */
export function pausedFor(conn: Connection, argv: string[]): boolean {
  return mustWait(conn.server, argv, conn.multiQueue);
}

/** A paused command: blocked (CLIENT LIST b, INFO blocked_clients) until the pause ends, then run. */
export function afterPause(conn: Connection, argv: string[]): Promise<Reply> {
  conn.blockedCalls++;
  return untilUnpaused(conn.server).then(() => {
    conn.blockedCalls--;
    if (conn.isClosed) throw connectionClosedError();
    return runCommand(conn, argv);
  });
}

/**
 * processCommand on a replica whose link is down (always, here: REPLICAOF connects nowhere) with
 * replica-serve-stale-data no: commands without the `stale` flag, or an EXEC queueing one, are
 * refused with MASTERDOWN. Container commands (CONFIG, CLIENT …) are let through: the table has
 * no per-subcommand flags (their admin subcommands are `stale` in Redis).
 */
export function deniedWhileStale(conn: Connection, name: string): boolean {
  if (conn.server.config.get('replica-serve-stale-data') !== 'no') return false;
  const denied = (n: string) => {
    const flags = commandSpec(n.toLowerCase())?.flags;
    return flags !== undefined && flags.length > 0 && !flags.includes('stale');
  };
  if (name === 'exec') return conn.multiQueue !== null && conn.multiQueue.some((a) => denied(String(a[0])));
  return denied(name);
}

/**
 * processCommand on a read-only replica (REPLICAOF host port, replica-read-only yes): a write
 * command, or an EXEC whose queue holds one, is refused with READONLY.
 */
export function writesOnReplica(conn: Connection, name: string, argv: readonly string[]): boolean {
  if (conn.server.config.get('replica-read-only') !== 'yes') return false;
  if (name === 'exec') return conn.multiQueue !== null && conn.multiQueue.some((a) => hasWriteFlag(a));
  return hasWriteFlag(argv);
}

/** Commands 7.0–7.2 still run inside MULTI when out of memory (server.c processCommand). */
const MULTI_OOM_EXEMPT = new Set(['exec', 'discard', 'quit', 'reset']);

/** A command refused when out of memory: DENYOOM, or a script whose flags make it so. */
function deniedOnOom(server: ServerState, argv: string[]): boolean {
  return isDenyOom(argv) || (isScriptCommand(argv) && scriptIsDenyOom(server, argv));
}

/**
 * processCommand's maxmemory step (lib/engine/maxmemory.ts): evict as the policy says; true
 * when the server is still over the limit and argv must be refused: a denyoom command, EXEC of
 * a transaction holding one, a script whose flags lack allow-oom and no-writes, and before 7.4
 * any command but EXEC, DISCARD, QUIT and RESET inside MULTI (argv past the unknown-command and
 * arity checks: checkBeforeRunning). Nothing is evicted while a script is busy.
 */
export function outOfMemoryFor(conn: Connection, name: string, argv: string[]): boolean {
  const server = conn.server;
  if (server.busyScript !== null) return false;
  const oom = performEvictions(server);
  server.preCommandOom = oom;
  if (!oom) return false;
  const queue = conn.multiQueue;
  if (queue !== null && !MULTI_OOM_EXEMPT.has(name) && predates(conn.keyspace.redisVersion, '7.4')) return true;
  if (name === 'exec') return queue !== null && queue.some((q) => deniedOnOom(server, q));
  return deniedOnOom(server, argv);
}

/**
 * processCommand's maxmemory and good-replicas refusals for a built-in the ioredis front end
 * runs itself (lower-case `name`, `argc` counting it, its first argument): throws OOM or
 * NOREPLICAS as `run` would refuse it (a wrong arity is left to the built-in's own check).
 */
export function checkServerState(conn: Connection, name: string, argc: number, firstArg: unknown): void {
  const server = conn.server;
  const config = server.config;
  if (config.maxmemory === 0 && !config.replicasLacking) return;
  const arity = builtinArity(name);
  if (arity !== undefined && !arityOk(arity, argc)) return;
  const argv = firstArg === undefined ? [name] : [name, Buffer.isBuffer(firstArg) ? firstArg.toString('latin1') : String(firstArg)];
  if (config.maxmemory !== 0 && server.busyScript === null) {
    const oom = performEvictions(server);
    server.preCommandOom = oom;
    if (oom && isDenyOom(argv)) reject(conn, name, OOM_TEXT);
  }
  if (config.replicasLacking && isWriteCommand(server, argv, commandSpec(name)?.flags.includes('write'))) reject(conn, name, NOREPLICAS_TEXT);
}

/**
 * processCommand's good-replicas step: with `min-replicas-to-write` set (the fake has no
 * replica) a write command, EXEC of a transaction holding one, or a script whose flags lack
 * no-writes is refused (NOREPLICAS); argv is past the unknown-command and arity checks.
 */
export function writeRefused(conn: Connection, name: string, argv: string[]): boolean {
  const writes = (a: string[]) => isWriteCommand(conn.server, a, hasWriteFlag(a));
  if (name === 'exec') return conn.multiQueue !== null && conn.multiQueue.some(writes);
  return writes(argv);
}

/**
 * Cluster mode (processCommand → getNodeByQuery): after the unknown-command and arity checks,
 * a command with keys answers CROSSSLOT when they hash to different slots, MOVED when their
 * slot is another node's; EXEC checks the whole queue (and discards the transaction on
 * refusal); inside MULTI a refused command flags the transaction (EXECABORT at EXEC).
 */
export function checkCluster(conn: Connection, name: string, argv: string[]): void {
  const cluster = conn.server.cluster!;
  conn.clusterAsking = false; // ASKING lasts one command (no slot migrates here)
  let commands: string[][];
  if (name === 'exec') {
    if (conn.multiQueue === null) return;
    commands = conn.multiQueue;
  } else {
    commands = [argv];
  }
  const err = redirectionError(cluster, conn.clusterNode, commands);
  if (err === null) return;
  if (name === 'exec') {
    discardTransaction(conn);
    throw new RejectedCommandError(err.message);
  }
  reject(conn, name, err.message);
}
