/**
 * FUNCTION LOAD [REPLACE] code / DELETE library / FLUSH [ASYNC|SYNC] / LIST [LIBRARYNAME pattern]
 * [WITHCODE] / STATS / DUMP / RESTORE payload [FLUSH|APPEND|REPLACE] / KILL / HELP, and FCALL /
 * FCALL_RO function numkeys key… arg… (functions.c, checked on redis-server 7.0.15 and the
 * post-7.4 build: same texts on both). Libraries are the server's (every connection and db of
 * host:port shares them; FLUSHALL keeps them); the Lua side is lib/scripting/functions.ts (loaded on the
 * first use), the registry and the DUMP payload lib/scripting/libraries.ts.
 *
 * Known differences: Redis lists libraries and a library's functions in its dict's order (a
 * hash order, random per process); here in load and registration order. LIBRARYNAME matches
 * without case as Redis does, by lower-casing both sides.
 */
import { CommandError, errSubcommandSyntax, errorTail } from '../../errors';
import { globMatch } from '../../bytes/glob';
import { MapReply, OK, type Reply, SetReply, SimpleString } from '../../reply/reply';
import { helpFooter, predates, RDB_FORMAT } from '../../version';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';
import { dumpLibraries, librariesOf, readDumpedLibraries } from '../../scripting/libraries';
import { lua } from './scripting';

const FUNCTION_HELP = [
  'FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'LOAD [REPLACE] <FUNCTION CODE>',
  '    Create a new library with the given library name and code.',
  'DELETE <LIBRARY NAME>',
  '    Delete the given library.',
  'LIST [LIBRARYNAME PATTERN] [WITHCODE]',
  '    Return general information on all the libraries:',
  '    * Library name',
  '    * The engine used to run the Library',
  '    * Functions list',
  '    * Library code (if WITHCODE is given)',
  '    It also possible to get only function that matches a pattern using LIBRARYNAME argument.',
  'STATS',
  '    Return information about the current function running:',
  '    * Function name',
  '    * Command used to run the function',
  '    * Duration in MS that the function is running',
  '    If no function is running, return nil',
  '    In addition, returns a list of available engines.',
  'KILL',
  '    Kill the current running function.',
  'FLUSH [ASYNC|SYNC]',
  '    Delete all the libraries.',
  '    When called without the optional mode argument, the behavior is determined by the',
  '    lazyfree-lazy-user-flush configuration directive. Valid modes are:',
  '    * ASYNC: Asynchronously flush the libraries.',
  '    * SYNC: Synchronously flush the libraries.',
  'DUMP',
  '    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command',
  'RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]',
  '    Restore the libraries represented by the given payload, it is possible to give a restore policy to',
  '    control how to handle existing libraries (default APPEND):',
  '    * FLUSH: delete all existing libraries.',
  '    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.',
  '    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old',
  '      libraries with the new libraries (notice that even on this option there is a chance of failure',
  '      in case of functions name collision with another library).',
];

function dirty(conn: Connection): void {
  conn.server.stats.addDirty(1);
}

function load(conn: Connection, argv: string[]): Reply {
  let replace = false;
  let pos = 2;
  while (pos < argv.length - 1) {
    const opt = argv[pos++];
    if (opt.toLowerCase() === 'replace') {
      replace = true;
      continue;
    }
    throw new CommandError(`ERR Unknown option given: ${errorTail(opt)}`);
  }
  if (pos >= argv.length) throw new CommandError('ERR Function code is missing');
  const name = lua().loadLibrary(conn, argv[pos], replace);
  dirty(conn);
  return name;
}

