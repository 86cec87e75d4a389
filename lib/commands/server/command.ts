/**
 * COMMAND [COUNT | LIST | INFO [name ...] | DOCS [name ...] | GETKEYS … | HELP]
 *
 * Introspection of the commands this server answers. Entries come from Redis's command table
 * as ioredis ships it (`@ioredis/commands`: arity, flags, first/last key, step) plus the stream
 * commands newer than that table; an entry (COMMAND INFO, 7.0 layout) is
 * `[name, arity, flags, first-key, last-key, step, acl-categories, tips, key-specs, subcommands]`
 * with flags and categories as status strings. ACL categories are derived (read/write, the
 * command's group, fast/slow, blocking); tips, key specs, subcommands and the DOCS maps are left
 * empty, which clients (node-redis, redis-cli) accept. COUNT and LIST answer the command table of
 * the emulated version (Redis's metadata, ./key-specs.ts, subcommands as `container|sub`) and
 * GETKEYS/GETKEYSANDFLAGS find keys as Redis does (./key-specs.ts).
 * Errors: `ERR unknown subcommand '…'. Try COMMAND HELP.`
 */
import { ERR_SYNTAX, errUnknownSubcommand, fail } from '../../errors';
import { globMatch } from '../../bytes/glob';
import { MapReply, type Reply, SetReply, SimpleString, statusLines } from '../../reply/reply';
import { COMMAND_SINCE, predates, type RedisVersion, versionIndex } from '../../version';
import { getKeysReply, redisCommandNames } from './key-specs';
import { COMMANDS } from '../index';
import { type CommandData, commandSpec, olderArity } from '../command-data';

/** The commands a server answers: names (lower case) beyond the stream family, and its version. */
export interface CommandTableSource {
  readonly version: RedisVersion;
  /** Non-stream command names the front end runs (the stream commands are added here). */
  readonly names: readonly string[];
  /** The commands and subcommands of ACL category `category` (ACL CAT), null for an unknown one. */
  readonly inCategory?: (category: string) => readonly string[] | null;
}

type TableEntry = CommandData;

