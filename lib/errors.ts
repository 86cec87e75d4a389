/**
 * Redis error replies, byte for byte (t_stream.c, server.c; see shared reference §1.4 and §4).
 * Texts carry their own prefix (ERR, WRONGTYPE, NOGROUP, BUSYGROUP). Messages with parameters
 * are functions, one per Redis wording. Key, group and consumer names are byte strings here;
 * the adapter decodes them for the client.
 */

/** An error reply produced by a command; the adapter turns it into ioredis's ReplyError. */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

export const ERR_SYNTAX = 'ERR syntax error';
export const ERR_NOT_INTEGER = 'ERR value is not an integer or out of range';
export const ERR_NOT_FLOAT = 'ERR value is not a valid float';
export const ERR_HASH_NOT_FLOAT = 'ERR hash value is not a float';
export const ERR_NAN_OR_INF_RESULT = 'ERR increment would produce NaN or Infinity';
export const ERR_NAN_OR_INF_INCR = 'ERR value is NaN or Infinity';
export const ERR_INVALID_STREAM_ID = 'ERR Invalid stream ID specified as stream command argument';
export const ERR_WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
export const ERR_NO_SUCH_KEY = 'ERR no such key';
export const ERR_TIMEOUT_NOT_INTEGER = 'ERR timeout is not an integer or out of range';
export const ERR_TIMEOUT_NEGATIVE = 'ERR timeout is negative';
export const ERR_TIMEOUT_OUT_OF_RANGE = 'ERR timeout is out of range';
export const ERR_INVALID_START_ID = 'ERR invalid start ID for the interval';
export const ERR_INVALID_END_ID = 'ERR invalid end ID for the interval';

// XADD / XTRIM
export const ERR_XADD_ID_ZERO = 'ERR The ID specified in XADD must be greater than 0-0';
export const ERR_XADD_ID_SMALLER = 'ERR The ID specified in XADD is equal or smaller than the target stream top item';
export const ERR_XADD_EXHAUSTED = 'ERR The stream has exhausted the last possible ID, unable to add more items';
export const ERR_MAXLEN_MINID_TOGETHER = 'ERR syntax error, MAXLEN and MINID options at the same time are not compatible';
export const ERR_MAXLEN_NEGATIVE = 'ERR The MAXLEN argument must be >= 0.';
export const ERR_LIMIT_NEGATIVE = 'ERR The LIMIT argument must be >= 0.';
/** XADD IDMP/IDMPAUTO (Redis 8.6), texts from Redis's stream.tcl (the ERR prefix is addReplyError's). */
export const ERR_IDMP_TWICE = 'ERR IDMP/IDMPAUTO specified multiple times';
export const ERR_IDMP_EXPLICIT_ID = 'ERR IDMP/IDMPAUTO can be used only with auto-generated IDs';
export const ERR_IDMP_EMPTY_PID = 'ERR IDMP requires a non-empty producer ID';
export const ERR_IDMP_EMPTY_IID = 'ERR IDMP requires a non-empty idempotent ID';
export const ERR_IDMPAUTO_EMPTY_PID = 'ERR IDMPAUTO requires a non-empty producer ID';
/** XCFGSET (Redis 8.6): stream.tcl matches `*ERR At least one parameter*` and `*ERR IDMP-DURATION
 *  must be between*`; the rest of each text is from XCFGSET's documented ranges (unconfirmed). */
