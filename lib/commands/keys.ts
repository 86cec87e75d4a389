/**
 * The generic key commands of db.c, on any value type:
 *
 * DEL / UNLINK key … — the number of keys deleted (a key named twice is deleted once; an expired
 *   key is not counted); keyspace event `del` per key.
 * EXISTS key … — the number of keys that exist (a key named twice counts twice); no access.
 * TOUCH key … — like EXISTS, and each key found counts as accessed (OBJECT IDLETIME 0).
 * TYPE key — status reply `string`, `list`, `set`, `zset`, `hash`, `stream`, or `none`.
 * RENAME / RENAMENX key newkey — `ERR no such key` for a missing source (also when both names
 *   are the same); the same name answers OK / 0; the value moves with its TTL, the destination's
 *   value and TTL are dropped (RENAMENX: 0 when the destination exists). Events `new` (class n,
 *   the destination is a new key), `rename_from`, `rename_to`.
 * MOVE key db — to database `db` of the same server, with its TTL: 1, or 0 when the key is
 *   missing or `db` has it. Errors in Redis's order: `ERR value is not an integer or out of
 *   range`, `ERR value is out of range, value must between -2147483648 and 2147483647`, `ERR DB
 *   index is out of range`, `ERR source and destination objects are the same`. Events `new`
 *   (in `db`), `move_from` (this database), `move_to` (in `db`).
 * SWAPDB index1 index2 — exchange two databases: `ERR invalid first DB index` / `ERR invalid
 *   second DB index` (not an int), then `ERR DB index is out of range`. No keyspace event.
 * KEYS pattern — every key matching the glob pattern (lib/bytes/glob.ts), bytewise.
 * SCAN cursor [MATCH pattern] [COUNT count] [TYPE type] — see `scan` below.
 * RANDOMKEY — a random key, or nil when the database is empty.
 * DBSIZE — the number of keys (keys whose TTL has passed but are not yet deleted included).
 * MIGRATE host port key|"" db timeout [COPY] [REPLACE] [AUTH pw | AUTH2 user pw] [KEYS key …] —
 *   options and errors as cluster.c's migrateCommand (syntax error, the KEYS-with-a-key error,
 *   timeout then db as integers); `NOKEY` when none of the keys exists (looked up as a read:
 *   an expired key is deleted). Moving a key needs another server: not emulated (mock error).
 *   MONITOR and SLOWLOG show AUTH/AUTH2 arguments redacted (lib/engine/slowlog.ts).
 *
 * Replies and errors checked on redis-server 7.0.15 and the post-7.4 build (4f8cdc2a). Every
 * write counts one change per key written for INFO `rdb_changes_since_last_save` (DEL: per
 * key deleted; RENAME, MOVE, SWAPDB: one).
 */
import { StreamsMockError } from '../clock/clock';
import { globMatch } from '../bytes/glob';
import {
  ERR_DB_INDEX_OUT_OF_RANGE,
  ERR_INT_RANGE,
  ERR_NOT_INTEGER,
  ERR_NO_SUCH_KEY,
  ERR_SAME_OBJECT,
  ERR_SYNTAX,
  fail,
} from '../errors';
import { redisTypeOf } from '../model/value-type';
import { freedLazily } from './lazyfree';
import { OK, SimpleString } from '../reply/reply';
import { int64OrFail, parseInt64 } from './args';
import type { CommandContext, CommandSpec, Db, Reply } from './types';
import { parseScanCursor, parseScanOptions } from './scan-args';

/** The server's number of databases (CONFIG `databases`, 16 by default). */
export function databasesOf(db: Db): number {
  return Number(db.config?.get('databases') ?? '16');
}

/** A database index as getIntFromObjectOrReply reads it (`notInteger`: its error for both cases, when given). */
function intArg(arg: string, notInteger?: string): number {
  const v = parseInt64(arg);
  if (v === null) fail(notInteger ?? ERR_NOT_INTEGER);
  if (v < -2147483648n || v > 2147483647n) fail(notInteger ?? ERR_INT_RANGE);
  return Number(v);
}

function del(ctx: CommandContext, argv: string[]): Reply {
  return deleteKeys(ctx, argv, ctx.db.config?.get('lazyfree-lazy-user-del') === 'yes');
}