/** Stream commands newer than ioredis's table (flags as the Redis docs list them). */
const EXTRA: Record<string, TableEntry> = {
  xackdel: { arity: -6, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  xdelex: { arity: -5, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  xnack: { arity: -6, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  mockclock: { arity: -2, flags: ['fast'], keyStart: 0, keyStop: 0, step: 0 },
};

function entryOf(name: string): TableEntry | undefined {
  return EXTRA[name] ?? commandSpec(name);
}

function group(name: string): string {
  if (name.startsWith('x')) return 'stream';
  if (/^(b?[lr]|l)(pop|push|range|index|len|set|rem|trim|insert|pos|move|mpop)|^brpoplpush|^rpoplpush|^blmove/.test(name)) return 'list';
  if (name.startsWith('h')) return 'hash';
  if (name.startsWith('z') || name.startsWith('bz')) return 'sortedset';
  if (name.startsWith('s') && ['sadd', 'srem', 'smembers', 'scard', 'sismember', 'smismember', 'spop', 'srandmember', 'smove', 'sinter', 'sinterstore', 'sunion', 'sunionstore', 'sdiff', 'sdiffstore', 'sscan', 'sintercard'].includes(name)) return 'set';
  return 'keyspace';
}

function infoEntry(name: string, version: RedisVersion): Reply {
  const e = entryOf(name);
  if (!e) return null;
  const cats = [e.flags.includes('write') ? '@write' : e.flags.includes('readonly') ? '@read' : null, `@${group(name)}`, e.flags.includes('fast') ? '@fast' : '@slow', e.flags.includes('blocking') ? '@blocking' : null]
    .filter((c): c is string => c !== null)
    .map((c) => new SimpleString(c));
  return [
    name,
    olderArity(name, version) ?? COMMANDS.get(name)?.arity ?? e.arity, // ioredis's table is 7.0's (ZRANK: 3)
    new SetReply(e.flags.map((f) => new SimpleString(f))),
    e.keyStart,
    e.keyStop,
    e.step,
    new SetReply(cats),
    new SetReply([]),
    [],
    [],
  ];
}

/** Every command name the source answers (stream commands of its version included), sorted. */
export function commandNames(source: CommandTableSource): string[] {
  const v = versionIndex(source.version);
  const names = new Set(source.names.filter((n) => entryOf(n) !== undefined));
  for (const name of COMMANDS.keys()) {
    const since = COMMAND_SINCE[name];
    if (!since || v >= versionIndex(since)) names.add(name);
  }
  return [...names].sort();
}

const HELP = [
  'COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  '(no subcommand)',
  '    Return details about all Redis commands.',
  'COUNT',
  '    Return the total number of commands in this Redis server.',
  'LIST',
  '    Return a list of all commands in this Redis server.',
  'INFO [<command-name> ...]',
  '    Return details about multiple Redis commands.',
  '    If no command names are given, documentation details for all',
  '    commands are returned.',
  'DOCS [<command-name> ...]',
  '    Return documentation details about multiple Redis commands.',
  '    If no command names are given, documentation details for all',
  '    commands are returned.',
  'HELP',
  '    Print this help.',
];

/**
 * COMMAND COUNT / LIST: the command table of the emulated version (Redis's, ./key-specs.ts),
 * with the commands the engine answers beyond it (a newer version's, e.g. HGETDEL in 8.0 mode);
 * the fake's own MOCKCLOCK is not a Redis command.
 */
function serverCommandNames(source: CommandTableSource, names: readonly string[], topLevel: boolean): string[] {
  const table = redisCommandNames(source.version, topLevel);
  const known = new Set(table);
  return [...table, ...names.filter((n) => !known.has(n) && n !== 'mockclock')].sort();
}

/**
 * COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern] (server.c
 * commandListCommand): FILTERBY and its two arguments, else (any other word, another count of
 * arguments, another filter type) a syntax error; the last FILTERBY wins. No modules: MODULE lists
 * nothing; an unknown category nothing; PATTERN matches the full names (`container|sub`) without
 * regard to case.
 */
function commandList(argv: readonly string[], source: CommandTableSource, names: readonly string[]): Reply {
  let filter: [string, string] | null = null;
  for (let i = 2; i < argv.length; i++) {
    const type = argv.length - 1 - i === 2 && argv[i].toLowerCase() === 'filterby' ? argv[i + 1].toLowerCase() : '';
    if (type !== 'module' && type !== 'aclcat' && type !== 'pattern') return fail(ERR_SYNTAX);
    filter = [type, argv[i + 2]];
    i += 2;
  }
  const all = serverCommandNames(source, names, false);
  if (filter === null) return all;
  const [type, arg] = filter;
  if (type === 'module') return [];
  if (type === 'aclcat') {
    const members = new Set(source.inCategory?.(arg.toLowerCase()) ?? []);
    return all.filter((n) => members.has(n));
  }
  const pattern = arg.toLowerCase();
  return all.filter((n) => globMatch(pattern, n));
}

/** Run COMMAND (argv[0] = 'command'). */
export function commandReply(argv: readonly string[], source: CommandTableSource): Reply {
  const names = commandNames(source);
  if (argv.length === 1) return names.map((n) => infoEntry(n, source.version));
  const sub = argv[1].toLowerCase();
  switch (sub) {
    case 'count':
      if (argv.length === 2) return serverCommandNames(source, names, true).length;
      break;
    case 'list':
      return commandList(argv, source, names);
    case 'info': {
      const known = new Set(names);
      const asked = argv.length === 2 ? names : argv.slice(2).map((n) => n.toLowerCase());
      return asked.map((n) => (known.has(n) ? infoEntry(n, source.version) : null));
    }
    case 'docs': {
      const known = new Set(names);
      const asked = argv.length === 2 ? names : argv.slice(2).map((n) => n.toLowerCase()).filter((n) => known.has(n));
      return new MapReply(asked.flatMap((n) => [n, new MapReply(['group', group(n)])]));
    }
    case 'help':
      if (argv.length === 2) return statusLines(HELP);
      break;
    case 'getkeys':
    case 'getkeysandflags':
      // arity -4 before 7.2 (a command and one argument at least), -3 since
      if (argv.length < (predates(source.version, '7.2') ? 4 : 3)) return fail(`ERR wrong number of arguments for 'command|${sub}' command`);
      return getKeysReply(argv, source.version, sub === 'getkeysandflags');
    default:
      break;
  }
  return fail(errUnknownSubcommand(argv[1], 'command'));
}