export const ERR_XCFGSET_NO_PARAMETER = 'ERR At least one parameter must be specified: IDMP-DURATION or IDMP-MAXSIZE';
export const ERR_XCFGSET_DURATION_RANGE = 'ERR IDMP-DURATION must be between 1 and 86400 seconds';
export const ERR_XCFGSET_MAXSIZE_RANGE = 'ERR IDMP-MAXSIZE must be between 1 and 10000 entries';
export const ERR_LIMIT_NO_STRATEGY = 'ERR syntax error, LIMIT cannot be used without specifying a trimming strategy';
export const ERR_LIMIT_NO_APPROX = 'ERR syntax error, LIMIT cannot be used without the special ~ option';
export const ERR_XTRIM_NO_STRATEGY = 'ERR syntax error, XTRIM must be called with a trimming strategy';
/** XADD fields+values over 1 GiB (t_stream.c STREAM_LISTPACK_MAX_SIZE); also 7.0's reply to an
 *  exhausted `ms-*` sequence (see FEATURE_SINCE.xaddSeqExhaustedEdom). */
export const ERR_XADD_TOO_LARGE = 'ERR Elements are too large to be stored';

// XGROUP
export const ERR_XGROUP_KEY_NOT_FOUND =
  'ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.';
export const ERR_BUSYGROUP = 'BUSYGROUP Consumer Group name already exists';
export const ERR_ENTRIESREAD_RANGE = 'ERR value for ENTRIESREAD must be positive or -1';

// XREAD / XREADGROUP
export const ERR_XREADGROUP_MISSING_GROUP = 'ERR Missing GROUP option for XREADGROUP';
export const ERR_XREAD_UNBALANCED =
  "ERR Unbalanced 'xread' list of streams: for each stream key an ID, '+', or '$' must be specified.";
/** 7.2–7.4 XREAD text (before redis #13474 added `'+'`). */
export const ERR_XREAD_UNBALANCED_72 =
  "ERR Unbalanced 'xread' list of streams: for each stream key an ID or '$' must be specified.";
/** 7.0 text, for XREAD and XREADGROUP alike (checked on redis-server 7.0.15). */
export const ERR_XREAD_UNBALANCED_70 =
  "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.";
export const ERR_XREADGROUP_UNBALANCED =
  "ERR Unbalanced 'xreadgroup' list of streams: for each stream key an ID or '>' must be specified.";
export const ERR_XREAD_GROUP_OPTION = 'ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.';
export const ERR_XREAD_NOACK_OPTION = 'ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.';
export const ERR_XREAD_CLAIM_OPTION = 'ERR The CLAIM option is only supported by XREADGROUP. You called XREAD instead.';
export const ERR_XREAD_GT_ID =
  'ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.';
export const ERR_XREAD_LAST_ID_ZERO = 'ERR the stream last element ID is 0-0';
export const ERR_CLAIM_NOT_INTEGER = 'ERR min-idle-time is not an integer';
export const ERR_CLAIM_NEGATIVE = 'ERR min-idle-time must be a positive integer';
export const ERR_MAXCOUNT_POSITIVE = 'ERR MAXCOUNT must be a positive integer';
export const ERR_MAXCOUNT_LT_COUNT = 'ERR MAXCOUNT must be greater than or equal to COUNT';
export const ERR_MAXSIZE_POSITIVE = 'ERR MAXSIZE must be a positive integer';
/** 7.0–7.2: BLOCK given to XREAD/XREADGROUP from a Lua script (`cmd` = argv[0] as typed). */
export function errBlockFromScript(cmd: string): string {
  return `ERR ${errorArg(cmd)} command is not allowed with BLOCK option from scripts`;
}
export function errXreadgroupMeaninglessId(id: '$' | '+'): string {
  return `ERR The ${id} ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The ${id} ID would just return an empty result set.`;
}

// XCLAIM / XAUTOCLAIM
export const ERR_XAUTOCLAIM_COUNT = 'ERR COUNT must be > 0';
/** XAUTOCLAIM after the key/group check, when its COUNT-sized work array cannot be allocated. */
export const ERR_XAUTOCLAIM_COUNT_TOO_HIGH = 'ERR Insufficient memory, failed allocating transient memory, COUNT too high.';
export function errInvalidMinIdle(cmd: 'XCLAIM' | 'XAUTOCLAIM'): string {
  return `ERR Invalid min-idle-time argument for ${cmd}`;
}
export function errXclaimOptionArg(option: 'IDLE' | 'TIME' | 'RETRYCOUNT'): string {
  return `ERR Invalid ${option} option argument for XCLAIM`;
}
export function errXclaimUnrecognized(token: string): string {
  return `ERR Unrecognized XCLAIM option '${token}'`;
}

