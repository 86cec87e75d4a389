/**
 * How Redis types the replies of the commands ioredis-mock emulates. Its emulators answer the
 * values ioredis hands to users (strings, numbers, arrays, HGETALL as an object); the engine
 * turns them back into typed replies (lib/reply/reply.ts) so that every front end encodes them
 * as a server would: `+OK` is a simple string, HGETALL/CONFIG GET are maps in RESP3, SMEMBERS a
 * set, ZSCORE a double, INFO a verbatim string. Kinds per command, as data (Redis
 * src/commands/*.json reply schemas and the `addReply*` calls of each command):
 * - `status`: a string reply is a simple string (`+OK`, TYPE's `+string`);
 * - `map`: an object, or a flat [key, value, …] array, is a map;
 * - `set`: an array is a set;
 * - `double`: a string or number is a double; `doubles`: an array of doubles (and nils);
 * - `verbatim`: a string is a verbatim string;
 * - `nilArray`: null is the nil array (`*-1`).
 * `[element, value]` pairs (RESP3 nested, RESP2 flat: `PairsReply`) depend on the arguments too
 * (WITHSCORES, WITHVALUES, a count): see `builtinPairsReply`.
 * Every other value: string → bulk string (UTF-8 bytes), Buffer → its bytes, integer → integer,
 * boolean → 1/0, null/undefined → nil, array → array (elements converted the same way).
 */
import { StreamsMockError } from '../clock/clock';
import { CommandError } from '../errors';
import { DoubleReply, MapReply, NIL_ARRAY, PairsReply, type Reply, SetReply, SimpleString, VerbatimReply } from '../reply/reply';

type Kind = 'status' | 'map' | 'set' | 'double' | 'doubles' | 'verbatim' | 'nilArray';

/** Reply kinds by command (lower case). Absent: plain conversion. */
export const BUILTIN_REPLY_KINDS: Readonly<Record<string, Kind>> = {
  // +OK and other status replies
  set: 'status', // only `+OK` (nil when NX/XX fails; the old value with GET: see below)
  mset: 'status',
  hmset: 'status',
  setex: 'status',
  psetex: 'status',
  rename: 'status',
  lset: 'status',
  ltrim: 'status',
  flushall: 'status',
  flushdb: 'status',
  save: 'status',
  bgsave: 'status',
  bgrewriteaof: 'status',
  type: 'status',
  quit: 'status',
  readonly: 'status',
  readwrite: 'status',
  replicaof: 'status',
  slaveof: 'status',
  replconf: 'status',
  asking: 'status',
  failover: 'status',
  config: 'status', // CONFIG SET/RESETSTAT `+OK`; CONFIG GET is a map (below)
  // maps (RESP3 `%`; RESP2 flat array)
  hgetall: 'map',
  // sets (RESP3 `~`; RESP2 array)
  smembers: 'set',
  sinter: 'set',
  sunion: 'set',
  sdiff: 'set',
  spop: 'set', // with COUNT; a single member stays a bulk string
  // doubles (RESP3 `,`; RESP2 bulk string)
  zscore: 'double',
  zincrby: 'double',
  zmscore: 'doubles',
  // ZADD … INCR too (typedBuiltinReply)
  // verbatim strings (RESP3 `=`; RESP2 bulk string)
  info: 'verbatim',
  lolwut: 'verbatim',
  // nil arrays
  lmpop: 'nilArray',
};

/** A JS string as a byte string (its UTF-8 bytes, one char per byte). */
function bytesOfText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** One value of an emulator, converted without a command-specific kind. */
export function plainReply(value: unknown): Reply {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return bytesOfText(value);
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return value;
    return new DoubleReply(value);
  }
  if (typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
  if (Array.isArray(value)) return value.map(plainReply);
  if (typeof value === 'object') return new MapReply(Object.entries(value).flatMap(([k, v]) => [bytesOfText(k), plainReply(v)]));
  return bytesOfText(String(value));
}

/** A double reply of a score or float (`inf`, `-inf` and `Infinity` read as the infinities). */
function doubleOf(value: unknown): Reply {
  return scoreReply(value);
}

