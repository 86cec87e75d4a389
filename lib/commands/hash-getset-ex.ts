/**
 * Redis 8.0's hash commands with field expiry: HGETDEL, HGETEX, HSETEX (t_hash.c of Redis 8:
 * hgetdelCommand, hgetexCommand, hsetexCommand / hsetexParseArgs / parseExpireTime). Unknown
 * commands before 8.0 (lib/version.ts COMMAND_SINCE).
 *
 * Written from the Redis 8 source; no 8.0 server was at hand to compare replies with, unlike the
 * other hash commands (the post-7.4 build predates these commands). Events follow the command
 * code: HSETEX `hset` then `hexpire` (or `hdel` when a past time deleted fields), HGETEX
 * `hexpire` / `hpersist` / `hdel`, HGETDEL `hdel`; `del` (g) when the hash is left empty.
 * Replicas get them as Redis's newer tests/unit/type/hash-field-expire.tcl expects: HSETEX with
 * EX/PX/EXAT as PXAT <absolute ms> in the option's place, HGETEX as HPEXPIREAT key <ms> FIELDS …
 * or HPERSIST key FIELDS …, HGETDEL as HDEL key field …, and a past time as an HDEL per field.
 */
import { ERR_NOT_INTEGER, errWrongArity, errorArg, fail } from '../errors';
import { is, parseInt64 } from './args';
import type { Reply } from '../reply/reply';
import { deleteEmptied, fieldsBlock, hashForWrite, hashLimits, lookupHash } from './hash-common';
import { HFE_MAX_ABS_TIME_MSEC } from './hash-expire';
import { propagationOf } from './propagate';
import type { CommandContext, CommandSpec } from './types';

const ERR_NUMFIELDS_POSITIVE = 'ERR Number of fields must be a positive integer';

/** t_hash.c parseExpireTime: `text` in s or ms, plus `basetime` (ms); the absolute expiry in ms. */
function parseExpireTime(text: string, seconds: boolean, basetime: number, cmd: string): number {
  const v = parseInt64(text);
  if (v === null) fail(ERR_NOT_INTEGER);
  if (v < 0n) fail('ERR invalid expire time, must be >= 0');
  const errTime = `ERR invalid expire time in '${cmd}' command`;
  let ms = v;
  if (seconds) {
    if (ms > BigInt(Math.floor(HFE_MAX_ABS_TIME_MSEC / 1000))) fail(errTime);
    ms *= 1000n;
  }
  if (ms > BigInt(HFE_MAX_ABS_TIME_MSEC - basetime)) fail(errTime);
  return Number(ms) + basetime;
}

/**
 * HGETDEL key FIELDS numfields field … → the values (nil for missing fields), the fields
 * deleted; the key goes with its last field. Errors: WRONGTYPE, FIELDS missing, numfields
 * ("Number of fields must be a positive integer"), count mismatch.
 */
function hgetdel(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const h = lookupHash(ctx, key);
  const fields = fieldsBlock(argv, 2, ERR_NUMFIELDS_POSITIVE);
  let deleted = 0;
  const out: Reply[] = fields.map((field) => {
    const v = h?.get(field);
    if (v === undefined) return null;
    h!.delete(field);
    deleted++;
    return v;
  });
  if (deleted > 0) {
    // propagated as HDEL key field … (the fields as given), as Redis's newer hash-field-expire.tcl
    // expects ({hdel h4 f4} for HGETDEL h4 FIELDS 1 f4)
    propagationOf(ctx.db)?.rewrite(['HDEL', key, ...fields]);
    ctx.db.touch(key);
    ctx.db.notifyEvent('h', 'hdel', key);
    ctx.db.dirty?.(deleted);
    if (h!.size === 0) deleteEmptied(ctx, key);
  }
  return out;
}

/**
 * HGETEX key [EX s | PX ms | EXAT unix-s | PXAT unix-ms | PERSIST] FIELDS numfields field … →
 * the values (nil for missing fields), then the existing fields get the TTL (a time not in the
 * future deletes them) or lose it (PERSIST). Errors: WRONGTYPE, the time (not an integer,
 * negative, beyond 2^46-1 ms), FIELDS missing, numfields, count mismatch.
 */
