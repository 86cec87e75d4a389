/**
 * What INFO and SLOWLOG count of each command a connection runs (server.c call()): commandstats,
 * errorstats, commands processed, rejected and failed calls, SLOWLOG entries; the timing sample
 * (lib/engine/command-timing.ts) and the built-ins the ioredis front end runs itself. A command
 * runs inside `counted`, which also opens its replication frame and its CLIENT TRACKING context.
 */
import { performance } from 'perf_hooks';
import { lookupCommand } from '../../commands/dispatch';
import { CommandError } from '../../errors';
import { QUEUED, type Reply } from '../../reply/reply';
import { predates } from '../../version';
import { commandStatsName, dirtyOfBuiltin, NoStatsCommandError, RejectedCommandError } from '../../stats/command-stats';
import { BUILTIN_KINDS, COMMAND_KINDS, COMMAND_KINDS_MAX, builtinFullName, sampledWeight } from '../command-timing';
import { CONNECTION_COMMANDS } from '../commands/index';
import type { TrackingState } from '../tracking';
import type { Connection } from '../connection';
import { absentHere, hasBuiltin } from './dispatch';
import { feedAfterCall } from './monitor';
import { propagating } from './propagation';

/** processCommand's refusal of an unknown subcommand of a container (`ERR unknown subcommand 'x'. Try X HELP.`). */
const ERR_UNKNOWN_SUBCOMMAND = "ERR unknown subcommand '";

/** One command's body, run for argv on a connection (a module function: no closure per command). */
export type CommandBody = (conn: Connection, argv: string[]) => Reply | Promise<Reply>;

/** A blocked call CLIENT UNBLOCK … TIMEOUT ended: a failed call in 7.0's commandstats, no error reply. */
// (not an Error: one made while the module loads would keep the objects of its stack alive)
export const UNBLOCKED_BY_TIMEOUT = Symbol('unblocked by CLIENT UNBLOCK TIMEOUT');

/**
 * Run `body` for argv and record it in the server's INFO statistics (commandstats, errorstats,
 * commands processed): when it answers, fails, or is refused before running.
 */
export function counted(conn: Connection, argv: string[], body: CommandBody): Reply | Promise<Reply> {
  const repl = conn.server.replication;
  if (repl !== null && repl.active) return propagating(conn, repl, argv, () => countedPlain(conn, argv, body));
  return countedPlain(conn, argv, body);
}

function countedPlain(conn: Connection, argv: string[], body: CommandBody): Reply | Promise<Reply> {
  const tracking = conn.server.tracking;
  if (tracking !== null) return countedTracked(conn, tracking, argv, body);
  return timed(conn, argv, body);
}

/** Run `body` and count it in INFO (commandstats, errorstats; a blocked call when it settles). */
function timed(conn: Connection, argv: string[], body: CommandBody): Reply | Promise<Reply> {
  const weight = latencyTimingWeight(conn, argv[0]);
  const start = weight === 0 ? 0 : performance.now();
  let out: Reply | Promise<Reply>;
  try {
    out = body(conn, argv);
  } catch (err) {
    if (conn.server.monitors !== null) feedAfterCall(conn, argv, undefined, err);
    recordCommand(conn, argv, start, weight, err);
    throw err;
  }
  if (conn.server.monitors !== null) feedAfterCall(conn, argv, out, undefined);
  if (out instanceof Promise) return countedLater(conn, argv, start, weight, out);
  recordCommand(conn, argv, start, weight, undefined);
  return out;
}

/** `counted` while connections track keys (CLIENT TRACKING): the command is the server's current one. */
function countedTracked(conn: Connection, tracking: TrackingState, argv: string[], body: CommandBody): Reply | Promise<Reply> {
  const saved = tracking.enter(conn, argv);
  let ran = false;
  try {
    const out = timed(conn, argv, body);
    ran = out !== QUEUED;
    return out;
  } catch (err) {
    ran = err instanceof CommandError && !(err instanceof RejectedCommandError);
    throw err;
  } finally {
    tracking.leave(conn, argv, ran, saved);
  }
}

/**
 * Record a command that answers later (blocked) once it settles; returns `out`. Its usec are the
 * time it ran, not the time it waited (Redis counts the command's own execution, blocking time
 * excluded: 7.0 its first run, later versions c->duration): `start` moves forward by the wait.
 */
