/**
 * CLIENT <subcommand> (networking.c clientCommand; 7.0.15 texts, 7.2/7.4 additions):
 *
 * ID — the connection's id. GETNAME — its name or nil. SETNAME name — `+OK` ("ERR Client names
 * cannot contain spaces, newlines or special characters."; an empty name clears it).
 * INFO — this connection's CLIENT LIST line (verbatim string). LIST [TYPE t | ID id…] — one
 * line per open connection, in id order. KILL addr | KILL [ID id] [ADDR a] [LADDR a] [USER u]
 * [SKIPME yes|no] — close connections (`+OK` / "ERR No such client", or the number killed).
 * UNBLOCK id [TIMEOUT|ERROR] — answer a blocked call now: nil, or "UNBLOCKED client unblocked
 * via CLIENT UNBLOCK"; 1 when a call was blocked, else 0. NO-EVICT on|off, NO-TOUCH on|off
 * (7.2), SETINFO LIB-NAME|LIB-VER value (7.2), REPLY ON — `+OK`; REPLY OFF|SKIP — no reply,
 * then replies silenced until ON / for the next command (pushes still delivered). HELP — the
 * subcommand list.
 *
 * CLIENT LIST fields follow the emulated version (lib/version.ts): `watch=` from 7.4,
 * `lib-name=`/`lib-ver=` from 7.2, `io-thread=` from 8.0. Buffer and memory fields carry the
 * values of an idle redis-server connection (rbs 1024 …), except `qbuf`, `qbuf-free`, `argv-mem`
 * and `omem`: what the RESP server holds for the connection (issue 23). `qbuf` is the query
 * buffer: for the running command every byte read in its turn (Redis trims it after the turn:
 * `qbuf=26` for a lone CLIENT INFO), else the unparsed bytes; `qbuf-free` the rest of Redis's
 * allocation (each client's 20474 bytes before the reusable query buffer, as 7.0.15; after it
 * 16386 for the running client, 0 for an idle one, as the post-7.4 build); `argv-mem` the
 * running command's argument bytes; `omem` the reply bytes not yet written. All 0 for in-process
 * clients; `events=r`, `user=default`.
 * TRACKING, CACHING, GETREDIR, TRACKINGINFO: client-side caching (lib/engine/tracking.ts);
 * CLIENT LIST flags `t`/`R`/`B` and `redir=`.
 * PAUSE timeout [WRITE|ALL], UNPAUSE: lib/engine/pause.ts.
 */
import { parseInt64 } from '../../commands/args';
import { CommandError, ERR_SYNTAX, errSubcommandSyntax, errorArg } from '../../errors';
import { OK, PushReply, SimpleString, VerbatimReply } from '../../reply/reply';
import { helpFooter, type RedisVersion, supports, versionIndex } from '../../version';
import type { ConnectionCommandSpec, ConnectionHandler } from '../command-types';
import { type Connection, nodeConnections } from '../connection';
import { setClientName, validClientName } from './connection';
import * as trackingModule from '../tracking';
import * as pauseImpl from '../pause';
import { type AclUser, aclStateOf } from '../acl';

const tracking = (): typeof trackingModule => trackingModule;
const pauseModule = (): typeof pauseImpl => pauseImpl;

