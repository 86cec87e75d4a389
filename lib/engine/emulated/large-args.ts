/**
 * Argument lists of any length for ioredis-mock's own commands.
 *
 * ioredis-mock calls its emulators with the flattened arguments spread into a function call,
 * which throws `RangeError: Maximum call stack size exceeded` above roughly 120 000 arguments
 * (less when the stack is already deep). Every variadic command Redis applies element by element
 * (DEL, SADD, RPUSH, HSET, MGET …) is an engine command now, which never spreads user-sized
 * arrays; the few built-ins left take a handful of arguments. So a built-in given more than
 * `MAX_SPREAD_ARGS` arguments is rejected with a StreamsMockError that names the limit, instead
 * of a RangeError thrown synchronously.
 */
import { StreamsMockError } from '../../clock/clock';

/** Longest argument list handed to a function call at once (V8 overflows near 120 000; ioredis-mock nests several spreads). */
export const MAX_SPREAD_ARGS = 8_192;

function tooMany(name: string, count: number): StreamsMockError {
  return new StreamsMockError(
    `ioredis-mock's ${name.toUpperCase()} cannot take ${count} arguments (it spreads them into a JS call, limited to ` +
      `${MAX_SPREAD_ARGS} here); split the call, or use a real server for this test`,
  );
}

/**
 * Call a built-in with argument list `args` (already flattened, no callback).
 * @throws StreamsMockError when it gets more than MAX_SPREAD_ARGS arguments
 */
export function callWithinLimit(name: string, args: readonly unknown[], invoke: (args: unknown[]) => unknown): unknown {
  if (args.length > MAX_SPREAD_ARGS) throw tooMany(name, args.length);
  return invoke(args as unknown[]);
}
