/**
 * ioredis's connection lifecycle on a fake client: `status` and its events, in ioredis's order
 * (Redis.ts / event_handler.ts):
 * - `new Redis()`: `connecting`, then the events `connecting`, `connect`, `ready` (status
 *   follows each); with `lazyConnect` the status is `wait` until `connect()` or a command;
 * - `disconnect()` and a `quit()` that answered: `close` then `end` (status `close`, then
 *   `end`); the connection's blocked and queued calls reject with "Connection is closed.";
 * - `connect()` after that: a fresh connection (new CLIENT ID), in the db the client recorded
 *   (see SelectCondition: ioredis keeps the closed connection's condition), the same three
 *   events, the promise resolving at `ready`; while connecting or connected it rejects "Redis is
 *   already connecting/connected".
 * Events are emitted from promise callbacks, never `process.nextTick`, so jest/sinon fake
 * timers cannot hold them back (ioredis-mock's own nextTick `connect`/`ready` are dropped).
 */
import { afterReplies } from './delivery';
import { clientCreated } from './client-registry';
import { installedIoredisAtLeast, installedIoredisDir, installedIoredisMajor, projectIoredisVersion } from './command-table';
import { isIP } from 'net';
import { newReplyError } from './reply-error';
import { errorCommandArgs } from './redact';
import { CommandError } from '../errors';
import { StreamsMockError } from '../clock/clock';
// Node's own timers (a named import of 'timers' would be read at call time, when @sinonjs/fake-timers
// installed on the real global has replaced the module's functions: no reconnect, ever)
import { realClearTimeout, realNextTick, realSetImmediate, realSetTimeout } from '../clock/real-timers';
import { replyContextOf } from './ioredis-reply';
import { Connection, type ConnectionOptions } from '../engine/connection';
import { connectionClosedError, isSetupClose } from '../engine/connection/order';
import type { EmulatorTable } from '../engine/emulators';
import { parseStreamsOptions } from './options';
import { PushReply } from '../reply/reply';
import { DATABASES } from '../engine/registry';
import { validClientName } from '../engine/commands/connection';
import { supports } from '../version';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Instance = any;

/** The instance's engine connection. */
export const CONN = Symbol.for('ioredis-mock-streams.connection');

/**
 * The error for a client that has no engine connection (its class got installStreams() after it
 * was made, or it is no ioredis-mock client): what happened and the fix.
 */
export function notSetUpError(): StreamsMockError {
  return new StreamsMockError(
    "this client was not set up by installStreams(): it was made before installStreams() ran on its class, or it is not an ioredis-mock client. Make clients after installStreams(RedisMock), or use this package's default export (its class has the commands already)",
  );
}
/** ioredis-mock's `connected` flag (an accessor, to see it set in the constructor). */
const CONNECTED = Symbol.for('ioredis-mock-streams.connected');
/** Count of ioredis-mock's own `connect`/`ready` emissions still to drop. */
const DROP_MOCK_EVENTS = Symbol.for('ioredis-mock-streams.dropMockEvents');
/** Set while the adapter emits a lifecycle event itself. */
const OWN_EMIT = Symbol.for('ioredis-mock-streams.ownEmit');
/** Commands sent before the client was `ready` (ioredis's offline queue). */
const OFFLINE = Symbol.for('ioredis-mock-streams.offlineQueue');

/** ioredis's `retryAttempts`: reconnections since the last `ready`. */
const RETRIES = Symbol.for('ioredis-mock-streams.retryAttempts');
/** The pending reconnection's timer (real time, as ioredis's with a real server). */
const RECONNECT_TIMER = Symbol.for('ioredis-mock-streams.reconnectTimer');
/** The connection the client itself is closing (disconnect(), QUIT): no reconnection. */
const MANUAL = Symbol.for('ioredis-mock-streams.manuallyClosing');
/** The connection a disconnect()/quit() of a ready client is closing (its `close` not yet seen). */
const CLOSING = Symbol.for('ioredis-mock-streams.closing');
/** Ends a client that CLOSING is closing at once (its status `end` now). */
export const CLOSE_NOW = Symbol.for('ioredis-mock-streams.closeNow');
const CLOSED = Symbol.for('ioredis-mock-streams.closed');
/** A QUIT the client sent whose `OK` has not reached it yet (the engine connection is closed already). */
const QUITTING = Symbol.for('ioredis-mock-streams.quitting');

/**
 * `err` as a rejection of a command of `redis`: at once, or, while a disconnect()/quit() is
 * closing the client, once it is closed (ioredis rejects the commands left when the socket
 * closes, after its `close` and `end`).
 */
export function rejectedWhenClosed(redis: Instance, err: unknown): Promise<never> {
  const closed: Promise<void> | undefined = redis?.[CLOSED];
  if (closed !== undefined) {
    redis[QUEUED_WHILE_CLOSING] = (redis[QUEUED_WHILE_CLOSING] ?? 0) + 1;
    return closed.then(() => Promise.reject(err));
  }
  // sent right after quit(), before its OK: ioredis wrote it behind the QUIT, the server closed
  // without answering it, so it rejects once quit() resolved and `close`, `end` were emitted
  const quitting: Promise<unknown> | undefined = redis?.[QUITTING];
  if (quitting !== undefined) return quitting.then(() => rejectedWhenClosed(redis, err));
  return Promise.reject(err);
}

/**
 * `err` as the rejection of a command the client had sent before a disconnect()/quit() began
 * closing it (a blocked call): once it is closed, as ioredis's close handler sets `end` and then
 * rejects its command queue (flushQueue), so a `catch` sees `status === 'end'`; at once otherwise.
 */
export function rejectedOnceClosed(redis: Instance, err: unknown): Promise<never> {
  const closed: Promise<void> | undefined = redis?.[CLOSED];
  return closed === undefined ? Promise.reject(err) : closed.then(() => Promise.reject(err));
}

/** Settles once a disconnect()/quit() closing `redis` has closed it (status `end`); at once when none is. */
export function whenClosed(redis: Instance): Promise<void> {
  return (redis?.[CLOSED] as Promise<void> | undefined) ?? Promise.resolve();
}

/** How many commands were sent while a disconnect() closes the client (ioredis's offline queue then). */
const QUEUED_WHILE_CLOSING = Symbol.for('ioredis-mock-streams.queuedWhileClosing');

/**
 * A QUIT sent while disconnect() closes the client, before its close: ioredis finds the socket
 * ended (not writable) and, with nothing in its offline queue, answers `OK` at once instead of
 * queueing it (Redis#sendCommand, 5.x and 6.x); a command sent before it in that state queues, and
 * then the QUIT queues behind it and rejects with it. Not after a QUIT of its own (still writable).
 */
export function quitAnsweredWhileClosing(redis: Instance): boolean {
  return redis?.[CLOSED] !== undefined && redis[QUITTING] === undefined && !(redis[QUEUED_WHILE_CLOSING] > 0);
}

/** The QUIT `redis` sent (settles once its reply is handed over and the client started closing). */
export function quitSent(redis: Instance, answered: Promise<unknown>): void {
  const settled = answered.then(noop, noop);
  redis[QUITTING] = settled;
  void settled.then(() => {
    if (redis[QUITTING] === settled) redis[QUITTING] = undefined;
  });
}

