/**
 * The command registry, kept as data: every command as `{ name, arity, run }` with
 * Redis's arity convention. The adapter registers each entry (and its `…Buffer` twin).
 */
import type { CommandSpec } from './types';
import * as config from './config';
import * as copy from './copy';
import * as dump from './dump';
import * as listBlocking from './list-blocking';
import * as restore from './restore';
import * as xack from './xack';
import * as xackdel from './xackdel';
import * as xadd from './xadd';
import * as xautoclaim from './xautoclaim';
import * as xclaim from './xclaim';
import * as xdel from './xdel';
import * as xdelex from './xdelex';
import * as xgroup from './xgroup';
import * as xinfo from './xinfo';
import * as xlen from './xlen';
import * as xnack from './xnack';
import * as xpending from './xpending';
import * as xrange from './xrange';
import * as xread from './xread';
import * as xreadgroup from './xreadgroup';
import * as xsetid from './xsetid';
import * as xtrim from './xtrim';

const modules = [
  xadd, xtrim, xdel, xlen, xrange, xsetid, xdelex, xgroup, xack, xackdel, xpending, xinfo, xclaim, xautoclaim, xnack,
  xread, xreadgroup,
  // keyspace commands ioredis-mock lacks (DUMP/RESTORE/COPY) or answers falsely (CONFIG)
  dump, restore, copy, config,
  // blocking list pops ioredis-mock lacks (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP)
  listBlocking,
];

/** All stream command specs by lower-case name. */
export const COMMANDS: ReadonlyMap<string, CommandSpec> = new Map(
  modules.flatMap((m) => m.specs).map((spec) => [spec.name, spec] as const),
);

export type { CommandSpec, CommandContext, Reply, BlockRequest, Db } from './types';
