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
  // hashes (t_hash.c): ./hash.ts, ./hash-random-scan.ts, field expiration (7.4) ./hash-expire.ts,
  // HGETDEL/HGETEX/HSETEX (8.0) ./hash-getset-ex.ts
  ['hset', -4, true, () => require('./hash')],
  ['hmset', -4, true, () => require('./hash')],
  ['hsetnx', 4, true, () => require('./hash')],
  ['hget', 3, false, () => require('./hash')],
  ['hmget', -3, false, () => require('./hash')],
  ['hgetall', 2, false, () => require('./hash')],
  ['hkeys', 2, false, () => require('./hash')],
  ['hvals', 2, false, () => require('./hash')],
  ['hdel', -3, true, () => require('./hash')],
  ['hlen', 2, false, () => require('./hash')],
  ['hexists', 3, false, () => require('./hash')],
  ['hstrlen', 3, false, () => require('./hash')],
  ['hincrby', 4, true, () => require('./hash')],
  ['hincrbyfloat', 4, true, () => require('./hash')],
  ['hrandfield', -2, false, () => require('./hash-random-scan')],
  ['hscan', -3, false, () => require('./hash-random-scan')],
  ['hexpire', -6, true, () => require('./hash-expire')],
  ['hpexpire', -6, true, () => require('./hash-expire')],
  ['hexpireat', -6, true, () => require('./hash-expire')],
  ['hpexpireat', -6, true, () => require('./hash-expire')],
  ['httl', -5, false, () => require('./hash-expire')],
  ['hpttl', -5, false, () => require('./hash-expire')],
  ['hexpiretime', -5, false, () => require('./hash-expire')],
  ['hpexpiretime', -5, false, () => require('./hash-expire')],
  ['hpersist', -5, true, () => require('./hash-expire')],
  ['hgetdel', -5, true, () => require('./hash-getset-ex')],
  ['hgetex', -5, true, () => require('./hash-getset-ex')],
  ['hsetex', -6, true, () => require('./hash-getset-ex')],
  // MEMORY USAGE (approximate; ./memory.ts)
  ['memory', -2, false, () => require('./memory')],
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
