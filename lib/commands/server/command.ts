/**
 * COMMAND [COUNT | LIST | INFO [name ...] | DOCS [name ...] | GETKEYS … | HELP]
 *
 * Introspection of the commands this server answers. Entries come from Redis's command table
 * as ioredis ships it (`@ioredis/commands`: arity, flags, first/last key, step) plus the stream
 * commands newer than that table; an entry (COMMAND INFO, 7.0 layout) is
 * `[name, arity, flags, first-key, last-key, step, acl-categories, tips, key-specs, subcommands]`
 * with flags and categories as status strings. Flags follow the servers where ioredis's table
 * differs (FLAGS below); ACL categories are the engine's ACL table's (recorded from 7.0.15 and the
 * post-7.4 build: COMMAND's first seven fields equal both servers' for every command they share),
 * derived from the flags for a command that table lacks; tips, key specs, subcommands and the DOCS
 * maps are left empty, which clients (node-redis, redis-cli) accept. COUNT and LIST answer the command table of
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
  /** The ACL categories of a command (`@read`, `@string` …, Redis's order), null when unknown: else derived. */
  readonly categoriesOf?: (name: string) => readonly string[] | null;
}

type TableEntry = CommandData;

/**
 * Commands newer than ioredis's table: the stream commands of 8.2 (flags as the Redis docs list
 * them), the hash-field TTL commands of 7.4 and WAITAOF (COMMAND INFO of the post-7.4 build), and
 * 8.0's HGETDEL/HGETEX/HSETEX (their src/commands/*.json).
 */
const EXTRA: Record<string, TableEntry> = {
  hexpireat: { arity: -6, flags: ['write', 'denyoom', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hpexpireat: { arity: -6, flags: ['write', 'denyoom', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hpersist: { arity: -5, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  httl: { arity: -5, flags: ['readonly', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hpttl: { arity: -5, flags: ['readonly', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hexpiretime: { arity: -5, flags: ['readonly', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hpexpiretime: { arity: -5, flags: ['readonly', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hgetdel: { arity: -5, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hgetex: { arity: -5, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  hsetex: { arity: -6, flags: ['write', 'denyoom', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  waitaof: { arity: 4, flags: ['blocking'], keyStart: 0, keyStop: 0, step: 0 },
  xackdel: { arity: -6, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  xdelex: { arity: -5, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  xnack: { arity: -6, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  mockclock: { arity: -2, flags: ['fast'], keyStart: 0, keyStop: 0, step: 0 },
};

/**
 * Flags ioredis's table (generated from a 7.0-era Redis) gives differently from the servers:
 * `all` in every version (checked on 7.0.15 and the post-7.4 build), `since72` from 7.2 on (the
 * post-7.4 build's; 7.2 dropped `noscript` from the blocking commands and gave WAIT `blocking`).
 */
const FLAGS: Record<string, { all?: string[]; since72?: string[] }> = {
  echo: { all: ['loading', 'stale', 'fast'] },
  hexpire: { all: ['write', 'denyoom', 'fast'] },
  hpexpire: { all: ['write', 'denyoom', 'fast'] },
  blpop: { since72: ['write', 'blocking'] },
  brpop: { since72: ['write', 'blocking'] },
  bzpopmin: { since72: ['write', 'blocking', 'fast'] },
  bzpopmax: { since72: ['write', 'blocking', 'fast'] },
  brpoplpush: { since72: ['write', 'denyoom', 'blocking'] },
  blmove: { since72: ['write', 'denyoom', 'blocking'] },
  wait: { since72: ['blocking'] },
};

function flagsOf(name: string, version: RedisVersion, e: TableEntry): readonly string[] {
  const o = Object.prototype.hasOwnProperty.call(FLAGS, name) ? FLAGS[name] : undefined;
  if (o === undefined) return e.flags;
  if (o.since72 !== undefined && !predates(version, '7.2')) return o.since72;
  return o.all ?? e.flags;
}

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

function infoEntry(name: string, version: RedisVersion, categoriesOf?: CommandTableSource['categoriesOf']): Reply {
  const e = entryOf(name);
  if (!e) return null;
  // the ACL table's categories (acl.c, recorded from the servers), else derived from the flags
  const flags = flagsOf(name, version, e);
  const cats = (
    categoriesOf?.(name) ?? [flags.includes('write') ? '@write' : flags.includes('readonly') ? '@read' : null, `@${group(name)}`, flags.includes('fast') ? '@fast' : '@slow', flags.includes('blocking') ? '@blocking' : null]
  )
    .filter((c): c is string => c !== null)
    .map((c) => new SimpleString(c));
  return [
    name,
    olderArity(name, version) ?? COMMANDS.get(name)?.arity ?? e.arity, // ioredis's table is 7.0's (ZRANK: 3)
    new SetReply(flags.map((f) => new SimpleString(f))),
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
  if (argv.length === 1) return names.map((n) => infoEntry(n, source.version, source.categoriesOf));
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
      return asked.map((n) => (known.has(n) ? infoEntry(n, source.version, source.categoriesOf) : null));
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
