/**
 * HINCRBY in exact signed 64-bit arithmetic, as Redis does it (t_hash.c hincrbyCommand), on
 * ioredis-mock's hash shape until the hash family is the engine's (INCR, DECR, INCRBY and DECRBY
 * are engine commands: lib/commands/incr.ts). ioredis-mock adds JS numbers, so past
 * 2^53 it stored rounded values (`9007199254740993` + 1 gave `9007199254740992`) and past 2^63
 * texts Redis never stores (`9223372036854776000`, which later commands refuse).
 *
 * The arguments and the stored value are already checked (./builtin-args.ts: integers Redis's
 * string2ll takes, `ERR hash value is not an integer`, DECRBY's `ERR decrement would overflow`);
 * here the sum is checked for overflow (`ERR increment or decrement would overflow`, nothing
 * changed), stored as its exact decimal text through ioredis-mock's data interface (one write;
 * the TTL is kept, as Redis keeps it) and replied as a bigint. ioredis-mock's emulator is not
 * called for these commands.
 */
import { parseInt64 } from '../../commands/args';
import { CommandError } from '../../errors';
import type { Keyspace } from '../../keyspace/keyspace';
import { bytesOf } from '../../bytes/index';
import { storeKeyOfArg } from './keys';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const ERR_OVERFLOW = 'ERR increment or decrement would overflow';


/** A checked integer (argument or stored value) as a bigint; 0 when absent. */
function int64Of(v: unknown): bigint {
  return v === undefined || v === null ? 0n : (parseInt64(bytesOf(v)) ?? 0n);
}

/** `old + incr`, or the overflow error (the same test as incrDecrCommand / hincrbyCommand). */
function add(old: bigint, incr: bigint): bigint {
  const sum = old + incr;
  if (sum < INT64_MIN || sum > INT64_MAX) throw new CommandError(ERR_OVERFLOW);
  return sum;
}

/**
 * Run `name` (HINCRBY, the one of INTEGER_COMMANDS) on the keyspace with the checked arguments
 * `flat`: the new value is stored as its decimal text and returned.
 */
export function runIntegerCommand(ks: Keyspace, name: string, flat: readonly unknown[]): bigint {
  const key = storeKeyOfArg(flat[0]);
  const store = ks.store;
  if (name !== 'hincrby') throw new Error(`${name} is an engine command (lib/commands/incr.ts)`);
  // ioredis-mock's hash: a plain object keyed by the field's UTF-8 text
  const field = Buffer.isBuffer(flat[1]) ? flat[1].toString() : String(flat[1] ?? '');
  const hash = { ...((store.getRaw(key) ?? {}) as Record<string, unknown>) };
  const old = Object.prototype.hasOwnProperty.call(hash, field) ? hash[field] : undefined;
  const next = add(int64Of(old), int64Of(flat[2]));
  hash[field] = next.toString();
  store.setRaw(key, hash);
  return next;
}
