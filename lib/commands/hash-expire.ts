/**
 * Hash field expiration, Redis 7.4 (t_hash.c hexpireGenericCommand, httlGenericCommand,
 * hpersistCommand): HEXPIRE, HPEXPIRE, HEXPIREAT, HPEXPIREAT, HTTL, HPTTL, HEXPIRETIME,
 * HPEXPIRETIME, HPERSIST. Unknown commands before 7.4 (lib/version.ts COMMAND_SINCE).
 *
 * Times are ms since the epoch on the keyspace clock (`ctx.now`). Expired fields are removed as
 * ./hash-common.ts describes (all due fields of a hash, whenever a hash command reads it).
 */
import { ERR_NOT_INTEGER, fail } from '../errors';
import { is, parseInt64 } from './args';
import type { Reply } from '../reply/reply';
import { fieldsBlock, lookupHash, readHash } from './hash-common';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec } from './types';

/** t_hash.c HFE_MAX_ABS_TIME_MSEC: EB_EXPIRE_TIME_MAX (2^48 - 1) >> 2, i.e. 2^46 - 1 ms. */
export const HFE_MAX_ABS_TIME_MSEC = 70368744177663;

const ERR_NUMFIELDS_EXPIRE = 'ERR Parameter `numFields` should be greater than 0';
const ERR_NUMFIELDS_POSITIVE = 'ERR Number of fields must be a positive integer';

/** HSETEX_* / HFE_GET_* / HFE_PERSIST_* reply codes. */
const NO_FIELD = -2;
const NO_TTL = -1;
const NO_CONDITION_MET = 0;
const OK_SET = 1;
const DELETED = 2;

type Cond = 'NX' | 'XX' | 'GT' | 'LT' | undefined;

/**
 * HEXPIRE key seconds [NX|XX|GT|LT] FIELDS numfields field …, HPEXPIRE (ms), HEXPIREAT (unix
 * s), HPEXPIREAT (unix ms) → per field: -2 no such field, 0 condition not met, 1 set, 2 deleted
 * (a time not in the future deletes the field). Errors in order: WRONGTYPE; the time not an
 * integer; negative ("invalid expire time, must be >= 0"); beyond 2^46-1 ms absolute ("invalid
 * expire time in '<cmd>' command"); FIELDS missing; numfields < 1 or not an integer
 * ("Parameter `numFields` should be greater than 0"); numfields ≠ the fields given. Events:
 * `hexpire` (h) when fields got a TTL, `hdel` (h) when some were deleted, plus `del` (g) when
 * that emptied the hash. A field without TTL fails XX and GT and passes LT.
 */
function hexpireGeneric(ctx: CommandContext, argv: string[], unitMs: boolean, absolute: boolean): Reply {
  const key = argv[1];
  const h = lookupHash(ctx, key);
  const t = parseInt64(argv[2]);
  if (t === null) fail(ERR_NOT_INTEGER);
  if (t < 0n) fail('ERR invalid expire time, must be >= 0');
  const name = argv[0].toLowerCase();
  const errTime = `ERR invalid expire time in '${name}' command`;
  let expire = t;
  if (!unitMs) {
    if (expire > BigInt(Math.floor(HFE_MAX_ABS_TIME_MSEC / 1000))) fail(errTime);
    expire *= 1000n;
  }
  const basetime = absolute ? 0n : BigInt(Math.floor(ctx.now));
  if (expire > BigInt(HFE_MAX_ABS_TIME_MSEC) - basetime) fail(errTime);
  const at = Number(expire + basetime);
  let cond: Cond;
  let fieldsAt = 3;
  for (const c of ['NX', 'XX', 'GT', 'LT'] as const) {
    if (is(argv[3], c)) {
      cond = c;
      fieldsAt = 4;
    }
  }
  const fields = fieldsBlock(argv, fieldsAt, ERR_NUMFIELDS_EXPIRE);
  if (h === undefined) return fields.map(() => NO_FIELD);
  h.prepareTtls();
  let updated = 0;
  let deleted = 0;
  const p = propagationOf(ctx.db);
  const kept: string[] = [];
  const out = fields.map((field) => {
    const prev = h.expireAtOf(field);
    if (prev === undefined) return NO_FIELD;
    if (prev === 0) {
      if (cond === 'XX' || cond === 'GT') return NO_CONDITION_MET;
    } else if ((cond === 'GT' && prev >= at) || (cond === 'LT' && prev <= at) || cond === 'NX') {
      return NO_CONDITION_MET;
    }
    if (at <= ctx.now) {
      h.delete(field);
      deleted++;
      p?.also(['HDEL', key, field]); // propagateHashFieldDeletion
      return DELETED;
    }
    h.setExpireAt(field, at);
    updated++;
    kept.push(field);
    return OK_SET;
  });
  if (p !== null) {
    // propagated as HPEXPIREAT key <absolute ms> [cond] FIELDS <n> <the fields set>, not at all
    // when none was set (t_hash.c hexpireGenericCommand's rewrites)
    if (updated === 0) p.prevent();
    else {
      const numFields = updated === fields.length ? argv[fieldsAt + 1] : String(updated);
      const name = absolute && unitMs ? argv[0] : 'HPEXPIREAT';
      const time = absolute && unitMs ? argv[2] : String(at);
      p.rewrite([name, key, time, ...argv.slice(3, fieldsAt + 1), numFields, ...kept]);
    }
  }
  if (deleted > 0) ctx.db.subkeysExpired?.(deleted); // hashTypeSetEx: a past time expires the field
  if (updated + deleted > 0) {
    ctx.db.dirty?.(updated + deleted);
    ctx.db.touch(key);
    if (deleted > 0 && h.size === 0) {
      ctx.db.remove(key);
      ctx.db.notifyEvent('h', 'hdel', key);
      ctx.db.notifyEvent('g', 'del', key);
    } else {
      ctx.db.notifyEvent('h', deleted > 0 ? 'hdel' : 'hexpire', key);
    }
  }
  return out;
}