/** DEL / UNLINK; `async`: UNLINK, or DEL with lazyfree-lazy-user-del yes (dbAsyncDelete). */
function deleteKeys(ctx: CommandContext, argv: string[], async: boolean): Reply {
  const db = ctx.db;
  let deleted = 0;
  // a big value goes to the lazyfree thread (INFO lazyfreed_objects, ./lazyfree.ts)
  const lazy = async && db.lazyfreed !== undefined;
  for (let i = 1; i < argv.length; i++) {
    const key = argv[i];
    if (lazy) {
      const value = db.lookup(key, true);
      if (value !== undefined && freedLazily(value, db.config, ctx.version)) db.lazyfreed!();
    }
    if (!db.remove(key)) continue;
    db.notifyEvent('g', 'del', key);
    deleted++;
  }
  if (deleted > 0) db.dirty?.(deleted);
  return deleted;
}

// EXISTS, TOUCH and TYPE look keys up for reading (lookupKeyRead*): a missing key sends
// `keymiss` (class m), once per argument
function exists(ctx: CommandContext, argv: string[]): Reply {
  let n = 0;
  for (let i = 1; i < argv.length; i++) {
    if (ctx.db.lookup(argv[i], true) !== undefined) {
      n++;
      ctx.db.keyHit();
    } else ctx.db.keyMiss(argv[i]);
  }
  return n;
}

function touch(ctx: CommandContext, argv: string[]): Reply {
  let n = 0;
  for (let i = 1; i < argv.length; i++) {
    if (ctx.db.lookup(argv[i]) !== undefined) {
      n++;
      ctx.db.keyHit();
    } else ctx.db.keyMiss(argv[i]);
  }
  return n;
}

function type(ctx: CommandContext, argv: string[]): Reply {
  const t = redisTypeOf(ctx.db.lookup(argv[1], true));
  if (t === undefined) ctx.db.keyMiss(argv[1]);
  else ctx.db.keyHit();
  return new SimpleString(t ?? 'none');
}

const rename =
  (nx: boolean) =>
  (ctx: CommandContext, argv: string[]): Reply => {
    const db = ctx.db;
    const src = argv[1];
    const dst = argv[2];
    const value = db.lookup(src);
    if (value === undefined) fail(ERR_NO_SUCH_KEY);
    if (src === dst) return nx ? 0 : OK;
    const ttl = db.ttlAt(src);
    const exact = ttl === undefined || Number.isSafeInteger(ttl) ? undefined : db.ttlAtExact?.(src);
    if (db.lookup(dst) !== undefined) {
      if (nx) return 0;
      db.remove(dst);
    }
    db.store(dst, value, false, db.stringMark?.(src)); // the same object: its encoding too
    if (ttl !== undefined) db.setTtlAt(dst, ttl, exact);
    db.notifyEvent('n', 'new', dst);
    db.remove(src);
    db.notifyEvent('g', 'rename_from', src);
    db.notifyEvent('g', 'rename_to', dst);
    db.dirty?.(1);
    return nx ? 1 : OK;
  };

function move(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  const index = intArg(argv[2]);
  if (index < 0 || index >= databasesOf(db)) fail(ERR_DB_INDEX_OUT_OF_RANGE);
  if (index === (db.dbIndex ?? 0)) fail(ERR_SAME_OBJECT);
  const target = db.selectDb?.(index);
  if (!target) throw new StreamsMockError('MOVE needs access to the other databases, which this front end does not provide');
  const value = db.lookup(key);
  if (value === undefined) return 0;
  const ttl = db.ttlAt(key);
  const exact = ttl === undefined || Number.isSafeInteger(ttl) ? undefined : db.ttlAtExact?.(key);
  if (target.lookup(key) !== undefined) return 0;
  target.store(key, value, false, db.stringMark?.(key)); // the same object: its encoding too
  if (ttl !== undefined) target.setTtlAt(key, ttl, exact);
  target.notifyEvent('n', 'new', key);
  db.remove(key);
  db.notifyEvent('g', 'move_from', key);
  target.notifyEvent('g', 'move_to', key);
  db.dirty?.(1);
  return 1;
}

function swapdb(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const a = intArg(argv[1], 'ERR invalid first DB index');
  const b = intArg(argv[2], 'ERR invalid second DB index');
  const n = databasesOf(db);
  if (a < 0 || a >= n || b < 0 || b >= n) fail(ERR_DB_INDEX_OUT_OF_RANGE);
  if (!db.swapDb) throw new StreamsMockError('SWAPDB needs access to the other databases, which this front end does not provide');
  db.swapDb(a, b);
  db.dirty?.(1);
  return OK;
}

function keys(ctx: CommandContext, argv: string[]): Reply {
  const pattern = argv[1];
  const all = ctx.db.keyNames();
  return pattern === '*' ? all : all.filter((k) => globMatch(pattern, k));
}


