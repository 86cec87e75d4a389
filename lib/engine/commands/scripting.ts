/**
 * EVAL script numkeys [key …] [arg …] / EVALSHA sha1 numkeys … — run a Lua script atomically
 * (lib/scripting, loaded on first use). SCRIPT LOAD script — cache it, answer its SHA1;
 * SCRIPT EXISTS sha1 … — 1/0 each; SCRIPT FLUSH [ASYNC|SYNC] — empty the cache; SCRIPT KILL —
 * "NOTBUSY No scripts in execution right now." (scripts here never run long). The cache is the
 * server's (every connection of host:port shares it), as in Redis.
 * Errors: "ERR Number of keys can't be greater than number of args", "ERR Number of keys
 * can't be negative", "NOSCRIPT No matching script. Please use EVAL." (eval.c, 7.0.15).
 * EVAL_RO/EVALSHA_RO run read-only (write commands refused; a shebang without no-writes refused).
 * SCRIPT DEBUG YES|SYNC|NO sets the connection's debug mode as Redis does (OK; "ERR SCRIPT DEBUG
 * must be called outside a pipeline" inside EXEC or behind replies not yet written; EVALSHA then
 * "ERR Please use EVAL instead of EVALSHA for debugging"), but Redis's Lua debugger (LDB, the
 * session an EVAL starts in debug mode) is not emulated: such an EVAL throws a StreamsMockError.
 * FUNCTION/FCALL: ./functions.ts.
 */
import { CommandError } from '../../errors';
import { OK, type Reply, SimpleString } from '../../reply/reply';
import { helpFooter } from '../../version';
import { StreamsMockError } from '../../clock/clock';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';

type LuaModule = typeof import('../../scripting/index');
let luaModule: LuaModule | undefined;
/** The Lua runner, loaded on the first script (its WebAssembly is compiled then, once per process). */
export function lua(): LuaModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (luaModule ??= require('../../scripting/index') as LuaModule);
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
  const footer = helpFooter(conn.keyspace.redisVersion);
  return [...SCRIPT_HELP, 'HELP', footer].map((l) => new SimpleString(l));
}

/**
 * EVAL's argv, unless the connection is in SCRIPT DEBUG mode: Redis would start its Lua debugger
 * (an interactive session over the connection), which the fake does not emulate.
 */
function notDebugging(conn: Connection, argv: string[]): string[] {
  if (conn.luaDebug !== 'no') {
    throw new StreamsMockError(`Redis's Lua debugger (SCRIPT DEBUG ${conn.luaDebug.toUpperCase()}, then EVAL) is not emulated: send SCRIPT DEBUG NO first, or debug the script against a real server`);
  }
  return argv;
}

/** EVALSHA's argv, or in SCRIPT DEBUG mode Redis's refusal (eval.c evalShaCommand: after the SHA's length). */
function notDebuggingSha(conn: Connection, argv: string[]): string[] {
  if (conn.luaDebug !== 'no' && argv[1].length === 40) throw new CommandError('ERR Please use EVAL instead of EVALSHA for debugging');
  return argv;
}

export const specs: readonly ConnectionCommandSpec[] = [
  { name: 'eval', arity: -3, noScript: true, run: (conn, argv) => lua().evalCommand(conn, notDebugging(conn, argv)) },
  { name: 'evalsha', arity: -3, noScript: true, run: (conn, argv) => lua().evalshaCommand(conn, notDebuggingSha(conn, argv)) },
  { name: 'eval_ro', arity: -3, noScript: true, run: (conn, argv) => lua().evalCommand(conn, notDebugging(conn, argv), true) },
  { name: 'evalsha_ro', arity: -3, noScript: true, run: (conn, argv) => lua().evalshaCommand(conn, notDebuggingSha(conn, argv), true) },
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
        run(conn, argv) {
          // eval.c scriptCommand: the pending replies first, then the mode
          if (conn.repliesPending || conn.execIndex >= 0) throw new CommandError('ERR SCRIPT DEBUG must be called outside a pipeline');
          const mode = argv[2].toLowerCase();
          if (mode !== 'no' && mode !== 'yes' && mode !== 'sync') throw new CommandError('ERR Use SCRIPT DEBUG YES/SYNC/NO');
          conn.luaDebug = mode;
          return OK;
        },
      },
      help: { arity: 2, run: (conn) => helpLines(conn) },
    },
  },
];