/** Whether a disconnect()/quit() is closing `redis` (its close not yet seen). */
export function isClosing(redis: Instance): boolean {
  return redis?.[CLOSING] !== undefined;
}

/** `value` once a closing client is closed (see rejectedWhenClosed), else `value`. */
export function settledWhenClosed<T>(redis: Instance, value: Promise<T>): Promise<T> {
  return value.then(
    (v) => (redis?.[CLOSED] === undefined ? v : (redis[CLOSED] as Promise<void>).then(() => v)),
    (e) => rejectedWhenClosed(redis, e),
  );
}
/** What the lost connection had (ioredis prevCondition): its subscriptions. */
const PREV = Symbol.for('ioredis-mock-streams.prevCondition');

interface PrevCondition {
  channels: unknown[];
  patterns: unknown[];
  /** SSUBSCRIBE channels (byte strings), restored as ioredis restores `ssubscribe` too. */
  shardChannels: string[];
}

/**
 * The db part of ioredis's `condition` (Redis#_connect makes a new one for each connection):
 * `select`, the db the client believes it selected. The `db` option at each connect (ioredis
 * 6.1: the previous condition's, carried over), then the integer argument of every `select`
 * the client sends or queues (methods.ts selectSent), whatever the server answers: the handshake
 * selects it, and the commands held for `ready` remember it.
 */
interface SelectCondition {
  select: number;
}

/** The client's current condition (a new one per connection). */
const CONDITION = Symbol.for('ioredis-mock-streams.selectCondition');
/**
 * ioredis's `prevCondition` (its db part): the condition of the connection that closed while
 * `ready` (a lost one, or one disconnect()/quit() closed), the same object, so a `select` sent
 * before the next connect still changes it; forgotten at the next `ready`. ioredis 5 and 6.0
 * select its db once ready again (readyHandler `finalSelect`).
 */
const PREV_CONDITION = Symbol.for('ioredis-mock-streams.prevSelectCondition');

/**
 * Whether the installed ioredis keeps the db across connections in the condition itself and
 * records a SELECT sent in any casing (6.1: Redis.js _connect `this.condition?.select ??
 * options.db`, sendCommand `command.name.toLowerCase() === "select"`), rather than in
 * prevCondition and only a command named exactly `select` (5.11.1, 6.0.0).
 */
export function selectAsIoredis61(): boolean {
  return installedIoredisMajor() === 6 && installedIoredisAtLeast(6, 1);
}

/**
 * ioredis's new `condition` at the start of a connection (Redis#_connect): `select` is the `db`
 * option (ioredis 6.1: the previous condition's db when there is one); the handshake will select it.
 */
function newCondition(redis: Instance, options: any): SelectCondition {
  const previous: SelectCondition | undefined = redis[CONDITION];
  const condition: SelectCondition = { select: previous !== undefined && selectAsIoredis61() ? previous.select : Number(options?.db ?? 0) };
  redis[CONDITION] = condition;
  redis[HANDSHAKE_DB] = condition.select;
  return condition;
}

/**
 * A `select` with an integer argument sent or queued (methods.ts selectSent): the condition's db
 * becomes `db`. Before the socket connected (status `connecting`) the handshake will select it.
 */
export function selectNoted(redis: Instance, db: number): void {
  const condition: SelectCondition | undefined = redis?.[CONDITION];
  if (condition === undefined) return;
  if (condition.select !== db) {
    condition.select = db;
    // ioredis emits `select` with the new db when a SELECT changes it, as it sends the command
    // (Redis#sendCommand, 5.11.1 and 6.x alike): not for the handshake's SELECT of options.db
    redis.emit('select', db);
  }
  if (redis.status === 'connecting' && typeof redis[HANDSHAKE_DB] === 'number') redis[HANDSHAKE_DB] = db;
}

/** Keep the condition of a connection that closes while `ready` as ioredis's prevCondition (once). */
function keepPrevCondition(redis: Instance): void {
  if (redis[PREV_CONDITION] === undefined && redis[CONDITION] !== undefined) redis[PREV_CONDITION] = redis[CONDITION];
}

/**
 * `select(db)` as ioredis sends it itself (readyHandler, flushOfflineQueue): through the client's
 * own method (so it is recorded as any `select`). ioredis 5 and 6.0 attach no handler (a refusal
 * is an unhandled rejection, as with a real server); 6.1 emits it as `error`.
 */
function sendSelect(redis: Instance, db: number): void {
  if (typeof redis.select !== 'function') return;
  const sent: Promise<unknown> = redis.select(db);
  if (selectAsIoredis61()) sent.catch((err: unknown) => silentEmit(redis, 'error', err));
}

/** The SSUBSCRIBE channels of the client's connection (methods.ts keeps them). */
const SHARD_CHANNELS = Symbol.for('ioredis-mock-streams.shardChannels');

/** ioredis's rejection of a command sent before `ready` when `enableOfflineQueue` is false. */
export const OFFLINE_QUEUE_DISABLED = "Stream isn't writeable and enableOfflineQueue options is false";

interface Held {
  run(): void;
  fail(err: Error): void;
  /** The condition's db when the command was queued (ioredis's offline queue `item.select`). */
  select: number | undefined;
  /** The command's name is exactly `select` (ioredis selects no db before it). */
  isSelect: boolean;
}

const noop = () => undefined;

/** Emit a lifecycle event as the adapter (not dropped by the `emit` hook). */
function emitOwn(redis: Instance, event: string, arg?: unknown): void {
  redis[OWN_EMIT] = true;
  try {
    redis.emit(event, arg);
  } catch (err) {
    // a throwing listener must not break the lifecycle; surface it like an uncaught error
    void Promise.reject(err);
  } finally {
    redis[OWN_EMIT] = false;
  }
}

/** Set `status` now and emit its event from a promise callback (ioredis setStatus). */
export function setStatus(redis: Instance, status: string, arg?: unknown): Promise<void> {
  redis.status = status;
  return (afterReplies() ?? Promise.resolve()).then(() => emitOwn(redis, status, arg));
}

/**
 * The connection options of an instance: its keyspace, key prefix, name, notifications. `first`:
 * the client's first connection (its constructor), the one that applies its `streams` option to
 * the keyspace; a reconnection or `connect()` after a close does not apply it again (a clock or
 * version set since with `streamsKeyspace(...).setClock()`/`setRedisVersion()` stays).
 */
export function connectionOptionsOf(redis: Instance, options: any, emulators: EmulatorTable, first = false): ConnectionOptions {
  return {
    host: options?.host ?? 'localhost',
    port: Number(options?.port ?? 6379),
    // a new connection is in db 0: the handshake sends SELECT (dbOfClient meanwhile)
    db: 0,
    streams: first ? parseStreamsOptions(options?.streams) : undefined,
    streamsDb: Number(options?.db ?? 0), // the keyspace of the db the client selects
    // keyPrefix is the front end's: it prefixes the arguments ioredis's command table marks as
    // keys (keys.ts applyKeyPrefix), as real ioredis does on the client side, for every command
    // (built-ins, stream commands, EVAL/EVALSHA/FCALL KEYS); the engine and scripts see full keys
    notifyKeyspaceEvents: typeof options?.notifyKeyspaceEvents === 'string' ? options.notifyKeyspaceEvents : '',
    name: typeof options?.connectionName === 'string' && options.connectionName !== '' ? options.connectionName : null,
    // ioredis 6 says HELLO 3 on connect unless `protocol: 2`; ioredis 5 speaks RESP2
    protocol: replyContextOf(installedIoredisMajor(), options).protocol,
    emulators,
    builtinHost: redis,
    clientReplyRefusal: CLIENT_REPLY_REFUSAL,
  };
}

