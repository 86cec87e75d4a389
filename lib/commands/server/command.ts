/**
 * COMMAND [COUNT | LIST | INFO [name ...] | DOCS [name ...] | GETKEYS … | HELP]
 *
 * Introspection of the commands this server answers. COMMAND INFO and COMMAND DOCS entries
 * (tips, key specs, subcommands, summaries, arguments …) and COMMAND LIST are the real servers'
 * own, recorded by scripts/record-command-table.js (./command-table.ts): redis-server 7.0.15's in
 * 7.0 mode, the post-7.4 build's in 7.2 and later — the same bytes in RESP2 and RESP3 (maps and
 * sets under RESP3). A subcommand is looked up by its full name (`xinfo|groups`) as Redis does.
 * Only the commands the engine answers are described (COMMAND, COMMAND INFO's nil, DOCS leaves
 * the others out), and never one newer than the emulated version (lib/version.ts COMMAND_SINCE).
 *
 * The commands the engine answers that neither recorded server has (8.0's HGETDEL/HGETEX/HSETEX,
 * 8.2's XACKDEL/XDELEX, 8.8's XNACK, the fake's MOCKCLOCK) keep an entry built here (EXTRA below:
 * arity, flags, key positions; ACL categories from the engine's ACL table, else derived from the
 * flags; key specs from ./key-specs.ts, as Redis's json gives them; tips and subcommands empty); their DOCS come from ./command-docs-extra.ts
 * (XACKDEL, XDELEX, from Redis's src/commands json), the others have none (left out of DOCS).
 *
 * APPROXIMATIONS (not observable here): 7.2 and 7.4 modes answer the post-7.4 build's entries
 * (newer commands gated out); a real 7.2/7.4 may differ in tips, summaries, history or flags of
 * some commands. 8.x modes answer the post-7.4 build's entries too, without the commands and the
 * argument/history changes of 8.0+ the engine does not answer. Subcommands come in the order the
 * recorded server's dict gave them (a real server's order depends on its process: clients must
 * not rely on it). COMMAND LIST is sorted (a server's order is its dict's).
 *
 * COUNT and LIST: the recorded list of the emulated version with the commands the engine answers
 * beyond it (a newer version's, e.g. HGETDEL in 8.0 mode); the fake's own MOCKCLOCK is not a
 * Redis command. GETKEYS/GETKEYSANDFLAGS find keys as Redis does (./key-specs.ts).
 * Errors: `ERR unknown subcommand '…'. Try COMMAND HELP.`, `ERR wrong number of arguments for
 * 'command|count' command` (COUNT and HELP take no argument).
 */
import { ERR_SYNTAX, errUnknownSubcommand, fail } from '../../errors';
import { globMatch } from '../../bytes/glob';
import { MapReply, type Reply, SetReply, SimpleString, statusLines } from '../../reply/reply';
import { COMMAND_SINCE, helpFooter, predates, type RedisVersion, versionIndex } from '../../version';
import { getKeysReply, keySpecsReply } from './key-specs';
import { recordedDocs, recordedInfo, recordedList } from './command-table';
import { extraDocs } from './command-docs-extra';
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
  xcfgset: { arity: -2, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  // 8.4 (redis/docs data/commands_core.json; MSETEX's keys by its numkeys: movablekeys, no range)
  delex: { arity: -2, flags: ['write', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  digest: { arity: 2, flags: ['readonly', 'fast'], keyStart: 1, keyStop: 1, step: 1 },
  msetex: { arity: -4, flags: ['write', 'denyoom', 'movablekeys'], keyStart: 0, keyStop: 0, step: 0 },
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
    keySpecsReply(name),
    new SetReply([]),
  ];
}

/**
 * Every Redis command name the source answers (stream commands of its version included), sorted:
 * not the fake's own MOCKCLOCK, which COMMAND, COMMAND INFO/DOCS/COUNT/LIST never show (a
 * server's COMMAND replies stay those of a real server).
 */
export function commandNames(source: CommandTableSource): string[] {
  const v = versionIndex(source.version);
  const names = new Set(source.names.filter((n) => n !== 'mockclock' && entryOf(n) !== undefined));
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
  'GETKEYS <full-command>',
  '    Return the keys from a full Redis command.',
  'GETKEYSANDFLAGS <full-command>',
  '    Return the keys and the access flags from a full Redis command.',
  'HELP',
];

/**
 * COMMAND COUNT / LIST: the command table of the emulated version (recorded: ./command-table.ts),
 * with the commands the engine answers beyond it (a newer version's, e.g. HGETDEL in 8.0 mode);
 * the fake's own MOCKCLOCK is not a Redis command.
 */
function serverCommandNames(source: CommandTableSource, names: readonly string[], topLevel: boolean): string[] {
  const table = recordedList(source.version).filter((n) => !topLevel || !n.includes('|'));
  const known = new Set(table);
  return [...table, ...names.filter((n) => !known.has(n))].sort();
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

/**
 * Whether COMMAND INFO/DOCS describe `name`: a command the source answers, or a subcommand
 * (`container|sub`) of one (Redis looks both up: lookupCommandBySds).
 */
function answers(known: ReadonlySet<string>, name: string): boolean {
  const bar = name.indexOf('|');
  return bar < 0 ? known.has(name) : known.has(name.slice(0, bar));
}

/** Run COMMAND (argv[0] = 'command'). */
export function commandReply(argv: readonly string[], source: CommandTableSource): Reply {
  const names = commandNames(source);
  const info = (n: string) => recordedInfo(source.version, n) ?? infoEntry(n, source.version, source.categoriesOf);
  if (argv.length === 1) return names.map(info);
  const sub = argv[1].toLowerCase();
  switch (sub) {
    case 'count':
      if (argv.length === 2) return serverCommandNames(source, names, true).length;
      return fail(`ERR wrong number of arguments for 'command|count' command`); // arity 2
    case 'list':
      return commandList(argv, source, names);
    case 'info': {
      const known = new Set(names);
      const asked = argv.length === 2 ? names : argv.slice(2).map((n) => n.toLowerCase());
      return asked.map((n) => (answers(known, n) ? info(n) : null));
    }
    case 'docs': {
      const known = new Set(names);
      const asked = argv.length === 2 ? names : argv.slice(2).map((n) => n.toLowerCase());
      const out: Reply[] = [];
      for (const n of asked) {
        if (!answers(known, n)) continue;
        const docs = recordedDocs(source.version, n) ?? extraDocs(n);
        if (docs !== undefined) out.push(n, docs);
      }
      return new MapReply(out);
    }
    case 'help':
      // server.c commandHelpCommand + addReplyHelp's footer (`Prints this help.` before 7.2)
      if (argv.length === 2) return statusLines([...HELP, helpFooter(source.version)]);
      return fail(`ERR wrong number of arguments for 'command|help' command`); // arity 2
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