/**
 * SCAN cursor [MATCH pattern] [COUNT count] [TYPE type] (db.c scanGenericCommand). Options are
 * read in order, each with its argument (`ERR syntax error` otherwise; COUNT: `ERR value is not
 * an integer or out of range`, `ERR syntax error` below 1; an unknown TYPE name answers `ERR
 * unknown type name '<name>'` from 7.2 and matches nothing in 7.0; NOVALUES: `ERR NOVALUES option
 * can only be used in HSCAN` from 7.4). Iteration: the key index's slot order (Redis's hash-table
 * order cannot be reproduced); COUNT keys are examined per call; every key present for the whole
 * iteration is returned exactly once; MATCH and TYPE filter the keys examined.
 */
function scan(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const cursor = parseScanCursor(argv[1], ctx.version);
  const { count, pattern, typeName } = parseScanOptions(argv, 2, ctx.version, 'keys');
  const step = scanStep(db, cursor, count);
  let found = step.keys;
  if (pattern !== undefined) found = found.filter((k) => globMatch(pattern!, k));
  if (typeName !== undefined) found = found.filter((k) => redisTypeOf(db.lookup(k, true)) === typeName);
  return [String(step.cursor), found];
}

/** Cursors of the key index are below 2^52; a larger one (never given) ends the iteration. */
const MAX_INDEX_CURSOR = 2n ** 52n;

function scanStep(db: Db, cursor: bigint, count: number): { cursor: number | bigint; keys: string[] } {
  if (cursor >= MAX_INDEX_CURSOR) return { cursor: 0, keys: [] };
  if (db.scan) return db.scan(Number(cursor), count);
  // a Db without a key index: the keys in byte order, the cursor a position in it
  const all = db.keyNames().sort();
  const from = Number(cursor);
  const keys = all.slice(from, from + count);
  return { cursor: from + count >= all.length ? 0 : from + count, keys };
}

function randomkey(ctx: CommandContext): Reply {
  const db = ctx.db;
  if (db.randomKey) return db.randomKey() ?? null;
  const all = db.keyNames();
  return all.length === 0 ? null : all[Math.floor(Math.random() * all.length)];
}

function migrate(ctx: CommandContext, argv: string[]): Reply {
  let firstKey = 3;
  let numKeys = 1;
  for (let j = 6; j < argv.length; j++) {
    const more = argv.length - 1 - j;
    const o = argv[j].toLowerCase();
    if (o === 'copy' || o === 'replace') continue;
    if (o === 'auth') {
      if (more < 1) fail(ERR_SYNTAX);
      j++;
    } else if (o === 'auth2') {
      if (more < 2) fail(ERR_SYNTAX);
      j += 2;
    } else if (o === 'keys') {
      if (argv[3].length !== 0) fail('ERR When using MIGRATE KEYS option, the key argument must be set to the empty string');
      firstKey = j + 1;
      numKeys = argv.length - j - 1;
      break;
    } else fail(ERR_SYNTAX);
  }
  int64OrFail(argv[5]);
  int64OrFail(argv[4]);
  let found = 0;
  for (let j = 0; j < numKeys; j++) if (ctx.db.lookup(argv[firstKey + j]) !== undefined) found++;
  if (found === 0) return new SimpleString('NOKEY');
  throw new StreamsMockError('MIGRATE of an existing key is not emulated (it needs another server)');
}

function dbsize(ctx: CommandContext): Reply {
  return ctx.db.size ? ctx.db.size() : ctx.db.keyNames().length;
}

export const specs: CommandSpec[] = [
  { name: 'del', arity: -2, write: true, run: del },
  { name: 'unlink', arity: -2, write: true, run: (ctx, argv) => deleteKeys(ctx, argv, true) },
  { name: 'exists', arity: -2, write: false, run: exists },
  { name: 'touch', arity: -2, write: false, run: touch },
  { name: 'type', arity: 2, write: false, run: type },
  { name: 'rename', arity: 3, write: true, run: rename(false) },
  { name: 'renamenx', arity: 3, write: true, run: rename(true) },
  { name: 'move', arity: 3, write: true, run: move },
  { name: 'swapdb', arity: 3, write: true, run: swapdb },
  { name: 'keys', arity: 2, write: false, run: keys },
  { name: 'scan', arity: -2, write: false, run: scan },
  { name: 'randomkey', arity: 1, write: false, run: randomkey },
  { name: 'dbsize', arity: 1, write: false, run: dbsize },
  { name: 'migrate', arity: -6, write: true, run: migrate },
];