/** Why an ioredis client gets no CLIENT REPLY OFF/SKIP (ConnectionOptions.clientReplyRefusal). */
const CLIENT_REPLY_REFUSAL =
  'CLIENT REPLY OFF and SKIP through an ioredis client: ioredis pairs each reply with the oldest command still waiting for one, so against a real server every later command would get an earlier command\'s reply (and the last ones none). The fake refuses it instead of emulating that; test a client that silences replies against `serve` (ioredis-mock-streams serve) over RESP.';

let ioredisVersion: string | undefined;
/**
 * What ioredis's CLIENT SETINFO sets, unless `disableClientInfo` (then null): LIB-NAME `ioredis`
 * (or `ioredis(<clientInfoTag>)`) and LIB-VER (the project's ioredis version; '' when none).
 */
function clientLibInfo(options: any): { name: string; ver: string } | null {
  if (options?.disableClientInfo) return null;
  try {
    ioredisVersion ??= projectIoredisVersion();
  } catch {
    ioredisVersion = '';
  }
  return { name: options?.clientInfoTag ? `ioredis(${options.clientInfoTag})` : 'ioredis', ver: ioredisVersion };
}

/** The effect of ioredis's CLIENT SETINFO LIB-NAME / LIB-VER on a handshake not sent as commands. */
function applyClientInfo(conn: Connection, options: any): void {
  const info = clientLibInfo(options);
  if (info === null) return;
  // CLIENT SETINFO refuses a value with spaces or special characters (a `clientInfoTag: 'my tag'`)
  const cString = supports(conn.keyspace.redisVersion, 'clientAttrCString');
  if (validClientName(info.name, cString)) conn.libName = info.name;
  if (validClientName(info.ver, cString)) conn.libVer = info.ver;
}

/**
 * connecting → connect → (handshake) → ready, each event after the previous (promise callbacks).
 * The handshake is what ioredis sends on connect (event_handler.ts connectHandler; see
 * `handshake`), through the engine as any client's commands: HELLO 3 / AUTH with the `password` /
 * `username` options (URL credentials included), SELECT, CLIENT SETNAME, CLIENT SETINFO, and the
 * ready check (INFO), which a server with requirepass refuses with NOAUTH when no password was
 * given. A refusal is fatal as in ioredis (recoverFromFatalError):
 * the commands held for `ready` reject with the server's error, `error` is emitted and the
 * client reconnects by its retryStrategy. The commands held while connecting run when the status
 * turns `ready`, before the `ready` event (ioredis writes its offline queue in its ready handler
 * and emits the event on the next tick). Settles when ready; rejects "Connection is closed." when
 * the connection closed first (ioredis's connect()).
 */
function runConnectSequence(redis: Instance, conn: Connection): Promise<void> {
  const live = () => redis[CONN] === conn && !conn.closed;
  conn.onClose(() => {
    if (redis[CONN] !== conn) return;
    if (redis[MANUAL] === conn) {
      // a QUIT was sent on it (ioredis's manuallyClosing) but the server closed the connection
      // before running it (the QUIT waited behind a blocked call): closed, not lost
      if (redis[QUIT_ON] === conn && !conn.closedByQuit) closedBeforeQuitRan(redis);
      return;
    }
    connectionLost(redis);
  });
  return setStatus(redis, 'connecting')
    .then(() => {
      if (live()) return setStatus(redis, 'connect');
      return undefined;
    })
    .then(() => (live() ? handshake(redis, conn) : undefined))
    .then(() => {
      if (!live() || refusedHandshakes.has(conn)) throw new Error('Connection is closed.');
      redis[RETRIES] = 0;
      const emitted = setStatus(redis, 'ready');
      // ioredis's readyHandler: the db to end in is the lost connection's (5, 6.0: prevCondition;
      // 6.1 carried it into this connection's condition, which its handshake selected)
      const condition: SelectCondition | undefined = redis[CONDITION];
      const prevCondition: SelectCondition | undefined = redis[PREV_CONDITION];
      redis[PREV_CONDITION] = undefined;
      const finalSelect = prevCondition !== undefined && !selectAsIoredis61() ? prevCondition.select : condition?.select;
      const reselect = () => {
        if (condition !== undefined && finalSelect !== undefined && condition.select !== finalSelect) sendSelect(redis, finalSelect);
      };
      const prev: PrevCondition | undefined = redis[PREV];
      redis[PREV] = undefined;
      if (prev && redis.options?.autoResubscribe !== false && hasSubscriptions(prev)) {
        // SELECT is refused once subscribed (RESP2): ioredis selects the db first
        reselect();
        resubscribe(redis, prev);
      }
      // the offline queue: each command in the db the client had selected when it was sent
      // (ioredis selects that db first when the condition's differs, except before a `select`)
      const held: Held[] | undefined = redis[OFFLINE];
      redis[OFFLINE] = undefined;
      if (held) {
        for (const h of held) {
          if (condition !== undefined && h.select !== undefined && h.select !== condition.select && !h.isSelect) sendSelect(redis, h.select);
          h.run();
        }
      }
      reselect();
      return emitted;
    });
}

/** ioredis's credentials for AUTH (condition.auth): `[username, password]`, a password, or none. */
function credentialsOf(options: any): string[] | null {
  const password = options?.password;
  const username = options?.username;
  if (username) return [String(username), password == null ? '' : String(password)];
  if (password) return [String(password)];
  return null;
}

/** The auth-error texts ioredis only warns about (handleAuthError / connectHandler). */
function authWarning(message: string): string | null {
  if (message.includes('no password is set')) return '[WARN] Redis server does not require a password, but a password was supplied.';
  if (message.includes('without any password configured for the default user')) {
    return "[WARN] This Redis server's `default` user does not require a password, but a password was supplied";
  }
  if (message.includes("wrong number of arguments for 'auth' command")) {
    return `[ERROR] The server returned "wrong number of arguments for 'auth' command". You are probably passing both username and password to Redis version 5 or below. You should only pass the 'password' option for Redis version 5 and under.`;
  }
  return null;
}

/** The error a command of the handshake got, as ioredis receives it (a ReplyError). */
function asReplyError(err: unknown): Error {
  if (err instanceof CommandError) return newReplyError(err.message.replace(/[\r\n]/g, ' '));
  return err instanceof Error ? err : new Error(String(err));
}

/** The db a connection being set up selects in its handshake (until then it is in db 0). */
const HANDSHAKE_DB = Symbol.for('ioredis-mock-streams.handshakeDb');

/**
 * The db the client is in, or goes to once its handshake's SELECT ran (a new connection starts
 * in db 0, as a socket does): what `streamsKeyspace(client)` shows right after `new Redis({ db })`.
 */
