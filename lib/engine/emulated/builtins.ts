/**
 * What the adapter adds around the ioredis-mock commands the engine does not own (`runBuiltin`,
 * used by methods, pipelines/MULTI and Lua alike). Every command of the data families is an
 * engine command now (lib/commands); what is left here are the few server commands ioredis-mock
 * answers (ROLE, LOLWUT, READONLY, REPLICAOF …), none of which takes a key:
 * - they run on the keyspace clock: `Date.now()` is pointed at the keyspace clock for the
 *   synchronous duration of the command (not needed for the global clock, which is Date);
 * - Redis's arity check (ioredis-mock ignores extra or missing arguments);
 * - its errors as error replies (CommandError) with Redis's texts, or StreamsMockErrors
 *   (./builtin-errors.ts).
 */
import { commandSpec } from '../../commands/command-data';
import { CommandError } from '../../errors';
import type { Keyspace } from '../../keyspace/keyspace';
import { flattenArgs } from '../../bytes/index';
import { builtinError } from './builtin-errors';

/** Run `fn` with `Date.now()` answering the keyspace time (for ioredis-mock's TTL arithmetic). */
export function withKeyspaceTime<T>(ks: Keyspace, fn: () => T): T {
  if (ks.clock.kind === 'global') return fn();
  const DateCtor = globalThis.Date;
  const original = DateCtor.now;
  DateCtor.now = () => ks.now();
  try {
    return fn();
  } finally {
    DateCtor.now = original;
  }
}

/** Lower-case command name without the `Buffer` suffix (memoised: called per command). */
const baseNames = new Map<string, string>();
function baseName(command: string): string {
  let name = baseNames.get(command);
  if (name === undefined) {
    name = command.replace(/Buffer$/, '').toLowerCase();
    baseNames.set(command, name);
  }
  return name;
}

/** The arity of Redis's command table, which ioredis-mock does not check. `flat`: the flattened arguments. */
function checkArity(name: string, flat: readonly unknown[]): void {
  const spec = commandSpec(name);
  if (!spec) return;
  const argc = flat.length + 1;
  if (spec.arity >= 0 ? argc !== spec.arity : argc < -spec.arity) throw new CommandError(`ERR wrong number of arguments for '${name}' command`);
}

/**
 * Run one of ioredis-mock's commands the way Redis would: `invoke(args)` calls the emulator
 * (an instance method, a pipeline emulator or the script table's function) and may return a
 * value or a promise. Arity check first, on the keyspace clock, errors as
 * CommandError/StreamsMockError — thrown for a synchronous failure, a rejection for an
 * asynchronous one.
 */
export function runBuiltin(ks: Keyspace, command: string, args: unknown[], invoke: (args: unknown[]) => unknown): unknown {
  const name = baseName(command);
  let out: unknown;
  try {
    out = withKeyspaceTime(ks, () => {
      checkArity(name, flattenArgs(args));
      return invoke(args);
    });
  } catch (err) {
    throw builtinError(err, command);
  }
  if (out instanceof Promise) return out.catch((err: unknown) => Promise.reject(builtinError(err, command)));
  return out;
}
