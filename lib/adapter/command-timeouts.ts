/**
 * ioredis's client-side command timers, from the client options `commandTimeout` and
 * `blockingTimeout` (Redis#sendCommand, Command#setTimeout / #setBlockingTimeout,
 * getBlockingTimeoutInMs; the same in 5.11.1 and 6.0.0 but for BLMOVEM, a blocking command of 6):
 * - `commandTimeout` (any number): every command rejects with a plain `Error('Command timed out')`
 *   when no reply came within that many ms;
 * - `blockingTimeout` (a positive number): a blocking command (BLPOP … XREAD, XREADGROUP) resolves
 *   `null` when no reply came within its own timeout + `blockingTimeoutGrace` (default 100 ms), or
 *   within `blockingTimeout` when it blocks forever (0, or XREAD without BLOCK); a command held
 *   before `ready` (ioredis's offline queue) gets `blockingTimeout` itself.
 * Only the client gives up: the command stays on the connection (a BLPOP still blocks the
 * connection, commands sent after it wait behind it, and an element pushed later is popped by it
 * and lost), as with real ioredis on a real server.
 *
 * The timers are the global `setTimeout` read when the command is sent, as ioredis's: jest,
 * vitest or sinon fake timers installed then hold them (not the keyspace clock: they are the
 * client's timers, not the server's). Both are cleared when the command settles.
 */
import { installedIoredisMajor } from './command-table';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Instance = any;

const LAST_ARG_TIMEOUT = new Set(['blpop', 'brpop', 'brpoplpush', 'blmove', 'bzpopmin', 'bzpopmax']);
const FIRST_ARG_TIMEOUT = new Set(['bzmpop', 'blmpop']);
const BLOCK_OPTION = new Set(['xread', 'xreadgroup']);

/** ioredis's `args.flat()`: arrays spread one level. */
function flatten(args: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const a of args) {
    if (Array.isArray(a)) for (const x of a) out.push(x);
    else out.push(a);
  }
  return out;
}

/** ioredis's parseNumberArgument (utils/argumentParsers). */
function numberArgument(arg: unknown): number | undefined {
  if (typeof arg === 'number') return arg;
  if (Buffer.isBuffer(arg)) return numberArgument(arg.toString());
  if (typeof arg === 'string') {
    const value = Number(arg);
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}

/** ioredis's parseSecondsArgument: ms, 0 for ≤ 0, undefined when not a number. */
function secondsArgument(arg: unknown): number | undefined {
  const value = numberArgument(arg);
  if (value === undefined) return undefined;
  return value <= 0 ? 0 : value * 1000;
}

/** ioredis's parseBlockOption: ms, 0 for ≤ 0, null without BLOCK, undefined when BLOCK's value is not a number. */
function blockOption(args: readonly unknown[]): number | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const token = typeof a === 'string' ? a : Buffer.isBuffer(a) ? a.toString() : undefined;
    if (token && token.toLowerCase() === 'block') {
      const duration = numberArgument(args[i + 1]);
      if (duration === undefined) return undefined;
      return duration <= 0 ? 0 : duration;
    }
  }
  return null;
}

/** The lower-case command name ioredis checks its flags with (a `…Buffer` method sends the command itself). */
function commandName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('buffer') && name.endsWith('Buffer') ? lower.slice(0, -'buffer'.length) : lower;
}

function isBlocking(name: string): boolean {
  return LAST_ARG_TIMEOUT.has(name) || FIRST_ARG_TIMEOUT.has(name) || BLOCK_OPTION.has(name) || (name === 'blmovem' && installedIoredisMajor() >= 6);
}

/** ioredis's getBlockingTimeoutInMs (and the offline queue's `blockingTimeout`): ms, or undefined for no timer. */
function blockingTimeoutOf(options: any, name: string, args: readonly unknown[], offline: boolean): number | undefined {
  if (!isBlocking(name)) return undefined;
  const configured = typeof options.blockingTimeout === 'number' && options.blockingTimeout > 0 ? (options.blockingTimeout as number) : undefined;
  if (configured === undefined || offline) return configured;
  if (args.length === 0) return undefined;
  const timeout =
    name === 'blmovem'
      ? secondsArgument(args[4])
      : LAST_ARG_TIMEOUT.has(name)
        ? secondsArgument(args[args.length - 1])
        : FIRST_ARG_TIMEOUT.has(name)
          ? secondsArgument(args[0])
          : blockOption(args);
  if (typeof timeout === 'number') return timeout > 0 ? timeout + ((options.blockingTimeoutGrace as number | undefined) ?? 100) : configured;
  return timeout === null ? configured : undefined;
}

/** Whether the client sets commandTimeout or blockingTimeout (else no command of it has timers). */
export function hasClientTimeouts(redis: Instance): boolean {
  const options = redis?.options;
  return options !== undefined && options !== null && (options.commandTimeout !== undefined || options.blockingTimeout !== undefined);
}

/**
 * `reply` (the command `name` with arguments `args` from index `from`, as sent by the client
 * `redis`) under ioredis's client-side timers: `reply` itself when the client sets neither option.
 * Call it in the turn the command is sent (the timers start then).
 */
export function withClientTimeouts(redis: Instance, name: unknown, args: readonly unknown[], from: number, reply: Promise<unknown>): Promise<unknown> {
  if (!hasClientTimeouts(redis) || typeof name !== 'string') return reply;
  const options = redis.options;
  const commandMs = typeof options.commandTimeout === 'number' ? (options.commandTimeout as number) : undefined;
  let blockingMs: number | undefined;
  const base = commandName(name);
  if (isBlocking(base)) {
    const flat = flatten(from === 0 ? args : args.slice(from));
    blockingMs = blockingTimeoutOf(options, base, flat, redis.status !== 'ready');
  }
  if (commandMs === undefined && (blockingMs === undefined || blockingMs <= 0)) return reply;
  return new Promise((resolve, reject) => {
    // the global setTimeout as it is now (fake timers installed or not), as ioredis reads it
    const set = globalThis.setTimeout;
    const clear = globalThis.clearTimeout;
    let settled = false;
    let commandTimer: ReturnType<typeof setTimeout> | undefined;
    let blockingTimer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      settled = true;
      if (commandTimer !== undefined) clear(commandTimer);
      if (blockingTimer !== undefined) clear(blockingTimer);
      commandTimer = blockingTimer = undefined;
    };
    if (commandMs !== undefined) {
      commandTimer = set(() => {
        commandTimer = undefined;
        if (settled) return;
        done();
        reject(new Error('Command timed out'));
      }, commandMs);
    }
    if (blockingMs !== undefined && blockingMs > 0) {
      blockingTimer = set(() => {
        blockingTimer = undefined;
        if (settled) return;
        done();
        resolve(null);
      }, blockingMs);
    }
    reply.then(
      (value) => {
        if (settled) return;
        done();
        resolve(value);
      },
      (err) => {
        if (settled) return;
        done();
        reject(err);
      },
    );
  });
}
