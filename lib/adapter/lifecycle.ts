/**
 * ioredis's connection lifecycle on a fake client: `status` and its events, in ioredis's order
 * (Redis.ts / event_handler.ts):
 * - `new Redis()`: `connecting`, then the events `connecting`, `connect`, `ready` (status
 *   follows each); with `lazyConnect` the status is `wait` until `connect()` or a command;
 * - `disconnect()` and a `quit()` that answered: `close` then `end` (status `close`, then
 *   `end`); the connection's blocked and queued calls reject with "Connection is closed.";
 * - `connect()` after that: a fresh connection (new CLIENT ID, the `db` of the options),
 *   the same three events, the promise resolving at `ready`; while connecting or connected it
 *   rejects "Redis is already connecting/connected".
 * Events are emitted from promise callbacks, never `process.nextTick`, so jest/sinon fake
 * timers cannot hold them back (ioredis-mock's own nextTick `connect`/`ready` are dropped).
 */
import { afterReplies } from './delivery';
import { clientCreated } from './client-registry';
import { installedIoredisMajor, projectIoredisVersion } from './command-table';
import { replyContextOf } from './ioredis-reply';
import { Connection, type ConnectionOptions } from '../engine/connection';
import type { EmulatorTable } from '../engine/emulators';
import { parseStreamsOptions } from './options';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Instance = any;

/** The instance's engine connection. */
export const CONN = Symbol.for('ioredis-mock-streams.connection');
/** ioredis-mock's `connected` flag (an accessor, to see it set in the constructor). */
const CONNECTED = Symbol.for('ioredis-mock-streams.connected');
/** Count of ioredis-mock's own `connect`/`ready` emissions still to drop. */
const DROP_MOCK_EVENTS = Symbol.for('ioredis-mock-streams.dropMockEvents');
/** Set while the adapter emits a lifecycle event itself. */
const OWN_EMIT = Symbol.for('ioredis-mock-streams.ownEmit');
/** Commands sent before the client was `ready` (ioredis's offline queue). */
const OFFLINE = Symbol.for('ioredis-mock-streams.offlineQueue');

/** ioredis's rejection of a command sent before `ready` when `enableOfflineQueue` is false. */
export const OFFLINE_QUEUE_DISABLED = "Stream isn't writeable and enableOfflineQueue options is false";

