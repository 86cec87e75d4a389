/**
 * The command table of the ioredis the project actually has installed.
 *
 * ioredis decides which arguments are keys (for `keyPrefix`, cluster slots) with its
 * `@ioredis/commands` package, and that table differs between ioredis releases: ioredis 6.0.0
 * (`@ioredis/commands` 2.0.0) has subcommand key positions (XGROUP CREATE key, XINFO STREAM key)
 * and XACKDEL; ioredis 5.11 (1.10.0) has XNACK and XDELEX but no subcommand keys; ioredis 5.0.0
 * takes whatever `^1.1.0` resolved to. So the fake resolves `@ioredis/commands` from the
 * project's ioredis (never from this package's dependencies) and prefixes exactly what that
 * ioredis would.
 *
 * Resolution: `ioredis/package.json` from this package (in a project: the project's ioredis, the
 * one a test mocks), then `@ioredis/commands` from that ioredis's folder. When no ioredis is
 * installed at all (it is a peer dependency, so npm normally installs it), the private ioredis 5
 * bundled for ioredis-mock stands in.
 */
import { basename, dirname } from 'path';
import { ioredisMissingError } from '../clock/clock';
import { readJsonFile, readPackageFile } from '../json-file';

export interface CommandTable {
  /** What the table belongs to, e.g. `ioredis 6.0.0 (@ioredis/commands 2.0.0)`. */
  readonly source: string;
  /** Version of the ioredis whose table this is. */
  readonly ioredisVersion: string;
  /** Version of its `@ioredis/commands`. */
  readonly commandsVersion: string;
  /** ioredis's command list (lowercase; subcommands as `name|sub`): every one is a client method. */
  readonly list: readonly string[];
  /** True when ioredis knows the command (case-insensitive): only those get their keys prefixed. */
  exists(name: string): boolean;
  /**
   * Indexes of the key arguments of `name` (case-insensitive) with arguments `args`, as ioredis
   * computes them. Throws when the table cannot parse the arguments.
   */
  keyIndexes(name: string, args: (string | Buffer)[]): number[];
}

interface CommandsModule {
  list: string[];
  exists(name: string, options?: { caseInsensitive?: boolean }): boolean;
  getKeyIndexes(name: string, args: (string | Buffer)[], options?: { nameCaseInsensitive?: boolean }): number[];
}

const RUNTIME = '@ioredis-mock-streams/mock-runtime';

/** The command table of the ioredis installed in the folder `ioredisDir` (its package root). */
export function commandTableAt(ioredisDir: string): CommandTable {
  const ioredisVersion = versionAt(`${ioredisDir}/package.json`);
  const commandsManifest = commandsManifestOf(ioredisDir);
  const commandsDir = dirname(commandsManifest);
  const commandsVersion = versionAt(commandsManifest);
  // The module loads on the first key-prefix lookup (only clients with `keyPrefix` need it); the
  // method list at install time is its data's keys (`list` is `Object.keys(commands.json)` in every
  // @ioredis/commands release), read without running the module.
  let mod: CommandsModule | undefined;
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const load = (): CommandsModule => (mod ??= require(commandsDir) as CommandsModule);
  let list: string[] | undefined;
  return {
    source: `ioredis ${ioredisVersion} (@ioredis/commands ${commandsVersion})`,
    ioredisVersion,
    commandsVersion,
    get list(): string[] {
      return (list ??= commandListAt(commandsDir) ?? load().list);
    },
    exists: (name) => load().exists(name, { caseInsensitive: true }),
    keyIndexes: (name, args) => load().getKeyIndexes(name, args, { nameCaseInsensitive: true }),
  };
}

/**
 * The manifest of the `@ioredis/commands` that ioredis in `ioredisDir` loads. Node looks in
 * `<ioredis>/node_modules` first, then in the `node_modules` holding ioredis (npm's hoisting,
 * pnpm's store layout): those two are tried with one `fs` check each before asking the resolver
 * (under jest a `require.resolve` with `paths` costs more than the rest of this table).
 */
function commandsManifestOf(ioredisDir: string): string {
  const parent = dirname(ioredisDir);
  const candidates = [`${ioredisDir}/node_modules/@ioredis/commands/package.json`];
  if (basename(parent) === 'node_modules') candidates.push(`${parent}/@ioredis/commands/package.json`);
  for (const file of candidates) if (readPackageFile(file) !== undefined) return file;
  return require.resolve('@ioredis/commands/package.json', { paths: [ioredisDir] });
}

/** The command names of the @ioredis/commands in `commandsDir` (its data's keys), if its data file is where every release has it. */
function commandListAt(commandsDir: string): string[] | undefined {
  const text = readPackageFile(`${commandsDir}/built/commands.json`);
  return text === undefined ? undefined : topLevelKeys(text);
}

/**
 * The keys of the JSON object `text`, in order. Every @ioredis/commands release writes its data
 * indented (one top-level key per line at the first key's indentation), so the keys are read
 * off those lines: a third of the cost of `JSON.parse` on ioredis 6's 100 KB table, paid by
 * every jest test file. Anything else is parsed.
 */
