/**
 * CONFIG GET parameter [parameter ...]
 * CONFIG SET parameter value [parameter value ...]
 * CONFIG RESETSTAT
 * CONFIG REWRITE
 * CONFIG HELP
 *
 * The keyspace's configuration (config.c `configGetCommand` / `configSetCommand`; several
 * parameters per call since 7.0). The parameter table and what each parameter does in the fake
 * are in lib/config/params.ts: `stream-node-max-entries` and `stream-node-max-bytes` drive
 * macro-node splitting and the default `~` trim limit, `rdbcompression` drives DUMP's LZF; the
 * other known parameters are validated, normalised and stored only.
 * GET reply: a map (RESP2: the flat array `[name, value, …]`); an exact name answers with the name
 * as given, a glob pattern with every matching parameter and alias; order unspecified in Redis.
 * SET is atomic (nothing changes when any pair fails) and replies `+OK`.
 * Errors: `ERR Unknown option or number of arguments for CONFIG SET - '<name>'`, `ERR CONFIG SET
 * failed (possibly related to argument '<name>') - <reason>` (immutable, protected, duplicate,
 * bad value: texts per parameter type), `ERR syntax error` for an odd SET argument count,
 * REWRITE: `ERR The server is running without a config file`. Not allowed in scripts.
 */
import { StreamsMockError } from '../clock/clock';
import { ConfigSetError, ServerConfig } from '../config/server-config';
import { CommandError, ERR_SYNTAX, fail } from '../errors';
import { MapReply, OK } from '../reply/reply';
import { helpReply } from './xgroup';
import type { CommandContext, CommandHandler, CommandSpec, Reply } from './types';

const CONFIG_HELP = [
  'GET <pattern>',
  '    Return parameters matching the glob-like <pattern> and their values.',
  'SET <directive> <value>',
  '    Set the configuration <directive> to <value>.',
  'RESETSTAT',
  '    Reset statistics reported by the INFO command.',
  'REWRITE',
  '    Rewrite the configuration file.',
];

function configOf(ctx: CommandContext): ServerConfig {
  const config = ctx.db.config;
  if (!config) throw new StreamsMockError('CONFIG needs a keyspace configuration, which this front end does not provide');
  return config;
}

const get: CommandHandler = (ctx, argv) => {
  const pairs = configOf(ctx).getMatching(argv.slice(2), ctx.version);
  const nodePort = ctx.db.nodePort;
  // each cluster node answers its own port (the masters share the rest of the configuration)
  if (nodePort !== undefined) for (const pair of pairs) if (pair[0].toLowerCase() === 'port') pair[1] = String(nodePort);
  return new MapReply(pairs.flat());
};

const set: CommandHandler = (ctx, argv): Reply => {
  if (argv.length % 2 === 1) fail(ERR_SYNTAX);
  const pairs: [string, string][] = [];
  for (let i = 2; i < argv.length; i += 2) pairs.push([argv[i], argv[i + 1]]);
  try {
    configOf(ctx).set(pairs, ctx.version);
  } catch (err) {
    if (err instanceof ConfigSetError) throw new CommandError(err.message);
    throw err;
  }
  return OK;
};

const resetstat: CommandHandler = (ctx) => {
  ctx.db.resetStats?.();
  return OK;
};

const rewrite: CommandHandler = () => fail('ERR The server is running without a config file');

const help: CommandHandler = (ctx) => helpReply('CONFIG', CONFIG_HELP, ctx.version);

export const specs: CommandSpec[] = [
  {
    name: 'config',
    arity: -2,
    write: false,
    subcommands: {
      get: { arity: -3, run: get },
      set: { arity: -4, run: set },
      resetstat: { arity: 2, run: resetstat },
      rewrite: { arity: 2, run: rewrite },
      help: { arity: 2, run: help },
    },
  },
];
