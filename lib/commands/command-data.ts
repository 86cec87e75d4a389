/**
 * Redis's command table as ioredis ships it: the data file of this package's own
 * `@ioredis/commands` dependency (arity, flags and key positions of every command of the Redis
 * release it was generated from). Read on first use with one `fs` read: under jest a `require`
 * of a data file goes through jest's module registry again in every test file.
 */
import { readJsonFile } from '../json-file';

/** One command of the table (arity as Redis's COMMAND INFO gives it: negative = at least). */
export interface CommandData {
  readonly arity: number;
  readonly flags: readonly string[];
  readonly keyStart: number;
  readonly keyStop: number;
  readonly step: number;
}

let table: Record<string, CommandData | undefined> | undefined;

/** The whole table, by lower-case command name (read once). */
export function commandData(): Record<string, CommandData | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (table ??= readJsonFile(require.resolve('@ioredis/commands/built/commands.json')) as Record<string, CommandData | undefined>);
}

/** The entry of lower-case command `name`, or undefined when the table does not know it. */
export function commandSpec(name: string): CommandData | undefined {
  const t = commandData();
  return Object.prototype.hasOwnProperty.call(t, name) ? t[name] : undefined;
}
