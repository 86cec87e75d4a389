/**
 * The set commands on one or two keys (t_set.c): SADD, SREM, SCARD, SISMEMBER, SMISMEMBER,
 * SMEMBERS, SMOVE, SPOP, SRANDMEMBER, SSCAN. Members are byte strings; the value is a
 * `RedisSet` (lib/model/set.ts), whose encoding follows Redis's conversions.
 *
 * Replies (RESP3 types as Redis sends them): SMEMBERS and SPOP with a count are sets (RESP2
 * arrays; `SPOP key 1` is a one-element set), SRANDMEMBER with a count an array, SMISMEMBER an
 * array of 0/1, SSCAN `[cursor, members]`. Order: an intset answers ascending, a listpack in
 * insertion order; a hash table in insertion order here (Redis: hash order, not reproducible).
 * Random choices (SPOP, SRANDMEMBER) come from the keyspace's seeded generator: uniform, and the
 * same on every run, but not Redis's.
 *
 * Keyspace events (class `s` unless said): `sadd`; `srem` (then `g` `del` when the key goes);
 * SMOVE `srem` on the source (`g` `del` if emptied) then `sadd` on the destination only if the
 * member was new there; `spop` (then `g` `del`).
 *
 * Errors in Redis's order: arity; SPOP/SRANDMEMBER with more than one extra argument `ERR syntax
 * error`; their count before the key (`ERR value is out of range, must be positive` for SPOP,
 * non-integer included; SRANDMEMBER `ERR value is not an integer or out of range` and `ERR value
 * is out of range, value must between -9223372036854775807 and 9223372036854775807`); WRONGTYPE.
 * SSCAN: `ERR invalid cursor` before the key, then the options after it (a missing key answers
 * `0` and no members without reading them).
 */
import { globMatch } from '../bytes/glob';
import { ERR_NOT_INTEGER, ERR_SYNTAX, fail } from '../errors';
import { RedisSet } from '../model/set';
import { SetReply } from '../reply/reply';
import { INT64_MAX, parseInt64 } from './args';
import { MAX_RANDOM_REPLY, dirty, errReplyTooLarge, lookupSet, readSet, randomBelow, setLimitsOf } from './set-common';
import type { CommandContext, CommandSpec, Reply } from './types';
import { deletionName, propagationOf } from './propagate';
import { parseScanCursor, parseScanOptions } from './scan-args';

const ERR_MUST_BE_POSITIVE = 'ERR value is out of range, must be positive';
const ERR_SRANDMEMBER_RANGE = 'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807';

/** SADD key member [member ...] — reply: members added. */
function sadd(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const limits = setLimitsOf(ctx);
  let set = lookupSet(ctx, key);
  const hint = argv.length - 2;
  if (set === undefined) {
    set = RedisSet.create(argv[2], hint, limits);
    ctx.db.store(key, set);
    ctx.db.notifyEvent('n', 'new', key); // dbAdd
  } else if (limits.listpack) {
    set.maybeConvert(hint, limits);
  }
  let added = 0;
  for (let j = 2; j < argv.length; j++) if (set.add(argv[j], limits)) added++;
  if (added) {
    ctx.db.touch(key);
    ctx.db.notifyEvent('s', 'sadd', key);
  }
  dirty(ctx.db, added);
  return added;
}

/** SREM key member [member ...] — reply: members removed; the key goes with its last member. */
function srem(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const set = lookupSet(ctx, key);
  if (set === undefined) return 0;
  let deleted = 0;
  let keyRemoved = false;
  for (let j = 2; j < argv.length; j++) {
    if (set.remove(argv[j])) {
      deleted++;
      if (set.size === 0) {
        ctx.db.remove(key);
        keyRemoved = true;
        break;
      }
    }
  }
  if (deleted) {
    ctx.db.touch(key);
    ctx.db.notifyEvent('s', 'srem', key);
    if (keyRemoved) ctx.db.notifyEvent('g', 'del', key);
    dirty(ctx.db, deleted);
  }
  return deleted;
}

/**
 * SMOVE source destination member — reply 1 if moved (or, source = destination, if a member),
 * else 0. A missing source answers 0 before either type is checked (t_set.c smoveCommand).
 */
function smove(ctx: CommandContext, argv: string[]): Reply {
  const [, srcKey, dstKey, member] = argv;
  const src = ctx.db.lookup(srcKey);
  if (src === undefined || src === null) return 0;
  const srcSet = lookupSet(ctx, srcKey) as RedisSet;
  let dstSet = lookupSet(ctx, dstKey);
  if (srcSet === dstSet) return srcSet.has(member) ? 1 : 0;
  if (!srcSet.remove(member)) return 0;
  ctx.db.notifyEvent('s', 'srem', srcKey);
  if (srcSet.size === 0) {
    ctx.db.remove(srcKey);
    ctx.db.notifyEvent('g', 'del', srcKey);
  }
  const limits = setLimitsOf(ctx);
  if (dstSet === undefined) {
    dstSet = RedisSet.create(member, 1, limits);
    ctx.db.store(dstKey, dstSet);
    ctx.db.notifyEvent('n', 'new', dstKey); // dbAdd
  }
  ctx.db.touch(srcKey);
  dirty(ctx.db, 1);
  if (dstSet.add(member, limits)) {
    dirty(ctx.db, 1);
    ctx.db.touch(dstKey);
    ctx.db.notifyEvent('s', 'sadd', dstKey);
  }
  return 1;
}

