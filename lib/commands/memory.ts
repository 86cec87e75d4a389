/**
 * MEMORY USAGE key [SAMPLES count] (object.c memoryCommand), minimal: the fake has no allocator,
 * so the answer is an APPROXIMATE byte count — the key's and the value's bytes plus a fixed
 * overhead per key and per element, in the order of magnitude Redis reports, never its exact
 * figure. A missing key answers nil. Errors as Redis: SAMPLES without a value or another word
 * ("syntax error"), a count not an integer, a negative count ("syntax error").
 * DOCTOR, STATS, MALLOC-STATS, PURGE: lib/commands/memory-report.ts. MEMORY HELP: Redis's list
 * ("Prints" → "Print" in 7.2).
 */
import { ERR_SYNTAX, fail } from '../errors';
import { Stream } from '../model/stream';
import { RedisHash } from '../model/hash';
import { int64OrFail, is } from './args';
import { OK, statusLines, type Reply } from '../reply/reply';
import { supports } from '../version';
import * as memoryReport from './memory-report';

const report = (): typeof memoryReport => memoryReport;
import type { CommandContext, CommandSpec } from './types';

/** Bytes of a key entry without its value (dictEntry, robj, sds headers), roughly. */
const KEY_OVERHEAD = 40;
/** Bytes per element of an aggregate (listpack entry headers, dict entries), roughly. */
const ELEMENT_OVERHEAD = 16;

/** The approximate memory of `value` stored at `key`, in bytes. */
export function approximateUsage(key: string, value: unknown): number {
  let bytes = KEY_OVERHEAD + key.length;
  if (typeof value === 'string') return bytes + value.length;
  if (value instanceof RedisHash) {
    for (const e of value.entries()) bytes += ELEMENT_OVERHEAD + e.field.length + e.value.length;
    return bytes;
  }
  if (value instanceof Stream) return bytes + ELEMENT_OVERHEAD * (value.length + 1) * 4;
  if (Buffer.isBuffer(value)) return bytes + value.length;
  if (Array.isArray(value)) return bytes + value.reduce((n: number, x) => n + ELEMENT_OVERHEAD + String(x).length, 0);
  if (value instanceof Set) {
    for (const x of value) bytes += ELEMENT_OVERHEAD + String(x).length;
    return bytes;
  }
  if (value instanceof Map) {
    for (const x of value.keys()) bytes += ELEMENT_OVERHEAD + 8 + String(x).length;
    return bytes;
  }
  if (typeof value === 'object' && value !== null) {
    const sized = value as { size?: unknown; length?: unknown };
    const n = typeof sized.size === 'number' ? sized.size : typeof sized.length === 'number' ? sized.length : 1;
    return bytes + n * (ELEMENT_OVERHEAD * 2);
  }
  return bytes + 8;
}

function usage(ctx: CommandContext, argv: string[]): Reply {
  for (let j = 3; j < argv.length; j += 2) {
    if (!(is(argv[j], 'SAMPLES') && j + 1 < argv.length)) fail(ERR_SYNTAX);
    if (int64OrFail(argv[j + 1]) < 0n) fail(ERR_SYNTAX);
  }
  const key = argv[2];
  const value = ctx.db.lookup(key);
  if (value === undefined) return null;
  return approximateUsage(key, value);
}

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
      help: { arity: 2, run: (ctx) => statusLines([...HELP, supports(ctx.version, 'helpPrintFooter') ? '    Print this help.' : '    Prints this help.']) },
      doctor: { arity: 2, run: (ctx) => report().memoryDoctor(ctx) },
      stats: { arity: 2, run: (ctx) => report().memoryStats(ctx) },
      'malloc-stats': { arity: 2, run: () => report().MALLOC_STATS },
      purge: { arity: 2, run: () => OK },
    },
  },
];