function hgetex(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const h = lookupHash(ctx, key);
  const cmd = argv[0].toLowerCase();
  let mode: 'EX' | 'PX' | 'EXAT' | 'PXAT' | 'PERSIST' | undefined;
  for (const m of ['EX', 'PX', 'EXAT', 'PXAT', 'PERSIST'] as const) if (is(argv[2], m)) mode = m;
  let fieldsAt = 2;
  let at = 0;
  if (mode !== undefined && mode !== 'PERSIST') {
    fieldsAt = 4;
    const relative = mode === 'EX' || mode === 'PX';
    at = parseExpireTime(argv[3], mode === 'EX' || mode === 'EXAT', relative ? Math.floor(ctx.now) : 0, cmd);
  } else if (mode === 'PERSIST') fieldsAt = 3;
  const fields = fieldsBlock(argv, fieldsAt, ERR_NUMFIELDS_POSITIVE);
  if (h === undefined) return fields.map(() => null);
  if (mode !== undefined) h.prepareTtls();
  let updated = 0;
  let deleted = 0;
  const p = propagationOf(ctx.db);
  const out: Reply[] = fields.map((field) => {
    const v = h.get(field);
    if (v === undefined) return null;
    if (mode === 'PERSIST') {
      if (h.persist(field)) updated++;
    } else if (mode !== undefined) {
      if (at <= ctx.now) {
        h.delete(field);
        deleted++;
        p?.also(['HDEL', key, field]);
      } else {
        h.setExpireAt(field, at);
        updated++;
      }
    }
    return v;
  });
  if (updated + deleted === 0) return out;
  // never propagated as sent (Redis's newer hash-field-expire.tcl): an HDEL per field a past time
  // deleted, HPERSIST key FIELDS n … for PERSIST, HPEXPIREAT key <ms> FIELDS n … for a TTL
  if (p !== null) {
    if (deleted > 0) p.prevent();
    else if (mode === 'PERSIST') p.rewrite(['HPERSIST', key, 'FIELDS', String(fields.length), ...fields]);
    else p.rewrite(['HPEXPIREAT', key, String(at), 'FIELDS', String(fields.length), ...fields]);
  }
  if (deleted > 0) ctx.db.subkeysExpired?.(deleted); // hashTypeSetEx: a past time expires the field
  ctx.db.dirty?.(updated + deleted);
  ctx.db.touch(key);
  if (updated > 0) ctx.db.notifyEvent('h', mode === 'PERSIST' ? 'hpersist' : 'hexpire', key);
  else ctx.db.notifyEvent('h', 'hdel', key);
  if (h.size === 0) deleteEmptied(ctx, key);
  return out;
}

type SetexFlags = { cond?: 'FNX' | 'FXX'; ttl?: 'EX' | 'PX' | 'EXAT' | 'PXAT' | 'KEEPTTL'; at: number; first: number; count: number };

/** t_hash.c hsetexParseArgs: options in any order up to FIELDS, errors in argument order. */
function parseSetex(ctx: CommandContext, argv: string[]): SetexFlags {
  const out: SetexFlags = { at: 0, first: -1, count: -1 };
  const cmd = argv[0].toLowerCase();
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (is(a, 'FIELDS')) {
      if (i >= argv.length - 3) fail(errWrongArity(cmd));
      const n = parseInt64(argv[i + 1]);
      if (n === null || n < 1n || n > 2147483647n) fail('ERR invalid number of fields');
      const remaining = argv.length - i - 2;
      if (remaining % 2 !== 0 || Number(n) !== remaining / 2) fail(errWrongArity(cmd));
      out.first = i + 2;
      out.count = Number(n);
      return out;
    }
    const ttl = (['EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL'] as const).find((w) => is(a, w));
    if (ttl !== undefined) {
      if (out.ttl !== undefined) fail('ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified');
      out.ttl = ttl;
      if (ttl === 'KEEPTTL') continue;
      if (i >= argv.length - 1) fail('ERR missing expire time');
      i++;
      const relative = ttl === 'EX' || ttl === 'PX';
      out.at = parseExpireTime(argv[i], ttl === 'EX' || ttl === 'EXAT', relative ? Math.floor(ctx.now) : 0, cmd);
      continue;
    }
    if (is(a, 'FXX') || is(a, 'FNX')) {
      if (out.cond !== undefined) fail('ERR Only one of FXX or FNX arguments can be specified');
      out.cond = is(a, 'FXX') ? 'FXX' : 'FNX';
      continue;
    }
    fail(`ERR unknown argument: ${errorArg(a)}`);
  }
  fail('ERR syntax error'); // no FIELDS block (Redis asserts it cannot get here)
}

