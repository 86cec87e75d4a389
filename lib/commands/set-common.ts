/**
 * What the set commands share: the set at a key (or WRONGTYPE), the CONFIG limits and release
 * rules a write reads, the random generator, and the reply-size guard of SRANDMEMBER.
 */
import { bytesOf } from '../bytes';
import { ERR_WRONGTYPE, fail } from '../errors';
import { Prng } from '../model/prng';
import { RedisSet, type RandomBelow, type SetLimits } from '../model/set';
import { DEFAULT_COLLECTION_LIMITS } from '../rdb/collection-limits';
import { supports } from '../version';
import type { CommandContext, Db } from './types';

/** The limits of `set-max-intset-entries`, `set-max-listpack-*` now, and whether sets may be listpacks (7.2+). */
export function setLimitsOf(ctx: CommandContext): SetLimits {
  const l = ctx.db.config?.collectionLimits ?? DEFAULT_COLLECTION_LIMITS;
  return {
    maxIntsetEntries: l.setMaxIntsetEntries,
    maxListpackEntries: l.setMaxListpackEntries,
    maxListpackValue: l.setMaxListpackValue,
    listpack: supports(ctx.version, 'listpackSets'),
  };
}

/** Used when the front end's Db has no generator of its own (e.g. the unit-test harness). */
const fallback = new Prng(0x5e75);

/** An integer in [0, n) from the keyspace's seeded generator. */
export function randomBelow(ctx: CommandContext): RandomBelow {
  const db = ctx.db;
  if (db.random) {
    const random = db.random.bind(db);
    return (n) => Math.floor(random() * n);
  }
  return (n) => fallback.below(n);
}

/**
 * The set at `key` (Redis lookupKey + checkType): undefined when missing, WRONGTYPE for another
 * type. A JS `Set` left by ioredis-mock (e.g. its `data` option) is rebuilt as a RedisSet, its
 * members added one at a time, and stored in its place (TTL kept).
 */
export function lookupSet(ctx: CommandContext, key: string): RedisSet | undefined {
  const v = ctx.db.lookup(key);
  if (v === undefined || v === null) return undefined;
  if (v instanceof RedisSet) return v;
  if (v instanceof Set) return adoptLegacySet(ctx, key, v);
  fail(ERR_WRONGTYPE);
}

/**
 * lookupSet for a read command (lookupKeyRead): a missing key counts a keyspace miss and sends
 * `keymiss` (class m), a key found a hit (WRONGTYPE too).
 */
export function readSet(ctx: CommandContext, key: string): RedisSet | undefined {
  const v = ctx.db.lookup(key);
  if (v === undefined || v === null) {
    ctx.db.keyMiss(key);
    return undefined;
  }
  ctx.db.keyHit();
  return v instanceof RedisSet ? v : lookupSet(ctx, key);
}

function adoptLegacySet(ctx: CommandContext, key: string, legacy: Set<unknown>): RedisSet | undefined {
  const members = [...legacy].map(bytesOf);
  if (members.length === 0) {
    ctx.db.remove(key);
    return undefined;
  }
  const limits = setLimitsOf(ctx);
  const set = RedisSet.create(members[0], 1, limits);
  for (const m of members) set.add(m, limits);
  ctx.db.store(key, set, true);
  return set;
}

/** `server.dirty += n` (INFO rdb_changes_since_last_save). */
export function dirty(db: Db, n: number): void {
  if (n !== 0) db.dirty?.(n);
}

/**
 * The most elements a reply of SRANDMEMBER with a negative count may have here. Redis streams
 * such a reply without bound (the client or the server runs out of memory first); the fake
 * answers an error instead of allocating it.
 */
export const MAX_RANDOM_REPLY = 1 << 24;

export function errReplyTooLarge(command: string, count: bigint): string {
  return `ERR [ioredis-mock-streams] ${command} would answer ${count} elements; the fake builds replies of at most ${MAX_RANDOM_REPLY} (Redis streams them until memory runs out)`;
}
