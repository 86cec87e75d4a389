/**
 * The shape of the engine's own command modules: commands that act on the connection (MULTI,
 * EXEC, WATCH, QUIT, SELECT, HELLO, AUTH, CLIENT …) or on the server (EVAL, SCRIPT), as
 * opposed to the stream commands (lib/commands, which see only a `Db`) and ioredis-mock's
 * built-ins. Each module exports `specs: ConnectionCommandSpec[]`; lib/engine/commands/index.ts
 * lists them (add a module there to add commands every front end then has).
 */
import type { Reply } from '../reply/reply';
import type { RedisVersion } from '../version';
import type { Connection } from './connection';

/**
 * Runs a command on a connection: argv[0] is the name as sent, every element a byte string.
 * Returns the typed reply (or a promise of it); throws `CommandError` for error replies.
 */
export type ConnectionHandler = (conn: Connection, argv: string[]) => Reply | Promise<Reply>;

/** The settings that allow Redis's PROTECTED commands (`no`, `yes` or `local`; immutable). */
export type ProtectingSetting = 'enable-debug-command' | 'enable-module-command';

export interface ConnectionSubcommand {
  /** Redis arity of `container|sub` (command name and subcommand included). */
  readonly arity: number;
  /** First version that has the subcommand (older: unknown subcommand). */
  readonly since?: RedisVersion;
  /** Redis's `noscript` flag on the subcommand (CLUSTER RESET): refused inside scripts. */
  readonly noScript?: boolean;
  /** Redis's `protected` flag (MODULE LOAD): refused before running while this setting is `no`. */
  readonly protectedBy?: ProtectingSetting;
  readonly run: ConnectionHandler;
}

export interface ConnectionCommandSpec {
  /** Lower-case name. */
  readonly name: string;
  /** Redis arity: positive = exact, negative = at least |arity| (name included). */
  readonly arity: number;
  /** Redis `no-auth`: allowed before AUTH (AUTH, HELLO, QUIT, RESET). */
  readonly noAuth?: boolean;
  /** Runs at once inside MULTI instead of being queued (EXEC, DISCARD, MULTI, WATCH, QUIT, RESET). */
  readonly immediate?: boolean;
  /** Redis `noscript`: refused from Lua (`redis.call`). */
  readonly noScript?: boolean;
  /** First version that has the command. */
  readonly since?: RedisVersion;
  /** False where the server does not have the command (an unknown command before any other check): MOCKCLOCK without `clockCommand`. */
  readonly available?: (conn: Connection) => boolean;
  /** Redis's `protected` flag (DEBUG): refused before running while this setting is `no`. */
  readonly protectedBy?: ProtectingSetting;
  readonly run?: ConnectionHandler;
  /** Container commands (CLIENT, SCRIPT): lower-case subcommand → spec. */
  readonly subcommands?: Readonly<Record<string, ConnectionSubcommand>>;
}
