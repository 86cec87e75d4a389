/**
 * Keyspace commands (db.c, expire.c) the engine runs itself, over the keyspace store, because
 * ioredis-mock lacks them or gets them wrong for Redis (each checked on redis-server 7.0.15):
 *
 * DEL / UNLINK key … — any key name, the empty one included (ioredis-mock refused `DEL ""`); a
 *   key named twice is deleted once.
 * EXISTS / TOUCH key … — a key named twice counts twice.
 * RENAME / RENAMENX key newkey — `ERR no such key` for a missing source (ioredis-mock answered
 *   OK / 0); the source's TTL moves with the value and the destination's old TTL is dropped
 *   (ioredis-mock kept it, so a renamed stream vanished later); a key renamed onto itself answers
 *   OK / 0. Readers blocked on either key are signalled (as after DEL and a new value).
 * MOVE key db — to another database of the same server, with its TTL; 0 when the key is missing
 *   or the target has it; `ERR DB index is out of range`, `ERR source and destination objects
 *   are the same`.
 * SWAPDB index1 index2 — exchange two databases of the server (readers blocked on their stream
 *   keys are signalled).
 * SCAN cursor [MATCH pattern] [COUNT count] [TYPE type] — every key of the database in sorted
 *   order, the cursor naming the last key examined, so every key present for the whole iteration
 *   is returned exactly once (Redis's hash-order cursor cannot be reproduced); COUNT is the
 *   number of keys examined per call (default 10); Redis's cursor parsing and errors.
 * KEYS pattern — Redis glob patterns (lib/bytes/glob.ts), over the keys' bytes.
 * Keys are full key names (a client's keyPrefix is applied by the front end to the key
 * arguments, as ioredis does; SCAN/KEYS answer full names, as a server does).
 */
import { parseInt64 } from '../../commands/args';
import { CommandError, ERR_NOT_INTEGER, ERR_NO_SUCH_KEY, ERR_SYNTAX } from '../../errors';
import type { Keyspace } from '../../keyspace/keyspace';
import { OK, type Reply } from '../../reply/reply';
import { utf8Of as decodeBytes } from '../../bytes/index';
import { globMatch } from '../../bytes/glob';
import { redisTypeOf } from '../emulated/key-types';
import { storeKeyOfBytes } from '../emulated/keys';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';
import { DATABASES } from '../registry';

/** The store key of a key argument (a byte string), with the connection's prefix. */
function keyOf(conn: Connection, arg: string): string {
  return storeKeyOfBytes(arg);
}

/** A keyspace event of class `g` (generic), as ioredis-mock publishes them, with the real db. */
function notifyGeneric(conn: Connection, event: string, fullKey: string): void {
  const flags = conn.notifyKeyspaceEvents;
  if (!flags || !(flags.includes('g') || flags.includes('A'))) return;
  const publish = conn.emulators.publish;
  if (typeof publish !== 'function') return;
  const host = { channels: conn.server.channels, patternChannels: conn.server.patternChannels };
  const key = decodeBytes(fullKey);
  if (flags.includes('K')) publish.call(host, `__keyspace@${conn.db}__:${key}`, event);
  if (flags.includes('E')) publish.call(host, `__keyevent@${conn.db}__:${event}`, key);
}

/** A database index as getIntFromObjectOrReply reads it. */
function dbIndex(arg: string, notInteger: string): number {
  const v = parseInt64(arg);
  if (v === null || v < -2147483648n || v > 2147483647n) throw new CommandError(notInteger);
  return Number(v);
}

function checkRange(db: number): void {
  if (db < 0 || db >= DATABASES) throw new CommandError('ERR DB index is out of range');
}

const UINT64_MAX = 2n ** 64n - 1n;

/** The cursor as Redis 7.0 parses it (strtoul: a sign is allowed, no spaces, at most 2^64 − 1; "" is 0). */
function parseCursor(text: string): bigint {
  if (text === '') return 0n;
  const m = /^([+-]?)(\d+)$/.exec(text);
  if (!m || BigInt(m[2]) > UINT64_MAX) throw new CommandError('ERR invalid cursor');
  const value = BigInt(m[2]);
  return m[1] === '-' && value !== 0n ? UINT64_MAX + 1n - value : value;
}

/** SCAN cursors of each keyspace: token → last key examined (bounded, oldest dropped). */
const cursors = new WeakMap<Keyspace, { next: bigint; lastKey: Map<string, string> }>();
const MAX_CURSORS = 10_000;

function del(conn: Connection, argv: string[]): Reply {
  const store = conn.keyspace.store;
  let n = 0;
  for (const arg of argv.slice(1)) {
    const key = keyOf(conn, arg);
    if (!store.hasKey(key)) continue;
    store.deleteKey(key);
    notifyGeneric(conn, 'del', key);
    n++;
  }
  conn.server.stats.addDirty(n);
  return n;
}

function count(conn: Connection, argv: string[]): Reply {
  const store = conn.keyspace.store;
  return argv.slice(1).reduce((n, arg) => n + (store.hasKey(keyOf(conn, arg)) ? 1 : 0), 0);
}