function sismember(ctx: CommandContext, argv: string[]): Reply {
  const set = readSet(ctx, argv[1]);
  return set !== undefined && set.has(argv[2]) ? 1 : 0;
}

/** SMISMEMBER key member [member ...] — an array of 1/0; a missing key is an empty set. */
function smismember(ctx: CommandContext, argv: string[]): Reply {
  const set = readSet(ctx, argv[1]);
  const out: number[] = new Array(argv.length - 2);
  for (let j = 2; j < argv.length; j++) out[j - 2] = set !== undefined && set.has(argv[j]) ? 1 : 0;
  return out;
}

function scard(ctx: CommandContext, argv: string[]): Reply {
  return readSet(ctx, argv[1])?.size ?? 0;
}

function smembers(ctx: CommandContext, argv: string[]): Reply {
  const set = readSet(ctx, argv[1]);
  return new SetReply(set === undefined ? [] : set.members());
}

// ---------------------------------------------------------------------------------------------
// SPOP

/** t_set.c SPOP_MOVE_STRATEGY_MUL. */
const SPOP_MOVE_STRATEGY_MUL = 5;

/** SPOP key [count] — a member (nil when missing), or with a count a set of up to `count` members. */
function spop(ctx: CommandContext, argv: string[]): Reply {
  if (argv.length === 3) return spopWithCount(ctx, argv);
  if (argv.length > 3) fail(ERR_SYNTAX);
  const key = argv[1];
  const set = lookupSet(ctx, key);
  if (set === undefined) return null;
  const member = set.popRandom(randomBelow(ctx));
  ctx.db.notifyEvent('s', 'spop', key);
  if (set.size === 0) {
    ctx.db.remove(key);
    ctx.db.notifyEvent('g', 'del', key);
  }
  ctx.db.touch(key);
  dirty(ctx.db, 1);
  propagationOf(ctx.db)?.rewrite(['SREM', key, member]);
  return member;
}

function spopWithCount(ctx: CommandContext, argv: string[]): Reply {
  const parsed = parseInt64(argv[2]);
  if (parsed === null || parsed < 0n) fail(ERR_MUST_BE_POSITIVE);
  const key = argv[1];
  const set = lookupSet(ctx, key);
  if (set === undefined || parsed === 0n) return new SetReply([]);
  const size = set.size;
  const count = parsed >= BigInt(size) ? size : Number(parsed);
  ctx.db.notifyEvent('s', 'spop', key);
  dirty(ctx.db, count);
  const rand = randomBelow(ctx);
  const limits = setLimitsOf(ctx);

  // CASE 1: the whole set (through a union's temporary set: an intset answers ascending)
  if (count === size) {
    const members = set.members();
    ctx.db.remove(key);
    ctx.db.notifyEvent('g', 'del', key);
    ctx.db.touch(key);
    propagationOf(ctx.db)?.rewrite([deletionName(ctx, 'lazyfree-lazy-server-del'), key]);
    return new SetReply(members);
  }

  const remaining = size - count;
  const out: string[] = [];
  if (remaining * SPOP_MOVE_STRATEGY_MUL > count) {
    // CASE 2: pop `count` random members
    if (set.encoding() === 'listpack') {
      const picked = set.sampleIndexes(count, rand);
      for (const i of picked) out.push(set.at(i));
      set.removeIndexes(picked);
    } else {
      for (let i = 0; i < count; i++) out.push(set.popRandom(rand));
    }
  } else {
    // CASE 3: keep `remaining` random members in a new set; answer the rest
    let kept: RedisSet | undefined;
    if (set.encoding() === 'listpack') {
      kept = RedisSet.empty('listpack');
      const picked = set.sampleIndexes(remaining, rand);
      for (const i of picked) kept.add(set.at(i), limits);
      set.removeIndexes(picked);
    } else {
      for (let i = 0; i < remaining; i++) {
        const m = set.random(rand);
        if (kept === undefined) {
          // 7.2+: a listpack for a hash table's member, an intset for an intset's; 7.0: setTypeCreate
          if (!limits.listpack) kept = RedisSet.create(m, 1, limits);
          else kept = RedisSet.empty(set.encoding() === 'intset' ? 'intset' : 'listpack');
        }
        kept.add(m, limits);
        set.remove(m);
      }
    }
    for (const m of set.members()) out.push(m);
    set.adopt(kept as RedisSet);
  }
  ctx.db.touch(key);
  // propagated as SREMs of the popped members, 1024 at most each
  const p = propagationOf(ctx.db);
  if (p !== null) {
    for (let i = 0; i < out.length; i += 1024) p.also(['SREM', key, ...out.slice(i, i + 1024)]);
    p.prevent();
  }
  return new SetReply(out);
}

