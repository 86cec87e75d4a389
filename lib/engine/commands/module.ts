/**
 * MODULE (module.c moduleCommand) as a server without modules answers it. The fake loads no
 * module, and `enable-module-command` is `no` by default (Redis 7.0+: an immutable setting, only
 * in the configuration file), so:
 *
 * MODULE LIST — `[]` (no module loaded). MODULE HELP — the subcommand list ("Prints" → "Print
 * this help." in 7.2). MODULE LOAD path [arg …], LOADEX path […], UNLOAD name (PROTECTED
 * commands) — "ERR MODULE command not allowed. If the enable-module-command option is set to
 * "local", …", refused by the dispatcher right after the arity check as processCommand does
 * (inside MULTI at queue time: EXECABORT); on a server started with `enable-module-command yes`
 * or `local`, LOAD/LOADEX answer "ERR Error loading the extension. Please check the server
 * logs." (nothing can be loaded) and UNLOAD "ERR Error unloading module: no such module with
 * that name". Arity and unknown subcommands are the dispatcher's (`module|load` needs a path).
 * LIST, LOAD, LOADEX and UNLOAD are `noscript`; HELP runs in scripts. Texts checked on
 * redis-server 7.0.15 and the post-7.4 build.
 */
import { CommandError } from '../../errors';
import { type Reply, SimpleString } from '../../reply/reply';
import { helpFooter } from '../../version';
import type { ConnectionCommandSpec } from '../command-types';

const HELP = [
  'MODULE <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'LIST',
  '    Return a list of loaded modules.',
  'LOAD <path> [<arg> ...]',
  '    Load a module library from <path>, passing to it any optional arguments.',
  'LOADEX <path> [[CONFIG NAME VALUE] [CONFIG NAME VALUE]] [ARGS ...]',
  '    Load a module library from <path>, while passing it module configurations and optional arguments.',
  'UNLOAD <name>',
  '    Unload a module.',
  'HELP',
];

/** Allowed (the dispatcher refuses it while `enable-module-command` is `no`), but nothing loads. */
function load(): Reply {
  throw new CommandError('ERR Error loading the extension. Please check the server logs.');
}

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'module',
    arity: -2,
    subcommands: {
      help: {
        arity: 2,
        run: (conn) => [...HELP, helpFooter(conn.keyspace.redisVersion)].map((l) => new SimpleString(l)),
      },
      list: { arity: 2, noScript: true, run: () => [] },
      load: { arity: -3, noScript: true, protectedBy: 'enable-module-command', run: load },
      loadex: { arity: -3, noScript: true, protectedBy: 'enable-module-command', run: load },
      unload: {
        arity: 3,
        noScript: true,
        protectedBy: 'enable-module-command',
        run(): Reply {
          throw new CommandError('ERR Error unloading module: no such module with that name');
        },
      },
    },
  },
];