/** CLIENT HELP lines; `[since, line]` marks lines added after 7.0 (7.0.15, 7.2.0, 7.4.1 sources). */
const HELP: readonly (string | readonly ['7.2' | '7.4', string])[] = [
  'CACHING (YES|NO)',
  '    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.',
  'GETREDIR',
  '    Return the client ID we are redirecting to when tracking is enabled.',
  'GETNAME',
  '    Return the name of the current connection.',
  'ID',
  '    Return the ID of the current connection.',
  'INFO',
  '    Return information about the current client connection.',
  'KILL <ip:port>',
  '    Kill connection made from <ip:port>.',
  'KILL <option> <value> [<option> <value> [...]]',
  '    Kill connections. Options are:',
  '    * ADDR (<ip:port>|<unixsocket>:0)',
  '      Kill connections made from the specified address',
  '    * LADDR (<ip:port>|<unixsocket>:0)',
  '      Kill connections made to specified local address',
  '    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)',
  '      Kill connections by type.',
  '    * USER <username>',
  '      Kill connections authenticated by <username>.',
  '    * SKIPME (YES|NO)',
  '      Skip killing current connection (default: yes).',
  ['7.4', '    * ID <client-id>'],
  ['7.4', '      Kill connections by client id.'],
  ['7.4', '    * MAXAGE <maxage>'],
  ['7.4', '      Kill connections older than the specified age.'],
  'LIST [options ...]',
  '    Return information about client connections. Options:',
  '    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)',
  '      Return clients of specified type.',
  'UNPAUSE',
  '    Stop the current client pause, resuming traffic.',
  'PAUSE <timeout> [WRITE|ALL]',
  '    Suspend all, or just write, clients for <timeout> milliseconds.',
  'REPLY (ON|OFF|SKIP)',
  '    Control the replies sent to the current connection.',
  'SETNAME <name>',
  '    Assign the name <name> to the current connection.',
  ['7.2', 'SETINFO <option> <value>'],
  ['7.2', '    Set client meta attr. Options are:'],
  ['7.2', '    * LIB-NAME: the client lib name.'],
  ['7.2', '    * LIB-VER: the client lib version.'],
  'UNBLOCK <clientid> [TIMEOUT|ERROR]',
  '    Unblock the specified blocked client.',
  'TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]',
  '         [OPTIN] [OPTOUT] [NOLOOP]',
  '    Control server assisted client side caching.',
  'TRACKINGINFO',
  '    Report tracking status for the current connection.',
  'NO-EVICT (ON|OFF)',
  '    Protect current client connection from eviction.',
  ['7.2', 'NO-TOUCH (ON|OFF)'],
  ['7.2', '    Will not touch LRU/LFU stats when this mode is on.'],
];

/** addReplyHelp: header, the lines of the version, HELP footer. */
function helpLines(version: RedisVersion): SimpleString[] {
  const lines = ['CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:'];
  for (const l of HELP) {
    if (typeof l === 'string') lines.push(l);
    else if (versionIndex(version) >= versionIndex(l[0])) lines.push(l[1]);
  }
  lines.push('HELP', helpFooter(version));
  return lines.map((l) => new SimpleString(l));
}

/** The CLIENT LIST line of `c` as seen by `viewer`'s server version (networking.c catClientInfoString). */
export function clientInfoLine(c: Connection, viewer: Connection): string {
  const version = viewer.keyspace.redisVersion;
  const now = viewer.keyspace.clock.now();
  let flags = '';
  if (c.monitoring) flags += 'O'; // a MONITOR client is a replica to Redis (CLIENT_SLAVE|CLIENT_MONITOR)
  else if (c.replicaFeed !== null) flags += 'S';
  if (c.listedAsSubscriber) flags += 'P';
  if (c.inMulti || c.execLength >= 0) flags += 'x'; // EXEC keeps CLIENT_MULTI while its commands run
  if (c.blocked) flags += 'b';
  if (c.tracking !== null) {
    flags += 't';
    if (c.tracking.brokenRedirect) flags += 'R';
    if (c.tracking.bcast) flags += 'B';
  }
  if (c.watchDirty) flags += 'd';
  if (c.noEvict) flags += 'e';
  if (c.noTouch) flags += 'T';
  if (flags === '') flags = 'N';
  const [channels, patterns] = c.listedSubscriptions;
  const fields: [string, string | number][] = [
    ['id', c.id],
    ['addr', c.addr],
    ['laddr', c.laddr],
    ['fd', 7 + (c.id % 10000)],
    ['name', cStringOf(c.name ?? '')], // %s: up to a NUL byte (a name may hold one from 7.2)
    // whole seconds on both sides (Redis: server.unixtime - c->ctime / c->lastinteraction, time_t)
    ['age', Math.max(0, Math.floor(now / 1000) - Math.floor(c.createdAt / 1000))],
    ['idle', Math.max(0, Math.floor(now / 1000) - Math.floor(c.lastInteraction / 1000))],
    ['flags', flags],
    ['db', c.db],
    ['sub', channels],
    ['psub', patterns],
    ['ssub', c.shardSubscriptionCount],
    ['multi', c.multiLength],
  ];
  if (supports(version, 'clientListWatch')) fields.push(['watch', c.watchCount]);
  const held = c.buffers?.() ?? { qbuf: 0, omem: 0, argvMem: 0 };
  const argvMem = held.argvMem ?? 0;
  // the query buffer's free bytes (networking.c sdsavail): a RESP client's, 0 in-process
  let qbufFree = 0;
  if (c.buffers !== undefined) {
    if (!supports(version, 'reusableQueryBuffer')) qbufFree = Math.max(0, 20474 - held.qbuf);
    else if (argvMem > 0) qbufFree = Math.max(0, 16386 - held.qbuf);
  }
  fields.push(
    ['qbuf', held.qbuf],
    ['qbuf-free', qbufFree],
    ['argv-mem', argvMem],
    ['multi-mem', c.multiMem],
    ['rbs', 1024],
    ['rbp', 0],
    ['obl', 0],
    ['oll', 0],
    ['omem', held.omem],
    ['tot-mem', 1024 + held.qbuf + held.omem + argvMem + c.multiMem],
    ['events', 'r'],
    ['cmd', c.lastCommand],
    ['user', c.user.name],
    ['redir', c.tracking !== null ? c.tracking.redirect : -1],
    ['resp', c.protocol],
  );
  if (supports(version, 'clientSetinfo')) fields.push(['lib-name', cStringOf(c.libName)], ['lib-ver', cStringOf(c.libVer)]);
  if (supports(version, 'clientListIoThread')) fields.push(['io-thread', 0]);
  return fields.map(([k, v]) => `${k}=${v}`).join(' ');
}

