/**
 * HINCRBYFLOAT on ioredis-mock's hash shape (until the hash family is the engine's): the sum in
 * long double (../../commands/long-double.ts, the arithmetic INCRBYFLOAT uses,
 * lib/commands/incr.ts), stored and answered as ld2string's text.
 */
import { CommandError, ERR_NAN_OR_INF_RESULT } from '../../errors';
import { type LongDouble, addLongDouble, formatLongDoubleHuman, parseLongDouble } from '../../commands/long-double';

export { type LongDouble, addLongDouble, formatLongDoubleHuman, parseLongDouble };

/**
 * Run INCRBYFLOAT key increment / HINCRBYFLOAT key field increment on `store` (the arguments
 * already checked by ./builtin-args.ts: both numbers valid, the key of the right type): the sum
 * in long double, stored and answered as ld2string's text; ioredis-mock is not called. The
 * key's TTL stays. Throws ERR_NAN_OR_INF_RESULT and changes nothing when the sum is not finite.
 */
export function incrByFloat(
  store: { getRaw(key: string): unknown; setRaw(key: string, val: unknown): void; markModified(key: string): void },
  key: string,
  name: 'incrbyfloat' | 'hincrbyfloat',
  flat: readonly unknown[],
): string {
  const bytes = (a: unknown) => (Buffer.isBuffer(a) ? a.toString('latin1') : String(a ?? ''));
  const stored = store.getRaw(key);
  const hash = name === 'hincrbyfloat' ? (stored as Record<string, unknown> | undefined) : undefined;
  const field = name === 'hincrbyfloat' ? String(flat[1]) : '';
  const old = name === 'hincrbyfloat' ? (hash && Object.prototype.hasOwnProperty.call(hash, field) ? hash[field] : undefined) : stored;
  const zero: LongDouble = { neg: false, m: 0n, e: 0 };
  const a = old === undefined ? zero : parseLongDouble(bytes(old));
  const b = parseLongDouble(bytes(flat[name === 'hincrbyfloat' ? 2 : 1]));
  const sum = a && b ? addLongDouble(a, b) : null;
  if (sum === null || 'inf' in sum) throw new CommandError(ERR_NAN_OR_INF_RESULT);
  const text = formatLongDoubleHuman(sum);
  if (name === 'incrbyfloat') store.setRaw(key, text);
  else if (hash === undefined) store.setRaw(key, { [field]: text });
  else {
    hash[field] = text;
    store.markModified(key);
  }
  return text;
}
