/**
 * One `redis.call`/`redis.pcall` of a Lua script running on a connection (script.c scriptCall):
 * the script's own checks and texts (unknown command, arity, no-script, ACL), stream commands
 * answering nil instead of blocking, a SELECT that lasts until the script ends. The Lua VM is
 * lib/scripting/lua.ts.
 */
import { olderArity } from '../../commands/command-data';
import { dispatch, lookupCommand } from '../../commands/dispatch';
import type { CommandContext } from '../../commands/types';
import { isBlockRequest } from '../../commands/types';
import { CommandError } from '../../errors';
import { NIL_ARRAY, type Reply } from '../../reply/reply';
import { StreamsMockError } from '../../clock/clock';
import { commandSince, predates, supports } from '../../version';
import { CONNECTION_COMMANDS } from '../commands/index';
import { DENIED_IN_SCRIPTS, ERR_ARITY_FROM_SCRIPT, ERR_NOT_ALLOWED_FROM_SCRIPT, ERR_UNKNOWN_FROM_SCRIPT, containerDeniedInScripts } from '../../scripting/rules';
import type { Connection } from '../connection';
import { checkScriptAcl } from './acl-checks';
import { builtinArity } from './builtin-host';
import { arityOk, hasBuiltin, runBuiltin, specAbsent } from './dispatch';
import { feedFromScript } from './monitor';
import { propagating } from './propagation';
import { latencyTimingWeight, recordScriptCall } from './stats';
import { RejectedCommandError } from '../../stats/command-stats';
import { performance } from 'perf_hooks';

/**
 * Blocking commands that carry `noscript` up to 7.0 (checked on redis-server 7.0.15; BLMPOP and
 * BZMPOP never did); from 7.2 a script runs them without blocking (redis#11568).
 */
const NOSCRIPT_BEFORE_7_2 = new Set(['blpop', 'brpop', 'brpoplpush', 'blmove', 'bzpopmin', 'bzpopmax']);

/** See `Connection.scriptCall`. */
export function scriptCall(conn: Connection, argv: string[]): Reply {
  // counted in INFO as Redis's call() counts it: commandstats (rejected_calls for a refusal),
  // errorstats; an unknown command in errorstats alone
  const weight = latencyTimingWeight(conn, argv[0]);
  const start = weight === 0 ? 0 : performance.now();
  let out: Reply;
  try {
    out = scriptCallShown(conn, argv);
  } catch (err) {
    recordScriptCall(conn, argv, start, weight, err);
    throw err;
  }
  recordScriptCall(conn, argv, start, weight, undefined);
  return out;
}

/** A redis.call the script's own checks refused (read-only script, OOM, cluster: script.c scriptCall's error path). */
export function scriptCallRefused(conn: Connection, argv: string[], text: string): void {
  recordScriptCall(conn, argv, 0, 0, new RejectedCommandError(text));
}

function scriptCallShown(conn: Connection, argv: string[]): Reply {
  if (conn.server.monitors !== null) return scriptCallMonitored(conn, argv);
  const repl = conn.server.replication;
  if (repl !== null && repl.active) return propagating(conn, repl, argv, () => scriptCallPlain(conn, argv));
  return scriptCallPlain(conn, argv);
}

/** Set when the redis.call now running passed the script's checks and was called (call()). */
let called = false;

/** `scriptCall` while connections MONITOR: a command that was called is shown (`[db lua]`), even when it failed. */
function scriptCallMonitored(conn: Connection, argv: string[]): Reply {
  called = false;
  try {
    const repl = conn.server.replication;
    if (repl !== null && repl.active) return propagating(conn, repl, argv, () => scriptCallPlain(conn, argv));
    return scriptCallPlain(conn, argv);
  } catch (err) {
    if (!(err instanceof CommandError)) called = false;
    throw err;
  } finally {
    if (called) {
      called = false;
      feedFromScript(conn, argv);
    }
  }
}

