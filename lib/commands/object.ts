/**
 * OBJECT ENCODING | FREQ | IDLETIME | REFCOUNT key, OBJECT HELP (object.c objectCommand).
 *
 * A missing key answers nil (no error). The lookup is not an access of the key.
 * - ENCODING: a string's as Redis's tryObjectEncoding gives it (`int`, `embstr`, `raw`), or
 *   as the command that changed it in place decided (lib/model/string-encoding.ts); a stream `stream`; a value of the engine's model asks its
 *   class (`encoding(config, version)`: listpack/quicklist, intset/listpack/hashtable,
 *   listpack/skiplist … as the size thresholds of CONFIG decide); a value ioredis-mock's
 *   emulators wrote answers by its shape as before (a Set of integers `intset`, other sets,
 *   sorted sets, hashes `listpack`; a list `listpack`, `quicklist` in 7.0).
 * - IDLETIME: seconds since the key was last read or written, on the keyspace clock, with
 *   Redis's one-second LRU clock (the difference of whole seconds). `ERR An LFU maxmemory
 *   policy is selected, idle time not tracked. …` when `maxmemory-policy` is an LFU one.
 * - FREQ: `ERR An LFU maxmemory policy is not selected, access frequency not tracked. …` unless
 *   `maxmemory-policy` is allkeys-lfu or volatile-lfu; then the key's LFU counter (evict.c:
 *   5 for a new key, raised logarithmically on access by `lfu-log-factor`, less one per
 *   `lfu-decay-time` minutes; lib/keyspace/store.ts).
 * - REFCOUNT: 2147483647 (OBJ_SHARED_REFCOUNT) for a string Redis shares: an integer 0 … 9999
 *   while `maxmemory` is 0 or the policy is not LRU/LFU (createSharedObjects); 2 inside EXEC for a
 *   string a queued SET/MSET/GETSET/APPEND … stored as its own argv (the transaction holds it
 *   until EXEC ends: lib/engine/connection/transactions.ts); else 1.
 * - Wrong argument counts: `ERR wrong number of arguments for 'object|<sub>' command`; an
 *   unknown subcommand: `ERR unknown subcommand '<sub>'. Try OBJECT HELP.` (the dispatcher).
 * Checked on redis-server 7.0.15 and the post-7.4 build.
 *
 * Known gap: IDLETIME / FREQ of a shared integer (REFCOUNT 2147483647 above). Redis answers the
 * shared object's LRU/LFU word, one for every key holding that integer in every database, and
 * set at startup (7.0.15: createObject stamps LRU_CLOCK(), so right after `SET k 5` IDLETIME is
 * the seconds since the server started) or never (the post-7.4 build: createObject leaves lru 0
 * and initObjectLRUOrLFU skips shared objects, so IDLETIME is the LRU clock itself, unix seconds
 * mod 2^24); a SET does not touch it, any read of any such key does (GET k5 makes IDLETIME 0 for
 * every key holding 5), and under an LFU policy FREQ right after SET is 0 (the startup word
 * decayed) where a non-shared value starts at 5 — all measured on both servers. The fake keeps
 * each key's own access record (lib/keyspace/store.ts); following the shared word would need
 * every read to check its value in the store's access path.
 */
import type { ServerConfig } from '../config/server-config';
import { fail } from '../errors';
import { Stream } from '../model/stream';
import { isRawMark, type StringMark, stringEncoding } from '../model/string-encoding';
import { supports, type RedisVersion } from '../version';
import { helpReply } from './xgroup';
import type { CommandContext, CommandHandler, CommandSpec, Db, Reply } from './types';

/** server.h LFU_INIT_VAL (the keyspace keeps the counters: lib/keyspace/store.ts). */
const LFU_INIT_VAL = 5;
const OBJ_SHARED_REFCOUNT = 2147483647;
const OBJ_SHARED_INTEGERS = 10000;

const OBJECT_HELP = [
  'ENCODING <key>',
  '    Return the kind of internal representation used in order to store the value',
  '    associated with a <key>.',
  'FREQ <key>',
  '    Return the access frequency index of the <key>. The returned integer is',
  '    proportional to the logarithm of the recent access frequency of the key.',
  'IDLETIME <key>',
  '    Return the idle time of the <key>, that is the approximated number of',
  '    seconds elapsed since the last access to the key.',
  'REFCOUNT <key>',
  '    Return the number of references of the value associated with the specified',
  '    <key>.',
];

/** A value class of the engine's model that knows its OBJECT ENCODING. */
interface EncodedValue {
  encoding(config: ServerConfig | undefined, version: RedisVersion): string;
}

