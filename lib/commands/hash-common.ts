/**
 * What the hash commands share (t_hash.c): the lookup of a hash key (WRONGTYPE, due field
 * expiry), creation, the write epilogue (signalModifiedKey + keyspace event + dirty), the
 * encoding thresholds and the `FIELDS numfields field …` block of the 7.4 field-expiry commands.
 *
 * Field expiry (Redis 7.4 HFE): Redis deletes expired fields lazily when a command reads one
 * and actively in the background (a few times a second). The fake expires them actively on the
 * keyspace clock (lib/keyspace/store.ts, like key TTLs: each field when its TTL passes), and every
 * hash command first removes all the due fields of its hash (as if active expiry had just run),
 * sending one `hexpired` event (class h) and, when the hash is left empty, deleting the key
 * with a `del` event (class g) — Redis's active-expiry events. Commands that do not read hashes
 * (EXISTS, TYPE, KEYS, DBSIZE …) do not expire fields.
 */
import { ERR_WRONGTYPE, fail } from '../errors';
import { RedisHash, hashOfPairs, type HashLimits } from '../model/hash';
import { DEFAULT_COLLECTION_LIMITS } from '../rdb/collection-limits';
import { bytesOf } from '../bytes/index';
import { is, parseInt64 } from './args';
import type { CommandContext } from './types';

/** The encoding thresholds in force (CONFIG hash-max-listpack-entries / -value). */
export function hashLimits(ctx: CommandContext): HashLimits {
  return ctx.db.config?.collectionLimits ?? DEFAULT_COLLECTION_LIMITS;
}

/**
 * The hash at `key` after lazy key expiry and field expiry (see the module comment), or
 * undefined when the key is missing (or was emptied by field expiry). WRONGTYPE for a key of
 * another type. A hash written by an older front end as a plain object is converted in place.
 */
export function lookupHash(ctx: CommandContext, key: string): RedisHash | undefined {
  const v = ctx.db.lookup(key);
  if (v === undefined) return undefined;
  let h: RedisHash;
  if (v instanceof RedisHash) h = v;
  else {
    if (!isLegacyHash(v)) fail(ERR_WRONGTYPE);
    h = hashOfPairs(Object.entries(v as Record<string, unknown>).map(([f, x]) => [bytesOf(f), bytesOf(x)] as const), hashLimits(ctx));
    ctx.db.store(key, h, true);
  }
  if (h.volatileCount !== 0 && expireFields(ctx, key, h)) return undefined;
  return h;
}

/**
 * lookupHash for a read command (lookupKeyRead): a missing key sends `keymiss` (class m) after
 * its lazy expiry; a hash whose fields all expired on the lookup sends none (the key was found).
 */
export function readHash(ctx: CommandContext, key: string): RedisHash | undefined {
  if (ctx.db.lookup(key, true) === undefined) {
    ctx.db.keyMiss(key);
    return undefined;
  }
  ctx.db.keyHit();
  return lookupHash(ctx, key);
}

/** A hash as ioredis-mock's emulators stored one: a plain object of field → value. */
function isLegacyHash(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Remove the due fields of `h` (at `key`); true when that emptied the hash and the key was
 * deleted. Events: `hexpired` (h) once, `del` (g) when the key goes. Replicas get an HDEL per
 * field removed, ahead of the command (t_hash.c hashTypeGetValue → propagateHashFieldDeletion
 * on a field found expired; see Replication.expiredFields).
 */
export function expireFields(ctx: CommandContext, key: string, h: RedisHash): boolean {
  const gone = h.expireDue(ctx.now);
  if (gone.length === 0) return false;
  ctx.db.subkeysExpired?.(gone.length);
  const propagation = ctx.db.propagation?.() ?? null;
  if (propagation !== null) propagation.expiredFields(key, gone);
  ctx.db.notifyEvent('h', 'hexpired', key);
  if (h.size === 0) {
    ctx.db.remove(key);
    ctx.db.notifyEvent('g', 'del', key);
    return true;
  }
  ctx.db.touch(key);
  return false;
}

/** Redis hashTypeLookupWriteOrCreate: the hash at `key`, created (and stored) when missing. */
export function hashForWrite(ctx: CommandContext, key: string): RedisHash {
  const h = lookupHash(ctx, key);
  if (h !== undefined) return h;
  const created = new RedisHash();
  ctx.db.store(key, created);
  ctx.db.notifyEvent('n', 'new', key); // dbAdd
  return created;
}

/**
 * The end of a write that changed the hash (signalModifiedKey, notifyKeyspaceEvent(NOTIFY_HASH),
 * server.dirty += dirty).
 */
export function hashWritten(ctx: CommandContext, key: string, event: string, dirty: number): void {
  ctx.db.touch(key);
  ctx.db.notifyEvent('h', event, key);
  ctx.db.dirty?.(dirty);
}

/** Delete the key of a hash left empty, with its `del` event (class g). */
export function deleteEmptied(ctx: CommandContext, key: string): void {
  ctx.db.remove(key);
  ctx.db.notifyEvent('g', 'del', key);
}

/** `LONG_MAX` as a bigint (Redis `long` on the 64-bit servers). */
export const LONG_MAX = (1n << 63n) - 1n;

export const ERR_FIELDS_MISSING = 'ERR Mandatory argument FIELDS is missing or not at the right position';
export const ERR_NUMFIELDS_MISMATCH = 'ERR The `numfields` parameter must match the number of arguments';

/**
 * `FIELDS numfields field …` starting at argv[at] (the FIELDS word), running to the end of argv:
 * the fields. Errors as t_hash.c: FIELDS missing, `numfields` not an integer in 1..LONG_MAX
 * (`rangeError`, which Redis gives for both), count mismatch.
 */
export function fieldsBlock(argv: readonly string[], at: number, rangeError: string): string[] {
  if (!is(argv[at], 'FIELDS')) fail(ERR_FIELDS_MISSING);
  const n = parseInt64(argv[at + 1] ?? '');
  if (n === null || n < 1n) fail(rangeError); // getRangeLongFromObjectOrReply(…, msg): one text for both
  if (n !== BigInt(argv.length - at - 2)) fail(ERR_NUMFIELDS_MISMATCH);
  return argv.slice(at + 2);
}