// ---------------------------------------------------------------------------------------------
// SRANDMEMBER

/** t_set.c SRANDMEMBER_SUB_STRATEGY_MUL. */
const SRANDMEMBER_SUB_STRATEGY_MUL = 3;

/**
 * SRANDMEMBER key [count] — a random member (nil when missing); with a count ≥ 0 up to `count`
 * distinct members, with a negative count exactly |count| members, repetitions allowed (at most
 * MAX_RANDOM_REPLY here: a larger reply is an error, see set-common.ts).
 */
function srandmember(ctx: CommandContext, argv: string[]): Reply {
  if (argv.length === 3) return srandmemberWithCount(ctx, argv);
  if (argv.length > 3) fail(ERR_SYNTAX);
  const set = readSet(ctx, argv[1]);
  if (set === undefined) return null;
  return set.random(randomBelow(ctx));
}

function srandmemberWithCount(ctx: CommandContext, argv: string[]): Reply {
  const l = parseInt64(argv[2]);
  if (l === null) fail(ERR_NOT_INTEGER);
  if (l < -INT64_MAX) fail(ERR_SRANDMEMBER_RANGE);
  const unique = l >= 0n;
  const wanted = unique ? l : -l;
  const set = readSet(ctx, argv[1]);
  if (set === undefined || wanted === 0n) return [];
  const size = set.size;
  const rand = randomBelow(ctx);

  // CASE 1: repetitions allowed (or a single member)
  if (!unique || wanted === 1n) {
    if (wanted > BigInt(MAX_RANDOM_REPLY)) fail(errReplyTooLarge('SRANDMEMBER', wanted));
    const n = Number(wanted);
    const out: string[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = set.random(rand);
    return out;
  }
  // CASE 2: the whole set
  if (wanted >= BigInt(size)) return set.members();
  const count = Number(wanted);
  // CASE 2.5 (7.2+): a listpack samples in order
  if (set.encoding() === 'listpack') return set.sampleIndexes(count, rand).map((i) => set.at(i));
  if (count * SRANDMEMBER_SUB_STRATEGY_MUL > size) {
    // CASE 3: all members, then drop random ones down to `count`
    const all = set.members();
    let n = all.length;
    while (n > count) {
      const i = rand(n);
      all[i] = all[--n];
    }
    all.length = count;
    return all;
  }
  // CASE 4: random members until `count` distinct ones
  const picked = new Set<string>();
  while (picked.size < count) picked.add(set.random(rand));
  return [...picked];
}

// ---------------------------------------------------------------------------------------------
// SSCAN

/**
 * SSCAN key cursor [MATCH pattern] [COUNT count] — `[next cursor, members]`. An intset or
 * listpack answers every member at once with cursor 0 (as Redis: COUNT is ignored); a hash
 * table about COUNT members per call (default 10), the cursor naming the next slot, so a member
 * present for the whole iteration is returned exactly once (Redis: at least once).
 */
function sscan(ctx: CommandContext, argv: string[]): Reply {
  const cursor = parseScanCursor(argv[2], ctx.version);
  const set = readSet(ctx, argv[1]);
  if (set === undefined) return ['0', []];
  const { count, pattern } = parseScanOptions(argv, 3, ctx.version, 'set');
  let next = 0;
  let members: string[];
  if (set.encoding() === 'hashtable') {
    const page = set.scanTable(cursor > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(cursor), count);
    next = page.next;
    members = page.members;
  } else {
    members = set.members();
  }
  if (pattern !== undefined) {
    const p = pattern;
    members = members.filter((m) => globMatch(p, m));
  }
  return [String(next), members];
}

export const specs: CommandSpec[] = [
  { name: 'sadd', arity: -3, write: true, run: sadd },
  { name: 'srem', arity: -3, write: true, run: srem },
  { name: 'smove', arity: 4, write: true, run: smove },
  { name: 'sismember', arity: 3, write: false, run: sismember },
  { name: 'smismember', arity: -3, write: false, run: smismember },
  { name: 'scard', arity: 2, write: false, run: scard },
  { name: 'smembers', arity: 2, write: false, run: smembers },
  { name: 'spop', arity: -2, write: true, run: spop },
  { name: 'srandmember', arity: -2, write: false, run: srandmember },
  { name: 'sscan', arity: -3, write: false, run: sscan },
];