export function dbOfClient(redis: Instance, conn: Connection): number {
  const pending = redis?.[HANDSHAKE_DB];
  return typeof pending === 'number' && redis[CONN] === conn ? pending : conn.db;
}

/** One command of the handshake: its argv and what ioredis does when it fails. */
interface HandshakeCommand {
  kind: 'auth' | 'select' | 'other' | 'maint';
  argv: string[];
  /** The arguments as ioredis's method got them, when not argv's strings (SELECT's db is a number). */
  clientArgs?: unknown[];
}

/**
 * The commands ioredis sends when the connection opens, in its order (event_handler connectHandler,
 * recorded with MONITOR on 7.0.15 and the post-7.4 build): HELLO 3 [AUTH user pass] (ioredis 6,
 * unless `protocol: 2`) or AUTH [user] pass (with credentials), SELECT db (a `db` other than 0),
 * CLIENT SETNAME (connectionName), READONLY (readOnly), CLIENT SETINFO LIB-VER and LIB-NAME
 * (unless disableClientInfo; ioredis 5 sends LIB-NAME first); then the ready check INFO.
 */
function handshakeCommands(redis: Instance, db: number, hello: boolean, credentials: string[] | null): HandshakeCommand[] {
  const options = redis.options ?? {};
  const commands: HandshakeCommand[] = [];
  if (hello) {
    const argv = ['hello', '3'];
    if (credentials !== null) argv.push('AUTH', ...(credentials.length === 2 ? credentials : ['default', credentials[0]]));
    commands.push({ kind: 'auth', argv });
  } else if (credentials !== null) commands.push({ kind: 'auth', argv: ['auth', ...credentials] });
  if (db) commands.push({ kind: 'select', argv: ['select', String(db)], clientArgs: [db] });
  if (options.connectionName) commands.push({ kind: 'other', argv: ['client', 'setname', String(options.connectionName)] });
  if (options.readOnly && installedIoredisMajor() === 6) commands.push({ kind: 'other', argv: ['readonly'] });
  const info = clientLibInfo(options);
  if (info !== null) {
    const libVer = { kind: 'other' as const, argv: ['client', 'SETINFO', 'LIB-VER', info.ver] };
    const libName = { kind: 'other' as const, argv: ['client', 'SETINFO', 'LIB-NAME', info.name] };
    if (installedIoredisMajor() === 6) commands.push(libVer, libName);
    else commands.push(libName, libVer);
  }
  const endpointType = maintEndpointTypeOf(options, hello);
  if (endpointType !== null) commands.push({ kind: 'maint', argv: ['client', 'MAINT_NOTIFICATIONS', 'ON', 'moving-endpoint-type', endpointType] });
  return commands;
}

/**
 * ioredis 6.1's last handshake command over RESP3, unless `maintNotifications: 'disabled'`
 * (maintNotifications/index.js getMaintNotificationsHandshakeCommand): CLIENT MAINT_NOTIFICATIONS
 * ON moving-endpoint-type with `maintEndpointType`, or for 'auto' the peer address's class: a
 * fake client's peer is this process (loopback: internal), unless `host` is an IP literal,
 * which ioredis classifies as it is; '-fqdn' with `tls`. Servers before 8.2 answer "unknown
 * subcommand": ignored with 'auto', fatal with 'enabled' (as ioredis's recoverFromFatalError).
 */
function maintEndpointTypeOf(options: Record<string, any>, hello: boolean): string | null {
  if (!hello || installedIoredisMajor() !== 6 || !installedIoredisAtLeast(6, 1)) return null;
  if (options.maintNotifications === 'disabled') return null;
  const configured = options.maintEndpointType ?? 'auto';
  if (configured !== 'auto') return String(configured);
  const host = typeof options.host === 'string' && isIP(options.host) !== 0 ? options.host : null;
  const internal = host === null || isPrivateAddress(host);
  return options.tls ? (internal ? 'internal-fqdn' : 'external-fqdn') : internal ? 'internal-ip' : 'external-ip';
}

/** ioredis 6.1 maintNotifications isPrivateAddress. */
function isPrivateAddress(address: string): boolean {
  const normalized = address.toLowerCase();
  const v4 = (a: string) => {
    const o = a.split('.').map(Number);
    return o[0] === 10 || o[0] === 127 || (o[0] === 169 && o[1] === 254) || (o[0] === 172 && o[1] >= 16 && o[1] <= 31) || (o[0] === 192 && o[1] === 168) || (o[0] === 100 && o[1] >= 64 && o[1] <= 127);
  };
  if (normalized.startsWith('::ffff:') && isIP(normalized.slice(7)) === 4) return v4(normalized.slice(7));
  const version = isIP(normalized);
  if (version === 4) return v4(normalized);
  if (version === 6) return normalized === '::1' || normalized.startsWith('fc') || normalized.startsWith('fd') || normalized.startsWith('fe80:');
  return false;
}

/**
 * Run argv on the engine connection as a client's command: its error, or null. The error carries
 * `command: { name, args }` as ioredis's DataHandler.returnError attaches it to every error reply
 * (`args` as the client method was given them, `clientArgs`; redacted by ioredis 6.1).
 */
function sendHandshake(conn: Connection, argv: string[], clientArgs: unknown[] = argv.slice(1)): Promise<Error | null> {
  return conn.execute(argv.map((a) => Buffer.from(a).toString('latin1'))).then(
    () => null,
    (err) => Object.assign(asReplyError(err), { command: { name: argv[0], args: errorCommandArgs(argv[0], clientArgs) } }),
  );
}

/**
 * The handshake on the engine connection, as the commands of a client (MONITOR, INFO
 * commandstats, CLIENT LIST see them): handshakeCommands in order, then the ready check INFO
 * (unless `enableReadyCheck: false`). A refused AUTH / HELLO is fatal (recoverFromFatalError)
 * unless its text is one ioredis only warns about; a refused SELECT is emitted as `error`
 * (ioredis 5 and RESP2 emit it, ioredis 6's HELLO handshake stops at the refused HELLO); the
 * others' errors are ignored; a refused ready check is fatal.
 */
