/**
 * A connection's ACL checks (acl.c): AUTH against the server's users, processCommand's and
 * execCommand's permission checks, a script's redis.call check, each denial logged (ACL LOG).
 * The users and their rules are lib/engine/acl.ts.
 */
import { CommandError } from '../../errors';
import { RejectedCommandError } from '../../stats/command-stats';
import { lookupCommand } from '../../commands/dispatch';
import { predates } from '../../version';
import type { ConnectionCommandSpec } from '../command-types';
import { CONNECTION_COMMANDS } from '../commands/index';
import { ACL_DENIED_AUTH, ACL_OK, type AclLogEntry, aclErrorMessage, aclStateOf, checkCommand } from '../acl';
import type { Connection } from '../connection';
import { arityOk, commandFullName, hasBuiltin, lookedUpName, reject } from './dispatch';
import { builtinArity } from './builtin-host';

/** ACL LOG entry of a denial (loads the ACL command module, which owns the log's client info). */
function aclDeniedLog(conn: Connection, reason: number, context: AclLogEntry['context'], object: string, username: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../commands/acl') as typeof import('../commands/acl')).aclDeniedLog(conn, reason, context, object, username);
}

/**
 * Check AUTH/HELLO AUTH credentials (ACL users). Returns true when accepted; a refusal is logged
 * (ACL LOG): its object the command's name as typed (acl.c addACLLogEntry: c->argv[0]), its
 * context `multi` when EXEC runs it (CLIENT_MULTI is still set).
 */
export function authenticate(conn: Connection, username: string, password: string, command = 'AUTH'): boolean {
  const acl = aclStateOf(conn.server);
  const user = acl.users.get(username);
  if (user === undefined || !user.checkPassword(password)) {
    aclDeniedLog(conn, ACL_DENIED_AUTH, conn.multiQueue !== null || conn.execQueued !== null ? 'multi' : 'toplevel', command, username);
    return false;
  }
  conn.user = user;
  conn.authenticated = true;
  return true;
}

/**
 * processCommand's ACL check (argv past the unknown-command and arity checks): a denied command
 * is logged (ACL LOG) and refused with NOPERM; `inExec`: execCommand's re-check of a queued
 * command (its own text, the error in place).
 */
export function checkAcl(conn: Connection, name: string, argv: string[], spec: ConnectionCommandSpec | undefined, isStream: boolean, inExec: boolean): void {
  const full = inExec ? lookedUpName(conn, name, argv, spec, isStream ? lookupCommand(name) : undefined) : conn.lastCommand;
  if (full === 'NULL') return;
  const version = conn.keyspace.redisVersion;
  const verdict = checkCommand(conn.user, full, argv, version);
  if (verdict.result === ACL_OK) return;
  const object = verdict.index === 0 ? full : argv[verdict.index];
  aclDeniedLog(conn, verdict.result, inExec || conn.multiQueue !== null ? 'multi' : 'toplevel', object, conn.user.name);
  if (inExec) {
    const reason = verdict.result === 1 ? 'no permission to execute the command or subcommand' : verdict.result === 2 ? 'no permission to touch the specified keys' : 'no permission to access one of the channels used as arguments';
    throw new CommandError(`NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. This command is no longer allowed for the following reason: ${reason}`);
  }
  reject(conn, name, `NOPERM ${aclErrorMessage(version, verdict.result, conn.user, full, argv[verdict.index], false)}`);
}

/**
 * 7.2+: a blocked command re-executed because one of its keys was served goes through
 * processCommand again (server.c, CLIENT_REPROCESSING_COMMAND: only the lookup and arity checks
 * are skipped), so rules changed while it waited apply: a denied call is logged (ACL LOG,
 * toplevel) and answered NOPERM, a rejected call (INFO commandstats rejected_calls). 7.0 serves
 * it without a check (blocked.c serveClientBlockedOnList).
 */
export function checkAclOnReprocess(conn: Connection, argv: string[]): void {
  const version = conn.keyspace.redisVersion;
  if (predates(version, '7.2') || conn.user.unrestricted) return;
  const full = commandFullName(conn, String(argv[0]).toLowerCase(), argv);
  if (full === null) return;
  const verdict = checkCommand(conn.user, full, argv, version);
  if (verdict.result === ACL_OK) return;
  aclDeniedLog(conn, verdict.result, 'toplevel', verdict.index === 0 ? full : argv[verdict.index], conn.user.name);
  throw new RejectedCommandError(`NOPERM ${aclErrorMessage(version, verdict.result, conn.user, full, argv[verdict.index], false)}`);
}

/**
 * processCommand's ACL check of a command a front end runs itself (the ioredis front end's
 * SUBSCRIBE/PSUBSCRIBE/UNSUBSCRIBE/PUNSUBSCRIBE on ioredis-mock's channel tables): after the
 * arity check (a wrong arity is the command's own error), a denied command or channel is logged
 * (ACL LOG) and refused with NOPERM as checkAcl refuses it.
 */
export function checkBuiltinAcl(conn: Connection, name: string, argv: string[]): void {
  if (conn.user.unrestricted) return;
  const arity = builtinArity(name);
  if (arity !== undefined && !arityOk(arity, argv.length)) return;
  const full = commandFullName(conn, name, argv);
  if (full === null) return;
  const version = conn.keyspace.redisVersion;
  const verdict = checkCommand(conn.user, full, argv, version);
  if (verdict.result === ACL_OK) return;
  aclDeniedLog(conn, verdict.result, conn.multiQueue !== null ? 'multi' : 'toplevel', verdict.index === 0 ? full : argv[verdict.index], conn.user.name);
  reject(conn, name, `NOPERM ${aclErrorMessage(version, verdict.result, conn.user, full, argv[verdict.index], false)}`);
}

/** script.c scriptCall's ACL check of a redis.call (context `lua` in ACL LOG). */
export function checkScriptAcl(conn: Connection, name: string, argv: string[]): void {
  const full = commandFullName(conn, name, argv);
  if (full === null) return;
  const version = conn.keyspace.redisVersion;
  const verdict = checkCommand(conn.user, full, argv, version);
  if (verdict.result === ACL_OK) return;
  aclDeniedLog(conn, verdict.result, 'lua', verdict.index === 0 ? full : argv[verdict.index], conn.user.name);
  if (predates(version, '7.2')) {
    const what = verdict.result === 1 ? "can't run this command or subcommand" : verdict.result === 2 ? "can't access at least one of the keys mentioned in the command arguments" : "can't publish to the channel mentioned in the command";
    throw new RejectedCommandError(`ERR The user executing the script ${what}`);
  }
  throw new RejectedCommandError(`ERR ACL failure in script: ${aclErrorMessage(version, verdict.result, conn.user, full, argv[verdict.index], false)}`);
}

/**
 * Whether the connection's user may run argv (ACLCheckAllUserCommandPerm, arity not checked:
 * redis.acl_check_cmd), or null when no command of that name exists.
 */
export function aclAllows(conn: Connection, argv: string[]): boolean | null {
  const name = String(argv[0]).toLowerCase();
  const full = commandFullName(conn, name, argv);
  if (full === null || (!CONNECTION_COMMANDS.has(name) && lookupCommand(name) === undefined && !hasBuiltin(conn, name))) return null;
  return conn.user.unrestricted || checkCommand(conn.user, full, argv, conn.keyspace.redisVersion).result === ACL_OK;
}
