/**
 * Argument lists of any length for ioredis-mock's own commands.
 *
 * ioredis and Redis take any number of arguments (`sadd(key, members)` with 200 000 members is
 * one command). ioredis-mock calls its emulators with the flattened arguments spread into a
 * function call, which throws `RangeError: Maximum call stack size exceeded` above roughly
 * 120 000 arguments (less when the stack is already deep). The adapter therefore:
 * - runs a variadic built-in whose arguments can be applied in slices (DEL, SADD, RPUSH, HSET,
 *   MGET …, table below) as consecutive calls of at most `MAX_SPREAD_ARGS` arguments, each
 *   given as one array, and combines the replies as the single command would answer; all
 *   slices run synchronously, one after another, so no other command can run in between;
 * - rejects any other built-in given more arguments than that with a StreamsMockError that
 *   names the limit, instead of a RangeError thrown synchronously;
 * - wraps a long argument list as one `SpreadArgs` value where ioredis-mock would spread it
 *   (its pipeline `_addTransaction`), and unwraps it in the adapter's own functions.
 * The stream commands themselves never spread user-sized arrays (see `flattenArgs`).
 */
import { StreamsMockError } from '../../clock/clock';
import { flattenArgs } from '../../bytes/index';

/** Longest argument list handed to a function call at once (V8 overflows near 120 000; ioredis-mock nests several spreads). */
export const MAX_SPREAD_ARGS = 8_192;

type Combine = 'sum' | 'concat' | 'last' | 'max';

/**
 * Variadic built-ins that Redis applies element by element, so that running them slice by slice
 * gives the same result and reply: `fixed` leading arguments repeated in every slice, then
 * groups of `step` arguments; `combine` merges the slices' replies.
 */
const SLICEABLE: Record<string, { fixed: number; step: number; combine: Combine }> = {
  del: { fixed: 0, step: 1, combine: 'sum' },
  unlink: { fixed: 0, step: 1, combine: 'sum' },
  exists: { fixed: 0, step: 1, combine: 'sum' },
  touch: { fixed: 0, step: 1, combine: 'sum' },
  mget: { fixed: 0, step: 1, combine: 'concat' },
  mset: { fixed: 0, step: 2, combine: 'last' },
  sadd: { fixed: 1, step: 1, combine: 'sum' },
  srem: { fixed: 1, step: 1, combine: 'sum' },
  smismember: { fixed: 1, step: 1, combine: 'concat' },
  rpush: { fixed: 1, step: 1, combine: 'last' },
  lpush: { fixed: 1, step: 1, combine: 'last' },
  rpushx: { fixed: 1, step: 1, combine: 'last' },
  lpushx: { fixed: 1, step: 1, combine: 'last' },
  hset: { fixed: 1, step: 2, combine: 'sum' },
  hmset: { fixed: 1, step: 2, combine: 'last' },
  hdel: { fixed: 1, step: 1, combine: 'sum' },
  hmget: { fixed: 1, step: 1, combine: 'concat' },
  zrem: { fixed: 1, step: 1, combine: 'sum' },
  zmscore: { fixed: 1, step: 1, combine: 'concat' },
  pfadd: { fixed: 1, step: 1, combine: 'max' },
};

/** A long argument list passed through ioredis-mock as one value (see module comment). */
export class SpreadArgs {
  constructor(readonly items: readonly unknown[]) {}
}

/** `args`, or the list a single SpreadArgs stands for. */
export function unwrapArgs(args: readonly unknown[]): readonly unknown[] {
  return args.length === 1 && args[0] instanceof SpreadArgs ? args[0].items : args;
}

/** Number of arguments ioredis would send for `args` (arrays spread one level). */
export function flatLength(args: readonly unknown[]): number {
  let n = 0;
  for (const a of args) n += Array.isArray(a) ? a.length : 1;
  return n;
}

function combine(how: Combine, replies: unknown[]): unknown {
  switch (how) {
    case 'sum':
      return replies.reduce((a, b) => Number(a) + Number(b), 0);
    case 'max':
      return replies.reduce((a, b) => Math.max(Number(a), Number(b)), 0);
    case 'last':
      return replies[replies.length - 1];
    case 'concat': {
      const out: unknown[] = [];
      for (const r of replies) for (const x of r as unknown[]) out.push(x);
      return out;
    }
  }
}

function tooMany(name: string, count: number): StreamsMockError {
  return new StreamsMockError(
    `ioredis-mock's ${name.toUpperCase()} cannot take ${count} arguments (it spreads them into a JS call, limited to ` +
      `${MAX_SPREAD_ARGS} here); split the call, or use a real server for this test`,
  );
}

/**
 * Call a built-in with argument list `args` (already flattened, no callback), slicing it when
 * it is longer than MAX_SPREAD_ARGS. `invoke` receives at most that many arguments. Replies may
 * be plain values or promises (instance methods); a promise reply gives a promise.
 * @throws StreamsMockError when a command that cannot be sliced gets too many arguments
 */
export function callSliced(name: string, args: readonly unknown[], invoke: (args: unknown[]) => unknown): unknown {
  if (args.length <= MAX_SPREAD_ARGS) return invoke(args as unknown[]);
  const rule = SLICEABLE[name.replace(/Buffer$/, '').toLowerCase()];
  if (!rule || (args.length - rule.fixed) % rule.step !== 0) throw tooMany(name, args.length);
  const fixed = args.slice(0, rule.fixed);
  const per = Math.floor((MAX_SPREAD_ARGS - rule.fixed) / rule.step) * rule.step;
  const replies: unknown[] = [];
  for (let i = rule.fixed; i < args.length; i += per) replies.push(invoke([...fixed, ...args.slice(i, i + per)]));
  if (replies.some((r) => r instanceof Promise)) {
    return Promise.all(replies).then((rs) => combine(rule.combine, rs));
  }
  return combine(rule.combine, replies);
}

/**
 * Call one of ioredis-mock's instance methods (`redis.sadd(...)`) with the user's arguments,
 * slicing long lists. Short calls go through unchanged (objects for HSET/MSET, callbacks).
 */
export function callMethodSliced(name: string, method: (...a: unknown[]) => unknown, self: unknown, args: unknown[]): unknown {
  if (flatLength(args) <= MAX_SPREAD_ARGS) return method.apply(self, args);
  // ioredis's argument transformer first (HSET key {obj} / MSET {obj}: an array given there is
  // an object to ioredis, whose indexes become fields), then its flattening.
  const lower = name.replace(/Buffer$/, '').toLowerCase();
  const transform = argumentTransformer(lower);
  const flat = flattenArgs(transform ? transform(args) : args);
  // Each slice is short enough to spread: ioredis-mock's `[].concat(...args)` and its emulator call.
  return callSliced(name, flat, (slice) => method.apply(self, slice));
}

/** ioredis's argument transformer for a command (HSET, HMSET, MSET, MSETNX), if any. */
function argumentTransformer(name: string): ((args: unknown[]) => unknown[]) | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Command = require('ioredis/built/Command').default as { _transformer: { argument: Record<string, (a: unknown[]) => unknown[]> } };
    return Command._transformer.argument[name];
  } catch {
    return undefined;
  }
}
