/**
 * RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]
 *
 * Creates `key` from a DUMP payload (cluster.c `restoreCommand`): `ttl` in ms (0 = none;
 * absolute unix ms with ABSTTL); REPLACE overwrites an existing key. Reply: `OK` — also when
 * the TTL is already in the past, in which case nothing is created (and REPLACE still deleted
 * the old key). IDLETIME sets the key's last access that many seconds ago unless the
 * `maxmemory-policy` is an LFU one; FREQ sets its LFU counter only under an LFU policy (object.c
 * objectSetLRUOrLFU: OBJECT IDLETIME / FREQ). Accepts every stream
 * encoding up to the emulated version's (6.x type 15, 7.0 type 19, 7.2+ type 21, 8.6 type 26 with
 * an empty IDMP section, 8.8 type 27), strings, and lists, sets, sorted sets and hashes in every
 * encoding Redis loads (the pre-7.0 zipmaps, ziplists and quicklists of ziplists too, and from
 * 7.4 on the hashes with field TTLs); wakes readers blocked on the key.
 * Errors, in Redis's order: option errors (`ERR syntax error` — IDLETIME and FREQ exclude each
 * other —, a non-integer, `ERR Invalid IDLETIME value, must be >= 0`, `ERR Invalid FREQ value,
 * must be >= 0 and <= 255`), `BUSYKEY Target key name already exists.` (no REPLACE), the TTL
 * (`ERR value is not an integer or out of range`, `ERR Invalid TTL value, must be >= 0`), `ERR
 * DUMP payload version or checksum are wrong` (shorter than 10 bytes, a newer RDB version, a
 * CRC mismatch), `ERR Bad data format` (anything the loader rejects; the fake validates as
 * `sanitize-dump-payload yes` does, so a malformed payload Redis would load unchecked is refused).
 */
import {
  ERR_BAD_DATA_FORMAT,
  ERR_BUSYKEY,
  ERR_DUMP_PAYLOAD,
  ERR_INVALID_FREQ,
  ERR_INVALID_IDLETIME,
  ERR_INVALID_TTL,
  ERR_SYNTAX,
  fail,
} from '../errors';
import { LoadedValue, loadDumpPayload, verifyDumpPayload } from '../rdb/payload';
import { RdbFormatError, bytesOf } from '../rdb/rdb-io';
import { OK } from '../reply/reply';
import { RDB_FORMAT } from '../version';
import { int64OrFail, is } from './args';
import { wholeKeyDb } from './whole-key';
import { deletionName, propagationOf } from './propagate';
import type { CommandContext, CommandSpec, Reply } from './types';

export interface RestoreArgs {
  key: string;
  ttl: string;
  payload: string;
  replace: boolean;
  absttl: boolean;
  /** IDLETIME seconds, or -1. */
  idle: number;
  /** FREQ, or -1. */
  freq: number;
}

/** The options (argv[4…]); throws their errors. */
export function parse(argv: string[]): RestoreArgs {
  let replace = false;
  let absttl = false;
  let idle = -1n;
  let freq = -1n;
  for (let j = 4; j < argv.length; j++) {
    const additional = argv.length - j - 1;
    if (is(argv[j], 'REPLACE')) replace = true;
    else if (is(argv[j], 'ABSTTL')) absttl = true;
    else if (is(argv[j], 'IDLETIME') && additional >= 1 && freq === -1n) {
      idle = int64OrFail(argv[++j]);
      if (idle < 0n) fail(ERR_INVALID_IDLETIME);
    } else if (is(argv[j], 'FREQ') && additional >= 1 && idle === -1n) {
      freq = int64OrFail(argv[++j]);
      if (freq < 0n || freq > 255n) fail(ERR_INVALID_FREQ);
    } else fail(ERR_SYNTAX);
  }
  return { key: argv[1], ttl: argv[2], payload: argv[3], replace, absttl, idle: Number(idle), freq: Number(freq) };
}

function restore(ctx: CommandContext, argv: string[]): Reply {
  const args = parse(argv);
  const db = wholeKeyDb(ctx.db, 'RESTORE');
  if (!args.replace && db.getValue(args.key) !== undefined) fail(ERR_BUSYKEY);
  let ttl = int64OrFail(args.ttl);
  if (ttl < 0n) fail(ERR_INVALID_TTL);
  const payload = bytesOf(args.payload);
  const format = RDB_FORMAT[ctx.version];
  if (!verifyDumpPayload(payload, format)) fail(ERR_DUMP_PAYLOAD);
  let loaded: LoadedValue;
  try {
    loaded = loadDumpPayload(payload, format);
  } catch (err) {
    if (err instanceof RdbFormatError) fail(ERR_BAD_DATA_FORMAT);
    throw err;
  }
  const deleted = args.replace && db.deleteKey(args.key);
  const now = BigInt(Math.floor(ctx.now));
  if (ttl !== 0n && !args.absttl) ttl = BigInt.asIntN(64, ttl + now); // long long arithmetic
  if (ttl !== 0n && ttl <= now) {
    // already expired: nothing is created (a replaced key is gone)
    if (deleted) {
      db.notifyEvent('g', 'del', args.key);
      db.dirty?.(1);
      propagationOf(ctx.db)?.rewrite([deletionName(ctx, 'lazyfree-lazy-server-del'), args.key]);
    }
    return OK;
  }
  db.setValue(args.key, loaded.value, ttl === 0n ? undefined : Number(ttl));
  db.notifyEvent('n', 'new', args.key); // dbAdd
  // the TTL propagates as an absolute time
  if (ttl !== 0n && !args.absttl) propagationOf(ctx.db)?.rewrite([...argv.slice(0, 2), String(ttl), ...argv.slice(3), 'ABSTTL']);
  if (args.idle >= 0 || args.freq >= 0) ctx.db.setAccess?.(args.key, args.idle, args.freq);
  db.notifyEvent('g', 'restore', args.key);
  db.dirty?.(1); // server.dirty++ (cluster.c restoreCommand)
  return OK;
}

/**
 * RESTORE-ASKING (cluster.c restoreCommand with the ASKING flag: a key moved during a slot
 * migration): RESTORE itself, as outside a migration (checked on 7.0.15 and the post-7.4 build).
 */
export const specs: CommandSpec[] = [
  { name: 'restore', arity: -4, write: true, run: restore },
  { name: 'restore-asking', arity: -4, write: true, run: restore },
];