/**
 * HTTL / HPTTL key FIELDS numfields field … → per field the time to live (s rounded up, or
 * ms), -1 without TTL, -2 no such field. HEXPIRETIME / HPEXPIRETIME: the absolute expiry (unix
 * s rounded up, or ms). Errors: WRONGTYPE, FIELDS missing, numfields ("Number of fields must be
 * a positive integer"), count mismatch.
 */
function httlGeneric(ctx: CommandContext, argv: string[], unitMs: boolean, absolute: boolean): Reply {
  const h = readHash(ctx, argv[1]);
  const fields = fieldsBlock(argv, 2, ERR_NUMFIELDS_POSITIVE);
  const basetime = absolute ? 0 : Math.floor(ctx.now);
  // A field is kept during the ms of its deadline (lazy expiry: at < now), but in a listpack
  // httlGenericCommand already answers -2 then (`expire <= commandTimeSnapshot()`); its hash
  // table path answers -2 only when `expire < now` (so 0 / the deadline at that ms).
  const dueAt = h !== undefined && !h.isHashtable ? Math.floor(ctx.now) : -1;
  return fields.map((field) => {
    const at = h?.expireAtOf(field);
    if (at === undefined) return NO_FIELD;
    if (at === 0) return NO_TTL;
    if (at <= dueAt) return NO_FIELD;
    return unitMs ? at - basetime : Math.floor((at + 999 - basetime) / 1000);
  });
}

/**
 * HPERSIST key FIELDS numfields field … → per field 1 TTL removed, -1 no TTL, -2 no such field.
 * Event `hpersist` (h) once when a TTL was removed (dirty + 1). Errors as HTTL.
 */
function hpersist(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const h = lookupHash(ctx, key);
  const fields = fieldsBlock(argv, 2, ERR_NUMFIELDS_POSITIVE);
  let changed = false;
  const out = fields.map((field) => {
    const at = h?.expireAtOf(field);
    if (at === undefined) return NO_FIELD;
    if (at === 0) return NO_TTL;
    h!.persist(field);
    changed = true;
    return OK_SET;
  });
  if (changed) {
    ctx.db.notifyEvent('h', 'hpersist', key);
    ctx.db.touch(key);
    ctx.db.dirty?.(1);
  }
  return out;
}

export const specs: CommandSpec[] = [
  { name: 'hexpire', arity: -6, write: true, run: (ctx, argv) => hexpireGeneric(ctx, argv, false, false) },
  { name: 'hpexpire', arity: -6, write: true, run: (ctx, argv) => hexpireGeneric(ctx, argv, true, false) },
  { name: 'hexpireat', arity: -6, write: true, run: (ctx, argv) => hexpireGeneric(ctx, argv, false, true) },
  { name: 'hpexpireat', arity: -6, write: true, run: (ctx, argv) => hexpireGeneric(ctx, argv, true, true) },
  { name: 'httl', arity: -5, write: false, run: (ctx, argv) => httlGeneric(ctx, argv, false, false) },
  { name: 'hpttl', arity: -5, write: false, run: (ctx, argv) => httlGeneric(ctx, argv, true, false) },
  { name: 'hexpiretime', arity: -5, write: false, run: (ctx, argv) => httlGeneric(ctx, argv, false, true) },
  { name: 'hpexpiretime', arity: -5, write: false, run: (ctx, argv) => httlGeneric(ctx, argv, true, true) },
  { name: 'hpersist', arity: -5, write: true, run: hpersist },
];