function handshake(redis: Instance, conn: Connection): Promise<void> {
  const credentials = credentialsOf(redis.options);
  const hello = conn.protocol === 3;
  const db = dbOfClient(redis, conn);
  // `maintNotifications: 'enabled'` makes a refused CLIENT MAINT_NOTIFICATIONS fatal: the engine decides
  const maintFatal = redis.options?.maintNotifications === 'enabled' && maintEndpointTypeOf(redis.options, hello) !== null;
  if (credentials === null && !maintFatal && conn.isAuthenticated && conn.server.monitors === null && Number.isInteger(db) && db >= 0 && db < DATABASES) {
    // nothing to refuse and nobody watching: the handshake's effects without its commands (a
    // fresh client would otherwise load the engine's command and INFO modules: start-up cost
    // in every test file). INFO commandstats and CLIENT LIST `cmd` then do not count them. A db
    // the server refuses (a `select(16)` the client recorded) goes through the engine.
    redis[HANDSHAKE_DB] = undefined;
    if (db) conn.selectDb(db);
    applyClientInfo(conn, redis.options);
    return Promise.resolve();
  }
  const commands = handshakeCommands(redis, db, hello, credentials);
  if (hello) conn.setProtocol(2); // HELLO 3 switches it again once accepted
  let fatal = false;
  const run = (i: number): Promise<void> => {
    if (i >= commands.length) return Promise.resolve();
    const command = commands[i];
    return sendHandshake(conn, command.argv, command.clientArgs).then((error) => {
      if (command.kind === 'auth' && hello) conn.setProtocol(3);
      if (command.kind === 'select') redis[HANDSHAKE_DB] = undefined;
      if (error === null) return run(i + 1);
      if (command.kind === 'auth') {
        const warning = authWarning(error.message);
        if (warning !== null) console.warn(warning);
        else {
          fatal = true;
          fatalError(redis, conn, error);
        }
      } else if (command.kind === 'maint' && redis.options?.maintNotifications === 'enabled' && !fatal) {
        fatal = true;
        fatalError(redis, conn, error);
      } else if (command.kind === 'select' && (!fatal || !hello)) {
        // ioredis 5 (and RESP2) emits it even after a refused AUTH; ioredis 6's HELLO handshake
        // stops at the refused HELLO
        silentEmit(redis, 'error', error);
      }
      return run(i + 1);
    });
  };
  return run(0).then(() => {
    redis[HANDSHAKE_DB] = undefined;
    if (fatal || redis.options?.enableReadyCheck === false) return undefined;
    return sendHandshake(conn, ['info']).then((error) => {
      if (error !== null) fatalError(redis, conn, error);
    });
  });
}

/** ioredis recoverFromFatalError: the queued commands fail with `err`, `error`, then a reconnection. */
/** Connections whose handshake failed (closing a moment later). */
const refusedHandshakes = new WeakSet<Connection>();

function fatalError(redis: Instance, conn: Connection, err: Error, also?: Error): void {
  if (redis[CONN] !== conn) return;
  refusedHandshakes.add(conn);
  failHeld(redis, err);
  silentEmit(redis, 'error', err);
  if (also) silentEmit(redis, 'error', also);
  // not a manual close: the close handler reconnects by the retryStrategy; as the socket's
  // close, a moment later (the status is still `connect` when the held commands' errors arrive)
  realSetImmediate(() => conn.close());
}

/** ioredis silentEmit: `error` without a listener is printed, not thrown; none once ended. */
export function silentEmit(redis: Instance, event: string, arg?: unknown): void {
  if (event === 'error' && redis.status === 'end') return;
  if (redis.listenerCount(event) > 0) {
    emitOwn(redis, event, arg);
    return;
  }
  if (event === 'error' && arg instanceof Error) console.error('[ioredis] Unhandled error event:', arg.stack);
}

/** The installed ioredis's default retryStrategy and its MaxRetriesPerRequestError. */
let ioredisDefaults: { retryStrategy?: (times: number) => unknown; MaxRetriesPerRequestError?: new (n: number) => Error } | undefined;
function defaultsOfIoredis(): NonNullable<typeof ioredisDefaults> {
  if (ioredisDefaults) return ioredisDefaults;
  ioredisDefaults = {};
  try {
    const dir = installedIoredisDir();
    /* eslint-disable @typescript-eslint/no-require-imports */
    ioredisDefaults.retryStrategy = require(`${dir}/built/redis/RedisOptions`).DEFAULT_REDIS_OPTIONS?.retryStrategy;
    ioredisDefaults.MaxRetriesPerRequestError = require(`${dir}/built/errors`).MaxRetriesPerRequestError;
    /* eslint-enable @typescript-eslint/no-require-imports */
  } catch {
    /* the fallbacks below */
  }
  return ioredisDefaults;
}

function maxRetriesError(n: number): Error {
  const E = defaultsOfIoredis().MaxRetriesPerRequestError;
  if (E) return new E(n);
  return new Error(`Reached the max retries per request limit (which is ${n}). Refer to "maxRetriesPerRequest" option for details.`);
}

/** QUIT sent: the connection the client closes itself (no reconnection when it ends). */
export function closingByClient(redis: Instance, conn: Connection): void {
  redis[MANUAL] = conn;
  redis[QUIT_ON] = conn;
}

/** The connection a QUIT was sent on (closingByClient), until disconnect() closes it itself. */
const QUIT_ON = Symbol.for('ioredis-mock-streams.quitOn');

/** The channels and patterns the instance listens to through ioredis-mock's pub/sub. */
function listenedChannels(redis: Instance, store: any): unknown[] {
  const out: unknown[] = [];
  const byChannel: Map<unknown, Map<unknown, unknown>> | undefined = store?.instanceListeners;
  if (byChannel) for (const [channel, listeners] of byChannel) if (listeners.has(redis)) out.push(channel);
  return out;
}

/** The channel (or pattern) names of the emitters, byte strings, as arguments that send those bytes. */
const asSent = (names: unknown[]): unknown[] => names.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : c));

/** The client's subscriptions now (what ioredis's condition.subscriber holds). */
function subscriptionsOf(redis: Instance): PrevCondition {
  return {
    channels: listenedChannels(redis, redis.channels),
    patterns: listenedChannels(redis, redis.patternChannels),
    shardChannels: redis[SHARD_CHANNELS] ?? [],
  };
}

function hasSubscriptions(prev: PrevCondition): boolean {
  return prev.channels.length > 0 || prev.patterns.length > 0 || prev.shardChannels.length > 0;
}

/** ioredis autoResubscribe: SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE the lost connection's channels again. */
function resubscribe(redis: Instance, prev: PrevCondition): void {
  if (prev.channels.length > 0) Promise.resolve(redis.subscribe(...asSent(prev.channels))).catch(noop);
  if (prev.patterns.length > 0) Promise.resolve(redis.psubscribe(...asSent(prev.patterns))).catch(noop);
  if (prev.shardChannels.length > 0) Promise.resolve(redis.ssubscribe(...prev.shardChannels.map((c) => Buffer.from(c, 'latin1')))).catch(noop);
}

/**
 * The server closed the connection (CLIENT KILL, ACL DELUSER of its user, a refused handshake,
 * `disconnect(true)`): ioredis's close handler. `close`, then by `retryStrategy(attempt)` either
 * `end` (not a number: the held commands reject "Connection is closed.") or `reconnecting` with
 * the delay, a new connection after that many milliseconds of real time (ioredis's setTimeout
 * against a real server; the fake clock does not move it, jest's fake timers do not hold it), in
 * the db the client recorded (SelectCondition: ioredis 5 and 6.0 select it once ready, 6.1 in
 * the handshake), re-authenticated by the options and re-subscribed; commands
 * sent meanwhile wait for `ready` (offline queue) or are refused (`enableOfflineQueue: false`);
 * every `maxRetriesPerRequest + 1` attempts the held commands reject with
 * MaxRetriesPerRequestError.
 */
