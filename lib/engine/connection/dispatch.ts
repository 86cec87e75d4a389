/**
 * Dispatch (server.c processCommand → call): how a connection runs one command. The refusals in
 * Redis's order (checkBeforeRunning: lookup and arity, NOAUTH, no-MULTI, ACL, cluster, maxmemory,
 * good replicas, read-only replica, RESP2 subscriber mode, stale replica, MONITOR), CLIENT PAUSE,
 * MULTI queueing, then the command itself: the engine's own (lib/engine/commands), the stream and
 * family commands (lib/commands), or ioredis-mock's built-ins (run on its emulators, replies
 * typed as Redis types them).
 */
import { ensureIdleCheck } from '../idle-timeout';
import { commandSince, predates, type RedisVersion } from '../../version';
import { dispatchCheckOnly, lookupCommand } from '../../commands/dispatch';
import type { BlockRequest, CommandContext, CommandHandler, CommandSpec } from '../../commands/types';
import { isBlockRequest } from '../../commands/types';
import { CommandError, errProtectedCommand, errUnknownCommand, errUnknownSubcommand, errWrongArity } from '../../errors';
import type { Keyspace } from '../../keyspace/keyspace';
import type { Reply } from '../../reply/reply';
import { StreamsMockError } from '../../clock/clock';
import { commandStatsName, RejectedCommandError } from '../../stats/command-stats';
import { runBuiltin as runEmulated } from '../emulated/builtins';
import { callWithinLimit } from '../emulated/large-args';
import { builtinError, typedBuiltinReply } from '../builtin-replies';
import type { ConnectionCommandSpec } from '../command-types';
import { CONNECTION_COMMANDS } from '../commands/index';
import { ALLOWED_WHEN_SUBSCRIBED } from '../commands/pubsub';
import { OOM_TEXT, NOREPLICAS_TEXT } from '../maxmemory';
import type { Connection } from '../connection';
import { builtinArg, builtinArity } from './builtin-host';
import { checkAcl, checkAclOnReprocess } from './acl-checks';
import { ERR_REPLICA_KEYSPACE, FEEDS_ITSELF, feedMonitors, refusedOnMonitor } from './monitor';
import { propagating } from './propagation';
import { addBuiltinDirty } from './stats';
import { ERR_NO_MULTI, NO_MULTI, discardTransaction, queueInMulti } from './transactions';
import { ERR_MASTERDOWN, ERR_READONLY, afterPause, checkCluster, deniedWhileStale, outOfMemoryFor, pausedFor, writeRefused, writesOnReplica } from './server-state';

/** processCommand's NOAUTH refusal (server.c). */
const ERR_NOAUTH = 'NOAUTH Authentication required.';

/** Container commands among the built-ins (their full name carries the subcommand). */
const BUILTIN_CONTAINERS = new Set(['config', 'object', 'command', 'memory', 'cluster', 'debug']);

export function arityOk(arity: number, argc: number): boolean {
  return arity >= 0 ? argc === arity : argc >= -arity;
}

/** processCommand → call for argv (the body `run` counts; see the module doc). */
export function runCommand(conn: Connection, argv: string[]): Reply | Promise<Reply> {
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new StreamsMockError('execute(argv): argv must be a non-empty array whose first element is the command name');
  }
  const name = String(argv[0]).toLowerCase();
  const spec = CONNECTION_COMMANDS.get(name);
  const stream = spec ? undefined : lookupCommand(name);
  conn.lastCommand = lookedUpName(conn, name, argv, spec, stream);
  if (conn.server.idleTimeoutOn) ensureIdleCheck(conn.server);
  checkBeforeRunning(conn, name, argv, spec, stream);
  if (conn.server.clientPause !== null && pausedFor(conn, argv)) return afterPause(conn, argv);
  if (conn.multiQueue !== null && !spec?.immediate) return queueInMulti(conn, argv);
  if (spec) return runConnectionCommand(conn, spec, name, argv);
  if (stream) return runStream(conn, argv, true);
  return runBuiltin(conn, name, argv);
}

/**
 * processCommand's refusals (server.c) in Redis's order, for argv about to run, or to be queued
 * when `conn.multiQueue` is set: unknown command, arity, unknown subcommand; NOAUTH; no_multi
 * inside MULTI; ACL (NOPERM, logged); cluster (MOVED, CROSSSLOT); maxmemory (OOM, after
 * evicting); too few good replicas (NOREPLICAS); a read-only replica (READONLY); RESP2
 * subscriber mode; a stale replica (MASTERDOWN); a MONITOR client touching the keyspace. Throws
 * the refusal (`reject`: rejected_calls, flags MULTI). CLIENT PAUSE comes after them (the
 * command waits, see runCommand). The one list of these checks (every front end's commands,
 * queued inside MULTI or not, go through runCommand). `conn.lastCommand` is set first.
 */
