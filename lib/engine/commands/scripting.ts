/**
 * EVAL script numkeys [key …] [arg …] / EVALSHA sha1 numkeys … — run a Lua script atomically
 * (lib/engine/lua.ts, loaded on first use). SCRIPT LOAD script — cache it, answer its SHA1;
 * SCRIPT EXISTS sha1 … — 1/0 each; SCRIPT FLUSH [ASYNC|SYNC] — empty the cache; SCRIPT KILL —
 * "NOTBUSY No scripts in execution right now." (scripts here never run long). The cache is the
 * server's (every connection of host:port shares it), as in Redis.
 * Errors: "ERR Number of keys can't be greater than number of args", "ERR Number of keys
 * can't be negative", "NOSCRIPT No matching script. Please use EVAL." (eval.c, 7.0.15).
 * EVAL_RO/EVALSHA_RO run read-only (write commands refused; a shebang without no-writes refused).
 * Not emulated: SCRIPT DEBUG. FUNCTION/FCALL: ./functions.ts.
 */
import { CommandError } from '../../errors';
import { OK, type Reply, SimpleString } from '../../reply/reply';
import { supports } from '../../version';
import { StreamsMockError } from '../../clock/clock';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';

type LuaModule = typeof import('../lua');
let luaModule: LuaModule | undefined;
/** The Lua runner, loaded on the first script (its WebAssembly is compiled then, once per process). */
export function lua(): LuaModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (luaModule ??= require('../lua') as LuaModule);
}

const SCRIPT_HELP = [
  'SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'DEBUG (YES|SYNC|NO)',
  '    Set the debug mode for subsequent scripts executed.',
  'EXISTS <sha1> [<sha1> ...]',
  '    Return information about the existence of the scripts in the script cache.',
  'FLUSH [ASYNC|SYNC]',
  '    Flush the Lua scripts cache. Very dangerous on replicas.',
  '    When called without the optional mode argument, the behavior is determined by the',
  '    lazyfree-lazy-user-flush configuration directive. Valid modes are:',
  '    * ASYNC: Asynchronously flush the scripts cache.',
  '    * SYNC: Synchronously flush the scripts cache.',
  'KILL',
  '    Kill the currently executing Lua script.',
  'LOAD <script>',
  '    Load a script into the scripts cache without executing it.',
];

function helpLines(conn: Connection): Reply {
  const footer = supports(conn.keyspace.redisVersion, 'helpPrintFooter') ? '    Print this help.' : '    Prints this help.';
  return [...SCRIPT_HELP, 'HELP', footer].map((l) => new SimpleString(l));
}

export const specs: readonly ConnectionCommandSpec[] = [
  { name: 'eval', arity: -3, noScript: true, run: (conn, argv) => lua().evalCommand(conn, argv) },
  { name: 'evalsha', arity: -3, noScript: true, run: (conn, argv) => lua().evalshaCommand(conn, argv) },
  { name: 'eval_ro', arity: -3, noScript: true, run: (conn, argv) => lua().evalCommand(conn, argv, true) },
  { name: 'evalsha_ro', arity: -3, noScript: true, run: (conn, argv) => lua().evalshaCommand(conn, argv, true) },
  {
    name: 'script',
    arity: -2,
    noScript: true,
    subcommands: {
      load: {
        arity: 3,
        run(conn, argv) {
          const sha = lua().loadScript(conn, argv[2]);
          conn.server.scripts.set(sha, argv[2]);
          return sha;
        },
      },
      exists: { arity: -3, run: (conn, argv) => argv.slice(2).map((sha) => (conn.server.scripts.has(sha.toLowerCase()) ? 1 : 0)) },
      flush: {
        arity: -2,
        run(conn, argv) {
          if (argv.length > 3 || (argv.length === 3 && !['async', 'sync'].includes(argv[2].toLowerCase()))) {
            throw new CommandError('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
          }
          conn.server.scripts.clear();
          luaModule?.resetScripting(conn.server);
          return OK;
        },
      },
      kill: {
        arity: 2,
        run(conn) {
          if (!luaModule) throw new CommandError('NOTBUSY No scripts in execution right now.');
          return luaModule.killScript(conn, true);
        },
      },
      debug: {
        arity: 3,
        run() {
          throw new StreamsMockError('SCRIPT DEBUG is not emulated');
        },
      },
      help: { arity: 2, run: (conn) => helpLines(conn) },
    },
  },
];

