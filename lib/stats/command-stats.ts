/**
 * Helpers the engine uses to keep INFO's statistics (lib/stats/server-stats.ts):
 * - `RejectedCommandError`: an error reply given before the command ran (unknown subcommand,
 *   arity, NOAUTH, MULTI queue-time errors) — INFO commandstats counts it in `rejected_calls`,
 *   every other error reply of a known command in `failed_calls`;
 * - `commandStatsName`: Redis's full command name (`xgroup|create`, `client|list`, `get`);
 * - `dirtyOfBuiltin`: the `server.dirty` increment of one of ioredis-mock's commands, from the
 *   number of key writes it made — or, for the commands Redis counts per argument (LPUSH: one
 *   per element pushed, HSET: one per field, MSET: one per key), from its arguments.
 */
import { CommandError } from '../errors';

/** An error reply given before the command ran (INFO `rejected_calls`). */
export class RejectedCommandError extends CommandError {}

/**
 * An error reply whose errorstats were counted already (networking.c ERR_REPLY_FLAG_NO_STATS_UPDATE):
 * a script's reply that is the error of a command it called (the `ignore_error_stats_update` of
 * script_lua.c). The command still counts as failed.
 */
export class NoStatsCommandError extends CommandError {}

/** ioredis-mock commands with subcommands (their stats name is `name|sub`). */
const BUILTIN_CONTAINERS = new Set(['object', 'pubsub', 'memory', 'cluster', 'latency', 'slowlog', 'acl', 'module']);

/** Redis's full command name of argv for commandstats. */
export function commandStatsName(argv: readonly string[], container: boolean): string {
  const name = String(argv[0]).toLowerCase();
  if ((container || BUILTIN_CONTAINERS.has(name)) && argv.length > 1) return `${name}|${String(argv[1]).toLowerCase()}`;
  return name;
}

/** Commands whose dirty increment follows their arguments (argc includes the name). */
const DIRTY_BY_ARGUMENTS: Readonly<Record<string, (argc: number) => number>> = {
  lpush: (argc) => argc - 2,
  rpush: (argc) => argc - 2,
  lpushx: (argc) => argc - 2,
  rpushx: (argc) => argc - 2,
  hset: (argc) => (argc - 2) / 2,
  hmset: (argc) => (argc - 2) / 2,
  mset: (argc) => (argc - 1) / 2,
  msetnx: (argc) => (argc - 1) / 2,
};

/** The dirty increment of ioredis-mock command `name` that wrote `writes` times. */
export function dirtyOfBuiltin(name: string, argc: number, writes: number): number {
  if (writes <= 0) return 0;
  const byArgs = DIRTY_BY_ARGUMENTS[name];
  return byArgs ? byArgs(argc) : writes;
}
