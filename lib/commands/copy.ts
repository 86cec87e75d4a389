/**
 * COPY source destination [DB destination-db] [REPLACE]
 *
 * Copies the value of `source` (any type) to `destination`, in the same database or in
 * `destination-db` of the same server, with the source's TTL (db.c `copyCommand`, Redis 6.2).
 * A stream is deep-copied: entries in the same macro nodes, last/first/max-deleted IDs,
 * entries-added, consumer groups with their PEL (delivery times and counts), consumers (seen and
 * active times) and NACK zone (t_stream.c `streamDup`). Reply: 1 if copied, 0 when the source is
 * missing or the destination exists without REPLACE. Wakes readers blocked on the destination.
 * Errors, in Redis's order: options (`ERR syntax error`; DB: `ERR value is not an integer or out
 * of range`, `ERR value is out of range, value must between -2147483648 and 2147483647`, `ERR DB
 * index is out of range` outside 0 … databases-1), `ERR source and destination objects are the
 * same` (all checked on redis-server 7.0.15 and the 7.4+ build).
 */
import { StreamsMockError } from '../clock/clock';
import { ERR_DB_INDEX_OUT_OF_RANGE, ERR_INT_RANGE, ERR_SAME_OBJECT, ERR_SYNTAX, fail } from '../errors';
import type { KeyValue } from '../rdb/key-value';
import { int64OrFail, is } from './args';
import { WholeKeyDb, wholeKeyDb } from './whole-key';
import type { CommandContext, CommandSpec, Db, Reply } from './types';

export interface CopyArgs {
  source: string;
  destination: string;
  /** Target database index, or null for the current one. */
  db: number | null;
  replace: boolean;
}

/** The options (argv[3…]); `databases` is the server's database count (DB range check). */
export function parse(argv: string[], databases: number): CopyArgs {
  let replace = false;
  let db: number | null = null;
  for (let j = 3; j < argv.length; j++) {
    const additional = argv.length - j - 1;
    if (is(argv[j], 'REPLACE')) replace = true;
    else if (is(argv[j], 'DB') && additional >= 1) {
      const v = int64OrFail(argv[++j]);
      if (v < -2147483648n || v > 2147483647n) fail(ERR_INT_RANGE); // getIntFromObjectOrReply
      if (v < 0n || v >= BigInt(databases)) fail(ERR_DB_INDEX_OUT_OF_RANGE); // selectDb
      db = Number(v);
    } else fail(ERR_SYNTAX);
  }
  return { source: argv[1], destination: argv[2], db, replace };
}

/** A value copy owning no structure of the original (streams deep-cloned). */
export function duplicate(v: KeyValue): KeyValue {
  switch (v.type) {
    case 'stream':
      return { type: 'stream', value: v.value.clone() };
    case 'string':
      return v;
    case 'list':
      return { type: v.type, value: v.value.slice() };
    case 'set':
      return { ...v, value: v.value.slice() };
    case 'zset':
      return { ...v, value: v.value.map(([m, s]) => [m, s] as const) }; // zsetDup keeps a skiplist one
    case 'hash':
      return { ...v, value: v.value.map(([f, x]) => [f, x] as const) }; // hashTypeDup keeps a hashtable one
  }
}

function targetDb(db: WholeKeyDb, index: number | null): { target: WholeKeyDb; same: boolean } {
  if (index === null || index === (db.dbIndex ?? 0)) return { target: db, same: true };
  const other: Db | undefined = db.selectDb?.(index);
  if (!other) throw new StreamsMockError('COPY … DB needs access to the other databases, which this front end does not provide');
  return { target: wholeKeyDb(other, 'COPY'), same: false };
}

function copy(ctx: CommandContext, argv: string[]): Reply {
  const db = wholeKeyDb(ctx.db, 'COPY');
  const args = parse(argv, Number(db.config?.get('databases') ?? '16'));
  const { target, same } = targetDb(db, args.db);
  if (same && args.source === args.destination) fail(ERR_SAME_OBJECT);
  const value = db.getValue(args.source);
  if (value === undefined) {
    db.keyMiss(args.source); // lookupKeyRead
    return 0;
  }
  db.keyHit();
  const expireAt = db.expireAt(args.source);
  if (target.getValue(args.destination) !== undefined) {
    if (!args.replace) return 0;
    target.deleteKey(args.destination);
  }
  target.setValue(args.destination, duplicate(value), expireAt);
  // a time past 2^53 ms goes over exactly (setValue takes the number)
  if (expireAt !== undefined && !Number.isSafeInteger(expireAt)) target.setTtlAt(args.destination, expireAt, db.ttlAtExact?.(args.source));
  // dupStringObject keeps the encoding (raw stays raw) in an object of its own (no shared integer)
  // (a grown raw sds is copied to one of its length: createRawStringObject)
  if (value.type === 'string') {
    const mark = db.stringMark?.(args.source) ?? 'unshared';
    target.setStringMark?.(args.destination, typeof mark === 'object' ? 'raw' : mark);
  }
  target.notifyEvent('n', 'new', args.destination); // dbAdd (after the REPLACE's delete too)
  target.notifyEvent('g', 'copy_to', args.destination);
  db.dirty?.(1); // server.dirty++ (db.c copyCommand)
  return 1;
}

export const specs: CommandSpec[] = [{ name: 'copy', arity: -3, write: true, run: copy }];