/** A C string's text (`%s`, strcasecmp): up to its first NUL byte. */
function cStringOf(s: string): string {
  const z = s.indexOf('\0');
  return z < 0 ? s : s.slice(0, z);
}

function onOff(arg: string): boolean {
  const v = arg.toLowerCase();
  if (v === 'on') return true;
  if (v === 'off') return false;
  throw new CommandError(ERR_SYNTAX);
}

function checkClientType(type: string): void {
  if (!['normal', 'master', 'replica', 'slave', 'pubsub'].includes(type.toLowerCase())) {
    throw new CommandError(`ERR Unknown client type '${errorArg(type)}'`);
  }
}

/**
 * Connections of a type (networking.c getClientType): `replica` (`slave`) a connection made a
 * replica by SYNC/PSYNC, MONITOR clients excepted; `pubsub` one with any channel, pattern or shard
 * channel subscribed; `normal` the others, MONITOR clients included; `master` none.
 */
function ofType(type: string | null): (c: Connection) => boolean {
  const t = type?.toLowerCase() ?? null;
  if (t === null) return () => true;
  const replica = (c: Connection) => c.replicaFeed !== null && !c.monitoring;
  if (t === 'replica' || t === 'slave') return replica;
  if (t === 'pubsub') return (c) => !replica(c) && c.listedAsSubscriber;
  if (t === 'normal') return (c) => !replica(c) && !c.listedAsSubscriber;
  return () => false;
}

const list: ConnectionHandler = (conn, argv) => {
  let keep: (c: Connection) => boolean = () => true;
  if (argv.length === 4 && argv[2].toLowerCase() === 'type') {
    checkClientType(argv[3]);
    keep = ofType(argv[3]);
  } else if (argv.length > 3 && argv[2].toLowerCase() === 'id') {
    const ids = argv.slice(3).map((a) => {
      const n = parseInt64(a);
      if (n === null) throw new CommandError('ERR Invalid client ID');
      return Number(n);
    });
    const byId = new Map([...nodeConnections(conn)].map((c) => [c.id, c]));
    const lines = ids.map((id) => byId.get(id)).filter((c): c is Connection => c !== undefined);
    return new VerbatimReply(lines.map((c) => `${clientInfoLine(c, conn)}\n`).join(''));
  } else if (argv.length !== 2) {
    throw new CommandError(ERR_SYNTAX);
  }
  const lines = [...nodeConnections(conn)].filter(keep).map((c) => `${clientInfoLine(c, conn)}\n`);
  return new VerbatimReply(lines.join(''));
};

