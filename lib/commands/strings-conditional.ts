/**
 * Redis 8.4's string commands beyond SET's IF* conditions (./strings.ts): DELEX and DIGEST
 * (compare-and-delete, redis #14435) and MSETEX (redis #14434). Absent before 8.4 (lib/version.ts
 * COMMAND_SINCE: "unknown command").
 *
 * Sources: redis/redis tests/unit/type/string.tcl of the 8.4 development line (replies, DELEX
 * propagated as DEL, nothing propagated when its condition fails, DIGEST nil / WRONGTYPE / arity),
 * PR #14529 (DELEX checks its arguments before looking the key up), redis/docs
 * data/commands_core.json and redis.io (syntax, arity, flags). The 8.4 t_string.c/db.c were not
 * available: the texts marked "assumed" below are not confirmed against a server or the source.
 */
import { ERR_SYNTAX, errWrongArity, fail } from '../errors';
import type { Reply } from '../reply/reply';
import { is, parseInt64 } from './args';
import { propagationOf } from './propagate';
import { bytesOfStored, digestMatches, digestOf, storeString, stringForRead } from './string-value';
import { EX, EXAT, KEEPTTL, NX, PX, PXAT, XX, exactExpireAtMs, expireAtMs } from './strings';
import type { CommandContext, CommandSpec } from './types';

/**
 * DELEX with a condition on a key that holds another type than a string (what Redis 8.10.2
 * answered, as recorded by a third-party compatibility test; Redis's own test matches `*ERR*`).
 */
export const ERR_DELEX_NOT_STRING = 'ERR Key should be of string type if conditions are specified';
/** DELEX with a token other than IFEQ/IFNE/IFDEQ/IFDNE (the tests match `*Invalid condition*`; the rest assumed). */
export const ERR_DELEX_CONDITION = 'ERR Invalid condition. Use IFEQ, IFNE, IFDEQ, or IFDNE';
/**
 * MSETEX whose numkeys is not an integer in 1..INT_MAX (2147483647): Redis's newer string.tcl
 * matches `*invalid numkeys value*` for a non-integer and for 2147483648 (`MSETEX - error cases`,
 * `MSETEX - overflow protection in numkeys`), while 2147483647 is the pairs error.
 */
export const ERR_MSETEX_NUMKEYS = 'ERR invalid numkeys value';
/** The largest numkeys MSETEX accepts (INT_MAX); above it `ERR invalid numkeys value`. */
const MSETEX_MAX_NUMKEYS = 2147483647n;
/** MSETEX with fewer key-value pairs than numkeys (the tests match `*wrong number of key-value pairs*`). */
export const ERR_MSETEX_PAIRS = 'ERR wrong number of key-value pairs';

/**
 * DELEX key [IFEQ value | IFNE value | IFDEQ digest | IFDNE digest]: 1 when the key was deleted,
 * 0 when it is missing or the condition does not hold. Without a condition the key goes whatever
 * its type (as DEL); with one it must hold a string (`ERR Key should be of string type if
 * conditions are specified`). Only the argument count is checked before the key is looked up
 * (`DELEX k IFEQ` is the arity error even for a missing key, and `DELEX missing FOO x` is 0); the
 * condition's name after the type, an IFDEQ/IFDNE digest's length last. A deletion sends `del` (class g) and
 * is propagated as DEL (UNLINK with lazyfree-lazy-user-del yes, as DEL itself); a refused one
 * changes nothing and is not propagated.
 */
function delex(ctx: CommandContext, argv: string[]): Reply {
  if (argv.length !== 2 && argv.length !== 4) fail(errWrongArity('delex'));
  const db = ctx.db;
  const key = argv[1];
  const cond = argv.length === 4 ? argv[2] : undefined;
  // db.c delexCommand: the key first (missing: 0 whatever the condition), then its type, then the
  // condition's name, then (IFDEQ/IFDNE) the digest's form
  const v = db.lookup(key);
  if (v === undefined) return 0;
  if (cond !== undefined) {
    const s = bytesOfStored(v);
    if (s === undefined) fail(ERR_DELEX_NOT_STRING);
    const match = argv[3];
    let holds: boolean;
    if (is(cond, 'IFEQ')) holds = s === match;
    else if (is(cond, 'IFNE')) holds = s !== match;
    else if (is(cond, 'IFDEQ')) holds = digestMatches(s, match);
    else if (is(cond, 'IFDNE')) holds = !digestMatches(s, match);
    else fail(ERR_DELEX_CONDITION);
    if (!holds) return 0;
  }
  db.remove(key);
  db.notifyEvent('g', 'del', key);
  db.dirty?.(1);
  propagationOf(db)?.rewrite([db.config?.get('lazyfree-lazy-user-del') === 'yes' ? 'UNLINK' : 'DEL', key]);
  return 1;
}

