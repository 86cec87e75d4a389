/**
 * MEMORY USAGE key [SAMPLES count] (object.c memoryCommand): object.c's sum of the key's and the
 * value's allocations at the emulated allocator's sizes (lib/stats/object-size.ts: exact for
 * strings, listpacks, intsets and one-node quicklists; hash tables, skiplists, grown strings and
 * streams estimated), an aggregate sized from `count` sampled elements, all of them for 0. INFO's
 * used_memory and maxmemory keep their cheaper estimate (lib/stats/memory-model.ts). A missing key answers nil. Errors as Redis: SAMPLES without a value or another word
 * ("syntax error"), a count not an integer, a negative count ("syntax error").
 * DOCTOR, STATS, MALLOC-STATS, PURGE: lib/commands/memory-report.ts. MEMORY HELP: Redis's list
 * ("Prints" → "Print" in 7.2).
 */
import { ERR_SYNTAX, fail } from '../errors';
import { DEFAULT_SAMPLES, memoryUsage } from '../stats/object-size';
import { int64OrFail, is } from './args';
import { OK, statusLines, type Reply, VerbatimReply } from '../reply/reply';
import { helpFooter, predates } from '../version';
import * as memoryReport from './memory-report';

const report = (): typeof memoryReport => memoryReport;
import type { CommandContext, CommandSpec } from './types';

function usage(ctx: CommandContext, argv: string[]): Reply {
  let samples = DEFAULT_SAMPLES;
  for (let j = 3; j < argv.length; j += 2) {
    if (!(is(argv[j], 'SAMPLES') && j + 1 < argv.length)) fail(ERR_SYNTAX);
    const n = int64OrFail(argv[j + 1]);
    if (n < 0n) fail(ERR_SYNTAX);
    samples = n > 1000000n ? 1000000 : Number(n);
  }
  const key = argv[2];
  // object.c objectCommandLookup: LOOKUP_NOTOUCH, the key's idle time stays (checked on 7.0.15 and a post-7.4 build)
  const value = ctx.db.lookup(key, true);
  if (value === undefined) return null;
  return memoryUsage(key, value, samples, { version: ctx.version, mark: ctx.db.stringMark?.(key), volatile: ctx.db.ttlAt(key) !== undefined });
}

/**
 * MEMORY MALLOC-STATS of a jemalloc build (7.0 mode: INFO mem_allocator jemalloc-5.3.0, as
 * Debian's 7.0.15): je_malloc_stats_print's text as a verbatim reply. The fake has no allocator:
 * its head and end lines as 7.0.15 prints them, without the statistics between.
 */
const JEMALLOC_STATS =
  '___ Begin jemalloc statistics ___\nVersion: "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c"\n--- End jemalloc statistics ---\n';

const HELP = [
  'MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'DOCTOR',
  '    Return memory problems reports.',
  'MALLOC-STATS',
  '    Return internal statistics report from the memory allocator.',
  'PURGE',
  '    Attempt to purge dirty pages for reclamation by the allocator.',
  'STATS',
  '    Return information about the memory usage of the server.',
  'USAGE <key> [SAMPLES <count>]',
  '    Return memory in bytes used by <key> and its value. Nested values are',
  '    sampled up to <count> times (default: 5, 0 means sample all).',
  'HELP',
];

export const specs: CommandSpec[] = [
  {
    name: 'memory',
    arity: -2,
    write: false,
    subcommands: {
      usage: { arity: -3, run: usage },
      help: { arity: 2, run: (ctx) => statusLines([...HELP, helpFooter(ctx.version)]) },
      doctor: { arity: 2, run: (ctx) => report().memoryDoctor(ctx) },
      stats: { arity: 2, run: (ctx) => report().memoryStats(ctx) },
      'malloc-stats': { arity: 2, run: (ctx) => (predates(ctx.version, '7.2') ? new VerbatimReply(JEMALLOC_STATS) : report().MALLOC_STATS) },
      purge: { arity: 2, run: () => OK },
    },
  },
];