const kill: ConnectionHandler = (conn, argv) => {
  let addr: string | null = null;
  let laddr: string | null = null;
  let id: number | null = null;
  let type: string | null = null;
  let maxAge: number | null = null;
  let skipme = true;
  let user: AclUser | undefined;
  if (argv.length === 3) {
    addr = argv[2];
    skipme = false; // the old form may kill the caller itself
  } else if (argv.length > 3) {
    for (let i = 2; i < argv.length; i += 2) {
      const opt = argv[i].toLowerCase();
      const value = argv[i + 1];
      if (value === undefined) throw new CommandError(ERR_SYNTAX);
      if (opt === 'id') {
        const n = parseInt64(value);
        if (n === null || n < 1n) throw new CommandError('ERR client-id should be greater than 0');
        id = Number(n);
      } else if (opt === 'maxage' && supports(conn.keyspace.redisVersion, 'clientKillMaxage')) {
        const n = parseInt64(value);
        if (n === null) throw new CommandError('ERR maxage is not an integer or out of range');
        if (n <= 0n) throw new CommandError('ERR maxage should be greater than 0');
        maxAge = Number(n);
      } else if (opt === 'type') {
        checkClientType(value);
        type = value;
      } else if (opt === 'addr') addr = value;
      else if (opt === 'laddr') laddr = value;
      else if (opt === 'user') {
        user = aclStateOf(conn.server).users.get(value);
        if (user === undefined) throw new CommandError(`ERR No such user '${errorArg(value)}'`);
      } else if (opt === 'skipme') {
        const v = value.toLowerCase();
        if (v !== 'yes' && v !== 'no') throw new CommandError(ERR_SYNTAX);
        skipme = v === 'yes';
      } else throw new CommandError(ERR_SYNTAX);
    }
  } else throw new CommandError(ERR_SYNTAX);
  const isType = ofType(type);
  const now = conn.keyspace.clock.now();
  let killed = 0;
  let closeSelf = false;
  for (const c of [...nodeConnections(conn)]) {
    if (addr !== null && c.addr !== addr) continue;
    if (laddr !== null && c.laddr !== laddr) continue;
    if (!isType(c)) continue;
    if (id !== null && c.id !== id) continue;
    if (user !== undefined && c.user !== user) continue;
    if (c === conn && skipme) continue;
    if (maxAge !== null && Math.floor(now / 1000) - Math.floor(c.createdAt / 1000) < maxAge) continue;
    if (c === conn) closeSelf = true;
    else c.close();
    killed++;
  }
  // the caller is closed after its reply (CLIENT_CLOSE_AFTER_REPLY)
  if (closeSelf) void Promise.resolve().then(() => conn.close());
  if (argv.length === 3) {
    if (killed === 0) throw new CommandError('ERR No such client');
    return OK;
  }
  return killed;
};