export function countedLater(conn: Connection, argv: string[], start: number, weight: number, out: Promise<Reply>): Promise<Reply> {
  const blockedAt = weight === 0 ? 0 : performance.now();
  out.then(
    () => {
      // 7.0 counts a call unblocked by CLIENT UNBLOCK … TIMEOUT in failed_calls (no error reply)
      const failed = conn.timeoutUnblocked;
      conn.timeoutUnblocked = false;
      recordCommand(conn, argv, weight === 0 ? start : start + (performance.now() - blockedAt), weight, failed ? UNBLOCKED_BY_TIMEOUT : undefined, true);
    },
    (err) => recordCommand(conn, argv, weight === 0 ? start : start + (performance.now() - blockedAt), weight, err, true),
  );
  return out;
}

/**
 * Timing of a built-in the ioredis front end runs on ioredis-mock's emulator itself (not
 * through `run`): the weight to hand `recordBuiltin` (see `timingWeight`; 0: do not time it).
 * `name`: the lower-case command name.
 */
export function builtinTimingWeight(name: string): number {
  let known = BUILTIN_KINDS.get(name);
  if (known === undefined) {
    known = { subNamed: commandStatsName([name, 'x'], false) !== name, seen: 0 };
    if (BUILTIN_KINDS.size < COMMAND_KINDS_MAX) BUILTIN_KINDS.set(name, known);
  }
  return sampledWeight(known);
}

/** Count a built-in the ioredis front end ran itself (see `Connection.recordBuiltin`). */
export function recordBuiltin(conn: Connection, name: string, firstArg: unknown, start: number, weight: number, err: unknown): void {
  if (err !== undefined && !(err instanceof CommandError)) return;
  // the adapter's arity check throws a plain CommandError: a refusal before running all the same
  const rejected = err instanceof CommandError && err.message.startsWith('ERR wrong number of arguments');
  recordOutcome(conn, builtinFullName(name, firstArg), start, weight, err, rejected);
}

/** commandstats / errorstats of one call of `full` (its INFO name); see `recordCommand`. */
function recordOutcome(conn: Connection, full: string, start: number, weight: number, err: unknown, rejected = false): void {
  const usec = weight === 0 ? 0 : Math.round((performance.now() - start) * 1000) * weight;
  if (err === undefined) conn.server.stats.commandDone(full, usec, 'ok');
  else if (err === UNBLOCKED_BY_TIMEOUT) conn.server.stats.commandDone(full, usec, 'failed');
  else if (err instanceof NoStatsCommandError) conn.server.stats.commandDone(full, usec, 'failed');
  else conn.server.stats.commandDone(full, usec, rejected || err instanceof RejectedCommandError ? 'rejected' : 'failed', (err as CommandError).message);
}

/** INFO `rdb_changes_since_last_save` of a built-in (see `Connection.addBuiltinDirty`). */
export function addBuiltinDirty(conn: Connection, name: string, argc: number, writes: number): void {
  if (writes > 0) conn.server.stats.addDirty(dirtyOfBuiltin(name, argc, writes));
}

/**
 * `weight`: see `timingWeight` (0: the call was not timed; its usec count as 0). `settledLater`:
 * a blocked call, counted when it settles (its time includes the wait: no latency sample).
 */