export function topLevelKeys(text: string): string[] {
  const indent = /^\{(\r?\n[ \t]+)"/.exec(text)?.[1];
  if (indent !== undefined) {
    // each `<newline><indent>"name":` (names without quotes or backslashes), found with indexOf
    const head = `${indent}"`;
    const keys: string[] = [];
    let plain = true;
    for (let at = text.indexOf(head); at !== -1 && plain; at = text.indexOf(head, at + head.length)) {
      const start = at + head.length;
      const end = text.indexOf('"', start);
      const name = end === -1 ? '\\' : text.slice(start, end);
      // anything unusual (an escape, no colon after the name): parse the whole text instead
      plain = !name.includes('\\') && text.charCodeAt(end + 1) === 58; /* : */
      keys.push(name);
    }
    if (plain && keys.length > 0) return keys;
  }
  return Object.keys(JSON.parse(text) as object);
}

/** Manifest versions read so far, by file (the command table and CLIENT SETINFO read the same one). */
const versions = new Map<string, string>();

/** The `version` of the package manifest at `file` (read with fs once: see json-file.ts). */
function versionAt(file: string): string {
  let version = versions.get(file);
  if (version === undefined) {
    version = String((readJsonFile(file) as { version?: unknown }).version);
    versions.set(file, version);
  }
  return version;
}

/** `require.resolve('ioredis/package.json')` once (a lookup through node_modules): the file, or the error. */
let projectManifest: { file: string } | { error: unknown } | undefined;
function projectManifestFile(): string {
  if (projectManifest === undefined) {
    try {
      projectManifest = { file: require.resolve('ioredis/package.json') };
    } catch (error) {
      projectManifest = { error };
    }
  }
  if ('error' in projectManifest) throw projectManifest.error;
  return projectManifest.file;
}

/** Version of the project's ioredis (its manifest as `require('ioredis/package.json')` finds it); throws when none is installed. */
export function projectIoredisVersion(): string {
  return versionAt(projectManifestFile());
}

/**
 * Folder of the project's ioredis (the package's peer dependency). In this repository, without
 * one, the ioredis 5 nested in the dev dependency the runtime bundle is made from.
 * @throws StreamsMockError when the project has no ioredis
 */
export function installedIoredisDir(): string {
  try {
    return dirname(projectManifestFile());
  } catch {
    try {
      return devRuntimeIoredisDir();
    } catch {
      throw ioredisMissingError();
    }
  }
}

/** In this repository: the folder of the ioredis 5 nested in the runtime's dev dependency. */
function devRuntimeIoredisDir(): string {
  const runtimeDir = dirname(require.resolve(`${RUNTIME}/package.json`));
  return dirname(require.resolve('ioredis/package.json', { paths: [runtimeDir] }));
}

let current: CommandTable | undefined;

/** The table of the installed ioredis (loaded once). */
export function commandTable(): CommandTable {
  current ??= commandTableAt(installedIoredisDir());
  return current;
}

/**
 * Use another table (tests compare the fake with each ioredis major in one process).
 * `undefined` goes back to the installed ioredis's table.
 */
export function useCommandTable(table: CommandTable | undefined): void {
  current = table;
  ioredisMajorKnown = 0;
}

/**
 * `installedIoredisMajor()` once it has been asked (0 before, and after `useCommandTable`): read
 * as a variable on the per-command path, no call.
 */
export let ioredisMajorKnown: 5 | 6 | 0 = 0;

/** Major version of the installed ioredis (6 for 6.x and later, else 5). */
export function installedIoredisMajor(): 5 | 6 {
  const table = commandTable();
  if (majorOf?.table !== table) majorOf = { table, major: Number(table.ioredisVersion.split('.')[0]) >= 6 ? 6 : 5 };
  if (table === current) ioredisMajorKnown = majorOf.major;
  return majorOf.major;
}
let majorOf: { table: CommandTable; major: 5 | 6 } | undefined;

/**
 * Whether the installed ioredis is `major`.`minor` or later (e.g. 6.1, whose Command applies the
 * RESP3 pair / stream-read / VSIM reply transformers to any casing of the name, adds the
 * CLIENT MAINT_NOTIFICATIONS handshake and redacts credentials in `err.command.args`).
 */
export function installedIoredisAtLeast(major: number, minor: number): boolean {
  const table = commandTable();
  if (atLeastOf?.table !== table) {
    const [ma, mi] = table.ioredisVersion.split('.').map(Number);
    atLeastOf = { table, version: [ma || 0, mi || 0] };
  }
  const [ma, mi] = atLeastOf.version;
  return ma > major || (ma === major && mi >= minor);
}
let atLeastOf: { table: CommandTable; version: [number, number] } | undefined;

/**
 * The `built/Command` module of the private ioredis 5 that ioredis-mock runs on, for the
 * argument and reply transformers ioredis-mock applies (ioredis 6's need a protocol context
 * ioredis-mock does not pass): on the class of the package's runtime bundle
 * (scripts/bundle-runtime.js); in this repository before a build, from the dev dependency the
 * bundle is made from.
 */
export function privateIoredisModule<T>(subpath: 'built/Command'): T {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const runtime = require('@ioredis-mock-streams/mock-runtime') as Record<string, unknown>;
  const bundled = runtime.__ioredisMockStreamsPrivateCommand;
  if (bundled !== undefined) return bundled as T;
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  return require(`${devRuntimeIoredisDir()}/${subpath}`) as T;
}
