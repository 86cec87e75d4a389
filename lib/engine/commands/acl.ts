/**
 * ACL (acl.c aclCommand; texts of redis-server 7.0.15 and the post-7.4 build):
 *
 * SETUSER username [rule …] — create or modify a user (rules: on off nopass resetpass >pass
 *   <pass #hash !hash ~pattern %R~ %W~ %RW~ allkeys resetkeys &pattern allchannels resetchannels
 *   +cmd -cmd +cmd|sub +@cat -@cat allcommands nocommands reset (selector) clearselectors
 *   sanitize-payload skip-sanitize-payload); all or nothing: "ERR Error in ACL SETUSER modifier
 *   '…': …". Clients of a user that loses a channel they are subscribed to are disconnected.
 * GETUSER username — map: flags, passwords (SHA-256), commands, keys, channels, selectors; nil.
 * DELUSER username … — how many were deleted; their clients are disconnected (the caller after
 *   its reply); "ERR The 'default' user cannot be removed".
 * LIST, USERS, WHOAMI, CAT [category], GENPASS [bits], LOG [count | RESET], DRYRUN user cmd …,
 * HELP; LOAD/SAVE answer as a server without an aclfile.
 *
 * Known gap: 7.0.15 rebuilds GETUSER/LIST command rules from its bitmap (another order, no
 * retained rules); both modes answer the post-7.2 retained form.
 */
import { randomBytes } from 'crypto';
import { parseInt64 } from '../../commands/args';
import { CommandError, ERR_NOT_INTEGER, errSubcommandSyntax } from '../../errors';
import { DoubleReply, MapReply, OK, type Reply, SetReply, SimpleString } from '../../reply/reply';
import { helpFooter, predates, type RedisVersion } from '../../version';
import {
  ACL_DENIED_AUTH,
  ACL_DENIED_CHANNEL,
  ACL_DENIED_CMD,
  ACL_DENIED_KEY,
  ACL_OK,
  type AclLogEntry,
  type AclUser,
  type AclUsersSnapshot,
  type Selector,
  aclErrorMessage,
  cStringText,
  aclStateOf,
  checkCommand,
  commandsInCategory,
  losesChannels,
} from '../acl';
import { ACL_CATEGORIES } from '../acl-table';
import { redisArity } from '../../commands/server/key-specs';
import type { ConnectionCommandSpec, ConnectionHandler } from '../command-types';
import type { Connection } from '../connection';
import { openConnections } from '../connection';
import { clientInfoLine } from './client';

export { aclStateOf };

const ERR_NO_ACLFILE =
  'ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration.';

const HELP = [
  'ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CAT [<category>]',
  '    List all commands that belong to <category>, or all command categories',
  '    when no category is specified.',
  'DELUSER <username> [<username> ...]',
  '    Delete a list of users.',
  'DRYRUN <username> <command> [<arg> ...]',
  '    Returns whether the user can execute the given command without executing the command.',
  'GETUSER <username>',
  "    Get the user's details.",
  'GENPASS [<bits>]',
  '    Generate a secure 256-bit user password. The optional `bits` argument can',
  '    be used to specify a different size.',
  'LIST',
  '    Show users details in config file format.',
  'LOAD',
  '    Reload users from the ACL file.',
  'LOG [<count> | RESET]',
  '    Show the ACL log entries.',
  'SAVE',
  '    Save the current config to the ACL file.',
  'SETUSER <username> <attribute> [<attribute> ...]',
  '    Create or modify a user with the specified attributes.',
  'USERS',
  '    List all the registered usernames.',
  'WHOAMI',
  '    Return the current connection username.',
];

/** Log a denial (auth, command, key, channel) of `conn` in the server's ACL LOG and INFO counters. */
export function aclDeniedLog(conn: Connection, reason: number, context: AclLogEntry['context'], object: string, username: string): void {
  const acl = aclStateOf(conn.server);
  const maxLen = Number(conn.server.config.get('acllog-max-len') ?? '128');
  acl.addLog(reason, context, object, username, clientInfoLine(conn, conn), conn.keyspace.clock.now(), maxLen);
}

/** deauthenticateAndCloseClient: the caller itself closes once its reply is out (as QUIT). */
function closeClient(c: Connection): void {
  c.deauthenticate();
  c.close();
}