/** ZADD key [NX|XX] [GT|LT] [CH] INCR …: the new score is a double (nil when NX/XX skip it). */
function zaddIncr(args: readonly unknown[]): boolean {
  for (let i = 1; i < args.length; i++) {
    const word = String(args[i]).toUpperCase();
    if (word === 'INCR') return true;
    if (!['NX', 'XX', 'GT', 'LT', 'CH'].includes(word)) return false;
  }
  return false;
}

/** `word` (upper case) among `args` from index `from` on (options follow the keys and ranges). */
function hasOption(args: readonly unknown[], from: number, word: string): boolean {
  for (let i = from; i < args.length; i++) if (String(args[i]).toUpperCase() === word) return true;
  return false;
}

/**
 * What a built-in's `[element, value]` pairs hold, given its arguments, or undefined when it
 * answers no pairs (Redis t_zset.c, t_hash.c: `if (withscores && c->resp > 2)
 * addReplyArrayLen(c, 2)` before each element):
 * - `scores`: ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT …] WITHSCORES, ZRANGEBYSCORE /
 *   ZREVRANGEBYSCORE key max min … WITHSCORES, ZREVRANGE key start stop WITHSCORES, ZUNION /
 *   ZINTER / ZDIFF numkeys key … WITHSCORES, ZRANDMEMBER key count WITHSCORES, ZPOPMIN / ZPOPMAX
 *   key count (without a count: member and score, flat in RESP3 too — genericZpopCommand);
 * - `values`: HRANDFIELD key count WITHVALUES.
 * `name`: lower case; `args`: the command's arguments (strings or Buffers).
 */
export function builtinPairsKind(name: string, args: readonly unknown[]): 'scores' | 'values' | undefined {
  switch (name) {
    case 'zrange':
    case 'zrangebyscore':
    case 'zrevrange':
    case 'zrevrangebyscore':
      return hasOption(args, 3, 'WITHSCORES') ? 'scores' : undefined;
    case 'zunion':
    case 'zinter':
    case 'zdiff': {
      const numkeys = Number(String(args[0]));
      return Number.isInteger(numkeys) && numkeys > 0 && hasOption(args, 1 + numkeys, 'WITHSCORES') ? 'scores' : undefined;
    }
    case 'zrandmember':
      return args.length >= 3 && String(args[2]).toUpperCase() === 'WITHSCORES' ? 'scores' : undefined;
    case 'hrandfield':
      return args.length >= 3 && String(args[2]).toUpperCase() === 'WITHVALUES' ? 'values' : undefined;
    case 'zpopmin':
    case 'zpopmax':
      return args.length >= 2 ? 'scores' : undefined;
    default:
      return undefined;
  }
}

/** An element of a reply: a bulk string (a number as its digits). */
function bulkOf(value: unknown): Reply {
  return typeof value === 'number' ? String(value) : plainReply(value);
}

/**
 * A sorted-set score as Redis's double reply (`addReplyDouble`): `inf`/`-inf` for the
 * infinities (ioredis-mock may print them `Infinity`), else the text as given.
 */
export function scoreReply(value: unknown): Reply {
  if (value === null || value === undefined) return null;
  const text = Buffer.isBuffer(value) ? value.toString() : String(value);
  if (text === 'inf' || text === '+inf' || text === 'Infinity') return new DoubleReply(Infinity, 'inf');
  if (text === '-inf' || text === '-Infinity') return new DoubleReply(-Infinity, '-inf');
  return new DoubleReply(Number(text), text);
}

/**
 * The typed reply of a built-in that answers `[element, value]` pairs (`builtinPairsKind`) for
 * its flat RESP2-shaped `value` (element, value, …: ioredis-mock's form), or undefined when the
 * command answers no pairs for these arguments or `value` is no array. ZPOPMIN / ZPOPMAX
 * without a count answer member and score flat (the score still a double).
 */
