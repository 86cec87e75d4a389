/**
 * Redis's command table as ioredis ships it: the data file of this package's own
 * `@ioredis/commands` dependency (arity, flags and key positions of every command of the Redis
 * release it was generated from). Read on first use with one `fs` read: under jest a `require`
 * of a data file goes through jest's module registry again in every test file.
 */
import { readJsonFile, readPackageFile } from '../json-file';
import { type RedisVersion, predates } from '../version';

/** One command of the table (arity as Redis's COMMAND INFO gives it: negative = at least). */
export interface CommandData {
  readonly arity: number;
  readonly flags: readonly string[];
  readonly keyStart: number;
  readonly keyStop: number;
  readonly step: number;
}

let table: Record<string, CommandData | undefined> | undefined;
let tableText: string | null | undefined;
const entries = new Map<string, CommandData | undefined>();

function tableFile(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require.resolve('@ioredis/commands/built/commands.json');
}

/** The whole table, by lower-case command name (read once). */
export function commandData(): Record<string, CommandData | undefined> {
  return (table ??= readJsonFile(tableFile()) as Record<string, CommandData | undefined>);
}

/**
 * The entry of lower-case command `name`, or undefined when the table does not know it. Only
 * that entry is parsed (cached): the file is written with one top-level key per line at four
 * spaces, each entry closing at the same indentation (checked against `JSON.parse` of the whole
 * file in __tests__/adapter/command-table.test.ts). The first built-in command of every jest test
 * file needs an arity, and parsing the whole 45 KB table for it cost more than the rest of its work.
 */
export function commandSpec(name: string): CommandData | undefined {
  if (table !== undefined) return commandSpecOf(table, name);
  let spec = entries.get(name);
  if (spec === undefined && !entries.has(name)) {
    if (tableText === undefined) tableText = readPackageFile(tableFile()) ?? null;
    if (tableText === null) return commandSpecOf(commandData(), name); // fs mocked by a test
    const head = `\n    ${JSON.stringify(name)}: {`;
    const at = tableText.indexOf(head);
    if (at !== -1) {
      const start = at + head.length - 1;
      const end = tableText.indexOf('\n    }', start);
      spec = JSON.parse(tableText.slice(start, end + 6)) as CommandData;
    }
    entries.set(name, spec);
  }
  return spec;
}

function commandSpecOf(t: Record<string, CommandData | undefined>, name: string): CommandData | undefined {
  return Object.prototype.hasOwnProperty.call(t, name) ? t[name] : undefined;
}

/**
 * Arities that changed between the emulated versions: before `until` the command had `arity`
 * (ZRANK/ZREVRANK took no WITHSCORE before 7.2: redis-server 7.0.15's COMMAND INFO gives 3, and
 * MULTI refuses `ZRANK k m WITHSCORE` at queue time with the arity error).
 */
const ARITY_BEFORE: Record<string, { until: RedisVersion; arity: number }> = {
  zrank: { until: '7.2', arity: 3 },
  zrevrank: { until: '7.2', arity: 3 },
};

/** The arity lower-case command `name` had in `version` when it differs from today's, else undefined. */
export function olderArity(name: string, version: RedisVersion): number | undefined {
  const old = Object.prototype.hasOwnProperty.call(ARITY_BEFORE, name) ? ARITY_BEFORE[name] : undefined;
  return old !== undefined && predates(version, old.until) ? old.arity : undefined;
}