/**
 * DIGEST key: the XXH3-64 of the string value's bytes as 16 lower-case hex digits (an integer
 * value: of its decimal text); nil for a missing key (`keymiss`), WRONGTYPE for another type.
 */
function digest(ctx: CommandContext, argv: string[]): Reply {
  const s = stringForRead(ctx.db, argv[1]);
  return s === undefined ? null : digestOf(s);
}

/**
 * MSETEX numkeys key value [key value …] [NX | XX] [EX s | PX ms | EXAT ts | PXAT ts | KEEPTTL]:
 * sets every pair (any previous type replaced), all with the same expiry; 1, or 0 when NX finds a
 * key that exists / XX one that is missing (then nothing is set). Without an expire option or
 * KEEPTTL the keys lose their TTL, as with MSET. The options follow the pairs, in any order; a
 * repeated or conflicting one, a missing value or anything else is `ERR syntax error`. Events per
 * key: `new` (created), `set`, then `expire` with a TTL; dirty counts one per pair.
 * Errors in order: numkeys, the pairs, the options, the expire time (`ERR invalid expire time in
 * 'msetex' command`). A relative or EXAT expiry is propagated as PXAT (assumed, as SET).
 */
function msetex(ctx: CommandContext, argv: string[]): Reply {
  const n = parseInt64(argv[1]);
  if (n === null || n <= 0n || n > MSETEX_MAX_NUMKEYS) fail(ERR_MSETEX_NUMKEYS);
  const pairsEnd = 2 + 2 * Number(n);
  if (n > BigInt(argv.length) || pairsEnd > argv.length) fail(ERR_MSETEX_PAIRS);
  let flags = 0;
  let expire: string | undefined;
  const ANY_EXPIRE = EX | PX | EXAT | PXAT;
  for (let j = pairsEnd; j < argv.length; j++) {
    const opt = argv[j];
    const hasNext = j < argv.length - 1;
    let f = 0;
    if (is(opt, 'NX')) f = NX;
    else if (is(opt, 'XX')) f = XX;
    else if (is(opt, 'KEEPTTL')) f = KEEPTTL;
    else if (is(opt, 'EX')) f = EX;
    else if (is(opt, 'PX')) f = PX;
    else if (is(opt, 'EXAT')) f = EXAT;
    else if (is(opt, 'PXAT')) f = PXAT;
    const takesValue = (f & ANY_EXPIRE) !== 0;
    const clash = f & (NX | XX) ? flags & (NX | XX) : flags & (ANY_EXPIRE | KEEPTTL);
    if (f === 0 || clash || (takesValue && !hasNext)) fail(ERR_SYNTAX);
    flags |= f;
    if (takesValue) expire = argv[++j];
  }
  const db = ctx.db;
  const at = expire === undefined ? undefined : expireAtMs(expire, flags, ctx.now, 'msetex');
  if (flags & (NX | XX)) {
    for (let j = 2; j < pairsEnd; j += 2) {
      const found = db.lookup(argv[j]) !== undefined;
      if (flags & NX ? found : !found) return 0;
    }
  }
  const exact = at !== undefined && !Number.isSafeInteger(at) ? exactExpireAtMs(expire!, flags, ctx.now) : undefined;
  for (let j = 2; j < pairsEnd; j += 2) {
    const key = argv[j];
    storeString(db, key, argv[j + 1], db.lookup(key) !== undefined, (flags & KEEPTTL) !== 0 || at !== undefined);
    db.notifyEvent('$', 'set', key);
    if (at !== undefined) {
      db.setTtlAt(key, at, exact);
      db.notifyEvent('g', 'expire', key);
    }
  }
  db.dirty?.(Number(n));
  if (at !== undefined && !(flags & PXAT)) {
    const rewritten = argv.slice(0, pairsEnd);
    if (flags & NX) rewritten.push('NX');
    if (flags & XX) rewritten.push('XX');
    propagationOf(db)?.rewrite([...rewritten, 'PXAT', String(exact ?? at)]);
  }
  return 1;
}

export const specs: CommandSpec[] = [
  { name: 'delex', arity: -2, write: true, run: delex },
  { name: 'digest', arity: 2, write: false, run: digest },
  { name: 'msetex', arity: -4, write: true, run: msetex },
];