const rename = (nx: boolean) => (conn: Connection, argv: string[]): Reply => {
  const store = conn.keyspace.store;
  const src = keyOf(conn, argv[1]);
  const dst = keyOf(conn, argv[2]);
  if (!store.hasKey(src)) throw new CommandError(ERR_NO_SUCH_KEY);
  if (src === dst) return nx ? 0 : OK;
  if (nx && store.hasKey(dst)) return 0;
  const value = store.getRaw(src);
  const ttl = store.expiryOf(src);
  store.deleteKey(dst);
  store.deleteKey(src);
  store.setRaw(dst, value);
  if (ttl !== undefined) store.setExpiry(dst, ttl);
  notifyGeneric(conn, 'rename_from', src);
  notifyGeneric(conn, 'rename_to', dst);
  conn.server.stats.addDirty(1);
  return nx ? 1 : OK;
};

function move(conn: Connection, argv: string[]): Reply {
  const db = dbIndex(argv[2], ERR_NOT_INTEGER);
  checkRange(db);
  if (db === conn.db) throw new CommandError('ERR source and destination objects are the same');
  const store = conn.keyspace.store;
  const key = keyOf(conn, argv[1]);
  if (!store.hasKey(key)) return 0;
  const target = conn.server.keyspace(db).store;
  if (target.hasKey(key)) return 0;
  const value = store.getRaw(key);
  const ttl = store.expiryOf(key);
  store.deleteKey(key);
  target.setRaw(key, value);
  if (ttl !== undefined) target.setExpiry(key, ttl);
  notifyGeneric(conn, 'move_from', key);
  conn.server.stats.addDirty(1);
  return 1;
}

function swapdb(conn: Connection, argv: string[]): Reply {
  const a = dbIndex(argv[1], 'ERR invalid first DB index');
  const b = dbIndex(argv[2], 'ERR invalid second DB index');
  checkRange(a);
  checkRange(b);
  if (a !== b) conn.server.keyspace(a).store.swapWith(conn.server.keyspace(b).store);
  conn.server.stats.addDirty(1);
  return OK;
}

function keys(conn: Connection, argv: string[]): Reply {
  const pattern = storeKeyOfBytes(argv[1]);
  return conn.keyspace.store.keyNames().filter((k) => globMatch(pattern, k));
}

function scan(conn: Connection, argv: string[]): Reply {
  const ks = conn.keyspace;
  const cursor = parseCursor(argv[1]);
  let examine = 10;
  let pattern: string | undefined;
  let type: string | undefined;
  for (let i = 2; i < argv.length; i += 2) {
    const option = argv[i].toUpperCase();
    if (i + 1 >= argv.length) throw new CommandError(ERR_SYNTAX);
    if (option === 'COUNT') {
      const v = parseInt64(argv[i + 1]);
      if (v === null) throw new CommandError(ERR_NOT_INTEGER);
      if (v < 1n) throw new CommandError(ERR_SYNTAX);
      examine = v > 1_000_000n ? 1_000_000 : Number(v);
    } else if (option === 'MATCH') {
      pattern = storeKeyOfBytes(argv[i + 1]);
    } else if (option === 'TYPE') {
      type = argv[i + 1].toLowerCase();
    } else {
      throw new CommandError(ERR_SYNTAX);
    }
  }
  let state = cursors.get(ks);
  if (!state) cursors.set(ks, (state = { next: 1n, lastKey: new Map() }));
  let after: string | undefined;
  if (cursor !== 0n) {
    after = state.lastKey.get(String(cursor));
    if (after === undefined) return ['0', []]; // a cursor this keyspace never gave: nothing left
  }
  const all = ks.store.keyNames().sort();
  let start = 0;
  if (after !== undefined) {
    const from = after;
    start = all.findIndex((k) => k > from);
    if (start < 0) start = all.length;
  }
  const examined = all.slice(start, start + examine);
  const found = examined
    .filter((k) => (pattern === undefined || globMatch(pattern, k)) && (type === undefined || redisTypeOf(ks.store.getRaw(k)) === type));
  if (start + examine >= all.length) return ['0', found];
  const token = String(state.next++);
  state.lastKey.set(token, examined[examined.length - 1]);
  if (state.lastKey.size > MAX_CURSORS) state.lastKey.delete(state.lastKey.keys().next().value as string);
  return [token, found];
}

export const specs: readonly ConnectionCommandSpec[] = [
  { name: 'del', arity: -2, run: del },
  { name: 'unlink', arity: -2, run: del },
  { name: 'exists', arity: -2, run: count },
  { name: 'touch', arity: -2, run: count },
  { name: 'rename', arity: 3, run: rename(false) },
  { name: 'renamenx', arity: 3, run: rename(true) },
  { name: 'move', arity: 3, run: move },
  { name: 'swapdb', arity: 3, run: swapdb },
  { name: 'keys', arity: 2, run: keys },
  { name: 'scan', arity: -2, run: scan },
];