function connectionLost(redis: Instance): void {
  if (redis.status === 'end' || redis.status === 'close' || redis.status === 'reconnecting') return;
  const wasReady = redis.status === 'ready';
  if (wasReady) keepPrevCondition(redis);
  const prev = subscriptionsOf(redis);
  dropSubscriptions(redis);
  redis[SHARD_CHANNELS] = undefined;
  if (wasReady || !redis[PREV]) redis[PREV] = prev;
  redis[CONNECTED] = false;
  void setStatus(redis, 'close');
  const options = redis.options ?? {};
  const strategy = 'retryStrategy' in options && options.retryStrategy !== undefined ? options.retryStrategy : defaultsOfIoredis().retryStrategy;
  let delay: unknown;
  if (typeof strategy === 'function') {
    redis[RETRIES] = (redis[RETRIES] ?? 0) + 1;
    try {
      delay = strategy(redis[RETRIES]);
    } catch (err) {
      void Promise.reject(err);
    }
  }
  if (typeof delay !== 'number') {
    // ioredis keeps prevCondition (the subscriptions too): a later connect() re-subscribes
    failHeld(redis);
    void setStatus(redis, 'end');
    return;
  }
  void setStatus(redis, 'reconnecting', delay);
  const timer = realSetTimeout(() => {
    if (redis[RECONNECT_TIMER] !== timer) return;
    redis[RECONNECT_TIMER] = undefined;
    reconnect(redis);
  }, delay);
  redis[RECONNECT_TIMER] = timer;
  const max = options.maxRetriesPerRequest === undefined ? 20 : options.maxRetriesPerRequest;
  if (typeof max === 'number' && max >= 0 && redis[RETRIES] % (max + 1) === 0) {
    const err = maxRetriesError(max);
    // ioredis's flushQueue rejects its command queue too, which is then the lost connection's
    // (prevCommandQueue, the same queue): what that connection had sent is not resent
    if (wasReady && redis[CONN] !== undefined) flushedOnLoss.set(redis[CONN], err);
    failHeld(redis, err);
  }
}

/** Lost connections whose loss flushed ioredis's command queue (maxRetriesPerRequest), with the error. */
const flushedOnLoss = new WeakMap<Connection, Error>();

/**
 * The MaxRetriesPerRequestError that the client's close handler rejected the commands sent on
 * `conn` with when `conn` was lost (its first reconnection attempt reached maxRetriesPerRequest:
 * `maxRetriesPerRequest: 0`), instead of resending them; undefined when they are resent.
 */
export function flushedByLoss(conn: Connection): Error | undefined {
  return flushedOnLoss.get(conn);
}

/**
 * ioredis's close handler when `manuallyClosing` (a QUIT was sent) and the server closed the
 * connection first (CLIENT KILL while the QUIT waited behind a blocked call): no reconnection,
 * `close` and `end` (both see status `end`), then what the connection had sent (the blocked
 * call, the QUIT) and what is held rejects with "Connection is closed." (close(): flushQueue).
 */
function closedBeforeQuitRan(redis: Instance): void {
  if (redis.status === 'ready') {
    keepPrevCondition(redis);
    redis[PREV] ??= subscriptionsOf(redis);
  }
  dropSubscriptions(redis);
  redis[SHARD_CHANNELS] = undefined;
  redis[CONNECTED] = false;
  let closed!: () => void;
  const done = new Promise<void>((resolve) => (closed = resolve));
  redis[CLOSED] = done;
  void setStatus(redis, 'close');
  void setStatus(redis, 'end').then(() => {
    if (redis[CLOSED] === done) redis[CLOSED] = undefined;
    closed();
    failHeld(redis);
  });
}

/** A new connection after a lost one (ioredis connect() from its reconnect timer). */
function reconnect(redis: Instance): void {
  if (redis.status !== 'reconnecting') return;
  const old: Connection = redis[CONN];
  let conn: Connection;
  try {
    const options = connectionOptionsOf(redis, redis.options, old.emulators);
    conn = new Connection(options);
    newCondition(redis, redis.options);
  } catch (err) {
    void Promise.reject(err);
    return;
  }
  attachInvalidationSink(redis, conn);
  redis[CONN] = conn;
  redis[CONNECTED] = true;
  runConnectSequence(redis, conn).catch(noop);
}

/**
 * ioredis's offline queue (Redis#sendCommand): a command sent while the client is still
 * connecting (status `connecting`/`connect`) is not written until the client is `ready`, so a
 * command another, ready client sends meanwhile reaches the server first. Returns null when
 * the command can run now; otherwise a promise of `run()` once ready. With
 * `enableOfflineQueue: false` it rejects with ioredis's "Stream isn't writeable …" error; a
 * QUIT with nothing held closes the client and answers `OK` at once (a Buffer for `buffers`:
 * quitBuffer), as ioredis does.
 */
export function deferUntilReady<T>(redis: Instance, name: string, run: () => Promise<T>, buffers = false, hold: HoldOptions<T> = {}): Promise<T> | null {
  const status = redis?.status;
  if (status !== 'connecting' && status !== 'connect' && status !== 'reconnecting') return null;
  // (a command sent before the connection was lost is resent whatever enableOfflineQueue says:
  // ioredis keeps those apart from its offline queue, prevCommandQueue)
  if (redis.options?.enableOfflineQueue === false && hold.sentInDb === undefined) return Promise.reject(new Error(OFFLINE_QUEUE_DISABLED));
  const { failed, opensWithSelect = name === 'select' } = hold;
  const held: Held[] = (redis[OFFLINE] ??= []);
  if (held.length === 0 && name.toLowerCase() === 'quit') {
    closeInstance(redis);
    // ioredis resolves Buffer.from('OK'), which its Command turns into text unless the method is
    // a …Buffer one (quitBuffer)
    return Promise.resolve((buffers ? Buffer.from('OK') : 'OK') as T);
  }
  const outer: Promise<T> = new Promise<T>((resolve, reject) => {
    // the caller's promise: its rejection is the caller's to handle, unless the test setup's
    // end-of-test close caused it (settledAsClient)
    const rejectOuter = (err: unknown) => {
      if (isSetupClose(err)) outer.catch(noop);
      reject(err);
    };
    held.push({
      run: () => run().then(resolve, rejectOuter),
      fail: failed === undefined ? rejectOuter : (err) => failed(err).then(resolve, rejectOuter),
      select: hold.sentInDb ?? redis[CONDITION]?.select,
      isSelect: opensWithSelect,
    });
  });
  return outer;
}

/**
 * `inner` as the promise a client method returns: an error nobody handles is an unhandled
 * rejection, as with ioredis, unless the test setup's end-of-test close caused it (a test's
 * client closed, its blocked call and what waited behind it rejected: a real server would have
 * kept them waiting), which is handled here.
 */
export function settledAsClient<T>(inner: Promise<T>): Promise<T> {
  const outer: Promise<T> = new Promise<T>((resolve, reject) => {
    inner.then(resolve, (err: unknown) => {
      if (isSetupClose(err)) outer.catch(noop);
      reject(err);
    });
  });
  return outer;
}

/** How `deferUntilReady` holds a command or batch. */
export interface HoldOptions<T> {
  /** The batch opens with a SELECT ioredis records: no SELECT of its db before it (default: `name` is `select`). */
  opensWithSelect?: boolean;
  /** What a flush of the held commands (the client closed first) answers instead of rejecting with its error. */
  failed?: (err: unknown) => Promise<T>;
  /**
   * Resent after a lost connection: the db the client had recorded when it first sent it (ioredis's
   * prevCommandQueue `item.select`); enableOfflineQueue does not apply.
   */
  sentInDb?: number;
}

/** The db the client records as selected now (ioredis's `condition.select`), stamped on what it sends. */
export function recordedDb(redis: Instance): number | undefined {
  return redis?.[CONDITION]?.select;
}

