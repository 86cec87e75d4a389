/**
 * PFADD key [element ...] · PFCOUNT key [key ...] · PFMERGE destkey [sourcekey ...]
 * PFDEBUG GETREG|DECODE|ENCODING|TODENSE key · PFSELFTEST
 *
 * The HyperLogLog commands of hyperloglog.c (Redis 2.8.9; unchanged in what a client sees from
 * 7.0.15 to the post-7.4 tree). A HyperLogLog is a Redis string whose bytes are exactly Redis's
 * (lib/model/hyperloglog.ts): GET, DUMP, STRLEN, SETRANGE, APPEND see and change the same bytes
 * as on a real server, and a string SET to a valid HyperLogLog blob is one.
 *
 * - PFADD: creates the key as an empty sparse HyperLogLog when missing; reply 1 when a register
 *   changed (or the key was created), else 0. A change invalidates the cached cardinality,
 *   dirties WATCH, sends the `$` event `pfadd` and adds 1 per changed register (+1 for the
 *   creation) to the dirty counter.
 * - PFCOUNT of one key: the cached cardinality when valid, else computed and written back into
 *   the key's header (the key's bytes change: WATCH dirtied, dirty + 1, no event). A missing
 *   key counts 0. PFCOUNT of several keys: the cardinality of their union (missing keys are
 *   empty), nothing written.
 * - PFMERGE: the union of the sources (the destination included) written into the destination
 *   (created sparse when missing; made dense first when a source is dense), `$` event `pfadd`,
 *   dirty + 1, reply OK.
 * - PFDEBUG (a write command, allowed without enable-debug-command): GETREG (16384 integers;
 *   converts a sparse key to dense, dirty + 1), DECODE (the sparse opcodes, error "HLL encoding
 *   is not sparse" for a dense key), ENCODING (status `sparse`/`dense`), TODENSE (1 if converted).
 * - PFSELFTEST: OK (Redis's self test of its register macros and estimator error; the fake's
 *   registers are checked by its own tests against real servers).
 *
 * Errors: `WRONGTYPE Operation against a key holding the wrong kind of value` (not a string),
 * `WRONGTYPE Key is not a valid HyperLogLog string value.` (a string shorter than 16 bytes,
 * without the "HYLL" magic, with an encoding byte above 1, or dense and not 12304 bytes long),
 * `INVALIDOBJ Corrupted HLL object detected` (sparse registers that do not add up to 16384),
 * PFDEBUG: `ERR The specified key does not exist`, `ERR Unknown PFDEBUG subcommand '<name>'`.
 * `hll-sparse-max-bytes` (CONFIG, default 3000) bounds the sparse string's length.
 *
 * OBJECT ENCODING of a key written by PFADD/PFMERGE or read by a one-key PFCOUNT is `raw`
 * (createHLLObject, dbUnshareStringValue: lib/model/string-encoding.ts marks).
 *
 * Known gaps: a PFADD that
 * stops at a corrupted sparse string keeps the registers it changed before (as Redis does) but
 * also dirties WATCH (Redis does not signal the key then).
 */
import { CommandError, errorArg, fail } from '../errors';
import {
  HLL_DENSE,
  HLL_REGISTERS,
  HLL_SPARSE,
  HllBuffer,
  cachedCardinality,
  createHll,
  decodeSparse,
  denseRegisters,
  hasValidCache,
  hllAdd,
  hllCount,
  hllMerge,
  hllSet,
  invalidateCache,
  isValidHllString,
  rawCount,
  setCachedCardinality,
  sparseToDense,
} from '../model/hyperloglog';
import { OK, SimpleString } from '../reply/reply';
import { is } from './args';
import { storeString, stringForRead, stringForWrite } from './string-value';
import type { CommandContext, CommandSpec, Db, Reply } from './types';

export const ERR_NOT_HLL = 'WRONGTYPE Key is not a valid HyperLogLog string value.';
export const ERR_INVALID_HLL = 'INVALIDOBJ Corrupted HLL object detected';

/**
 * The HyperLogLog string at `key` (lookupKeyRead or lookupKeyWrite, then isHLLObjectOrReply),
 * undefined when missing (a read lookup sends the `keymiss` event).
 * @throws CommandError WRONGTYPE for another type or a string that is not a HyperLogLog
 */
function lookupHll(db: Db, key: string, forRead: boolean): string | undefined {
  const s = forRead ? stringForRead(db, key) : stringForWrite(db, key);
  if (s !== undefined && !isValidHllString(s)) fail(ERR_NOT_HLL);
  return s;
}

/**
 * Whether the emulated server reads sparse opcodes as before the CVE-2025-32023 fix
 * (`HllBuffer.preFixOverflow`): only '8.0', the 4f8cdc2a build. 7.0 is Debian's 7.0.15, which
 * carries the backport; 7.2, 7.4 and 8.2 on are the releases since the fix (7.2.10, 7.4.5, 8.0.3).
 */
function preFixOverflow(ctx: CommandContext): boolean {
  return ctx.version === '8.0';
}

function sparseMaxBytes(db: Db): number {
  const v = db.config?.get('hll-sparse-max-bytes');
  return v === undefined ? 3000 : Number(v);
}

/** The uint64 cardinality as addReplyLongLong shows it (2^63 and up wrap to negative). */
function cardinalityReply(card: bigint | number): number | bigint {
  if (typeof card === 'number') return card;
  const signed = BigInt.asIntN(64, card);
  return signed >= -9007199254740991n && signed <= 9007199254740991n ? Number(signed) : signed;
}

