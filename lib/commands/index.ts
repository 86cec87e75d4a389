/**
 * The command registry, kept as data: every command as `{ name, arity, write }` with
 * Redis's arity convention, and the module that implements it. The adapter registers each entry
 * (and its `…Buffer` twin) from this table alone.
 *
 * A command module loads on the first use of its command (its `run`/`subcommands`), not when
 * the package is imported: a test file pays only for the commands it runs. The name, arity and
 * write flag written here must equal the module's own `specs` (a test checks that).
 */
import type { CommandSpec } from './types';
import { lazySpec } from './lazy-spec';

/** What every command module exports. */
export interface CommandModule {
  readonly specs: readonly CommandSpec[];
}

/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading: each module on first use */
const TABLE: [name: string, arity: number, write: boolean, load: () => CommandModule][] = [
  ['xadd', -5, true, () => require('./xadd')],
  ['xtrim', -4, true, () => require('./xtrim')],
  ['xdel', -3, true, () => require('./xdel')],
  ['xlen', 2, false, () => require('./xlen')],
  ['xrange', -4, false, () => require('./xrange')],
  ['xrevrange', -4, false, () => require('./xrange')],
  ['xsetid', -3, true, () => require('./xsetid')],
  ['xdelex', -5, true, () => require('./xdelex')],
  ['xgroup', -2, true, () => require('./xgroup')],
  ['xack', -4, true, () => require('./xack')],
  ['xackdel', -6, true, () => require('./xackdel')],
  ['xpending', -3, false, () => require('./xpending')],
  ['xinfo', -2, false, () => require('./xinfo')],
  ['xclaim', -6, true, () => require('./xclaim')],
  ['xautoclaim', -6, true, () => require('./xautoclaim')],
  ['xnack', -7, true, () => require('./xnack')],
  ['xread', -4, false, () => require('./xread')],
  ['xreadgroup', -7, true, () => require('./xreadgroup')],
  // keyspace commands ioredis-mock lacks (DUMP/RESTORE/COPY) or answers falsely (CONFIG)
  ['dump', 2, false, () => require('./dump')],
  ['restore', -4, true, () => require('./restore')],
  ['copy', -3, true, () => require('./copy')],
  ['config', -2, false, () => require('./config')],
  // blocking list pops ioredis-mock lacks (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP)
  ['blpop', -3, true, () => require('./list-blocking')],
  ['brpop', -3, true, () => require('./list-blocking')],
  ['brpoplpush', 4, true, () => require('./list-blocking')],
  ['blmove', 6, true, () => require('./list-blocking')],
  ['blmpop', -5, true, () => require('./list-blocking')],
  // HyperLogLog (hyperloglog.c): Redis strings holding Redis's HLL bytes
  ['pfadd', -2, true, () => require('./hyperloglog')],
  ['pfcount', -2, false, () => require('./hyperloglog')],
  ['pfmerge', -2, true, () => require('./hyperloglog')],
  ['pfdebug', 3, true, () => require('./hyperloglog')],
  ['pfselftest', 1, false, () => require('./hyperloglog')],
  // a server without replicas or AOF: WAIT 0, WAITAOF [0, 0] (after their timeout when asked for more)
  ['wait', 3, false, () => require('./wait')],
  ['waitaof', 4, false, () => require('./wait')],
  // strings (t_string.c)
  ['get', 2, false, () => require('./strings')],
  ['set', -3, true, () => require('./strings')],
  ['setnx', 3, true, () => require('./strings')],
  ['setex', 4, true, () => require('./strings')],
  ['psetex', 4, true, () => require('./strings')],
  ['getex', -2, true, () => require('./strings')],
  ['getdel', 2, true, () => require('./strings')],
  ['getset', 3, true, () => require('./strings')],
  ['mget', -2, false, () => require('./strings')],
  ['mset', -3, true, () => require('./strings')],
  ['msetnx', -3, true, () => require('./strings')],
  ['append', 3, true, () => require('./strings')],
  ['strlen', 2, false, () => require('./strings')],
  ['setrange', 4, true, () => require('./strings')],
  ['getrange', 4, false, () => require('./strings')],
  ['substr', 4, false, () => require('./strings')],
  ['lcs', -3, false, () => require('./strings')],
  ['incr', 2, true, () => require('./incr')],
  ['decr', 2, true, () => require('./incr')],
  ['incrby', 3, true, () => require('./incr')],
  ['decrby', 3, true, () => require('./incr')],
  ['incrbyfloat', 3, true, () => require('./incr')],
  // bitmaps (bitops.c)
  ['setbit', 4, true, () => require('./bitops')],
  ['getbit', 3, false, () => require('./bitops')],
  ['bitcount', -2, false, () => require('./bitops')],
  ['bitpos', -3, false, () => require('./bitops')],
  ['bitop', -4, true, () => require('./bitops')],
  ['bitfield', -2, true, () => require('./bitops')],
  ['bitfield_ro', -2, false, () => require('./bitops')],
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** All stream command specs by lower-case name. */
export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map(
  TABLE.map(([name, arity, write, load]) => [name, lazySpec<CommandSpec>({ name, arity, write }, load)] as const),
);

/** The modules behind the registry, loaded (for tests that compare the table with them). */
export function loadAllCommandModules(): CommandModule[] {
  return TABLE.map(([, , , load]) => load());
}

export type { CommandSpec, CommandContext, Reply, BlockRequest, Db } from './types';