/** ACL SETUSER's check of a pub/sub client (acl.c ACLKillPubsubClientsIfNeeded): closed when `staged` no longer allows a channel or pattern it is subscribed to. */
function closeIfLosesChannels(c: Connection, user: AclUser, staged: AclUser): void {
  if (!c.listedAsSubscriber) return;
  if (losesChannels(user, staged, c.listedSubscriptionNames(false), c.listedSubscriptionNames(true), c.shardSubscriptions())) closeClient(c);
}

function clientsOf(user: AclUser): Connection[] {
  return [...openConnections()].filter((c) => c.user === user);
}

function selectorMap(s: Selector, version: RedisVersion): Reply {
  return new MapReply([
    'commands', s.describeCommands(version),
    'keys', s.allKeys ? '~*' : s.keyPatterns().join(' '),
    'channels', s.allChannels ? '&*' : s.channels.map((c) => `&${c}`).join(' '),
  ]);
}

const setuser: ConnectionHandler = (conn, argv) => {
  const name = argv[2];
  if (/[ \0]/.test(name)) throw new CommandError("ERR Usernames can't contain spaces or null characters");
  const acl = aclStateOf(conn.server);
  const error = acl.setUser(conn.keyspace.redisVersion, name, argv.slice(3), (user, staged) => {
    for (const c of clientsOf(user)) closeIfLosesChannels(c, user, staged);
  });
  if (error !== null) throw new CommandError(error);
  return OK;
};

const deluser: ConnectionHandler = (conn, argv) => {
  const acl = aclStateOf(conn.server);
  const names = argv.slice(2);
  if (names.includes('default')) throw new CommandError("ERR The 'default' user cannot be removed");
  let deleted = 0;
  for (const name of names) {
    const user = acl.deleteUser(name);
    if (user === undefined) continue;
    deleted++;
    for (const c of clientsOf(user)) closeClient(c);
  }
  return deleted;
};

/**
 * Give a server's users back as `snapshot` had them (the per-test reset of the test-runner
 * entries, through ServerState.restoreSettings): what SETUSER does to the clients of a user that
 * changes (a pub/sub client that loses a channel is closed), and DELUSER to the clients of a user
 * removed (deauthenticated and closed), happen as if those commands had run.
 */
export function restoreAclUsers(server: Connection['server'], snapshot: AclUsersSnapshot): void {
  const removed = aclStateOf(server).restoreUsers(snapshot, (user, staged) => {
    for (const c of clientsOf(user)) closeIfLosesChannels(c, user, staged);
  });
  for (const user of removed) for (const c of clientsOf(user)) closeClient(c);
}

const getuser: ConnectionHandler = (conn, argv) => {
  const user = aclStateOf(conn.server).users.get(argv[2]);
  if (user === undefined) return null;
  const root = user.root;
  return new MapReply([
    'flags', new SetReply(user.flagNames(conn.keyspace.redisVersion)),
    'passwords', [...user.passwords],
    'commands', root.describeCommands(conn.keyspace.redisVersion),
    'keys', root.allKeys ? '~*' : root.keyPatterns().join(' '),
    'channels', root.allChannels ? '&*' : root.channels.map((c) => `&${c}`).join(' '),
    'selectors', user.selectors.slice(1).map((sel) => selectorMap(sel, conn.keyspace.redisVersion)),
  ]);
};

const cat: ConnectionHandler = (conn, argv) => {
  if (argv.length === 2) return [...ACL_CATEGORIES];
  if (argv.length > 3) throw new CommandError(errSubcommandSyntax(argv[1], 'ACL'));
  const names = commandsInCategory(conn.keyspace.redisVersion, argv[2]);
  if (names === null) throw new CommandError(`ERR Unknown category '${cStringText(argv[2]).slice(0, 128)}'`); // %.128s
  return names;
};

const genpass: ConnectionHandler = (_conn, argv) => {
  if (argv.length > 3) throw new CommandError(errSubcommandSyntax(argv[1], 'ACL'));
  let bits = 256;
  if (argv.length === 3) {
    const n = parseInt64(argv[2]);
    if (n === null) throw new CommandError(ERR_NOT_INTEGER);
    if (n <= 0n || n > 4096n) throw new CommandError('ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096');
    bits = Number(n);
  }
  const chars = Math.floor((bits + 3) / 4);
  return randomBytes(Math.ceil(chars / 2)).toString('hex').slice(0, chars);
};

