/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT LOAD (eval.c): the script cache by SHA1 (per
 * server, SCRIPT EXISTS/FLUSH are lib/engine/commands/scripting.ts's) and `numkeys` parsing;
 * compiling and running a body is ./lua.ts's.
 */
import { createHash } from 'crypto';
import { parseInt64 } from '../commands/args';
import { CommandError, ERR_NOT_INTEGER } from '../errors';
import type { Reply } from '../reply/reply';
import type { Connection } from '../engine/connection';
import { ERR_NOSCRIPT, engineFor, functionRef, parseShebang, runScript } from './lua';

/** Recent bodies' SHA1s: a repeated EVAL does not hash its body again. */
const shaOfBody = new Map<string, string>();
const SHA_CACHE_SIZE = 1000;

/** SHA1 hex of a script body (a byte string), as SCRIPT LOAD answers it. */
export function sha1hex(body: string): string {
  let sha = shaOfBody.get(body);
  if (sha === undefined) {
    sha = createHash('sha1').update(Buffer.from(body, 'latin1')).digest('hex');
    if (shaOfBody.size >= SHA_CACHE_SIZE) shaOfBody.clear();
    shaOfBody.set(body, sha);
  }
  return sha;
}

/** `numkeys key… arg…` as EVAL parses them (eval.c evalGenericCommand). */
function splitKeys(numkeys: string, rest: string[]): { keys: string[]; args: string[] } {
  const n = parseInt64(numkeys);
  if (n === null) throw new CommandError(ERR_NOT_INTEGER);
  if (n > BigInt(rest.length)) throw new CommandError("ERR Number of keys can't be greater than number of args");
  if (n < 0n) throw new CommandError("ERR Number of keys can't be negative");
  return { keys: rest.slice(0, Number(n)), args: rest.slice(Number(n)) };
}

/** SCRIPT LOAD: compile `body` (compile errors as EVAL gives them) and return its SHA1. */
export function loadScript(conn: Connection, body: string): string {
  const { source } = parseShebang(body);
  const sha = sha1hex(body);
  functionRef(engineFor(conn), sha, source);
  return sha;
}

/** EVAL script numkeys key… arg…: caches the script (SCRIPT EXISTS sees it) and runs it. */
export function evalCommand(conn: Connection, argv: string[], ro = false): Reply | Promise<Reply> {
  const [, body, numkeys, ...rest] = argv;
  const { keys, args } = splitKeys(numkeys, rest);
  const sha = sha1hex(body);
  conn.server.scripts.set(sha, body);
  return runScript(conn, body, sha, keys, args, ro, argv);
}

/** EVALSHA sha numkeys key… arg…: NOSCRIPT unless EVAL or SCRIPT LOAD cached it. */
export function evalshaCommand(conn: Connection, argv: string[], ro = false): Reply | Promise<Reply> {
  const [, shaArg, numkeys, ...rest] = argv;
  // eval.c evalShaCommand: a SHA not 40 bytes long is NOSCRIPT before numkeys is read
  if (shaArg.length !== 40) throw new CommandError(ERR_NOSCRIPT);
  const { keys, args } = splitKeys(numkeys, rest);
  const sha = shaArg.toLowerCase();
  const body = conn.server.scripts.get(sha);
  if (body === undefined) throw new CommandError(ERR_NOSCRIPT);
  return runScript(conn, body, sha, keys, args, ro, argv);
}