/**
 * HSETEX key [FNX | FXX] [EX s | PX ms | EXAT unix-s | PXAT unix-ms | KEEPTTL] FIELDS numfields
 * field value … → 1 when the fields were set, 0 when FNX (none may exist) or FXX (all must
 * exist) refused. Without a TTL option the fields lose their TTL (as HSET); KEEPTTL keeps it; a
 * time not in the future deletes the fields just set.
 */
function hsetex(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const opts = parseSetex(ctx, argv);
  const existing = lookupHash(ctx, key);
  if (existing === undefined && opts.cond === 'FXX') return 0;
  const h = existing ?? hashForWrite(ctx, key);
  const fieldAt = (i: number) => argv[opts.first + 2 * i];
  if (opts.cond !== undefined) {
    let found = 0;
    for (let i = 0; i < opts.count; i++) {
      const exists = h.has(fieldAt(i));
      if (exists) found++;
      if ((opts.cond === 'FXX' && !exists) || (opts.cond === 'FNX' && exists)) break;
    }
    if ((opts.cond === 'FNX' && found !== 0) || (opts.cond === 'FXX' && found !== opts.count)) {
      if (h.size === 0) ctx.db.remove(key);
      return 0;
    }
  }
  const limits = hashLimits(ctx);
  h.convertForArgs(limits, argv.slice(opts.first), opts.count);
  const setExpiry = opts.ttl !== undefined && opts.ttl !== 'KEEPTTL';
  if (setExpiry) h.prepareTtls();
  let updated = 0;
  let deleted = 0;
  const p = propagationOf(ctx.db);
  for (let i = 0; i < opts.count; i++) {
    const field = fieldAt(i);
    h.set(field, argv[opts.first + 2 * i + 1], opts.ttl !== undefined);
    if (!setExpiry) continue;
    if (opts.at <= ctx.now) {
      if (h.delete(field)) {
        deleted++;
        p?.also(['HDEL', key, field]);
      }
    } else {
      h.setExpireAt(field, opts.at);
      updated++;
    }
  }
  h.convertIfNeeded(limits);
  // Redis's newer hash-field-expire.tcl: a past time propagates the HDELs alone; EX, PX and EXAT
  // are propagated as PXAT <absolute ms> in their place (KEEPTTL, PXAT, none: as sent)
  if (p !== null) {
    if (deleted > 0) p.prevent();
    else if (setExpiry && opts.ttl !== 'PXAT') {
      const at = argv.findIndex((a, i) => i >= 2 && i < opts.first - 2 && is(a, opts.ttl!));
      p.rewrite([...argv.slice(0, at), 'PXAT', String(opts.at), ...argv.slice(at + 2)]);
    }
  }
  if (deleted > 0) ctx.db.subkeysExpired?.(deleted); // hashTypeSetEx: a past time expires the field
  ctx.db.dirty?.(opts.count);
  ctx.db.touch(key);
  ctx.db.notifyEvent('h', 'hset', key);
  if (deleted > 0 || updated > 0) ctx.db.notifyEvent('h', deleted > 0 ? 'hdel' : 'hexpire', key);
  if (h.size === 0) deleteEmptied(ctx, key);
  return 1;
}

export const specs: CommandSpec[] = [
  { name: 'hgetdel', arity: -5, write: true, run: hgetdel },
  { name: 'hgetex', arity: -5, write: true, run: hgetex },
  { name: 'hsetex', arity: -6, write: true, run: hsetex },
];