export function builtinPairsReply(name: string, args: readonly unknown[], value: unknown): Reply | undefined {
  if (!Array.isArray(value)) return undefined;
  const kind = builtinPairsKind(name, args);
  if (kind === undefined) {
    if ((name === 'zpopmin' || name === 'zpopmax') && args.length === 1 && value.length === 2) return [bulkOf(value[0]), scoreReply(value[1])];
    return undefined;
  }
  const second = kind === 'scores' ? scoreReply : bulkOf;
  const items: [Reply, Reply][] = [];
  for (let i = 0; i + 1 < value.length; i += 2) items.push([bulkOf(value[i]), second(value[i + 1])]);
  return new PairsReply(items);
}

/** Commands that may answer pairs (`builtinPairsReply`, lower case); the rest skip that check. */
export const BUILTIN_PAIRS_COMMANDS: ReadonlySet<string> = new Set(['zrange', 'zrangebyscore', 'zrevrange', 'zrevrangebyscore', 'zunion', 'zinter', 'zdiff', 'zrandmember', 'hrandfield', 'zpopmin', 'zpopmax']);

/**
 * The typed reply of ioredis-mock's `name` command given `args` (lower-case name; args as the
 * emulator received them) for its JS result `value`.
 */
export function typedBuiltinReply(name: string, args: readonly unknown[], value: unknown): Reply {
  if (BUILTIN_PAIRS_COMMANDS.has(name)) {
    const pairs = builtinPairsReply(name, args, value);
    if (pairs !== undefined) return pairs;
  }
  const kind = name === 'zadd' && zaddIncr(args) ? 'double' : BUILTIN_REPLY_KINDS[name];
  const sub = args.length > 0 ? String(args[0]).toLowerCase() : '';
  // HELP subcommands answer status lines (networking.c addReplyHelp)
  if (sub === 'help' && Array.isArray(value)) return value.map((l) => new SimpleString(String(l)));
  switch (kind) {
    case undefined:
      return plainReply(value);
    case 'status': {
      if (name === 'config' && sub === 'get' && Array.isArray(value)) return new MapReply(value.map(plainReply));
      if (typeof value !== 'string') return plainReply(value);
      // SET … GET answers the old value (a bulk string)
      if (name === 'set' && args.some((a) => String(a).toLowerCase() === 'get')) return bytesOfText(value);
      return new SimpleString(value);
    }
    case 'map':
      if (Array.isArray(value)) return new MapReply(value.map(plainReply));
      return plainReply(value instanceof Map ? Object.fromEntries(value) : value);
    case 'set':
      if (Array.isArray(value)) return new SetReply(value.map(plainReply));
      // SPOP with a count answers a set even of one member (ioredis-mock gives the member)
      if (name === 'spop' && args.length >= 2 && value !== null && value !== undefined) return new SetReply([plainReply(value)]);
      return plainReply(value);
    case 'double':
      return doubleOf(value);
    case 'doubles':
      return Array.isArray(value) ? value.map(doubleOf) : plainReply(value);
    case 'verbatim':
      if (typeof value === 'string') return new VerbatimReply(bytesOfText(value));
      if (value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)) {
        // ioredis-mock's INFO answers its canned sections as an object
        return new VerbatimReply(bytesOfText(Object.entries(value).map(([k, v]) => `${k}:${v}`).join('\r\n')));
      }
      return plainReply(value);
    case 'nilArray':
      return value === null || value === undefined ? NIL_ARRAY : plainReply(value);
  }
}

/**
 * An error an emulator threw, as Redis's error reply (an `ERR ` prefix when it has no code). A
 * StreamsMockError (a command or argument the fake lacks, adapter/builtin-errors.ts) is a
 * library error, not a reply: it is thrown as it is.
 */
export function builtinError(err: unknown): CommandError {
  if (err instanceof StreamsMockError) throw err;
  if (err instanceof CommandError) return err;
  const text = err instanceof Error ? err.message : String(err);
  const msg = bytesOfText(text).replace(/[\r\n]/g, ' ');
  return new CommandError(/^[A-Z][A-Z0-9_-]*( |$)/.test(msg) ? msg : `ERR ${msg}`);
}
