/**
 * The class of error replies, as the project's ioredis makes them, so that
 * `err instanceof require('ioredis').ReplyError` holds for the fake's errors as for real ones:
 * - ioredis 6 decodes an error reply as `SimpleError` (built/resp/errors.js), a subclass of
 *   redis-errors' `ReplyError` whose `name` reads `'ReplyError'`;
 * - ioredis 5 (redis-parser) makes redis-errors' `ReplyError` itself.
 * Both resolve redis-errors from the project's ioredis, which may be another copy than this
 * package's own dependency. With no ioredis installed, this package's redis-errors stands in.
 * Loaded on first use (never with the package): start-up cost stays as it was.
 */
import { dirname } from 'path';
import { errorCommandArgs } from './redact';

type ErrorClass = new (message: string) => Error;
let resolved: { reply: ErrorClass; exported: ErrorClass } | undefined;

function resolve(): { reply: ErrorClass; exported: ErrorClass } {
  let dir: string | undefined;
  try {
    dir = dirname(require.resolve('ioredis/package.json'));
  } catch {
    dir = undefined;
  }
  if (dir !== undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = (require(require.resolve('redis-errors', { paths: [dir] })) as { ReplyError: ErrorClass }).ReplyError;
      let reply = exported;
      try {
        // ioredis 6: the RESP decoder's class for `-ERR …` lines
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const simple = (require(`${dir}/built/resp/errors`) as { SimpleError?: ErrorClass }).SimpleError;
        if (typeof simple === 'function' && simple.prototype instanceof exported) reply = simple;
      } catch {
        // ioredis 5: no RESP3 decoder, redis-parser makes redis-errors' ReplyError
      }
      return { reply, exported };
    } catch {
      // an ioredis without redis-errors next to it: fall through to ours
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const own = (require('redis-errors') as { ReplyError: ErrorClass }).ReplyError;
  return { reply: own, exported: own };
}

/** The `ReplyError` class the project's ioredis exports (redis-errors' class). */
export function ioredisReplyErrorClass(): ErrorClass {
  return (resolved ??= resolve()).exported;
}

/** A new error reply with `message`, of the class the project's ioredis delivers error replies as. */
export function newReplyError(message: string): Error {
  return new (resolved ??= resolve()).reply(message);
}

let abortClass: ErrorClass | undefined;

/**
 * ioredis's abort of a command sent when the connection closed before its reply (event_handler.js
 * abortError, 5 and 6): redis-errors' `AbortError`, "Command aborted due to connection close",
 * with the command.
 */
export function newAbortError(command: { name: string; args: unknown[] }): Error {
  if (abortClass === undefined) {
    let dir: string | undefined;
    try {
      dir = dirname(require.resolve('ioredis/package.json'));
    } catch {
      dir = undefined;
    }
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      abortClass = (require(require.resolve('redis-errors', dir === undefined ? undefined : { paths: [dir] })) as { AbortError: ErrorClass }).AbortError;
    } catch {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      abortClass = (require('redis-errors') as { AbortError: ErrorClass }).AbortError;
    }
  }
  return Object.assign(new abortClass('Command aborted due to connection close'), { command: { name: command.name, args: errorCommandArgs(command.name, command.args) } });
}