/** Reject the commands held for `ready` (the connection closed first). */
function failHeld(redis: Instance, err?: Error): void {
  const held: Held[] | undefined = redis[OFFLINE];
  if (!held) return;
  redis[OFFLINE] = undefined;
  for (const h of held) h.fail(err ?? connectionClosedError());
}

/** First connection, from the constructor (the `options` assignment ioredis-mock makes last). */
export function openInstance(redis: Instance, options: any, emulators: EmulatorTable): void {
  // ioredis 6's constructor refuses the combination (Redis.js parseOptions, after its defaults:
  // `protocol` 3); ioredis 5 has no replyMapping option and ignores it
  if (
    installedIoredisMajor() === 6 &&
    options?.replyMapping === 'resp3' &&
    options?.protocol !== undefined &&
    options.protocol !== 3
  ) {
    throw new Error('The "resp3" replyMapping is only supported with protocol 3');
  }
  const conn = new Connection(connectionOptionsOf(redis, options, emulators, true));
  redis[HANDSHAKE_DB] = Number(options?.db ?? 0);
  attachInvalidationSink(redis, conn);
  redis[CONN] = conn;
  clientCreated(redis); // the jest setup tags it with the running test
  // ioredis's constructor defines the commands of `options.scripts` (Redis.js, 5.x and 6.x)
  const scripts = options?.scripts;
  if (scripts && typeof scripts === 'object' && typeof redis.defineCommand === 'function') {
    for (const [name, definition] of Object.entries(scripts)) redis.defineCommand(name, definition);
  }
  if (options?.lazyConnect) {
    setStatus(redis, 'wait').catch(noop); // ioredis emits `wait` too
    return;
  }
  newCondition(redis, options);
  runConnectSequence(redis, conn).catch(noop);
}

/** ioredis `connect()`: a promise that resolves when ready. */
export function connectInstance(redis: Instance, emulators: EmulatorTable): Promise<void> {
  const status = redis.status;
  if (status === 'connecting' || status === 'connect' || status === 'ready') {
    return Promise.reject(new Error('Redis is already connecting/connected'));
  }
  let conn: Connection = redis[CONN];
  if (!conn || conn.closed) {
    try {
      conn = new Connection(connectionOptionsOf(redis, redis.options, emulators));
      attachInvalidationSink(redis, conn);
    } catch (err) {
      return Promise.reject(err);
    }
    redis[CONN] = conn;
  }
  newCondition(redis, redis.options);
  redis[CONNECTED] = true;
  return runConnectSequence(redis, conn);
}

/**
 * Client-side caching redirected to this client (CLIENT TRACKING on REDIRECT <its id>): while it
 * is subscribed (RESP2), an invalidation arrives as ioredis delivers a `__redis__:invalidate`
 * message (DataHandler): `message` with the keys joined by commas ('' for a flush), then
 * `messageBuffer` with the keys as an array of Buffers (null for a flush); on process.nextTick,
 * as ioredis-mock delivers published messages (Node's own: fake timers do not hold it back).
 */
const NO_SUBSCRIPTIONS = { channels: [], patterns: [] };
const isText = (c: unknown): c is string => typeof c === 'string';

function attachInvalidationSink(redis: Instance, conn: Connection): void {
  attachShardMessages(redis, conn);
  // the client's SUBSCRIBE/PSUBSCRIBE live on ioredis-mock's channel tables: CLIENT LIST, CLIENT
  // KILL TYPE, INFO and ACL SETUSER see them as the server sees this client's
  conn.frontEndSubscriptions = () =>
    redis[CONN] === conn && !conn.closed
      ? { channels: listenedChannels(redis, redis.channels).filter(isText), patterns: listenedChannels(redis, redis.patternChannels).filter(isText) }
      : NO_SUBSCRIPTIONS;
  // RESET (call('reset')) unsubscribes the connection from everything on the server's side; the
  // client leaves subscriber mode (ioredis keeps its own record of the channels, not modelled)
  conn.frontEndUnsubscribeAll = () => {
    if (redis[CONN] !== conn) return;
    dropSubscriptions(redis);
    redis[SHARD_CHANNELS] = undefined;
  };
  conn.redirectSink = (keys) => {
    if (!redis.subscriberMode) return;
    const buffers = keys === null ? null : keys.map((k) => Buffer.from(k, 'latin1'));
    realNextTick(() => {
      redis[OWN_EMIT] = true;
      try {
        if (redis.listenerCount('message') > 0) redis.emit('message', '__redis__:invalidate', buffers === null ? '' : buffers.map((b) => b.toString()).join(','));
        redis.emit('messageBuffer', Buffer.from('__redis__:invalidate'), buffers);
      } finally {
        redis[OWN_EMIT] = false;
      }
    });
  };
}

/**
 * SSUBSCRIBE's messages (the engine's `smessage` pushes) as ioredis delivers them (DataHandler,
 * 5 and 6): `smessage` (channel, message as strings) when it has listeners, then always
 * `smessageBuffer` (Buffers); on Node's own process.nextTick (fake timers do not hold it back), as the
 * other pub/sub messages.
 */
function attachShardMessages(redis: Instance, conn: Connection): void {
  conn.onPush((msg) => {
    if (!(msg instanceof PushReply) || msg.items[0] !== 'smessage') return;
    const [, channel, message] = msg.items.map((v) => Buffer.from(String(v), 'latin1'));
    realNextTick(() => {
      redis[OWN_EMIT] = true;
      try {
        if (redis.listenerCount('smessage') > 0) redis.emit('smessage', channel.toString(), message.toString());
        redis.emit('smessageBuffer', channel, message);
      } finally {
        redis[OWN_EMIT] = false;
      }
    });
  });
}

/** A command on a `wait` (lazyConnect) client connects it first, as ioredis does. */
export function autoConnect(redis: Instance, emulators: EmulatorTable): void {
  if (redis.status === 'wait') connectInstance(redis, emulators).catch(noop);
}

/** Drop the instance's pub/sub subscriptions (ioredis-mock's disconnect cleanup). */
function dropSubscriptions(redis: Instance): void {
  for (const store of [redis.channels, redis.patternChannels]) {
    const byChannel: Map<string, Map<unknown, (...a: unknown[]) => void>> | undefined = store?.instanceListeners;
    if (!byChannel) continue;
    for (const [channel, listeners] of byChannel) {
      const listener = listeners.get(redis);
      if (!listener) continue;
      store.removeListener(channel, listener);
      listeners.delete(redis);
      if (listeners.size === 0) byChannel.delete(channel);
    }
  }
  redis.subscriberMode = false;
  const conn: Connection | undefined = redis[CONN];
  if (conn !== undefined) conn.frontEndSubscriber = false;
}

/**
 * The connection is gone (disconnect(), or QUIT answered): release everything and go
 * `close` → `end`. Idempotent.
 */
