/**
 * Errors of ioredis-mock's own commands as a client of a real server sees them. ioredis-mock
 * throws plain `Error`s (some with texts of its own), `TypeError`s for commands it lacks and,
 * on inputs it does not expect, JS errors from inside its code. What reaches the user is:
 * - an error reply (`CommandError`, a `ReplyError` for ioredis) with Redis's text for every error
 *   Redis would answer (texts ioredis-mock words differently are translated by the table below,
 *   checked on redis-server 7.0.15);
 * - a `StreamsMockError` naming the command when ioredis-mock does not implement a command
 *   Redis has, or fails inside its own code: not a Redis reply, so never dressed as one.
 */
import { StreamsMockError } from '../../clock/clock';
import { CommandError, ERR_NOT_INTEGER, ERR_NO_SUCH_KEY, ERR_SYNTAX, ERR_WRONGTYPE } from '../../errors';

/** ioredis-mock texts and Redis's for them. */
const TRANSLATIONS: [RegExp, string | ((m: RegExpMatchArray) => string)][] = [
  [/^Key .* does not contain a (list|set|sorted set)$/s, ERR_WRONGTYPE],
  [/^Cursor must be integer$/, 'ERR invalid cursor'],
  [/^Uknown option /, ERR_SYNTAX],
  [/^count must be integer$/, ERR_NOT_INTEGER],
  [/^no such key$/, ERR_NO_SUCH_KEY],
  [/^XX and NX options at the same time are not compatible$/, 'ERR XX and NX options at the same time are not compatible'],
  [/^INCR option supports a single increment-element pair$/, 'ERR INCR option supports a single increment-element pair'],
  [/^ERR syna?x error ?$/, ERR_SYNTAX],
  [/^Position[12] argument must be 'LEFT' or 'RIGHT'$/, ERR_SYNTAX],
  [/^Args should be provided by pair \(name & value\)$/, ERR_SYNTAX],
  [/^ERR count should be greater than 0$/, 'ERR count should be greater than 0'],
  [/^ERR numkeys must match the number of keys/, ERR_SYNTAX],
];

/** redis-errors' ReplyError (ioredis-mock's error replies), loaded with the first error. */
let replyError: typeof import('redis-errors').ReplyError | undefined;
function replyErrorClass(): typeof import('redis-errors').ReplyError {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (replyError ??= (require('redis-errors') as typeof import('redis-errors')).ReplyError);
}

/** Messages of ioredis-mock saying it lacks something: a library limit, not a Redis reply. */
const UNSUPPORTED = [/^Unsupported command: "([^"]*)"/, /^Currently not implemented as a mock/, /^ERR Unsupported operation, PRs welcome/];

/** An error reply text as Redis writes it: its code first, no CR/LF. */
const REDIS_ERROR = /^[A-Z][A-Z0-9_-]*( |$)/;

/**
 * The error to hand the user for `err`, thrown by ioredis-mock's `command`.
 * @returns a CommandError (an error Redis answers) or a StreamsMockError (a limit of the fake)
 */
export function builtinError(err: unknown, command: string): CommandError | StreamsMockError {
  if (err instanceof CommandError || err instanceof StreamsMockError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof replyErrorClass()) return new CommandError(message);
  const name = command.replace(/Buffer$/, '').toUpperCase();
  for (const pattern of UNSUPPORTED) {
    const m = pattern.exec(message);
    if (m) {
      const what = m[1] ? m[1].replace(/Buffer$/, '').toUpperCase() : name;
      return new StreamsMockError(`${what} is not emulated: ioredis-mock, which runs the commands other than streams, does not implement it`);
    }
  }
  for (const [pattern, text] of TRANSLATIONS) {
    const m = pattern.exec(message);
    if (m) return new CommandError(typeof text === 'string' ? text : text(m));
  }
  if (!(err instanceof TypeError || err instanceof RangeError) && REDIS_ERROR.test(message)) {
    return new CommandError(message.replace(/[\r\n]/g, ' '));
  }
  return new StreamsMockError(`ioredis-mock failed to run ${name} (${message}); this is not a Redis reply — please report it`);
}
