/**
 * Key TTLs on the keyspace clock (expire.c), for any value type:
 *
 * EXPIRE key seconds [NX|XX|GT|LT] / PEXPIRE key ms … / EXPIREAT key unix-seconds … /
 * PEXPIREAT key unix-ms … — 1 when the TTL was set, 0 when the key is missing or the option's
 *   condition fails (NX: the key has no TTL; XX: it has one; GT: the new time is later than the
 *   current one, a key without TTL counting as infinite; LT: earlier). A time at or before the
 *   command's time deletes the key (event `del`, not `expired`); otherwise event `expire`.
 *   Errors in Redis's order: every option first (`ERR Unsupported option <opt>`), then `ERR NX
 *   and XX, GT or LT options at the same time are not compatible`, `ERR GT and LT options at
 *   the same time are not compatible`, then the time (`ERR value is not an integer or out of
 *   range`; `ERR invalid expire time in '<command>' command` when seconds × 1000 leaves the
 *   signed 64-bit range or the base time added overflows it).
 * TTL / PTTL key — seconds (rounded to the nearest) / ms left; -1 without TTL, -2 without key.
 * EXPIRETIME / PEXPIRETIME key — the absolute expiry in unix seconds (rounded) / ms (7.0);
 *   -1, -2 likewise.
 * PERSIST key — 1 when a TTL was removed (event `persist`), else 0.
 *
 * Times are ms on the keyspace clock (`ctx.now`, Redis commandTimeSnapshot). Expiry times past
 * 2^53 ms are kept as the nearest JS number (Redis keeps the exact 64-bit value). Checked on
 * redis-server 7.0.15 and the post-7.4 build.
 */
import { errorArg, fail, ERR_NOT_INTEGER } from '../errors';
import { is, parseInt64 } from './args';
import { deletionName, propagationOf } from './propagate';
import type { CommandContext, CommandHandler, CommandSpec, Reply } from './types';

const LLONG_MAX = 2n ** 63n - 1n;
const LLONG_MIN = -(2n ** 63n);

const NX = 1;
const XX = 2;
const GT = 4;
const LT = 8;

/** expire.c parseExtendedExpireArgumentsOrReply: the NX/XX/GT/LT flags of argv[3…]. */
function parseFlags(argv: string[]): number {
  let flags = 0;
  for (let j = 3; j < argv.length; j++) {
    const opt = argv[j];
    if (is(opt, 'NX')) flags |= NX;
    else if (is(opt, 'XX')) flags |= XX;
    else if (is(opt, 'GT')) flags |= GT;
    else if (is(opt, 'LT')) flags |= LT;
    else fail(`ERR Unsupported option ${errorArg(opt)}`);
  }
  if (flags & NX && flags & (XX | GT | LT)) fail('ERR NX and XX, GT or LT options at the same time are not compatible');
  if (flags & GT && flags & LT) fail('ERR GT and LT options at the same time are not compatible');
  return flags;
}

/** expireGenericCommand: `relative` adds the command time; `seconds` multiplies by 1000. */
const expireGeneric =
  (relative: boolean, seconds: boolean): CommandHandler =>
  (ctx, argv): Reply => {
    const db = ctx.db;
    const key = argv[1];
    const flags = parseFlags(argv);
    let when = parseInt64(argv[2]);
    if (when === null) fail(ERR_NOT_INTEGER);
    const invalid = `ERR invalid expire time in '${argv[0].toLowerCase()}' command`;
    if (seconds) {
      if (when > LLONG_MAX / 1000n || when < LLONG_MIN / 1000n) fail(invalid);
      when *= 1000n;
    }
    const base = relative ? BigInt(ctx.now) : 0n;
    if (when > LLONG_MAX - base) fail(invalid);
    when += base;
    if (db.lookup(key) === undefined) return 0;
    if (flags !== 0) {
      const current = db.ttlAt(key);
      if (flags & NX && current !== undefined) return 0;
      if (flags & XX && current === undefined) return 0;
      // compared exactly, as Redis's long long times (past 2^53 ms the keyspace keeps the exact
      // time beside its double: `PEXPIREAT k 9007199254740992 LT` after …993 is 1)
      const exact = current === undefined ? undefined : (db.ttlAtExact?.(key) ?? BigInt(current));
      if (flags & GT && (exact === undefined || when <= exact)) return 0;
      if (flags & LT && exact !== undefined && when >= exact) return 0;
    }
    if (when <= BigInt(ctx.now)) {
      db.remove(key);
      db.notifyEvent('g', 'del', key);
      db.dirty?.(1);
      propagationOf(ctx.db)?.rewrite([deletionName(ctx, 'lazyfree-lazy-expire'), key]);
      return 1;
    }
    db.setTtlAt(key, Number(when), when);
    db.touch(key);
    db.notifyEvent('g', 'expire', key);
    db.dirty?.(1);
    // propagated as PEXPIREAT key <absolute ms> [options]
    const p = propagationOf(ctx.db);
    if (p !== null && (relative || seconds)) p.rewrite(['PEXPIREAT', key, String(when), ...argv.slice(3)]);
    return 1;
  };

const INT64_LIMIT = 2 ** 63;
const INT64_MAX = 9223372036854775807n;

/** ttlGenericCommand: `ms` answers in ms (else rounded seconds), `absolute` the expiry time itself. */
const ttlGeneric =
  (ms: boolean, absolute: boolean): CommandHandler =>
  (ctx, argv): Reply => {
    const db = ctx.db;
    if (db.lookup(argv[1], true) === undefined) {
      db.keyMiss(argv[1]); // lookupKeyReadWithFlags
      return -2;
    }
    db.keyHit();
    const at = db.ttlAt(argv[1]);
    if (at === undefined) return -1;
    if (!Number.isSafeInteger(at)) {
      // past 2^53 ms: the exact time (Redis's long long arithmetic)
      const exact = db.ttlAtExact?.(argv[1]) ?? (at >= INT64_LIMIT ? INT64_MAX : BigInt(at));
      let big = absolute ? exact : exact - BigInt(ctx.now);
      if (big < 0n) big = 0n;
      const out = ms ? big : (big + 500n) / 1000n;
      const n = Number(out);
      return BigInt(n) === out ? n : out; // a number where it is exact (the reply's digits are the same)
    }
    let ttl = absolute ? at : at - ctx.now;
    if (ttl < 0) ttl = 0;
    return ms ? ttl : Math.floor((ttl + 500) / 1000);
  };

function persist(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  if (db.lookup(key) === undefined || !db.persist(key)) return 0;
  db.touch(key);
  db.notifyEvent('g', 'persist', key);
  db.dirty?.(1);
  return 1;
}

export const specs: CommandSpec[] = [
  { name: 'expire', arity: -3, write: true, run: expireGeneric(true, true) },
  { name: 'pexpire', arity: -3, write: true, run: expireGeneric(true, false) },
  { name: 'expireat', arity: -3, write: true, run: expireGeneric(false, true) },
  { name: 'pexpireat', arity: -3, write: true, run: expireGeneric(false, false) },
  { name: 'ttl', arity: 2, write: false, run: ttlGeneric(false, false) },
  { name: 'pttl', arity: 2, write: false, run: ttlGeneric(true, false) },
  { name: 'expiretime', arity: 2, write: false, run: ttlGeneric(false, true) },
  { name: 'pexpiretime', arity: 2, write: false, run: ttlGeneric(true, true) },
  { name: 'persist', arity: 2, write: true, run: persist },
];