export function recordCommand(conn: Connection, argv: string[], start: number, weight: number, err: unknown, settledLater = false): void {
  const nestedFailed = conn.nestedFailedCalls;
  conn.nestedFailedCalls = 0;
  if (err !== undefined && err !== UNBLOCKED_BY_TIMEOUT && !(err instanceof CommandError)) return; // closed connection, library errors
  const raw = argv[0];
  // name → (lower-case name, kind), cached by the name as sent (usually already lower case)
  let known = COMMAND_KINDS.get(raw);
  if (known === undefined) {
    const name = String(raw).toLowerCase();
    const spec = CONNECTION_COMMANDS.get(name) ?? lookupCommand(name);
    const kind = spec ? (spec.subcommands ? 'container' : 'command') : hasBuiltin(conn, name) ? 'command' : 'unknown';
    // Redis's full name gets `|subcommand` for containers (ours, and ioredis-mock's OBJECT …)
    const subNamed = kind !== 'unknown' && commandStatsName([name, 'x'], kind === 'container') !== name;
    known = { name, kind, subNamed, seen: 0 };
    // built-ins depend on the emulator table: not cached; nor are names past the cache's bound
    if (spec && COMMAND_KINDS.size < COMMAND_KINDS_MAX) COMMAND_KINDS.set(raw, known);
  }
  if (conn.multiQueue !== null && err === undefined && known.name !== 'multi') return; // QUEUED
  const stats = conn.server.stats;
  // a command of a later version is unknown to this one: errorstats only (no cmdstat line)
  if (known.kind === 'unknown' || (err !== undefined && absentHere(conn, known.name))) {
    if (err instanceof CommandError) stats.errorReply(err.message);
    return;
  }
  // an unknown subcommand of a container is refused before any command is found (processCommand):
  // errorstats only, no `name|sub` line
  if (err instanceof CommandError && argv.length > 1 && (known.subNamed || known.name === 'command') && err.message.startsWith(ERR_UNKNOWN_SUBCOMMAND)) {
    stats.errorReply(err.message);
    return;
  }
  let full = known.subNamed ? commandStatsName(argv, true) : known.name;
  let rejected = false;
  if (known.name === 'command' && argv.length > 1) {
    // COMMAND alone is a command, COMMAND <sub> one of its subcommands (`command|docs` …)
    full = `command|${String(argv[1]).toLowerCase()}`;
    // a subcommand's arity error is a refusal (processCommand)
    rejected = err instanceof CommandError && err.message.startsWith('ERR wrong number of arguments');
  }
  recordOutcome(conn, full, start, weight, err, rejected);
  if (nestedFailed > 0) stats.commandRecord(full).failedCalls += nestedFailed;
  const config = conn.server.config;
  // the latency monitor (lib/stats/latency-monitor.ts): a command that ran for the threshold or
  // longer (every command is timed while it is set: `latencyTimingWeight`)
  if (config.latencyMonitorThreshold > 0 && weight !== 0 && (!settledLater || MAY_RUN_LONG.has(known.name)) && !rejected && !(err instanceof RejectedCommandError)) {
    const ms = Math.floor(performance.now() - start);
    if (ms >= config.latencyMonitorThreshold) conn.server.latency.add(isFastCommand(full) ? 'fast-command' : 'command', ms, Math.floor(conn.keyspace.clock.now() / 1000));
  }
  // SLOWLOG (lib/engine/slowlog.ts): commands that ran, EXEC itself excepted
  if ((config.slowlogSlowerThan !== 10000 || MAY_RUN_LONG.has(known.name)) && known.name !== 'exec' && !(err instanceof RejectedCommandError)) {
    const usec = weight === 0 ? 0 : Math.round((performance.now() - start) * 1000);
    // a script's redis.call runs on Redis's Lua client: no name, its address `?:0` on 7.0, '' after
    const version = conn.keyspace.redisVersion;
    const addr = recordingScriptCall ? (predates(version, '7.2') ? '?:0' : '') : conn.addr;
    conn.server.slowlog.push(argv, usec, conn.keyspace.clock.now(), addr, recordingScriptCall ? '' : (conn.name ?? ''), config.slowlogSlowerThan, config.slowlogMaxLen, version);
  }
}

/**
 * `timingWeight`, but 1 (every call timed) while the latency monitor is on: a command's latency
 * sample needs its own time (Redis times every call).
 */
export function latencyTimingWeight(conn: Connection, name: unknown): number {
  if (conn.server.config.latencyMonitorThreshold > 0) return 1;
  // timingWeight, with the name's cached entry (its lower-case name): no case folding per call
  const known = COMMAND_KINDS.get(name as string);
  if (known === undefined) return 1;
  return MAY_RUN_LONG.has(known.name) ? 1 : sampledWeight(known);
}

/**
 * The commands a fake can keep busy for milliseconds — scripts (a script running in slices
 * settles later: its time is its run, not a wait) and DEBUG SLEEP: always timed, so the slow log
 * at its default threshold (10000 µs) and the latency monitor see them as Redis does. Other
 * commands take microseconds: the slow log times them only when its threshold is lowered.
 */
const MAY_RUN_LONG: ReadonlySet<string> = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro', 'debug']);

/** Is the command (`name` or `name|sub`) flagged fast (its ACL category @fast: server.c CMD_FAST)? */
function isFastCommand(full: string): boolean {
  const { ACL_CATEGORY_MASKS, ACL_CATEGORIES } = require('../acl-table') as typeof import('../acl-table');
  return ((ACL_CATEGORY_MASKS[full] ?? 0) & (1 << ACL_CATEGORIES.indexOf('fast'))) !== 0;
}

/** Set while `recordScriptCall` records (the slow log's client of a script's redis.call). */
let recordingScriptCall = false;

/** `recordCommand` of a script's redis.call (the caller's connection counts it; the slow log names the Lua client). */
export function recordScriptCall(conn: Connection, argv: string[], start: number, weight: number, err: unknown): void {
  recordingScriptCall = true;
  try {
    recordCommand(conn, argv, start, weight, err);
  } finally {
    recordingScriptCall = false;
  }
}