export function checkBeforeRunning(conn: Connection, name: string, argv: string[], spec: ConnectionCommandSpec | undefined, stream: CommandSpec | undefined): void {
  const isStream = stream !== undefined;
  const refused = commandCheckError(conn, name, argv, spec, isStream);
  if (refused !== null) reject(conn, name, refused);
  if (!conn.authenticated && !spec?.noAuth) reject(conn, name, ERR_NOAUTH);
  if (conn.multiQueue !== null && NO_MULTI.has(name) && arityOk(NO_MULTI.get(name)!, argv.length)) reject(conn, name, ERR_NO_MULTI);
  if (!conn.user.unrestricted) checkAcl(conn, name, argv, spec, isStream, false);
  const server = conn.server;
  if (server.cluster !== null) checkCluster(conn, name, argv);
  if (server.config.maxmemory !== 0 && outOfMemoryFor(conn, name, argv)) reject(conn, name, OOM_TEXT);
  if (server.config.replicasLacking && writeRefused(conn, name, argv)) reject(conn, name, NOREPLICAS_TEXT);
  if (server.master !== null && writesOnReplica(conn, name, argv)) reject(conn, name, ERR_READONLY);
  if (conn.resp === 2 && conn.inSubscriberMode && !ALLOWED_WHEN_SUBSCRIBED.has(name)) {
    const container = spec?.subcommands !== undefined || stream?.subcommands !== undefined || BUILTIN_CONTAINERS.has(name);
    const sub = argv.length > 1 && container ? `|${String(argv[1]).toLowerCase()}` : '';
    reject(conn, name, `ERR Can't execute '${name}${sub}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`);
  }
  if (server.master !== null && deniedWhileStale(conn, name)) reject(conn, name, ERR_MASTERDOWN);
  if (server.monitors !== null && conn.monitoring && refusedOnMonitor(conn, name, argv)) reject(conn, name, ERR_REPLICA_KEYSPACE);
  // a front end that cannot carry an unanswered command (ConnectionOptions.clientReplyRefusal)
  // refuses CLIENT REPLY OFF/SKIP before it runs or is queued (in MULTI as a queueing error: EXEC
  // answers EXECABORT, rather than stopping halfway)
  if (name === 'client' && conn.clientReplyRefusal !== null && argv.length === 3 && String(argv[1]).toLowerCase() === 'reply' && /^(off|skip)$/i.test(argv[2])) {
    if (conn.multiQueue !== null) conn.multiErrored = true;
    throw new StreamsMockError(conn.clientReplyRefusal);
  }
}

/**
 * A command refused before running (processCommand's rejectCommand): flags MULTI. A refused EXEC
 * answers execCommandAbort's EXECABORT, inside MULTI or not (`EXEC junk` outside MULTI too, its
 * WATCHed keys unwatched: both real servers).
 */
export function reject(conn: Connection, name: string, message: string): never {
  if (name === 'exec') {
    discardTransaction(conn);
    throw new CommandError(`EXECABORT Transaction discarded because of: ${message.replace(/^ERR /, '')}`);
  }
  if (conn.multiQueue !== null) conn.multiErrored = true;
  throw new RejectedCommandError(message);
}

/** COMMAND's subcommands and their arity (7.0.15 and the post-7.4 build; GETKEYS* -4 before 7.2). */
const COMMAND_SUBCOMMANDS: Readonly<Record<string, number>> = { count: 2, docs: -2, getkeys: -3, getkeysandflags: -3, help: 2, info: -2, list: -2 };

