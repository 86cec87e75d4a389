/**
 * The thin adapter: installs the stream commands on ioredis-mock.
 *
 * ioredis-mock builds each instance's command methods in `_initCommands()` and keeps the data
 * of a host:port/db in a shared "context". The adapter hooks three places of its class, once:
 * - the `options` property, assigned last in the constructor: there it attaches the instance
 *   to its keyspace (our store replaces the context's data and expires), wraps the built-in
 *   methods so blocked readers are served after each command, and adds the stream commands as
 *   methods, as `…Buffer` twins, as `customCommands` (so `pipeline()`/`multi()` have them),
 *   plus ioredis's generic `call`/`callBuffer`;
 * - `disconnect()`, which releases the instance's blocked calls;
 * - `Pipeline.prototype.exec`, which runs MULTI atomically (one time snapshot, BLOCK answers
 *   nil, readers served after EXEC) and plain pipelines in order, one command after another,
 *   answering `[err, reply]` pairs as ioredis does.
 * Further integration points (Lua `redis.call`, keyspace notifications) hang off the same
 * per-keyspace `Keyspace` object (`keyspace.onEvent`).
 */
import { ReplyError } from 'redis-errors';
import { dispatch, lookupCommand } from '../commands/dispatch';
import { COMMANDS } from '../commands/index';
import type { BlockRequest, CommandContext, Db, Reply } from '../commands/types';
import { isBlockRequest } from '../commands/types';
import { CommandError, ERR_WRONGTYPE, errUnknownCommand } from '../errors';
import { Stream } from '../model/stream';
import { Keyspace, KeyspaceOptions } from '../keyspace/keyspace';
import { prefixedData, prefixedExpires } from '../keyspace/store';
import { installClockTtl } from './ttl';
import { decodeBytes, encodeReply, flattenArgs, toByteString } from './encoding';
import { installScripting } from './lua';

/* eslint-disable @typescript-eslint/no-explicit-any */
type MockInstance = any;
type MockClass = any;

const INSTALLED = Symbol.for('ioredis-mock-streams.installed');
const STATE = Symbol.for('ioredis-mock-streams.state');

interface InstanceState {
  keyspace: Keyspace;
  prefix: string;
  db: Db;
}

/** Keyspace of each ioredis-mock context (one per host:port/db). */
const keyspaces = new WeakMap<object, Keyspace>();
/** Every keyspace created, for the jest setup's reset. */
export const allKeyspaces = new Set<Keyspace>();

function keyspaceForContext(context: any): Keyspace {
  let ks = keyspaces.get(context);
  if (ks) return ks;
  const emitter = context.modifiedKeyEvents;
  ks = new Keyspace((key) => emitter?.emit('modified', key));
  // Move whatever ioredis-mock stored before we attached (initial `data` option).
  const oldData = context.data;
  const oldExpires = context.expires;
  for (const key of oldData.keys()) {
    ks.store.data.set(key, oldData.get(key));
    if (oldExpires.has(key)) ks.store.expires.set(key, oldExpires.get(key));
  }
  context.data = ks.store.data;
  context.expires = ks.store.expires;
  keyspaces.set(context, ks);
  allKeyspaces.add(ks);
  return ks;
}

function stateOf(redis: MockInstance): InstanceState {
  const st = redis[STATE] as InstanceState | undefined;
  if (!st) throw new Error('[ioredis-mock-streams] instance was not set up by installStreams()');
  return st;
}

/** The keyspace an ioredis-mock instance belongs to. */
export function keyspaceOf(redis: MockInstance): Keyspace {
  return stateOf(redis).keyspace;
}

/**
 * Keyspace notifications of class `t` (stream) for the issuing client, as Redis sends them
 * when `notify-keyspace-events` (ioredis-mock option `notifyKeyspaceEvents`) has `t` (or `A`)
 * with `K` and/or `E`: published through ioredis-mock's pub/sub on `__keyspace@<db>__:<key>`
 * (message: the event) and `__keyevent@<db>__:<event>` (message: the key).
 */
