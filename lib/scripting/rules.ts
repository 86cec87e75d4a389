/**
 * What `redis.call`/`redis.pcall` refuse, and with which texts (script.c `scriptCall`,
 * checked on redis-server 7.0.15; same in the 8.x sources).
 */
import { SetReply, SimpleString } from '../reply/reply';
import { recordedInfo } from '../commands/server/command-table';
import type { RedisVersion } from '../version';
export const ERR_UNKNOWN_FROM_SCRIPT = 'ERR Unknown Redis command called from script';
export const ERR_ARITY_FROM_SCRIPT = 'ERR Wrong number of args calling Redis command from script';
export const ERR_NOT_ALLOWED_FROM_SCRIPT = 'ERR This Redis command is not allowed from script';

/**
 * Commands ioredis-mock emulates (or names a script may try) that carry Redis's `noscript`
 * flag: refused with "This Redis command is not allowed from script" (each checked on
 * redis-server 7.0.15, EVAL/FCALL variants by their flag). The engine's own commands carry
 * the flag in their specs (`noScript`).
 */
export const DENIED_IN_SCRIPTS = new Set([
  'auth', 'bgrewriteaof', 'bgsave', 'client', 'config', 'discard', 'eval', 'eval_ro', 'evalsha',
  'evalsha_ro', 'exec', 'failover', 'fcall', 'fcall_ro', 'function', 'monitor', 'multi',
  'psubscribe', 'punsubscribe', 'quit', 'replconf', 'replicaof', 'role', 'save', 'script',
  'slaveof', 'ssubscribe', 'subscribe', 'sync', 'unsubscribe', 'unwatch', 'watch',
]);

/**
 * The containers whose subcommands carry their own `noscript` flag (script.c scriptCall checks
 * the flag of the command lookupCommand found: with two arguments or more, the subcommand):
 * `COMMAND INFO`, `CLIENT HELP`, `CONFIG HELP` … run in a script, `LATENCY LATEST`, `CLIENT ID` …
 * do not (checked on redis-server 7.0.15 and the post-7.4 build).
 */
const CONTAINERS = new Set(['acl', 'client', 'cluster', 'command', 'config', 'function', 'latency', 'memory', 'module', 'object', 'pubsub', 'script', 'slowlog', 'xgroup', 'xinfo']);

/**
 * Whether the container command `argv` (lower-case `name`) is refused in a script by the
 * `noscript` flag of the subcommand (or, with one argument, of the container) in the command
 * table of `version` as its server answers COMMAND INFO; undefined for other commands and
 * subcommands the table does not know (their own checks decide).
 */
export function containerDeniedInScripts(version: RedisVersion, name: string, argv: readonly string[]): boolean | undefined {
  if (!CONTAINERS.has(name)) return undefined;
  const info = recordedInfo(version, argv.length >= 2 ? `${name}|${argv[1].toLowerCase()}` : name);
  if (!Array.isArray(info)) return undefined;
  const flags = info[2];
  if (!(flags instanceof SetReply)) return undefined;
  return flags.items.some((f) => f instanceof SimpleString && f.value === 'noscript');
}