/** The error processCommand gives before running or queueing argv, or null. */
export function commandCheckError(conn: Connection, name: string, argv: string[], spec: ConnectionCommandSpec | undefined, isStream: boolean): string | null {
  const version = conn.keyspace.redisVersion;
  if (isStream) {
    try {
      dispatchCheckOnly(version, argv);
      return null;
    } catch (err) {
      if (err instanceof CommandError) return err.message;
      throw err;
    }
  }
  if (spec) {
    if (specAbsent(conn, spec)) return errUnknownCommand(argv[0], argv.slice(1));
    if (!arityOk(spec.arity, argv.length)) return errWrongArity(name);
    if (name === 'command' && argv.length > 1) {
      // COMMAND runs alone too, but COMMAND <sub> is looked up as a subcommand (unknown, arity)
      const sub = String(argv[1]).toLowerCase();
      const arity = Object.prototype.hasOwnProperty.call(COMMAND_SUBCOMMANDS, sub) ? COMMAND_SUBCOMMANDS[sub] : undefined;
      if (arity === undefined) return errUnknownSubcommand(argv[1], argv[0]);
      const needed = arity === -3 && predates(version, '7.2') ? -4 : arity; // getkeys*: -4 before 7.2
      if (!arityOk(needed, argv.length)) return errWrongArity(`command|${sub}`);
    }
    let protectedBy = spec.protectedBy;
    if (spec.subcommands) {
      const sub = spec.subcommands[argv[1].toLowerCase()];
      if (!sub || predates(version, sub.since)) return errUnknownSubcommand(argv[1], argv[0]);
      if (!arityOk(sub.arity, argv.length)) return errWrongArity(`${name}|${argv[1].toLowerCase()}`);
      protectedBy ??= sub.protectedBy;
    }
    // right after the arity check in processCommand: before NOAUTH, ACL, MULTI's queue
    if (protectedBy !== undefined && (conn.server.config.get(protectedBy) ?? 'no') === 'no') return errProtectedCommand(protectedBy);
    return null;
  }
  if (!hasBuiltin(conn, name)) {
    if (builtinArity(name) !== undefined) throw new StreamsMockError(`${name.toUpperCase()} is not emulated (neither ioredis-mock nor this library has it)`);
    return errUnknownCommand(argv[0], argv.slice(1));
  }
  const arity = builtinArity(name);
  if (arity !== undefined && !arityOk(arity, argv.length)) return errWrongArity(name);
  return null;
}

/**
 * CLIENT LIST `cmd` as processCommand sets it before any check (`c->lastcmd`, checked on
 * 7.0.15 and a build after 7.4): the command looked up for argv — `name|sub` for a
 * container's subcommand, the container itself without a subcommand argument — or NULL when
 * none is found (unknown command or subcommand, or one the emulated version lacks).
 */
export function lookedUpName(conn: Connection, name: string, argv: string[], spec: ConnectionCommandSpec | undefined, stream: CommandSpec | undefined): string {
  const version = conn.keyspace.redisVersion;
  let subcommands: Record<string, { since?: RedisVersion } | { arity: number }> | undefined;
  if (spec) {
    if (specAbsent(conn, spec)) return 'NULL';
    subcommands = spec.subcommands;
  } else if (stream) {
    if (predates(version, commandSince(name))) return 'NULL';
    subcommands = stream.subcommands;
  } else {
    if (!hasBuiltin(conn, name)) return 'NULL';
    return commandStatsName(argv, false); // OBJECT ENCODING → object|encoding
  }
  if (!subcommands || argv.length < 2) return name;
  const sub = String(argv[1]).toLowerCase();
  const subSpec = Object.prototype.hasOwnProperty.call(subcommands, sub) ? subcommands[sub] : undefined;
  return subSpec && !predates(version, 'since' in subSpec ? subSpec.since : undefined) ? `${name}|${sub}` : 'NULL';
}

/** True when command `name` (lower case) is newer than the emulated version. */
export function absentHere(conn: Connection, name: string): boolean {
  const version = conn.keyspace.redisVersion;
  const spec = CONNECTION_COMMANDS.get(name);
  return spec ? specAbsent(conn, spec) : predates(version, commandSince(name));
}

/** An engine command the connection's server does not have: newer than its version, or not `available` there (MOCKCLOCK). */
export function specAbsent(conn: Connection, spec: ConnectionCommandSpec): boolean {
  return predates(conn.keyspace.redisVersion, spec.since) || spec.available?.(conn) === false;
}

/** The full name (`name` or `container|sub`) processCommand looks argv up as, or null when unknown here. */
export function commandFullName(conn: Connection, name: string, argv: string[]): string | null {
  const spec = CONNECTION_COMMANDS.get(name);
  const full = lookedUpName(conn, name, argv, spec, spec ? undefined : lookupCommand(name));
  return full === 'NULL' ? null : full;
}

/** The error MULTI would give argv at queue time (unknown command, arity, subcommand), or null. */
export function checkCommand(conn: Connection, argv: string[]): string | null {
  const name = String(argv[0]).toLowerCase();
  const spec = CONNECTION_COMMANDS.get(name);
  return commandCheckError(conn, name, argv, spec, !spec && lookupCommand(name) !== undefined);
}