function pfadd(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  const existing = lookupHll(db, key, false);
  let updated = 0;
  let h: HllBuffer;
  if (existing === undefined) {
    h = createHll();
    updated++;
  } else {
    h = HllBuffer.of(existing, argv.length > 2 ? 16 : 0, preFixOverflow(ctx));
  }
  const maxBytes = sparseMaxBytes(db);
  for (let j = 2; j < argv.length; j++) {
    const r = hllAdd(h, argv[j], maxBytes);
    if (r === 1) updated++;
    else if (r === -1) {
      // Redis changed the string in place before finding the corruption: the changes stay
      db.store(key, h.toByteString(), true, 'raw');
      throw new CommandError(ERR_INVALID_HLL);
    }
  }
  if (updated) {
    invalidateCache(h);
    storeString(db, key, h.toByteString(), existing !== undefined, true, 'raw');
    db.notifyEvent('$', 'pfadd', key);
    db.dirty?.(updated);
  } else {
    db.setStringMark?.(key, 'raw'); // dbUnshareStringValue even when no register changes
  }
  return updated ? 1 : 0;
}

function pfcount(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  if (argv.length > 2) {
    const max = new Uint8Array(HLL_REGISTERS);
    for (let j = 1; j < argv.length; j++) {
      const s = lookupHll(db, argv[j], true);
      if (s === undefined) continue;
      if (!hllMerge(max, HllBuffer.of(s, 0, preFixOverflow(ctx)))) fail(ERR_INVALID_HLL);
    }
    return cardinalityReply(rawCount(max));
  }
  const key = argv[1];
  const s = lookupHll(db, key, true);
  if (s === undefined) return 0;
  db.setStringMark?.(key, 'raw'); // dbUnshareStringValue, cache valid or not
  if (hasValidCache(s)) return cardinalityReply(cachedCardinality(s));
  const h = HllBuffer.of(s);
  const card = hllCount(h);
  if (card === null) fail(ERR_INVALID_HLL);
  setCachedCardinality(h, card);
  db.store(key, h.toByteString(), true, 'raw');
  db.dirty?.(1);
  return cardinalityReply(card);
}

function pfmerge(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const max = new Uint8Array(HLL_REGISTERS);
  let useDense = false;
  for (let j = 1; j < argv.length; j++) {
    const s = lookupHll(db, argv[j], true);
    if (s === undefined) continue;
    const h = HllBuffer.of(s, 0, preFixOverflow(ctx));
    if (h.encoding === HLL_DENSE) useDense = true;
    if (!hllMerge(max, h)) fail(ERR_INVALID_HLL);
  }
  const key = argv[1];
  // the destination was checked as the first source
  const existing = stringForWrite(db, key);
  const h = existing === undefined ? createHll() : HllBuffer.of(existing, 16, preFixOverflow(ctx));
  if (existing === undefined) db.notifyEvent('n', 'new', key); // dbAdd
  if (useDense && !sparseToDense(h)) fail(ERR_INVALID_HLL);
  const maxBytes = sparseMaxBytes(db);
  for (let j = 0; j < HLL_REGISTERS; j++) {
    if (max[j] !== 0) hllSet(h, j, max[j], maxBytes);
  }
  invalidateCache(h);
  db.store(key, h.toByteString(), existing !== undefined, 'raw');
  // hyperloglog.c: "a PFADD event for PFMERGE for semantical simplicity"
  db.notifyEvent('$', 'pfadd', key);
  db.dirty?.(1);
  return OK;
}

function pfdebug(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const cmd = argv[1];
  const key = argv[2];
  const s = lookupHll(db, key, false);
  if (s === undefined) fail('ERR The specified key does not exist');
  // dbUnshareStringValue before the subcommand is read: any PFDEBUG of a valid HLL, ENCODING,
  // DECODE and an unknown subcommand too, leaves an embstr value raw (7.0.15, the post-7.4 build)
  db.setStringMark?.(key, 'raw');
  const h = HllBuffer.of(s, 0, preFixOverflow(ctx));
  const getreg = is(cmd, 'GETREG');
  if (getreg || is(cmd, 'TODENSE')) {
    let converted = false;
    if (h.encoding === HLL_SPARSE) {
      if (!sparseToDense(h)) fail(ERR_INVALID_HLL);
      db.store(key, h.toByteString(), true, 'raw');
      db.dirty?.(1); // "Force propagation on encoding change."
      converted = true;
    }
    return getreg ? denseRegisters(h) : converted ? 1 : 0;
  }
  if (is(cmd, 'DECODE')) {
    if (h.encoding !== HLL_SPARSE) fail('ERR HLL encoding is not sparse');
    return decodeSparse(h);
  }
  if (is(cmd, 'ENCODING')) return new SimpleString(h.encoding === HLL_DENSE ? 'dense' : 'sparse');
  return fail(`ERR Unknown PFDEBUG subcommand '${errorArg(cmd)}'`); // %s: cut at a NUL
}

function pfselftest(): Reply {
  return OK;
}

export const specs: CommandSpec[] = [
  { name: 'pfadd', arity: -2, write: true, run: pfadd },
  { name: 'pfcount', arity: -2, write: false, run: pfcount },
  { name: 'pfmerge', arity: -2, write: true, run: pfmerge },
  { name: 'pfdebug', arity: 3, write: true, run: pfdebug },
  { name: 'pfselftest', arity: 1, write: false, run: pfselftest },
];
