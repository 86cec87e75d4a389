/**
 * Dispatch one command like Redis's `processCommand`: lookup, arity (command name included),
 * container subcommands (XGROUP/XINFO), and commands absent from the emulated version.
 */
import { errUnknownCommand, errUnknownSubcommand, errWrongArity, fail } from '../errors';
import { commandSince, predates } from '../version';
import { olderArity } from './command-data';
import { COMMANDS } from './index';
import type { CommandContext, CommandHandler, CommandResult, CommandSpec } from './types';
import type { RedisVersion } from '../version';

function arityOk(arity: number, argc: number): boolean {
  return arity >= 0 ? argc === arity : argc >= -arity;
}

/** The spec for `name` in this version, or undefined (then ioredis-mock's own command runs). */
export function lookupCommand(name: string): CommandSpec | undefined {
  return COMMANDS.get(name.toLowerCase());
}

/**
 * The checks Redis makes before running or queueing a command (lookup incl. the emulated
 * version, arity, subcommand): throws their CommandError, else returns the handler.
 */
export function dispatchCheckOnly(version: RedisVersion, argv: string[]): CommandHandler {
  // names usually arrive in lower case already (the client methods): look them up as they are first
  let name = argv[0];
  let spec = COMMANDS.get(name);
  if (!spec) {
    name = name.toLowerCase();
    spec = COMMANDS.get(name);
  }
  if (!spec || predates(version, commandSince(name))) {
    fail(errUnknownCommand(argv[0], argv.slice(1)));
  }
  if (!arityOk(olderArity(name, version) ?? spec.arity, argv.length)) fail(errWrongArity(name));
  if (spec.subcommands) {
    const sub = argv[1].toLowerCase();
    const subSpec = spec.subcommands[sub];
    if (!subSpec) fail(errUnknownSubcommand(argv[1], argv[0]));
    if (!arityOk(subSpec.arity, argv.length)) fail(errWrongArity(`${name}|${sub}`));
    return subSpec.run;
  }
  if (!spec.run) throw new Error(`command ${name} has no handler`);
  return spec.run;
}

/** Run argv (argv[0] = command name) against the context. Throws CommandError replies. */
export function dispatch(ctx: CommandContext, argv: string[]): CommandResult {
  return dispatchCheckOnly(ctx.version, argv)(ctx, argv);
}