function publishStreamEvent(redis: MockInstance, event: string, fullKey: string): void {
  const flags: string = redis.options?.notifyKeyspaceEvents ?? '';
  if (!flags || !(flags.includes('t') || flags.includes('A')) || typeof redis.publish !== 'function') return;
  const db = redis.options?.db ?? 0;
  const key = decodeBytes(fullKey);
  if (flags.includes('K')) void redis.publish(`__keyspace@${db}__:${key}`, event);
  if (flags.includes('E')) void redis.publish(`__keyevent@${db}__:${event}`, key);
}

function makeDb(ks: Keyspace, prefix: string, redis: MockInstance): Db {
  const full = (key: string) => prefix + key;
  return {
    getStream(key) {
      const v = ks.store.getRaw(full(key));
      if (v === undefined) return undefined;
      if (v instanceof Stream) return v;
      throw new CommandError(ERR_WRONGTYPE);
    },
    exists: (key) => ks.store.hasKey(full(key)),
    createStream(key) {
      const s = new Stream();
      ks.store.setRaw(full(key), s);
      return s;
    },
    signalReady: (key) => ks.blocking.signal(full(key)),
    touch: (key) => ks.store.markModified(full(key)),
    notify: (event, key) => {
      ks.emitEvent(event, full(key));
      publishStreamEvent(redis, event, full(key));
    },
  };
}

function toClientError(err: unknown): unknown {
  // Redis never emits CR/LF inside an error line (networking.c addReplyErrorLength).
  if (err instanceof CommandError) return new ReplyError(decodeBytes(err.message).replace(/[\r\n]/g, ' '));
  return err;
}

function withCallback<T>(p: Promise<T>, cb: unknown): Promise<T> {
  if (typeof cb === 'function') p.then((r) => cb(null, r), (e) => cb(e));
  return p;
}

interface RunOptions {
  buffers: boolean;
  /** False inside MULTI/EXEC. */
  canBlock: boolean;
}

/**
 * Execute one stream command for `redis`. Returns the encoded reply, or a promise for it when
 * the command blocks. Throws (a ReplyError) for error replies.
 */
function execute(redis: MockInstance, argv: string[], opts: RunOptions): unknown {
  const { keyspace: ks, db, prefix } = stateOf(redis);
  const enc = { buffers: opts.buffers, stringNumbers: Boolean(redis.options?.stringNumbers) };
  const makeCtx = (isRetry: boolean): CommandContext => ({
    now: ks.now(),
    version: ks.redisVersion,
    db,
    canBlock: opts.canBlock && !ks.inTransaction,
    isRetry,
  });
  let result: Reply | BlockRequest;
  try {
    result = dispatch(makeCtx(false), argv);
  } catch (err) {
    ks.blocking.flush();
    throw toClientError(err);
  }
  ks.blocking.flush();
  if (!isBlockRequest(result)) return encodeReply(result, enc);
  const request = result;
  const promise = ks.blocking
    .block(redis, request.keys.map((k) => prefix + k), request, (req, key) => req.retry(makeCtx(true), key?.slice(prefix.length)))
    .then((reply) => encodeReply(reply, enc), (err) => Promise.reject(toClientError(err)));
  // A blocked call released by disconnect()/reset must not become an unhandled rejection
  // when the test never awaited it; callers that await it still see the rejection.
  promise.catch(() => undefined);
  return promise;
}

/** Parse call-style arguments: optional trailing callback, ioredis flattening. */
function splitCallback(args: unknown[]): { args: unknown[]; cb: unknown } {
  if (args.length && typeof args[args.length - 1] === 'function') {
    return { args: args.slice(0, -1), cb: args[args.length - 1] };
  }
  return { args, cb: undefined };
}

function runAsPromise(redis: MockInstance, name: string, rawArgs: unknown[], buffers: boolean): Promise<unknown> {
  const argv = [name, ...flattenArgs(rawArgs)].map(toByteString);
  try {
    return Promise.resolve(execute(redis, argv, { buffers, canBlock: true }));
  } catch (err) {
    return Promise.reject(err);
  }
}