// XNACK (Redis 8.8; reference §4 XNACK error table)
export const ERR_XNACK_MODE = 'ERR mode must be SILENT, FAIL, or FATAL';
export const ERR_XNACK_NO_IDS = 'ERR syntax error, expected IDS keyword';
export const ERR_XNACK_NUMIDS = 'ERR numids must be a positive integer';
export const ERR_XNACK_NUMIDS_MISMATCH = "ERR number of IDs doesn't match numids";
export const ERR_XNACK_RETRYCOUNT_NEGATIVE = 'ERR Invalid RETRYCOUNT value, must be >= 0';
/** The quoted-token suffix is unconfirmed (reference §7 item 9); modelled on XCLAIM's text. */
export function errXnackUnrecognized(token: string): string {
  return `ERR Unrecognized XNACK option '${token}'`;
}

/**
 * A byte string as Redis's `addReplyErrorFormat` shows it through `%s`: cut at the first NUL
 * byte, and CR/LF turned into spaces (checked on redis-server 7.0.15:
 * `XCLAIM s g c 0 1-0 "a\nb"` → `ERR Unrecognized XCLAIM option 'a b'`).
 */
export function errorArg(s: string): string {
  const nul = s.indexOf('\0');
  return (nul === -1 ? s : s.slice(0, nul)).replace(/[\r\n]/g, ' ');
}

/**
 * A byte string ending an `addReplyErrorFormat` message: as errorArg, with the CR/LF run at its
 * end dropped first (networking.c addReplyErrorFormatInternal trims "\r\n" from the message's
 * ends before mapping the rest to spaces: `FUNCTION LOAD "#!lua\n" x` → `ERR Unknown option
 * given: #!lua`, checked on redis-server 7.0.15 and the post-7.4 build).
 */
export function errorTail(s: string): string {
  const nul = s.indexOf('\0');
  return errorArg((nul === -1 ? s : s.slice(0, nul)).replace(/[\r\n]+$/, ''));
}

// XSETID
export const ERR_XSETID_SMALLER_THAN_TOP = 'ERR The ID specified in XSETID is smaller than the target stream top item';
export const ERR_XSETID_SMALLER_THAN_MAXDEL = 'ERR The ID specified in XSETID is smaller than current max_deleted_entry_id';
export const ERR_XSETID_SMALLER_THAN_PROVIDED_MAXDEL =
  'ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id';
export const ERR_XSETID_ENTRIES_ADDED_NEGATIVE = 'ERR entries_added must be positive';
export const ERR_XSETID_ENTRIES_ADDED_SMALL = 'ERR The entries_added specified in XSETID is smaller than the target stream length';

// XACKDEL / XDELEX / XNACK (Redis 8.2 / 8.8)
export const ERR_NUMIDS_POSITIVE = 'ERR Number of IDs must be a positive integer';
export const ERR_NUMIDS_MISMATCH = 'ERR The `numids` parameter must match the number of arguments';
/** XDELEX/XACKDEL without an IDS block (t_stream.c `streamParseAckDelArgsOrReply`). */
export const ERR_IDS_REQUIRED = 'ERR IDS option is required';

// Generic dispatcher errors (server.c)
/**
 * processCommand's refusal of a PROTECTED command (DEBUG, MODULE LOAD/LOADEX/UNLOAD) while its
 * setting (`enable-debug-command`, `enable-module-command`) is `no` (server.c, Redis 7.0+).
 */
export function errProtectedCommand(setting: 'enable-debug-command' | 'enable-module-command'): string {
  const command = setting === 'enable-debug-command' ? 'DEBUG' : 'MODULE';
  return `ERR ${command} command not allowed. If the ${setting} option is set to "local", you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server.`;
}

