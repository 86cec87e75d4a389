/**
 * ioredis-mock's command emulators: the plain functions behind its methods (GET, HSET, LPUSH …),
 * each run with `this` = an object shaped like an ioredis-mock instance (`data`, `expires`,
 * `channels`, `patternChannels` …). ioredis-mock keeps them in a module-private table; its
 * `Pipeline.prototype.copyCommands` hands every entry to `this._createCommand(name, fn)`, so a
 * stand-in `this` collects them once per ioredis-mock class, without creating an instance.
 *
 * The table holds every export: commands (`get`), their Buffer variants (`getBuffer`) and
 * helpers (`defineCommand`, `connect`, `evaluate`…); `commandEmulators()` keeps the commands.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Emulator = (this: any, ...args: any[]) => unknown;
export type EmulatorTable = Readonly<Record<string, Emulator>>;

const tables = new WeakMap<object, EmulatorTable>();

/**
 * The emulators of an ioredis-mock class, found through its `Pipeline` (`RedisMock.Pipeline`).
 * Returns an empty table when the class has no such hook (then only the engine's own commands
 * and the stream commands exist).
 */
export function harvestEmulators(Pipeline: unknown): EmulatorTable {
  const proto = (Pipeline as { prototype?: { copyCommands?: unknown } } | undefined)?.prototype;
  const copy = proto?.copyCommands;
  if (typeof copy !== 'function') return Object.freeze(Object.create(null));
  let table = tables.get(Pipeline as object);
  if (!table) {
    const collected: Record<string, Emulator> = Object.create(null);
    copy.call({
      redis: { customCommands: {} },
      _createCommand: (name: string, fn: Emulator) => {
        if (typeof fn === 'function') collected[name] = fn;
      },
    });
    table = Object.freeze(collected);
    tables.set(Pipeline as object, table);
  }
  return table;
}

let installed: EmulatorTable | undefined;

/** The emulators of the installed ioredis-mock (loaded on first use). */
export function defaultEmulators(): EmulatorTable {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  installed ??= harvestEmulators((require('@ioredis-mock-streams/mock-runtime') as { Pipeline?: unknown }).Pipeline);
  return installed;
}

/** Entries of the table that are helpers, not Redis commands. */
const NOT_COMMANDS = new Set(['connect', 'evaluate', 'defineCommand']);

/** True when `name` (lower case) is a Redis command ioredis-mock emulates. */
export function isCommandEmulator(table: EmulatorTable, name: string): boolean {
  return name in table && !NOT_COMMANDS.has(name) && !name.endsWith('Buffer');
}
