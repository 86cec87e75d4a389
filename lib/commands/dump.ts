/**
 * DUMP key
 *
 * Reply: the key's value serialized as Redis's DUMP payload for the emulated version (bulk
 * string), nil for a missing key: the RDB type byte, the value in the RDB encoding, the RDB
 * version of that release (2 bytes LE: 7.0 → 10, 7.2 → 11, 7.4–8.4 → 12, 8.6 → 13, 8.8 → 14,
 * 8.10 → 15) and the CRC-64 of the rest (8 bytes LE) — cluster.c `createDumpPayload`. Streams are
 * byte-identical to Redis's (macro nodes, listpacks, LZF under `rdbcompression yes`, groups,
 * consumers, PEL, NACK zone); so are strings, and lists, sets, sorted sets and hashes built
 * element by element (see lib/rdb/collections.ts for the encodings and their limits).
 * Use `dumpBuffer` (or `callBuffer('DUMP', …)`): the string reply is the payload decoded as
 * UTF-8, lossy exactly as with real ioredis.
 */
import { createDumpPayload } from '../rdb/payload';
import { byteString } from '../rdb/rdb-io';
import { RDB_FORMAT } from '../version';
import { wholeKeyDb } from './whole-key';
import type { CommandContext, CommandSpec, Reply } from './types';

function dump(ctx: CommandContext, argv: string[]): Reply {
  const db = wholeKeyDb(ctx.db, 'DUMP');
  const value = db.getValue(argv[1]);
  if (value === undefined) {
    db.keyMiss(argv[1]); // lookupKeyRead
    return null;
  }
  db.keyHit();
  const compression = db.config?.rdbCompression ?? true;
  const limits = db.config?.collectionLimits;
  return byteString(createDumpPayload(value, RDB_FORMAT[ctx.version], { compression, limits }));
}

export const specs: CommandSpec[] = [{ name: 'dump', arity: 2, write: false, run: dump }];