export function errWrongArity(name: string): string {
  return `ERR wrong number of arguments for '${name}' command`;
}
/** `%.128s` of a C string: cut at NUL, then at 128 bytes. */
function cArg128(s: string): string {
  const nul = s.indexOf('\0');
  return (nul === -1 ? s : s.slice(0, nul)).slice(0, 128);
}
/** server.c processCommand: argv[1] as typed (%.128s), container name upper-cased. */
export function errUnknownSubcommand(sub: string, container: string): string {
  return `ERR unknown subcommand '${cArg128(sub)}'. Try ${container.toUpperCase()} HELP.`;
}
/** networking.c addReplySubcommandSyntaxError. */
export function errSubcommandSyntax(sub: string, container: string): string {
  return `ERR unknown subcommand or wrong number of arguments for '${cArg128(sub)}'. Try ${container.toUpperCase()} HELP.`;
}
/** server.c processCommand: name (%.128s) and arguments quoted until the list reaches 128 bytes. */
export function errUnknownCommand(name: string, args: string[]): string {
  let shown = '';
  for (const a of args) {
    if (shown.length >= 128) break;
    shown += `'${cArg128(a).slice(0, 128 - shown.length)}' `;
  }
  return `ERR unknown command '${cArg128(name)}', with args beginning with: ${shown}`;
}

// NOGROUP wordings (they differ per command)
export function errNoGroupForKey(key: string, group: string): string {
  return `NOGROUP No such consumer group '${cStr(group)}' for key name '${cStr(key)}'`;
}
export function errNoKeyOrGroup(key: string, group: string): string {
  return `NOGROUP No such key '${cStr(key)}' or consumer group '${cStr(group)}'`;
}
export function errNoKeyOrGroupXreadgroup(key: string, group: string): string {
  return `NOGROUP No such key '${cStr(key)}' or consumer group '${cStr(group)}' in XREADGROUP with GROUP option`;
}
/** An argument as addReplyErrorFormat's `%s` prints it: a C string, up to its first NUL byte. */
function cStr(s: string): string {
  const z = s.indexOf('\0');
  return z < 0 ? s : s.slice(0, z);
}
/** Redis 7.0 reply to a blocked XREADGROUP whose key was deleted (blocked.c). */
export const ERR_UNBLOCKED_KEY_GONE = 'UNBLOCKED the stream key no longer exists';
/** Redis 7.0 reply to a blocked XREADGROUP whose group was destroyed (blocked.c; checked on 7.0.15). */
export const ERR_NOGROUP_BLOCKED_GROUP_GONE = 'NOGROUP the consumer group this client was blocked on no longer exists';

export function fail(message: string): never {
  throw new CommandError(message);
}

// DUMP / RESTORE / COPY (cluster.c `restoreCommand`, db.c `copyCommand`, server.c shared errors)
export const ERR_BUSYKEY = 'BUSYKEY Target key name already exists.';
export const ERR_DUMP_PAYLOAD = 'ERR DUMP payload version or checksum are wrong';
export const ERR_BAD_DATA_FORMAT = 'ERR Bad data format';
export const ERR_INVALID_TTL = 'ERR Invalid TTL value, must be >= 0';
export const ERR_INVALID_IDLETIME = 'ERR Invalid IDLETIME value, must be >= 0';
export const ERR_INVALID_FREQ = 'ERR Invalid FREQ value, must be >= 0 and <= 255';
export const ERR_SAME_OBJECT = 'ERR source and destination objects are the same';
export const ERR_DB_INDEX_OUT_OF_RANGE = 'ERR DB index is out of range';
/** object.c `getRangeLongFromObjectOrReply` for an int argument (COPY … DB). */
export const ERR_INT_RANGE = 'ERR value is out of range, value must between -2147483648 and 2147483647';