/** Run one command by name now: a stream command here, anything else through ioredis-mock. */
function callNow(redis: MockInstance, lower: string, name: unknown, cmdArgs: unknown[], buffers: boolean): Promise<unknown> {
  if (lookupCommand(lower)) return runAsPromise(redis, lower, cmdArgs, buffers);
  const method = redis[buffers ? `${lower}Buffer` : lower] ?? redis[lower];
  if (typeof method === 'function' && !['call', 'callbuffer', 'multi', 'pipeline', 'exec'].includes(lower)) {
    try {
      return Promise.resolve(method.apply(redis, cmdArgs));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  return Promise.reject(
    new ReplyError(errUnknownCommand(String(name), flattenArgs(cmdArgs).map(String)).replace(/[\r\n]/g, ' ')),
  );
}

const CALL_MULTI = Symbol.for('ioredis-mock-streams.callMulti');

/**
 * ioredis's generic `call(name, ...args)`. MULTI / EXEC / DISCARD sent through `call` behave
 * as on a real connection: commands in between answer QUEUED and run atomically at EXEC (one
 * time snapshot, BLOCK answers nil, blocked readers served after EXEC), whose reply is the
 * array of replies with error replies in place.
 */
function genericCall(redis: MockInstance, buffers: boolean, args: unknown[]): Promise<unknown> {
  const { args: rest, cb } = splitCallback(args);
  const [name, ...cmdArgs] = rest;
  const lower = String(name).toLowerCase();
  const queued: [string, unknown, unknown[], boolean][] | undefined = redis[CALL_MULTI];
  const ok = (v: unknown) => withCallback(Promise.resolve(buffers && typeof v === 'string' ? Buffer.from(v) : v), cb);
  const err = (m: string) => withCallback(Promise.reject(new ReplyError(m)), cb);
  if (lower === 'multi') {
    if (queued) return err('ERR MULTI calls can not be nested');
    redis[CALL_MULTI] = [];
    return ok('OK');
  }
  if (lower === 'discard') {
    if (!queued) return err('ERR DISCARD without MULTI');
    redis[CALL_MULTI] = undefined;
    return ok('OK');
  }
  if (lower === 'exec') {
    if (!queued) return err('ERR EXEC without MULTI');
    redis[CALL_MULTI] = undefined;
    if (redis.dirty) {
      redis.dirty = false;
      redis.watching?.clear();
      return ok(null);
    }
    const { keyspace: ks } = stateOf(redis);
    const started = ks.atomically(() =>
      queued.map(([l, n, a, b]) => callNow(redis, l, n, a, b).then((r) => r, (e) => e)),
    );
    return withCallback(Promise.all(started), cb);
  }
  if (queued) {
    queued.push([lower, name, cmdArgs, buffers]);
    return ok('QUEUED');
  }
  return withCallback(callNow(redis, lower, name, cmdArgs, buffers), cb);
}

function setUpInstance(redis: MockInstance, options: any): void {
  if (redis[STATE]) {
    if (options?.streams) keyspaceOf(redis).configure(options.streams as KeyspaceOptions);
    return;
  }
  const ks = keyspaceForContext(redis.context);
  const prefix: string = options?.keyPrefix ?? '';
  redis.expires = prefixedExpires(ks.store.expires, prefix);
  redis.data = prefixedData(ks.store.data, prefix, redis.expires);
  redis[STATE] = { keyspace: ks, prefix, db: makeDb(ks, prefix, redis) } satisfies InstanceState;
  if (options?.streams) ks.configure(options.streams as KeyspaceOptions);

  // Key TTLs on the keyspace clock.
  installClockTtl(redis, ks, prefix);
  // Built-in commands may delete or overwrite streams: serve blocked readers right after each.
  for (const name of Object.keys(redis)) {
    const fn = redis[name];
    if (typeof fn !== 'function' || name.startsWith('_')) continue;
    redis[name] = function wrappedBuiltin(this: unknown, ...args: unknown[]) {
      try {
        return fn.apply(this, args);
      } finally {
        ks.blocking.flush();
      }
    };
  }
  // TYPE answers `stream` for streams.
  for (const [name, buffers] of [['type', false], ['typeBuffer', true]] as const) {
    const orig = redis[name];
    redis[name] = (key: unknown, ...rest: unknown[]) => {
      const v = ks.store.getRaw(prefix + toByteString(key));
      if (v instanceof Stream) {
        const { cb } = splitCallback(rest);
        return withCallback(Promise.resolve(buffers ? Buffer.from('stream') : 'stream'), cb);
      }
      return orig(key, ...rest);
    };
  }

  for (const spec of COMMANDS.values()) {
    for (const buffers of [false, true]) {
      const method = buffers ? `${spec.name}Buffer` : spec.name;
      redis[method] = (...args: unknown[]) => {
        const { args: rest, cb } = splitCallback(args);
        return withCallback(runAsPromise(redis, spec.name, rest, buffers), cb);
      };
      // For pipeline()/multi(): ioredis-mock calls customCommands bound to the instance with
      // arguments already flattened (Buffers kept, other values stringified).
      redis.customCommands[method] = function pipelineCommand(this: MockInstance, ...args: unknown[]) {
        return execute(this, [spec.name, ...args].map(toByteString), { buffers, canBlock: true });
      };
    }
  }
  redis.call = (...args: unknown[]) => genericCall(redis, false, args);
  redis.callBuffer = (...args: unknown[]) => genericCall(redis, true, args);
  installScripting(redis, stateOf(redis));
}

/**
 * Install the stream commands on an ioredis-mock class (idempotent). Every instance created
 * afterwards has XADD, XREADGROUP, XAUTOCLAIM … as methods, `…Buffer` twins, in `pipeline()`
 * and `multi()`, and through `call()`. Replaces ioredis-mock's own XADD, XLEN, XRANGE,
 * XREVRANGE and XREAD.
 * @param RedisMock the class exported by `ioredis-mock` (default: the installed package)
 * @returns the same class
 */
export function installStreams<T extends MockClass>(RedisMock: T): T {
  const proto = (RedisMock as MockClass).prototype;
  if (proto[INSTALLED]) return RedisMock;
  Object.defineProperty(proto, INSTALLED, { value: true });

  Object.defineProperty(proto, 'options', {
    configurable: true,
    get(this: MockInstance) {
      return this[Symbol.for('ioredis-mock-streams.options')];
    },
    set(this: MockInstance, value: unknown) {
      this[Symbol.for('ioredis-mock-streams.options')] = value;
      setUpInstance(this, value);
    },
  });

  const origDisconnect = proto.disconnect;
  proto.disconnect = function disconnect(this: MockInstance, ...args: unknown[]) {
    if (this[STATE]) keyspaceOf(this).blocking.releaseClient(this, new Error('Connection is closed.'));
    return origDisconnect.apply(this, args);
  };

  const origMulti = proto.multi;
  proto.multi = function multi(this: MockInstance, ...args: unknown[]) {
    const batch = origMulti.apply(this, args);
    batch.__streamsMulti = true;
    return batch;
  };

  const Pipeline = (RedisMock as MockClass).Pipeline;
  const origExec = Pipeline.prototype.exec;
  Pipeline.prototype.exec = function exec(this: any, callback?: unknown) {
    if (!this.redis[STATE] || this._isDirty()) return origExec.call(this, callback);
    const batch: (() => Promise<unknown>)[] = this.batch ?? [];
    this.batch = [];
    const settle = (p: Promise<unknown>) => p.then((r) => [null, r], (e) => [e, null]);
    let result: Promise<unknown>;
    if (this.__streamsMulti) {
      const ks = keyspaceOf(this.redis);
      const started = ks.atomically(() => batch.map((cmd) => settle(cmd())));
      result = Promise.all(started);
    } else {
      result = (async () => {
        const out: unknown[] = [];
        for (const cmd of batch) out.push(await settle(cmd()));
        return out;
      })();
    }
    return withCallback(result, callback);
  };
  Pipeline.prototype.call = function call(this: any, name: string, ...args: unknown[]) {
    const fn = this[String(name).toLowerCase()];
    if (typeof fn !== 'function') throw new Error(`[ioredis-mock-streams] pipeline has no command ${name}`);
    return fn.apply(this, args);
  };
  Pipeline.prototype.callBuffer = function callBuffer(this: any, name: string, ...args: unknown[]) {
    const lower = String(name).toLowerCase();
    const fn = this[`${lower}Buffer`] ?? this[lower];
    if (typeof fn !== 'function') throw new Error(`[ioredis-mock-streams] pipeline has no command ${name}`);
    return fn.apply(this, args);
  };
  return RedisMock;
}