const REASONS: Record<number, string> = { [ACL_DENIED_CMD]: 'command', [ACL_DENIED_KEY]: 'key', [ACL_DENIED_CHANNEL]: 'channel', [ACL_DENIED_AUTH]: 'auth' };

const log: ConnectionHandler = (conn, argv) => {
  if (argv.length > 3) throw new CommandError(errSubcommandSyntax(argv[1], 'ACL'));
  const acl = aclStateOf(conn.server);
  let count = 10;
  if (argv.length === 3) {
    if (argv[2].toLowerCase() === 'reset') {
      acl.log = [];
      return OK;
    }
    const n = parseInt64(argv[2]);
    if (n === null) throw new CommandError(ERR_NOT_INTEGER);
    count = n < 0n ? 0 : Number(n > 1000000n ? 1000000n : n);
  }
  const now = conn.keyspace.clock.now();
  const withIds = !predates(conn.keyspace.redisVersion, '7.2');
  return acl.log.slice(0, count).map((e) => {
    const fields: Reply[] = [
      'count', e.count,
      'reason', REASONS[e.reason],
      'context', e.context,
      'object', e.object,
      'username', e.username,
      'age-seconds', new DoubleReply((now - e.ctime) / 1000),
      'client-info', e.cinfo,
    ];
    if (withIds) fields.push('entry-id', e.entryId, 'timestamp-created', e.created, 'timestamp-last-updated', e.ctime);
    return new MapReply(fields);
  });
};

const dryrun: ConnectionHandler = (conn, argv) => {
  const acl = aclStateOf(conn.server);
  const user = acl.users.get(argv[2]);
  // addReplyErrorFormat's %s: a C string, up to a NUL byte
  if (user === undefined) throw new CommandError(`ERR User '${cStringText(argv[2])}' not found`);
  const cmdArgv = argv.slice(3);
  const version = conn.keyspace.redisVersion;
  const full = fullNameOf(conn, cmdArgv);
  if (full === null) throw new CommandError(`ERR Command '${cStringText(argv[3])}' not found`);
  const arity = redisArity(full);
  if (arity !== undefined && ((arity > 0 && arity !== cmdArgv.length) || cmdArgv.length < -arity)) {
    throw new CommandError(`ERR wrong number of arguments for '${full}' command`);
  }
  const verdict = checkCommand(user, full, cmdArgv, version);
  if (verdict.result === ACL_OK) return OK;
  return aclErrorMessage(version, verdict.result, user, full, cmdArgv[verdict.index], true);
};

/** lookupCommand over a command line: `name` or `container|sub`, null when unknown. */
function fullNameOf(conn: Connection, argv: string[]): string | null {
  return conn.commandFullName(argv[0].toLowerCase(), argv);
}

const whoami: ConnectionHandler = (conn) => conn.user.name;

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'acl',
    arity: -2,
    noScript: true,
    subcommands: {
      cat: { arity: -2, run: cat },
      deluser: { arity: -3, run: deluser },
      dryrun: { arity: -4, since: '7.0', run: dryrun },
      genpass: { arity: -2, run: genpass },
      getuser: { arity: 3, run: getuser },
      help: { arity: 2, run: (conn) => [...HELP, 'HELP', helpFooter(conn.keyspace.redisVersion)].map((l) => new SimpleString(l)) },
      list: { arity: 2, run: (conn) => aclStateOf(conn.server).sortedUsers().map((u) => `user ${u.name} ${u.describe(conn.keyspace.redisVersion)}`) },
      load: { arity: 2, run: () => { throw new CommandError(ERR_NO_ACLFILE); } },
      log: { arity: -2, run: log },
      save: { arity: 2, run: () => { throw new CommandError(ERR_NO_ACLFILE); } },
      setuser: { arity: -3, run: setuser },
      users: { arity: 2, run: (conn) => aclStateOf(conn.server).sortedUsers().map((u) => u.name) },
      whoami: { arity: 2, run: whoami },
    },
  },
];