/** The byte string of a stored string (engine: a byte string; emulators: Buffer or number too). */
function stringBytes(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return undefined;
}

/** OBJECT ENCODING of a stored value (see the module doc). */
export function encodingOf(value: unknown, config: ServerConfig | undefined, version: RedisVersion, mark?: StringMark): string {
  if (isRawMark(mark) && Buffer.isBuffer(value)) return 'raw'; // a bitmap (string-value.ts): no need to read it
  const s = stringBytes(value);
  if (s !== undefined) return stringEncoding(s, mark);
  if (value instanceof Stream) return 'stream';
  const own = (value as Partial<EncodedValue>).encoding;
  if (typeof own === 'function') return own.call(value, config, version);
  // the shapes ioredis-mock's emulators store
  if (value instanceof Set) return [...value].every((m) => String(m) === String(parseInt(String(m), 10))) ? 'intset' : 'listpack';
  if (Array.isArray(value)) return supports(version, 'listpackLists') ? 'listpack' : 'quicklist';
  return 'listpack';
}

function policyOf(db: Db): string {
  return db.config?.get('maxmemory-policy') ?? 'noeviction';
}

const isLfu = (policy: string) => policy.endsWith('-lfu');

/**
 * The value at argv[2] without touching it, or null (the nil reply) when missing: a read lookup
 * that counts in keyspace_hits/misses but sends no `keymiss` (object.c objectCommandLookup:
 * LOOKUP_NOTOUCH|LOOKUP_NONOTIFY).
 */
function lookup(ctx: CommandContext, argv: string[]): unknown {
  const v = ctx.db.lookup(argv[2], true);
  if (v === undefined) {
    ctx.db.keyMiss(argv[2], false);
    return null;
  }
  ctx.db.keyHit();
  return v;
}

const encoding: CommandHandler = (ctx, argv) => {
  const value = lookup(ctx, argv);
  return value === null ? null : encodingOf(value, ctx.db.config, ctx.version, ctx.db.stringMark?.(argv[2]));
};

const refcount: CommandHandler = (ctx, argv): Reply => {
  const value = lookup(ctx, argv);
  if (value === null) return null;
  const s = stringBytes(value);
  if (s === undefined) return 1;
  const marked = ctx.db.stringMark?.(argv[2]) !== undefined;
  // inside EXEC, a string a queued command stored as its own argv is held by the transaction too
  const own = !marked && ctx.db.queuedArgvString?.(argv[2]) === s ? 2 : 1;
  // only a string tryObjectEncoding made an int may be a shared integer (not one marked: COPY's own object …)
  if (marked || stringEncoding(s) !== 'int') return own;
  const n = Number(s);
  if (n < 0 || n >= OBJ_SHARED_INTEGERS) return own;
  const policy = policyOf(ctx.db);
  const noShared = policy.endsWith('-lru') || isLfu(policy); // MAXMEMORY_FLAG_NO_SHARED_INTEGERS
  return ctx.db.config?.get('maxmemory') === '0' || !noShared ? OBJ_SHARED_REFCOUNT : own;
};

/** Whole seconds of Redis's LRU clock between `at` and `now` (ms). */
function idleSeconds(now: number, at: number | undefined): number {
  if (at === undefined) return 0;
  return Math.max(0, Math.floor(now / 1000) - Math.floor(at / 1000));
}

const idletime: CommandHandler = (ctx, argv): Reply => {
  const value = lookup(ctx, argv);
  if (value === null) return null;
  if (isLfu(policyOf(ctx.db))) {
    fail(
      'ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.',
    );
  }
  return idleSeconds(ctx.now, ctx.db.accessedAt?.(argv[2]));
};

const freq: CommandHandler = (ctx, argv): Reply => {
  const value = lookup(ctx, argv);
  if (value === null) return null;
  if (!isLfu(policyOf(ctx.db))) {
    fail(
      'ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.',
    );
  }
  return ctx.db.lfuCounter?.(argv[2]) ?? LFU_INIT_VAL;
};

const help: CommandHandler = (ctx) => helpReply('OBJECT', OBJECT_HELP, ctx.version);

export const specs: CommandSpec[] = [
  {
    name: 'object',
    arity: -2,
    write: false,
    subcommands: {
      encoding: { arity: 3, run: encoding },
      freq: { arity: 3, run: freq },
      idletime: { arity: 3, run: idletime },
      refcount: { arity: 3, run: refcount },
      help: { arity: 2, run: help },
    },
  },
];