const unblock: ConnectionHandler = (conn, argv) => {
  let error = false;
  if (argv.length === 4) {
    const how = argv[3].toLowerCase();
    if (how === 'error') error = true;
    else if (how !== 'timeout') throw new CommandError('ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR');
  } else if (argv.length > 4) throw new CommandError(errSubcommandSyntax(argv[1], 'client')); // networking.c: argc 3 or 4 only
  const n = parseInt64(argv[2]);
  if (n === null) throw new CommandError('ERR value is not an integer or out of range');
  const target = [...nodeConnections(conn)].find((c) => c.id === Number(n));
  if (!target) return 0;
  return target.unblock(error ? new CommandError('UNBLOCKED client unblocked via CLIENT UNBLOCK') : undefined) ? 1 : 0;
};

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'client',
    arity: -2,
    noScript: true,
    subcommands: {
      id: { arity: 2, run: (conn) => conn.id },
      getname: { arity: 2, run: (conn) => conn.name },
      setname: {
        arity: 3,
        run(conn, argv) {
          setClientName(conn, argv[2]);
          return OK;
        },
      },
      info: { arity: 2, run: (conn) => new VerbatimReply(`${clientInfoLine(conn, conn)}\n`) },
      list: { arity: -2, run: list },
      kill: { arity: -3, run: kill },
      unblock: { arity: -3, run: unblock },
      'no-evict': {
        arity: 3,
        run(conn, argv) {
          conn.noEvict = onOff(argv[2]);
          return OK;
        },
      },
      'no-touch': {
        arity: 3,
        since: '7.2',
        run(conn, argv) {
          conn.noTouch = onOff(argv[2]);
          return OK;
        },
      },
      setinfo: {
        arity: 4,
        since: '7.2',
        run(conn, argv) {
          // strcasecmp and validateClientAttr: C strings, up to a NUL byte (%s too)
          const attr = cStringOf(argv[2]).toLowerCase();
          const value = argv[3];
          if (attr !== 'lib-name' && attr !== 'lib-ver') {
            throw new CommandError(`ERR Unrecognized option '${errorArg(cStringOf(argv[2]))}'`);
          }
          if (!validClientName(value, true)) {
            throw new CommandError(`ERR ${errorArg(cStringOf(argv[2]))} cannot contain spaces, newlines or special characters.`); // as typed (networking.c: attr is c->argv[2])
          }
          if (attr === 'lib-name') conn.libName = value;
          else conn.libVer = value;
          return OK;
        },
      },
      reply: {
        arity: 3,
        run(conn, argv) {
          const v = argv[2].toLowerCase();
          if (v === 'on') {
            // networking.c: ON clears SKIP too, so its own +OK is sent even right after SKIP
            conn.replyOff = false;
            conn.replySkipNext = false;
            conn.replySkip = false;
            return OK;
          }
          // OFF and SKIP answer nothing themselves; SKIP while OFF changes nothing
          if (v === 'off') conn.replyOff = true;
          else if (v === 'skip') conn.replySkipNext ||= !conn.replyOff;
          else throw new CommandError(ERR_SYNTAX);
          return new PushReply([]);
        },
      },
      help: {
        arity: 2,
        run: (conn) => helpLines(conn.keyspace.redisVersion),
      },
      // client-side caching (lib/engine/tracking.ts)
      caching: {
        arity: 3,
        run: (conn, argv) => {
          tracking().clientCaching(conn, argv);
          return OK;
        },
      },
      getredir: { arity: 2, run: (conn) => (conn.tracking !== null ? conn.tracking.redirect : -1) },
      tracking: {
        arity: -3,
        run: (conn, argv) => {
          tracking().clientTracking(conn, argv, parseInt64);
          return OK;
        },
      },
      trackinginfo: { arity: 2, run: (conn) => tracking().trackingInfo(conn) },
      // CLIENT PAUSE / UNPAUSE (lib/engine/pause.ts)
      pause: {
        arity: -3,
        run: (conn, argv) => {
          if (argv.length === 4 && !['write', 'all'].includes(argv[3].toLowerCase())) {
            throw new CommandError('ERR CLIENT PAUSE mode must be WRITE or ALL');
          }
          if (argv.length > 4) throw new CommandError(errSubcommandSyntax(argv[1], 'client'));
          const n = parseInt64(argv[2]);
          if (n === null) throw new CommandError('ERR timeout is not an integer or out of range');
          if (n < 0n) throw new CommandError('ERR timeout is negative');
          if (n > 0n) {
            const now = BigInt(Math.floor(conn.keyspace.clock.now()));
            // 7.2+ refuse an end past LLONG_MAX; 7.0.15 lets it wrap to the past (no pause)
            if (n > 9223372036854775807n - now) {
              if (versionIndex(conn.keyspace.redisVersion) > versionIndex('7.0')) throw new CommandError('ERR timeout is out of range');
              return OK;
            }
          }
          pauseModule().pauseClients(conn, Number(n), argv.length === 3 || argv[3].toLowerCase() === 'all');
          return OK;
        },
      },
      unpause: {
        arity: 2,
        run: (conn) => {
          pauseModule().unpauseClients(conn.server);
          return OK;
        },
      },
    },
  },
];