interface Held {
  run(): void;
  fail(err: Error): void;
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
function setStatus(redis: Instance, status: string, arg?: unknown): Promise<void> {
  redis.status = status;
  return (afterReplies() ?? Promise.resolve()).then(() => emitOwn(redis, status, arg));
}

/** The connection options of an instance: its keyspace, key prefix, name, notifications. */
export function connectionOptionsOf(redis: Instance, options: any, emulators: EmulatorTable): ConnectionOptions {
  return {
    host: options?.host ?? 'localhost',
    port: Number(options?.port ?? 6379),
    db: Number(options?.db ?? 0),
    streams: parseStreamsOptions(options?.streams),
    // keyPrefix is the front end's: it prefixes the arguments ioredis's command table marks as
    // keys (keys.ts applyKeyPrefix), as real ioredis does on the client side, for every command
    // (built-ins, stream commands, EVAL/EVALSHA/FCALL KEYS); the engine and scripts see full keys
    notifyKeyspaceEvents: typeof options?.notifyKeyspaceEvents === 'string' ? options.notifyKeyspaceEvents : '',
    name: typeof options?.connectionName === 'string' && options.connectionName !== '' ? options.connectionName : null,
    // ioredis 6 says HELLO 3 on connect unless `protocol: 2`; ioredis 5 speaks RESP2
    protocol: replyContextOf(installedIoredisMajor(), options).protocol,
    emulators,
    builtinHost: redis,
  };
}

let ioredisVersion: string | undefined;
/**
 * What ioredis sends on connect besides AUTH/SELECT: CLIENT SETNAME (connectionName) and,
 * unless `disableClientInfo`, CLIENT SETINFO LIB-NAME `ioredis` (or `ioredis(<clientInfoTag>)`)
 * and LIB-VER (its version), as a server's CLIENT LIST then shows (7.2+).
 */
function applyClientInfo(conn: Connection, options: any): void {
  if (options?.disableClientInfo) return;
  try {
    ioredisVersion ??= projectIoredisVersion();
  } catch {
    ioredisVersion = '';
  }
  conn.libName = options?.clientInfoTag ? `ioredis(${options.clientInfoTag})` : 'ioredis';
  conn.libVer = ioredisVersion;
}

/**
 * connecting → connect → ready, each event after the previous (promise callbacks). The commands
 * held while connecting run when the status turns `ready`, before the `ready` event (ioredis
 * writes its offline queue in its ready handler and emits the event on the next tick).
 */
function runConnectSequence(redis: Instance, conn: Connection): Promise<void> {
  const live = () => redis[CONN] === conn && !conn.closed;
  return setStatus(redis, 'connecting')
    .then(() => {
      if (live()) return setStatus(redis, 'connect');
      return undefined;
    })
    .then(() => {
      if (!live()) return undefined;
      const emitted = setStatus(redis, 'ready');
      const held: Held[] | undefined = redis[OFFLINE];
      redis[OFFLINE] = undefined;
      if (held) for (const h of held) h.run();
      return emitted;
    });
}

/**
 * ioredis's offline queue (Redis#sendCommand): a command sent while the client is still
 * connecting (status `connecting`/`connect`) is not written until the client is `ready`, so a
 * command another, ready client sends meanwhile reaches the server first. Returns null when
 * the command can run now; otherwise a promise of `run()` once ready. With
 * `enableOfflineQueue: false` it rejects with ioredis's "Stream isn't writeable …" error; a
 * QUIT with nothing held closes the client and answers `OK` at once, as ioredis does.
 */
export function deferUntilReady<T>(redis: Instance, name: string, run: () => Promise<T>): Promise<T> | null {
  const status = redis?.status;
  if (status !== 'connecting' && status !== 'connect') return null;
  if (redis.options?.enableOfflineQueue === false) return Promise.reject(new Error(OFFLINE_QUEUE_DISABLED));
  const held: Held[] = (redis[OFFLINE] ??= []);
  if (held.length === 0 && name.toLowerCase() === 'quit') {
    closeInstance(redis);
    return Promise.resolve('OK' as T);
  }
  return new Promise<T>((resolve, reject) => {
    held.push({ run: () => run().then(resolve, reject), fail: reject });
  });
}

/** Reject the commands held for `ready` (the connection closed first). */
function failHeld(redis: Instance): void {
  const held: Held[] | undefined = redis[OFFLINE];
  if (!held) return;
  redis[OFFLINE] = undefined;
  for (const h of held) h.fail(new Error('Connection is closed.'));
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
  const conn = new Connection(connectionOptionsOf(redis, options, emulators));
  applyClientInfo(conn, options);
  attachInvalidationSink(redis, conn);
  redis[CONN] = conn;
  clientCreated(redis); // the jest setup tags it with the running test
  if (options?.lazyConnect) {
    redis.status = 'wait';
    return;
  }
  void runConnectSequence(redis, conn);
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
      applyClientInfo(conn, redis.options);
      attachInvalidationSink(redis, conn);
    } catch (err) {
      return Promise.reject(err);
    }
    redis[CONN] = conn;
  }
  redis[CONNECTED] = true;
  return runConnectSequence(redis, conn);
}

/**
 * Client-side caching redirected to this client (CLIENT TRACKING on REDIRECT <its id>): while it
 * is subscribed (RESP2), an invalidation arrives as ioredis delivers a `__redis__:invalidate`
 * message (DataHandler): `message` with the keys joined by commas ('' for a flush), then
 * `messageBuffer` with the keys as an array of Buffers (null for a flush); on process.nextTick,
 * as ioredis-mock delivers published messages.
 */
function attachInvalidationSink(redis: Instance, conn: Connection): void {
  conn.redirectSink = (keys) => {
    if (!redis.subscriberMode) return;
    const buffers = keys === null ? null : keys.map((k) => Buffer.from(k, 'latin1'));
    process.nextTick(() => {
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
}

/**
 * The connection is gone (disconnect(), or QUIT answered): release everything and go
 * `close` → `end`. Idempotent.
 */
export function closeInstance(redis: Instance): void {
  const conn: Connection | undefined = redis[CONN];
  conn?.close();
  redis[CONNECTED] = false;
  failHeld(redis);
  if (redis.status === 'end' || redis.status === 'close') return;
  dropSubscriptions(redis);
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
const asBuffer = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(String(v ?? '')));
const asString = (v: unknown): string => (Buffer.isBuffer(v) ? v.toString() : String(v ?? ''));

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