function list(conn: Connection, argv: string[]): Reply {
  let withCode = false;
  let pattern: string | null = null;
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i].toLowerCase();
    if (!withCode && arg === 'withcode') {
      withCode = true;
      continue;
    }
    if (pattern === null && arg === 'libraryname') {
      if (i >= argv.length - 1) throw new CommandError('ERR library name argument was not given');
      pattern = argv[++i];
      continue;
    }
    // cut at a NUL (%s); the post-7.4 build sends a CR/LF here unmapped (addReplyErrorSds), 7.0 trims/maps it
    throw new CommandError(`ERR Unknown argument ${errorTail(argv[i])}`);
  }
  const out: Reply[] = [];
  for (const lib of librariesOf(conn.server).libraries.values()) {
    if (pattern !== null && !globMatch(pattern.toLowerCase(), lib.name.toLowerCase())) continue;
    const functions = [...lib.functions.values()].map(
      (f) => new MapReply(['name', f.name, 'description', f.description, 'flags', new SetReply(f.flags.map((x) => new SimpleString(x)))]),
    );
    const items: Reply[] = ['library_name', lib.name, 'engine', lib.engine, 'functions', functions];
    if (withCode) items.push('library_code', lib.code);
    out.push(new MapReply(items));
  }
  return out;
}

function restore(conn: Connection, argv: string[]): Reply {
  if (argv.length > 4) throw new CommandError(errSubcommandSyntax(argv[1], 'function'));
  let policy: 'flush' | 'append' | 'replace' = 'append';
  if (argv.length === 4) {
    const p = argv[3].toLowerCase();
    if (p !== 'append' && p !== 'replace' && p !== 'flush') {
      throw new CommandError('ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.');
    }
    policy = p;
  }
  const codes = readDumpedLibraries(argv[2], RDB_FORMAT[conn.keyspace.redisVersion].rdbVersion);
  lua().restoreLibraries(conn, codes, policy);
  dirty(conn);
  return OK;
}

export const specs: readonly ConnectionCommandSpec[] = [
  { name: 'fcall', arity: -3, noScript: true, run: (conn, argv) => lua().fcallCommand(conn, argv, false) },
  { name: 'fcall_ro', arity: -3, noScript: true, run: (conn, argv) => lua().fcallCommand(conn, argv, true) },
  {
    name: 'function',
    arity: -2,
    noScript: true,
    subcommands: {
      load: { arity: -3, run: load },
      delete: {
        arity: 3,
        run(conn, argv) {
          lua().deleteLibrary(conn, argv[2]);
          dirty(conn);
          return OK;
        },
      },
      flush: {
        arity: -2,
        run(conn, argv) {
          if (argv.length > 3) throw new CommandError(errSubcommandSyntax(argv[1], 'function'));
          if (argv.length === 3 && !['sync', 'async'].includes(argv[2].toLowerCase())) {
            throw new CommandError('ERR FUNCTION FLUSH only supports SYNC|ASYNC option');
          }
          const libs = librariesOf(conn.server);
          const async = argv.length === 3 ? argv[2].toLowerCase() === 'async' : conn.server.config.get('lazyfree-lazy-user-flush') === 'yes';
          // lazyfree.c freeFunctionsAsync: more than LAZYFREE_THRESHOLD (64) functions are freed in
          // the background, counted in lazyfreed_objects (with the Lua engine from 7.4 on, which
          // an async flush rebuilds; not checked on 7.2)
          if (async && libs.functions.size > 64) {
            conn.server.stats.lazyfreedObjects += libs.functions.size + (predates(conn.keyspace.redisVersion, '7.4') ? 0 : 1);
          }
          if (libs.libraries.size > 0) lua().flushLibraries(conn);
          dirty(conn);
          return OK;
        },
      },
      list: { arity: -2, run: list },
      stats: { arity: 2, run: (conn) => lua().functionStats(conn) },
      dump: {
        arity: 2,
        run: (conn) =>
          dumpLibraries(librariesOf(conn.server).libraries.values(), RDB_FORMAT[conn.keyspace.redisVersion].rdbVersion, conn.server.config.rdbCompression),
      },
      restore: { arity: -3, run: restore },
      kill: { arity: 2, run: (conn) => lua().killScript(conn, false) },
      help: {
        arity: 2,
        run(conn) {
          const version = conn.keyspace.redisVersion;
          const footer = helpFooter(version);
          // 7.0.15 still names a "Library description", the post-7.4 build does not (7.2 not checked)
          const lines = predates(version, '7.2') ? [...FUNCTION_HELP.slice(0, 9), '    * Library description', ...FUNCTION_HELP.slice(9)] : FUNCTION_HELP;
          return [...lines, 'HELP', footer].map((l) => new SimpleString(l));
        },
      },
    },
  },
];
