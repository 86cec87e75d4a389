/**
 * EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT / TTL / PTTL on the keyspace clock. ioredis-mock's
 * own versions read the real `Date.now()`; these read the keyspace clock, so a stream key's TTL
 * runs out when the test's clock says so (and wakes blocked readers through the store).
 * Semantics: Redis 7.0 `expireGenericCommand` / `ttlGenericCommand` (NX, XX, GT, LT; a time
 * in the past deletes the key; TTL rounds to the nearest second).
 */
import { parseInt64 } from '../../commands/args';
import { CommandError } from '../../errors';
import type { Keyspace } from '../../keyspace/keyspace';
import { bytesOf, utf8Of as decodeBytes } from '../../bytes/index';

type SyncCommand = (args: unknown[]) => number;

/**
 * The clock-based EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT/TTL/PTTL as synchronous functions of the
 * command arguments (without callback); they throw CommandError for error replies. Used by the
 * engine connection for the methods, `call()` and Lua `redis.call`.
 */
export function clockTtlCommands(ks: Keyspace): Record<string, SyncCommand> {
  const full = (key: unknown) => bytesOf(key);
  const expireCmd = (name: string, unitMs: number, absolute: boolean): SyncCommand => (args) => {
    const [key, when, ...flags] = args;
    // Options first, named as typed (expire.c parseExtendedExpireArgumentsOrReply), then the time.
    for (const x of flags) {
      if (!['NX', 'XX', 'GT', 'LT'].includes(bytesOf(x).toUpperCase())) throw new CommandError(`ERR Unsupported option ${decodeBytes(bytesOf(x))}`);
    }
    const f = new Set(flags.map((x) => bytesOf(x).toUpperCase()));
    if (f.has('NX') && (f.has('XX') || f.has('GT') || f.has('LT')))
      throw new CommandError('ERR NX and XX, GT or LT options at the same time are not compatible');
    if (f.has('GT') && f.has('LT')) throw new CommandError('ERR GT and LT options at the same time are not compatible');
    const v = parseInt64(bytesOf(when));
    if (v === null) throw new CommandError('ERR value is not an integer or out of range');
    // expire.c: an overflow of the unit conversion or of the base time is an invalid time
    const LLONG_MAX = 2n ** 63n - 1n;
    const ms = v * BigInt(unitMs);
    if (ms > LLONG_MAX || ms < -LLONG_MAX - 1n || (!absolute && ms > LLONG_MAX - BigInt(ks.now()))) {
      throw new CommandError(`ERR invalid expire time in '${name}' command`);
    }
    const k = full(key);
    if (!ks.store.hasKey(k)) return 0;
    const now = ks.now();
    const at = (absolute ? 0 : now) + Number(v) * unitMs;
    const current = ks.store.expiryOf(k);
    if (f.has('NX') && current !== undefined) return 0;
    if (f.has('XX') && current === undefined) return 0;
    if (f.has('GT') && (current === undefined || at <= current)) return 0;
    if (f.has('LT') && current !== undefined && at >= current) return 0;
    if (at <= now) {
      ks.store.deleteKey(k);
      return 1;
    }
    ks.store.setExpiry(k, at);
    ks.store.markModified(k);
    return 1;
  };
  const ttlCmd = (ms: boolean): SyncCommand => (args) => {
    const k = full(args[0]);
    if (!ks.store.hasKey(k)) return -2;
    const at = ks.store.expiryOf(k);
    if (at === undefined) return -1;
    const left = Math.max(0, at - ks.now());
    return ms ? left : Math.floor((left + 500) / 1000);
  };
  return {
    expire: expireCmd('expire', 1000, false),
    pexpire: expireCmd('pexpire', 1, false),
    expireat: expireCmd('expireat', 1000, true),
    pexpireat: expireCmd('pexpireat', 1, true),
    ttl: ttlCmd(false),
    pttl: ttlCmd(true),
  };
}