export function closeInstance(redis: Instance, reconnectAfter = false): void {
  const conn: Connection | undefined = redis[CONN];
  if (reconnectAfter && conn && !conn.closed && redis.status !== 'end' && redis.status !== 'close' && redis.status !== 'connecting') {
    // ioredis disconnect(true): the connection ends and the client reconnects (retryStrategy)
    conn.close();
    return;
  }
  // disconnect(true) while already reconnecting: ioredis goes on reconnecting (what is queued is
  // sent once ready), where disconnect() would end the client
  if (reconnectAfter && redis.status === 'reconnecting') return;
  if (redis[RECONNECT_TIMER] !== undefined) {
    realClearTimeout(redis[RECONNECT_TIMER]);
    redis[RECONNECT_TIMER] = undefined;
  }
  // ioredis's close handler keeps the condition of a client closed while ready (prevCondition,
  // until a connection is ready again): connect() selects its db again and re-subscribes
  // (autoResubscribe), as after a lost connection (5.11.1, 6.0.0, 6.1.0 on redis-server)
  if (redis.status === 'ready') {
    keepPrevCondition(redis);
    redis[PREV] ??= subscriptionsOf(redis);
  }
  redis[SHARD_CHANNELS] = undefined;
  if (conn) redis[MANUAL] = conn;
  redis[QUIT_ON] = undefined;
  conn?.close();
  redis[CONNECTED] = false;
  if (redis.status === 'connecting') {
    // ioredis: no socket yet; the connector's pending connect fails on its next tick with
    // "Connection is closed.": flushQueue rejects what was queued with that one error, then the
    // status turns `end` (an `end` event, no `close`: nothing was open), `connecting` until then
    // (after the `connecting` event already on its way; the `end` event after the rejections'
    // callbacks, as ioredis's setStatus emits it on a nextTick)
    // disconnect(true) too (the connector's connect fails the same way), but, not a manual close,
    // ioredis's silentEmit does not drop that error: an `error` event after the rejections (5.11.1,
    // 6.0.0, 6.1.0; printed "[ioredis] Unhandled error event" without a listener)
    // (the connect's callback runs in a microtask: the `end` event's nextTick after every
    // microtask the rejections start)
    void Promise.resolve().then(() =>
      realNextTick(() => {
        void Promise.resolve().then(() => {
          const err = new Error('Connection is closed.');
          failHeld(redis, err);
          if (redis.status !== 'connecting') return;
          if (reconnectAfter) silentEmit(redis, 'error', err);
          redis.status = 'end';
          realNextTick(() => emitOwn(redis, 'end'));
        });
      }),
    );
    return;
  }
  failHeld(redis);
  if (redis.status === 'end' || redis.status === 'close') return;
  if (redis.status === 'reconnecting') {
    // ioredis: disconnect() while waiting to reconnect ends the client
    redis.status = 'end';
    void setStatus(redis, 'end');
    return;
  }
  dropSubscriptions(redis);
  if (redis.status === 'ready' && conn) {
    // ioredis ends the socket and waits for its `close` (an I/O callback after the QUIT reply
    // or the FIN): the status stays `ready` until then (quit() resolves 'OK' while ready), then
    // its close handler sets `close` and at once `end`, so both events see `end`. The socket's
    // close: two turns of the event loop (after a reply delivered in a macrotask too), on real
    // timers (jest's fake timers do not hold it).
    if (redis[CLOSING] === conn) return;
    redis[CLOSING] = conn;
    let closed!: () => void;
    // what the close handler's flushQueue rejects (commands sent meanwhile, a pipeline a QUIT
    // aborted) rejects once the close was seen: after `close` and `end`, status `end`
    redis[CLOSED] = new Promise<void>((resolve) => (closed = resolve));
    redis[QUEUED_WHILE_CLOSING] = 0;
    redis[CLOSE_NOW] = () => {
      // also the jest setup file's close of a test's clients: ended before the next test starts
      if (redis[CLOSING] !== conn) return;
      redis[CLOSING] = undefined;
      redis[CLOSED] = undefined;
      if (redis[CONN] === conn && redis.status === 'ready') {
        void setStatus(redis, 'close');
        void setStatus(redis, 'end').then(closed);
      } else closed();
    };
    realSetImmediate(() =>
      realSetImmediate(() => {
        redis[CLOSE_NOW]?.();
      }),
    );
    return;
  }
  void setStatus(redis, 'close').then(() => {
    if (redis.status === 'close') return setStatus(redis, 'end');
    return undefined;
  });
}

/**
 * Hooks on the class: `connected` as an accessor (to drop ioredis-mock's own nextTick
 * `connect`/`ready` emitted from its constructor) and `emit` dropping those two events.
 */
export function installLifecycleHooks(proto: Instance): void {
  Object.defineProperty(proto, 'connected', {
    configurable: true,
    get(this: Instance) {
      return this[CONNECTED] ?? false;
    },
    set(this: Instance, value: boolean) {
      // the constructor sets `connected = true` right before scheduling `connect`/`ready`
      if (value && this[CONN] === undefined) this[DROP_MOCK_EVENTS] = 2;
      this[CONNECTED] = value;
    },
  });
  const baseEmit: (this: Instance, event: string | symbol, ...args: unknown[]) => boolean = proto.emit;
  proto.emit = function emit(this: Instance, event: string | symbol, ...args: unknown[]): boolean {
    if (!this[OWN_EMIT] && (event === 'connect' || event === 'ready') && this[DROP_MOCK_EVENTS] > 0) {
      this[DROP_MOCK_EVENTS]--;
      return false;
    }
    if (!this[OWN_EMIT] && typeof event === 'string' && MESSAGE_EVENTS.has(event)) return emitMessage(this, baseEmit, event, args);
    return baseEmit.call(this, event, ...args);
  };
}

const MESSAGE_EVENTS = new Set(['message', 'messageBuffer', 'pmessage', 'pmessageBuffer']);
// channel, pattern and message come from the server's emitters as byte strings (publishNow)
const asBuffer = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(String(v ?? ''), 'latin1'));
const asString = (v: unknown): string => asBuffer(v).toString();

/**
 * A pub/sub message from ioredis-mock (which emits only `message`, or only `messageBuffer` when
 * the payload was a Buffer) as ioredis emits it (DataHandler handleSubscriberReply, 5 and 6):
 * `message` (channel, message as strings) when it has listeners, then always `messageBuffer`
 * (Buffers); `pmessage` (pattern, channel, message) then `pmessageBuffer` (pattern as a string,
 * channel and message as Buffers).
 */
function emitMessage(
  redis: Instance,
  baseEmit: (this: Instance, event: string | symbol, ...args: unknown[]) => boolean,
  event: string,
  args: unknown[],
): boolean {
  let heard = false;
  // delivered to this client: an interaction of its connection (CLIENT LIST idle, CONFIG timeout)
  (redis[CONN] as Connection | undefined)?.noteWrite();
  if (event.startsWith('p')) {
    const [pattern, channel, message] = args;
    const p = asString(pattern);
    if (redis.listenerCount('pmessage') > 0) heard = baseEmit.call(redis, 'pmessage', p, asString(channel), asString(message)) || heard;
    return baseEmit.call(redis, 'pmessageBuffer', p, asBuffer(channel), asBuffer(message)) || heard;
  }
  const [channel, message] = args;
  if (redis.listenerCount('message') > 0) heard = baseEmit.call(redis, 'message', asString(channel), asString(message)) || heard;
  return baseEmit.call(redis, 'messageBuffer', asBuffer(channel), asBuffer(message)) || heard;
}
