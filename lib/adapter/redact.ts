/**
 * ioredis 6.1's `Command.redactSensitiveArgs` (Command.js): the arguments an error's `command`
 * carries (`err.command.args`, the abort error's too), with credentials replaced by
 * "[REDACTED]": all of AUTH's; HELLO's AUTH username and password; MIGRATE's AUTH password /
 * AUTH2 username and password; ACL SETUSER's password rules (`>`, `<`, `#`, `!`); CONFIG SET's
 * values; SENTINEL SET's auth-pass / auth-user values and SENTINEL CONFIG SET's values. Other
 * commands, and ioredis 5 and 6.0 (which redact nothing), keep their arguments.
 */
import { installedIoredisAtLeast, installedIoredisMajor } from './command-table';

const REDACTED = '[REDACTED]';

/** `args` as the installed ioredis attaches them to an error of command `name`. */
export function errorCommandArgs<T>(name: string, args: T[]): (T | string)[] {
  if (installedIoredisMajor() !== 6 || !installedIoredisAtLeast(6, 1)) return args;
  return redactSensitiveArgs(name, args);
}

/** ioredis 6.1 Command.redactSensitiveArgs. */
export function redactSensitiveArgs<T>(commandName: string, args: T[]): (T | string)[] {
  const lower = commandName.toLowerCase();
  const token = (i: number) => (i < args.length ? String(args[i]).toLowerCase() : undefined);
  const redacted: (T | string)[] = args.slice();
  const redact = (i: number) => {
    if (i < redacted.length) redacted[i] = REDACTED;
  };
  // "parameter value ..." from `start`; an odd count is not reliable: all of it
  const redactParameterValues = (start: number) => {
    const malformed = (args.length - start) % 2 !== 0;
    for (let i = start; i < args.length; i++) if (malformed || (i - start) % 2 === 1) redact(i);
  };
  switch (lower) {
    case 'auth':
      return args.map(() => REDACTED);
    case 'hello':
      for (let i = 0; i < args.length; i++) {
        if (token(i) === 'auth') {
          redact(i + 1);
          redact(i + 2);
          i += 2;
        } else if (token(i) === 'setname') i += 1;
      }
      return redacted;
    case 'migrate':
      for (let i = 3; i < args.length; i++) {
        if (token(i) === 'auth') {
          redact(i + 1);
          i += 1;
        } else if (token(i) === 'auth2') {
          redact(i + 1);
          redact(i + 2);
          i += 2;
        } else if (token(i) === 'keys') break;
      }
      return redacted;
    case 'acl':
      if (token(0) === 'setuser') for (let i = 2; i < args.length; i++) if (/^[><#!]/.test(String(args[i]))) redact(i);
      return redacted;
    case 'config':
      if (token(0) === 'set') redactParameterValues(1);
      return redacted;
    case 'sentinel':
      if (token(0) === 'set') {
        for (let i = 2; i < args.length; i++) {
          if (token(i) === 'auth-pass' || token(i) === 'auth-user') {
            redact(i + 1);
            i += 1;
          }
        }
      } else if (token(0) === 'config' && token(1) === 'set') redactParameterValues(2);
      return redacted;
    default:
      return args;
  }
}