function scriptCallPlain(conn: Connection, argv: string[]): Reply {
  const ks = conn.keyspace;
  if (conn.tracking !== null) conn.server.tracking?.remember(conn, argv);
  const name = argv[0].toLowerCase();
  if (!conn.user.unrestricted) checkScriptAcl(conn, name, argv);
  const spec = lookupCommand(name);
  if (spec) {
    if (predates(ks.redisVersion, commandSince(name))) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
    // Redis looks a container's subcommand up with the command itself (argc >= 2).
    let arity = olderArity(name, ks.redisVersion) ?? spec.arity;
    if (spec.subcommands && argv.length >= 2) {
      const sub = spec.subcommands[argv[1].toLowerCase()];
      if (!sub) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
      arity = sub.arity;
    }
    if (!arityOk(arity, argv.length)) throw new RejectedCommandError(ERR_ARITY_FROM_SCRIPT);
    if (containerDeniedInScripts(ks.redisVersion, name, argv) ?? DENIED_IN_SCRIPTS.has(name)) throw new RejectedCommandError(ERR_NOT_ALLOWED_FROM_SCRIPT); // CONFIG SET
    if (NOSCRIPT_BEFORE_7_2.has(name) && predates(ks.redisVersion, '7.2')) throw new RejectedCommandError(ERR_NOT_ALLOWED_FROM_SCRIPT);
    // 7.2+: the script's time snapshot (commandTimeSnapshot); 7.0: the clock as the command runs
    // (mstime()), while keys still expire at the snapshot (lua_time_snapshot: the store's now)
    const now = supports(ks.redisVersion, 'timeFrozenInScripts') ? ks.now() : ks.liveNow();
    const ctx: CommandContext = { now, version: ks.redisVersion, db: conn.streamDb, canBlock: false, isRetry: false, inScript: true, clusterEnabled: conn.server.cluster !== null };
    called = true;
    const result = dispatch(ctx, argv);
    return isBlockRequest(result) ? NIL_ARRAY : result;
  }
  // Redis checks, in order: unknown command, arity, then the no-script flag (script.c scriptCall).
  const connSpec = CONNECTION_COMMANDS.get(name);
  if (connSpec) {
    if (specAbsent(conn, connSpec)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
    if (!arityOk(connSpec.arity, argv.length)) throw new RejectedCommandError(ERR_ARITY_FROM_SCRIPT);
    let run = connSpec.run;
    let noScript = connSpec.noScript;
    if (connSpec.subcommands) {
      // Redis looks a container's subcommand up with the command itself (argc >= 2)
      const sub = Object.prototype.hasOwnProperty.call(connSpec.subcommands, argv[1].toLowerCase()) ? connSpec.subcommands[argv[1].toLowerCase()] : undefined;
      if (!sub || predates(ks.redisVersion, sub.since)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
      if (!arityOk(sub.arity, argv.length)) throw new RejectedCommandError(ERR_ARITY_FROM_SCRIPT);
      run = sub.run;
      noScript ||= sub.noScript;
    }
    if (containerDeniedInScripts(ks.redisVersion, name, argv) ?? noScript) throw new RejectedCommandError(ERR_NOT_ALLOWED_FROM_SCRIPT);
    // the script's own database from here on; the caller's comes back when the script ends
    if (name === 'select') conn.dbBeforeScriptSelect ??= conn.keyspace.dbIndex;
    called = true;
    const out = run!(conn, argv);
    if (out instanceof Promise) throw new StreamsMockError(`${name} cannot run inside a script`);
    return out;
  }
  const arity = builtinArity(name);
  const arityWrong = arity !== undefined && !arityOk(arity, argv.length);
  const denied = containerDeniedInScripts(ks.redisVersion, name, argv);
  if (DENIED_IN_SCRIPTS.has(name) && denied !== false) throw new RejectedCommandError(arityWrong ? ERR_ARITY_FROM_SCRIPT : ERR_NOT_ALLOWED_FROM_SCRIPT);
  if (!hasBuiltin(conn, name)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
  if (arityWrong) throw new RejectedCommandError(ERR_ARITY_FROM_SCRIPT);
  if (denied === true) throw new RejectedCommandError(ERR_NOT_ALLOWED_FROM_SCRIPT);
  called = true;
  const out = runBuiltin(conn, name, argv);
  if (out instanceof Promise) throw new StreamsMockError(`${name} cannot run inside a script`);
  return out;
}

/** A script ended: its SELECT does not outlive it (Redis runs it on a client of its own). */
export function endScriptSelect(conn: Connection): void {
  if (conn.dbBeforeScriptSelect === null) return;
  conn.selectDb(conn.dbBeforeScriptSelect);
  conn.dbBeforeScriptSelect = null;
}