/** Run one of the connection's own commands (lib/engine/commands). */
export function runConnectionCommand(conn: Connection, spec: ConnectionCommandSpec, name: string, argv: string[]): Reply | Promise<Reply> {
  const error = commandCheckError(conn, name, argv, spec, false);
  if (error !== null) reject(conn, name, error);
  // CLIENT LIST cmd: set by runCommand (inside EXEC it stays exec, as in Redis)
  const run = spec.subcommands ? spec.subcommands[argv[1].toLowerCase()].run : spec.run;
  conn.lastInteractionAt = conn.keyspace.clock.now();
  // EVAL, FCALL …: shown to monitors before the script's own commands
  if (conn.server.monitors !== null && FEEDS_ITSELF.has(name)) feedMonitors(conn, argv, false);
  try {
    return run!(conn, argv);
  } finally {
    conn.keyspace.blocking.flush();
  }
}

/** The command context of a stream command on the current keyspace. */
export function context(conn: Connection, isRetry: boolean): CommandContext {
  const ks = conn.keyspace;
  const now = ks.now();
  if (!isRetry) conn.lastInteractionAt = now;
  return { now, version: ks.redisVersion, db: conn.streamDb, canBlock: !ks.inTransaction, isRetry, clusterEnabled: conn.server.cluster !== null };
}

/** Run a stream command; blocks (returns a promise) on a BLOCK that must wait. */
export function runStream(conn: Connection, argv: string[], refusals = false): Reply | Promise<Reply> {
  const ks = conn.keyspace;
  let result: Reply | BlockRequest;
  // Unknown (in this version), arity, subcommand: refused before running (INFO rejected_calls)
  let handler: CommandHandler;
  try {
    handler = dispatchCheckOnly(ks.redisVersion, argv);
  } catch (err) {
    if (refusals && err instanceof CommandError) reject(conn, argv[0].toLowerCase(), err.message);
    throw err;
  }
  try {
    result = handler(context(conn, false), argv);
  } finally {
    ks.blocking.flush();
  }
  if (!isBlockRequest(result)) return result;
  return block(conn, ks, result, argv);
}

/** Block argv's call on its keys: served (retried) when a key is written, or timed out. */
export function block(conn: Connection, ks: Keyspace, request: BlockRequest, argv: string[]): Promise<Reply> {
  conn.blockedCalls++;
  const p = ks.blocking.block(conn, request.keys, request, (req, key) => {
    // the signalled store key is the key's bytes as the command named it: re-encoding it as
    // UTF-8 missed every key with a byte past 0x7f (`BLPOP k\xff` never served: events fuzzer)
    const retry = () => req.retry(context(conn, true), key);
    const tracking = conn.server.tracking;
    const serve = tracking === null ? retry : () => tracking.served(conn, retry);
    const repl = conn.server.replication;
    checkAclOnReprocess(conn, argv); // 7.2+: the rules as they are now
    return repl !== null && repl.active ? propagating(conn, repl, argv, serve) : serve();
  });
  const done = () => {
    conn.blockedCalls--;
    conn.noteWrite(); // its reply (served, timed out, or an error) is written now
    if (conn.server.idleTimeoutOn) ensureIdleCheck(conn.server); // idle-eligible again
  };
  p.then(done, done);
  return p;
}

/** True when ioredis-mock (or the clock's TTL family) has `name`. */
export function hasBuiltin(conn: Connection, name: string): boolean {
  return builtinArity(name) !== undefined && typeof conn.emulators[name] === 'function';
}

/** Run one of ioredis-mock's commands on its emulator; the reply typed as Redis types it. */
export function runBuiltin(conn: Connection, name: string, argv: string[]): Reply | Promise<Reply> {
  if (!hasBuiltin(conn, name)) {
    if (builtinArity(name) !== undefined) throw new StreamsMockError(`${name.toUpperCase()} is not emulated (neither ioredis-mock nor this library has it)`);
    throw new CommandError(errUnknownCommand(argv[0], argv.slice(1)));
  }
  const ks = conn.keyspace;
  conn.lastInteractionAt = ks.clock.now();
  const args = argv.slice(1).map(builtinArg);
  const writesBefore = ks.modifications;
  let value: unknown;
  try {
    const emulator = conn.emulators[name];
    const host = conn.builtinHost;
    // Redis's checks, the keyspace clock, errors as Redis's (../emulated/builtins.ts); long argument
    // lists refused (../emulated/large-args.ts)
    value = runEmulated(ks, name, args, (all) => callWithinLimit(name, all, (a) => emulator.apply(host, a)));
  } catch (err) {
    throw builtinError(err);
  } finally {
    addBuiltinDirty(conn, name, argv.length, ks.modifications - writesBefore);
    ks.blocking.flush();
  }
  if (value instanceof Promise) {
    return value.then(
      (v) => typedBuiltinReply(name, args, v),
      (err) => Promise.reject(builtinError(err)),
    );
  }
  return typedBuiltinReply(name, args, value);
}
