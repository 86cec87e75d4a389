/**
 * Connection commands (server.c, networking.c, acl.c, db.c; texts of redis-server 7.0.15 and
 * the 7.2/7.4 sources):
 *
 * PING [message] — `+PONG`, or the message as a bulk string.
 * ECHO message — the message.
 * SELECT index — switch the connection to database 0 … 15: `+OK`; "ERR value is not an
 *   integer or out of range", "ERR DB index is out of range".
 * QUIT — `+OK` once every earlier command answered; then the connection is closed (later
 *   commands reject with "Connection is closed.").
 * RESET — leaves MULTI, UNWATCHes, SELECT 0, RESP2, no name, unauthenticated when the server
 *   has a password: `+RESET`.
 * AUTH [username] password — the `default` user; without a server password the one-argument
 *   form is an error and any password of `default` is accepted (it is `nopass`).
 * HELLO [protover [AUTH username password] [SETNAME clientname]] — switches RESP2/RESP3 and
 *   answers the server map: server, version (per emulated version, lib/version.ts
 *   SERVER_VERSION), proto, id, mode (standalone, or cluster in cluster mode), role (master), modules (none).
 */
import { ERR_SELECT_IN_CLUSTER } from '../cluster';
import { parseInt64 } from '../../commands/args';
import { CommandError, ERR_INT_RANGE, ERR_NOT_INTEGER, ERR_SYNTAX, errorArg } from '../../errors';
import { MapReply, OK, PONG, type Reply, SimpleString } from '../../reply/reply';
import { SERVER_VERSION, supports } from '../../version';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';
import { DATABASES } from '../registry';

const ERR_WRONGPASS = 'WRONGPASS invalid username-password pair or user is disabled.';
const ERR_AUTH_NO_PASSWORD =
  'ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?';
const ERR_CLIENT_NAME = 'ERR Client names cannot contain spaces, newlines or special characters.';

/**
 * networking.c validateClientName: printable ASCII without spaces ('!' … '~'); `cString`: only up
 * to the first NUL byte (validateClientAttr, 7.2+: FEATURE_SINCE.clientAttrCString).
 */
export function validClientName(name: string, cString = false): boolean {
  const z = cString ? name.indexOf('\0') : -1;
  return /^[\x21-\x7e]*$/.test(z < 0 ? name : name.slice(0, z));
}

/** CLIENT SETNAME / HELLO SETNAME: an empty name clears it. */
export function setClientName(conn: Connection, name: string): void {
  if (!validClientName(name, supports(conn.keyspace.redisVersion, 'clientAttrCString'))) throw new CommandError(ERR_CLIENT_NAME);
  conn.name = name === '' ? null : name;
}

/** The HELLO reply (networking.c helloCommand). */
export function helloReply(conn: Connection): Reply {
  return new MapReply([
    'server', 'redis',
    'version', SERVER_VERSION[conn.keyspace.redisVersion],
    'proto', conn.protocol,
    'id', conn.id,
    'mode', conn.server.cluster === null ? 'standalone' : 'cluster',
    'role', 'master',
    'modules', [],
  ]);
}

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'ping',
    arity: -1,
    run(conn, argv) {
      if (argv.length > 2) throw new CommandError("ERR wrong number of arguments for 'ping' command");
      // a subscribed RESP2 connection answers an array (server.c pingCommand tests CLIENT_PUBSUB,
      // which shard channels set too)
      if (conn.protocol === 2 && conn.inSubscriberMode) return ['pong', argv.length === 1 ? '' : argv[1]];
      return argv.length === 1 ? PONG : argv[1];
    },
  },
  {
    name: 'echo',
    arity: 2,
    run: (_conn, argv) => argv[1],
  },
  {
    name: 'select',
    arity: 2,
    run(conn, argv) {
      const n = parseInt64(argv[1]);
      // getIntFromObjectOrReply: not a long long, then outside an int
      if (n === null) throw new CommandError(ERR_NOT_INTEGER);
      if (n < -2147483648n || n > 2147483647n) throw new CommandError(ERR_INT_RANGE);
      if (conn.server.cluster !== null && n !== 0n) throw new CommandError(ERR_SELECT_IN_CLUSTER);
      if (n < 0n || n >= BigInt(DATABASES)) throw new CommandError('ERR DB index is out of range');
      conn.selectDb(Number(n));
      return OK;
    },
  },
  {
    name: 'quit',
    arity: -1,
    noAuth: true,
    immediate: true,
    noScript: true,
    run(conn) {
      conn.closedByQuit = true;
      conn.close();
      return OK;
    },
  },
  {
    name: 'reset',
    arity: 1,
    noAuth: true,
    immediate: true,
    noScript: true,
    run(conn) {
      conn.resetState();
      return new SimpleString('RESET');
    },
  },
  {
    name: 'auth',
    arity: -2,
    noAuth: true,
    noScript: true,
    run(conn, argv) {
      if (argv.length > 3) throw new CommandError(ERR_SYNTAX);
      if (argv.length === 2 && !conn.hasPassword) throw new CommandError(ERR_AUTH_NO_PASSWORD);
      const [username, password] = argv.length === 2 ? ['default', argv[1]] : [argv[1], argv[2]];
      if (!conn.authenticate(username, password, argv[0])) throw new CommandError(ERR_WRONGPASS);
      return OK;
    },
  },
  {
    name: 'hello',
    arity: -1,
    noAuth: true,
    noScript: true,
    run(conn, argv) {
      let ver = 0;
      if (argv.length >= 2) {
        const n = parseInt64(argv[1]);
        if (n === null) throw new CommandError('ERR Protocol version is not an integer or out of range');
        if (n < 2n || n > 3n) throw new CommandError('NOPROTO unsupported protocol version');
        ver = Number(n);
      }
      let auth: [string, string] | null = null;
      let name: string | null = null;
      // before 7.2 each option takes effect as it is read (an error leaves the earlier ones applied)
      const inOrder = !supports(conn.keyspace.redisVersion, 'helloOptionsParsedFirst');
      for (let j = 2; j < argv.length; j++) {
        const moreArgs = argv.length - 1 - j;
        const opt = argv[j].toLowerCase();
        if (opt === 'auth' && moreArgs >= 2) {
          auth = [argv[j + 1], argv[j + 2]];
          if (inOrder && !conn.authenticate(auth[0], auth[1], argv[0])) throw new CommandError(ERR_WRONGPASS);
          j += 2;
        } else if (opt === 'setname' && moreArgs >= 1) {
          name = argv[j + 1];
          if (!validClientName(name, supports(conn.keyspace.redisVersion, 'clientAttrCString'))) throw new CommandError(ERR_CLIENT_NAME);
          if (inOrder) conn.name = name === '' ? null : name;
          j += 1;
        } else {
          throw new CommandError(`ERR Syntax error in HELLO option '${errorArg(argv[j])}'`);
        }
      }
      if (auth && !inOrder && !conn.authenticate(auth[0], auth[1], argv[0])) throw new CommandError(ERR_WRONGPASS);
      if (!conn.isAuthenticated) {
        const form = supports(conn.keyspace.redisVersion, 'helloNoauthProtoText') ? 'HELLO <proto> AUTH' : 'HELLO AUTH';
        throw new CommandError(
          `NOAUTH HELLO must be called with the client already authenticated, otherwise the ${form} <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time`,
        );
      }
      if (name !== null && !inOrder) conn.name = name === '' ? null : name;
      if (ver) conn.setProtocol(ver as 2 | 3);
      return helloReply(conn);
    },
  },
];
