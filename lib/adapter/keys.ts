/**
 * Keys at the ioredis boundary.
 *
 * - `keyPrefix` is applied exactly as ioredis applies it (`Command._iterateKeys`): only to the
 *   arguments that the installed ioredis's `@ioredis/commands` reports as keys for that command
 *   (./command-table.ts). XADD, XREADGROUP STREAMS keys, XAUTOCLAIM … are prefixed by every
 *   ioredis; XGROUP and XINFO (keys behind a subcommand) and XACKDEL only by ioredis 6; XNACK
 *   and XDELEX by ioredis 5.11 and 6 but not by ioredis releases whose table lacks them.
 *   Replies and error texts then carry the full key, as from a real server.
 */
import { commandTable } from './command-table';

/** Prefix the key arguments of `name` like ioredis does for a client with `keyPrefix`. */
export function applyKeyPrefix(name: string, args: unknown[], prefix: string | Buffer | undefined): unknown[] {
  if (!prefix) return args;
  const table = commandTable();
  if (!table.exists(name)) return args;
  const asArgs = args.map((a) => (Buffer.isBuffer(a) ? a : typeof a === 'string' ? a : String(a ?? '')));
  let indexes: number[];
  try {
    indexes = table.keyIndexes(name, asArgs as (string | Buffer)[]);
  } catch {
    return args; // malformed arguments: Redis will reject them; ioredis sends them unprefixed
  }
  // only the keys change; every other argument stays as given (a number is written as the
  // client writes numbers: ioredis 6 spells an integer past 2^53 with all its digits)
  const out = args.slice();
  for (const i of indexes) {
    const key = asArgs[i];
    if (Buffer.isBuffer(key)) out[i] = Buffer.concat([Buffer.isBuffer(prefix) ? prefix : Buffer.from(prefix), key]);
    else if (Buffer.isBuffer(prefix)) out[i] = Buffer.concat([prefix, Buffer.from(String(key))]);
    else out[i] = prefix + key;
  }
  return out;
}
