/**
 * MEMORY DOCTOR, MEMORY STATS, MEMORY MALLOC-STATS (object.c) as a small server answers them.
 * The fake has no allocator: sizes follow INFO's estimate (an empty server's 900000 bytes plus
 * MEMORY USAGE's approximation of each key of the database), never Redis's exact figures.
 * - DOCTOR: below 5 MB (Redis's threshold) the "empty or is using very little memory" text,
 *   above it the "can't find any memory issue" text (a fake has no fragmentation nor peak).
 * - STATS: Redis's fields in its order per version (7.0.15: `overhead.hashtable.slot-to-keys`
 *   in each db; later: `overhead.db.hashtable.lut`/`rehashing`, `db.dict.rehashing.count`,
 *   `allocator.muzzy`), ratios as doubles; a `db.N` entry per database holding keys.
 * - MALLOC-STATS: "Stats not supported for the current allocator" (a build without jemalloc,
 *   as the post-7.4 build answers). PURGE: OK.
 */
import { DoubleReply, MapReply, type Reply, VerbatimReply } from '../reply/reply';
import { versionIndex } from '../version';
import { keyBytes } from '../stats/memory-model';
import type { CommandContext } from './types';

const STARTUP = 876344;
const EMPTY_TEXT =
  "Hi Sam, this instance is empty or is using very little memory, my issues detector can't be used in these conditions. Please, leave for your mission on Earth and fill it with some data. The new Sam and I will be back to our programming as soon as I finished rebooting.\n";
const FINE_TEXT = "Hi Sam, I can't find any memory issue in your instance. I can only account for what occurs on this base.\n";

export const MALLOC_STATS: Reply = 'Stats not supported for the current allocator';

/** Keys and approximate bytes of each non-empty database 0 … 15 (the caller's only when the others are unreachable). */
function datasets(ctx: CommandContext): { index: number; keys: number; bytes: number }[] {
  const out: { index: number; keys: number; bytes: number }[] = [];
  const dbs = ctx.db.selectDb ? Array.from({ length: 16 }, (_, i) => [i, ctx.db.selectDb!(i)] as const) : [[ctx.db.dbIndex ?? 0, ctx.db] as const];
  for (const [index, db] of dbs) {
    if (db === undefined) continue;
    const names = db.keyNames();
    if (names.length === 0) continue;
    let bytes = 0;
    for (const k of names) bytes += keyBytes(k, db.lookup(k, true));
    out.push({ index, keys: names.length, bytes });
  }
  return out;
}

function dataset(ctx: CommandContext): { keys: number; bytes: number } {
  return datasets(ctx).reduce((t, d) => ({ keys: t.keys + d.keys, bytes: t.bytes + d.bytes }), { keys: 0, bytes: 0 });
}

export function memoryDoctor(ctx: CommandContext): Reply {
  const { bytes } = dataset(ctx);
  return new VerbatimReply(STARTUP + bytes < 5 * 1024 * 1024 ? EMPTY_TEXT : FINE_TEXT);
}

export function memoryStats(ctx: CommandContext): Reply {
  const later = versionIndex(ctx.version) > versionIndex('7.0');
  const { keys, bytes } = dataset(ctx);
  const total = STARTUP + 112000 + bytes;
  const perDb = datasets(ctx);
  const overheadOf = (n: number) => 72 + 24 * n;
  const overhead = STARTUP + perDb.reduce((t, d) => t + overheadOf(d.keys) + 32, 0);
  const data = Math.max(0, total - overhead);
  const items: Reply[] = [
    'peak.allocated', total,
    'total.allocated', total,
    'startup.allocated', STARTUP,
    'replication.backlog', 0,
    'clients.slaves', 0,
    'clients.normal', 0,
    'cluster.links', 0,
    'aof.buffer', 0,
    'lua.caches', 0,
    'functions.caches', later ? 232 : 200,
  ];
  for (const d of perDb) {
    const db: Reply[] = ['overhead.hashtable.main', overheadOf(d.keys), 'overhead.hashtable.expires', 32];
    if (!later) db.push('overhead.hashtable.slot-to-keys', 0);
    items.push(`db.${d.index}`, new MapReply(db));
  }
  if (later) items.push('overhead.db.hashtable.lut', 0, 'overhead.db.hashtable.rehashing', 0);
  items.push('overhead.total', overhead);
  if (later) items.push('db.dict.rehashing.count', 0);
  items.push(
    'keys.count', keys,
    'keys.bytes-per-key', keys > 0 ? Math.floor((total - STARTUP) / keys) : 0,
    'dataset.bytes', data,
    'dataset.percentage', new DoubleReply(total > STARTUP ? (data * 100) / (total - STARTUP) : 0),
    'peak.percentage', new DoubleReply(100),
    'allocator.allocated', total,
    'allocator.active', total,
    'allocator.resident', total,
  );
  if (later) items.push('allocator.muzzy', 0);
  items.push(
    'allocator-fragmentation.ratio', new DoubleReply(1),
    'allocator-fragmentation.bytes', 0,
    'allocator-rss.ratio', new DoubleReply(1),
    'allocator-rss.bytes', 0,
    'rss-overhead.ratio', new DoubleReply(1),
    'rss-overhead.bytes', 0,
    'fragmentation', new DoubleReply(1),
    'fragmentation.bytes', 0,
  );
  return new MapReply(items);
}
