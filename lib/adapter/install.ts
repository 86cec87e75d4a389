/**
 * The adapter: installs the stream commands on ioredis-mock (the only module that knows
 * ioredis-mock's internals, together with its helpers in this folder).
 *
 * ioredis-mock builds each instance's command methods in its constructor and keeps the data of
 * a host:port/db in a shared "context". The adapter hooks its class once:
 * - the `options` property, assigned last in the constructor: there it attaches the instance
 *   to its keyspace (our store replaces the context's data and expires), wraps ioredis-mock's
 *   own methods (connection order, keyspace clock, WRONGTYPE/arity guard, blocked readers
 *   served after each), adds the stream commands as methods, `…Buffer` twins and
 *   `customCommands` (so `pipeline()`/`multi()` have them), ioredis's `call`/`callBuffer`, and
 *   Lua scripting that reaches the stream commands (./lua.ts);
 * - `disconnect()`, which releases the instance's blocked and queued calls;
 * - `multi()` and the Pipeline prototype (`_createCommand`, `_addTransaction`, `exec`, `call`):
 *   MULTI runs atomically (one time snapshot, BLOCK answers nil, EXECABORT on queue-time
 *   errors, readers served after EXEC), plain pipelines run in order, one command after
 *   another, answering `[err, reply]` pairs as ioredis does.
 * Keyspace events go through the per-keyspace `Keyspace` (`onEvent`) and ioredis-mock pub/sub.
 */
import { ReplyError } from 'redis-errors';
import { dispatch, dispatchCheckOnly, lookupCommand } from '../commands/dispatch';
import { COMMANDS } from '../commands/index';
import type { BlockRequest, CommandContext, Db, Reply } from '../commands/types';
import { isBlockRequest } from '../commands/types';
import { CommandError, ERR_WRONGTYPE, errUnknownCommand } from '../errors';
import { Stream } from '../model/stream';
import { Keyspace } from '../keyspace/keyspace';
import { prefixedData, prefixedExpires } from '../keyspace/store';
import { installClockTtl } from './ttl';
import { clientOfDb, wholeKeyAccess } from './key-values';
import { decodeBytes, encodeReply, flattenArgs, toByteString } from './encoding';
import { installScripting } from './lua';
import { fixStreamReplies, guardStreamKeys, withKeyspaceTime } from './builtins';
import { ClientQueue } from './client-queue';
import { applyKeyPrefix, storeKeyOfBytes } from './keys';
import { parseStreamsOptions } from './options';

/* eslint-disable @typescript-eslint/no-explicit-any */
type MockInstance = any;
type MockClass = any;

const INSTALLED = Symbol.for('ioredis-mock-streams.installed');
const STATE = Symbol.for('ioredis-mock-streams.state');

interface InstanceState {
  keyspace: Keyspace;
  /** ioredis `keyPrefix` as given (applied to key arguments the way ioredis does). */
  keyPrefix: string | Buffer | undefined;
  /** The prefix as ioredis-mock's data applies it (string), for scripts and built-ins. */
  prefix: string;
  /** Key access for commands whose key arguments already carry the prefix. */
  db: Db;
  /** Key access that adds the prefix (Lua `redis.call`, like ioredis-mock's built-ins). */
  scriptDb: Db;
  /** Connection order: commands wait behind a blocked one. */
  queue: ClientQueue;
  /** Set by disconnect()/quit(), cleared by connect(): stream commands reject. */
  closed: boolean;
}

/**
 * Keyspace of each ioredis-mock context (one per host:port/db), found through the context's
 * data object: ioredis-mock replaces the context object itself (its `channels` setters, used
 * by `duplicate()`), but the copy keeps the same data object, which is ours.
 */
const keyspaces = new WeakMap<object, Keyspace>();
/** Every keyspace created, for the jest setup's reset. */
export const allKeyspaces = new Set<Keyspace>();

function keyspaceForContext(context: any): Keyspace {
  let ks = keyspaces.get(context.data);
  if (ks) return ks;
  const emitter = context.modifiedKeyEvents;
  // ioredis-mock adds one listener per client; many clients of one keyspace are normal in tests.
  emitter?.setMaxListeners?.(0);
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
  keyspaces.set(ks.store.data, ks);
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
  const full = (key: string) => prefix + storeKeyOfBytes(key);
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
    ...wholeKeyAccess(ks, full, Number(redis.options?.db ?? 0), (index) => {
      const other = clientOfDb(redis, index);
      return makeDb(keyspaceOf(other), prefix, other);
    }),
  };
}

/** A command error as ioredis delivers it: a ReplyError with `command: { name, args }`. */
function toClientError(err: unknown, argv?: string[]): unknown {
  if (!(err instanceof CommandError)) return err;
  // Redis never emits CR/LF inside an error line (networking.c addReplyErrorLength).
  const reply = new ReplyError(decodeBytes(err.message).replace(/[\r\n]/g, ' '));
  if (argv) Object.assign(reply, { command: { name: argv[0], args: argv.slice(1).map(decodeBytes) } });
  return reply;
}

function withCallback<T>(p: Promise<T>, cb: unknown): Promise<T> {
  if (typeof cb === 'function') p.then((r) => cb(null, r), (e) => cb(e));
  return p;
}

interface RunOptions {
  /** `…Buffer` twin: answer Buffers. */
  buffers: boolean;
}

/**
 * Execute one stream command for `redis`. Returns the encoded reply, or a promise for it when
 * the command blocks. Throws (a ReplyError) for error replies.
 */
function execute(redis: MockInstance, argv: string[], opts: RunOptions): unknown {
  const { keyspace: ks, db } = stateOf(redis);
  const enc = { buffers: opts.buffers, stringNumbers: Boolean(redis.options?.stringNumbers) };
  const makeCtx = (isRetry: boolean): CommandContext => ({
    now: ks.now(),
    version: ks.redisVersion,
    db,
    canBlock: !ks.inTransaction, // MULTI/EXEC and scripts answer nil instead of blocking
    isRetry,
  });
  let result: Reply | BlockRequest;
  try {
    result = dispatch(makeCtx(false), argv);
  } catch (err) {
    ks.blocking.flush();
    throw toClientError(err, argv);
  }
  ks.blocking.flush();
  if (!isBlockRequest(result)) return encodeReply(result, enc);
  const request = result;
  const promise = ks.blocking
    .block(redis, request.keys.map(storeKeyOfBytes), request, (req, key) =>
      req.retry(makeCtx(true), key === undefined ? undefined : toByteString(key)),
    )
    .then((reply) => encodeReply(reply, enc), (err) => Promise.reject(toClientError(err, argv)));
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

const CLOSED = () => new Error('Connection is closed.');

/**
 * Run a stream command from a method or `call()`: key arguments prefixed as ioredis would,
 * in connection order (behind a blocked call of the same client).
 */
function runAsPromise(redis: MockInstance, name: string, rawArgs: unknown[], buffers: boolean): Promise<unknown> {
  const st = stateOf(redis);
  if (st.closed) return Promise.reject(CLOSED());
  const argv = [name, ...applyKeyPrefix(name, flattenArgs(rawArgs), st.keyPrefix)].map(toByteString);
  return st.queue.submit(
    () => execute(redis, argv, { buffers }),
    (out) => out instanceof Promise,
  );
}

/** Run one command by name now: a stream command here, anything else through ioredis-mock. */
function callNow(redis: MockInstance, lower: string, name: unknown, cmdArgs: unknown[], buffers: boolean): Promise<unknown> {
  if (lookupCommand(lower)) return runAsPromise(redis, String(name), cmdArgs, buffers);
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

/** EXEC (run or aborted) unwatches every key of the connection, as in Redis. */
function unwatchAll(redis: MockInstance): void {
  redis.watching?.clear();
  redis.dirty = false;
}

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
    unwatchAll(redis);
    return withCallback(Promise.all(started), cb);
  }
  if (queued) {
    queued.push([lower, name, cmdArgs, buffers]);
    return ok('QUEUED');
  }
  return withCallback(callNow(redis, lower, name, cmdArgs, buffers), cb);
}

/** Run a stream command queued in a pipeline/MULTI (arguments flattened by ioredis-mock). */
function executeQueued(redis: MockInstance, name: string, args: unknown[], buffers: boolean): unknown {
  const st = stateOf(redis);
  if (st.closed) throw CLOSED();
  const argv = [name, ...applyKeyPrefix(name, args, st.keyPrefix)].map(toByteString);
  return execute(redis, argv, { buffers });
}

/**
 * The error Redis gives a command when MULTI queues it (server.c processCommand): unknown
 * command or wrong arity, for stream commands (ioredis-mock's own commands are not checked).
 */
function queueTimeError(redis: MockInstance, name: string, args: unknown[]): ReplyError | null {
  const lower = name.replace(/Buffer$/, '').toLowerCase();
  const st: InstanceState = stateOf(redis);
  const argv = [lower, ...flattenArgs(args)].map(toByteString);
  const spec = lookupCommand(lower);
  if (!spec) {
    return typeof redis[lower] === 'function' ? null : new ReplyError(errUnknownCommand(name, argv.slice(1).map(decodeBytes)));
  }
  try {
    dispatchCheckOnly(st.keyspace.redisVersion, argv);
    return null;
  } catch (err) {
    return toClientError(err) as ReplyError;
  }
}

/** Own methods of an ioredis-mock instance that are not commands of the connection. */
const NOT_QUEUED = new Set(['defineCommand', 'quit', 'quitBuffer', 'disconnect', 'connect', 'duplicate']);

function setUpInstance(redis: MockInstance, options: any): void {
  const streamsOptions = parseStreamsOptions(options?.streams);
  if (redis[STATE]) {
    if (streamsOptions) keyspaceOf(redis).configure(streamsOptions);
    return;
  }
  const ks = keyspaceForContext(redis.context);
  const keyPrefix: string | Buffer | undefined = options?.keyPrefix || undefined;
  const prefix = keyPrefix === undefined ? '' : String(keyPrefix);
  redis.expires = prefixedExpires(ks.store.expires, prefix);
  redis.data = prefixedData(ks.store.data, prefix, redis.expires);
  const state: InstanceState = {
    keyspace: ks,
    keyPrefix,
    prefix,
    db: makeDb(ks, '', redis),
    scriptDb: makeDb(ks, prefix, redis),
    queue: new ClientQueue(),
    closed: false,
  };
  redis[STATE] = state;
  if (streamsOptions) ks.configure(streamsOptions);

  // Key TTLs on the keyspace clock.
  installClockTtl(redis, ks, prefix);
  // ioredis-mock's own commands: in connection order, on the keyspace clock, WRONGTYPE for
  // stream keys, and blocked readers served right after each (they may delete or overwrite
  // a stream).
  for (const name of Object.keys(redis)) {
    const fn = redis[name];
    if (typeof fn !== 'function' || name.startsWith('_') || /Stream(Buffer)?$/.test(name)) continue;
    const run = (args: unknown[]) => {
      try {
        return withKeyspaceTime(ks, () => {
          guardStreamKeys(ks, name, args, prefix);
          return fixStreamReplies(ks, name, args, prefix, fn.apply(redis, args));
        });
      } finally {
        ks.blocking.flush();
      }
    };
    redis[name] = NOT_QUEUED.has(name)
      ? (...args: unknown[]) => {
          if (name === 'connect') state.closed = false;
          return run(args);
        }
      : (...args: unknown[]) => {
          const { args: rest, cb } = splitCallback(args);
          return withCallback(state.queue.submit(() => run(rest), () => false), cb);
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
        return executeQueued(this, spec.name, args, buffers);
      };
    }
  }
  redis.call = (...args: unknown[]) => genericCall(redis, false, args);
  redis.callBuffer = (...args: unknown[]) => genericCall(redis, true, args);
  installScripting(redis, { keyspace: ks, db: state.scriptDb, prefix });
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
    const st: InstanceState | undefined = this[STATE];
    if (st) {
      st.closed = true;
      st.keyspace.blocking.releaseClient(this, CLOSED());
      st.queue.rejectPending(CLOSED());
    }
    return origDisconnect.apply(this, args);
  };

  const origMulti = proto.multi;
  proto.multi = function multi(this: MockInstance, ...args: unknown[]) {
    const batch = origMulti.apply(this, args);
    batch.__streamsMulti = true;
    return batch;
  };

  const Pipeline = (RedisMock as MockClass).Pipeline;

  // Remember what each queued command is (for MULTI's queue-time errors), and give ioredis-mock's
  // own commands in pipelines the same keyspace clock and WRONGTYPE guard as the methods.
  const origCreate = Pipeline.prototype._createCommand;
  Pipeline.prototype._createCommand = function _createCommand(this: any, name: string, fn: Function) {
    if (Object.prototype.hasOwnProperty.call(this.redis?.customCommands ?? {}, name) && this.redis.customCommands[name] === fn) {
      return origCreate.call(this, name, fn);
    }
    const wrapped = function (this: MockInstance, ...args: unknown[]) {
      const st: InstanceState | undefined = this?.[STATE];
      if (!st) return fn.apply(this, args);
      return withKeyspaceTime(st.keyspace, () => {
        guardStreamKeys(st.keyspace, name, args, st.prefix);
        return fixStreamReplies(st.keyspace, name, args, st.prefix, fn.apply(this, args));
      });
    };
    return origCreate.call(this, name, wrapped);
  };
  const origAdd = Pipeline.prototype._addTransaction;
  Pipeline.prototype._addTransaction = function _addTransaction(this: any, emulator: unknown, name: string, args: unknown[], cb: unknown) {
    (this.__queued ??= []).push([name, args]);
    return origAdd.call(this, emulator, name, args, cb);
  };

  const origExec = Pipeline.prototype.exec;
  Pipeline.prototype.exec = function exec(this: any, callback?: unknown) {
    const st: InstanceState | undefined = this.redis[STATE];
    if (!st || this._isDirty()) return origExec.call(this, callback);
    const batch: (() => Promise<unknown>)[] = this.batch ?? [];
    const queued: [string, unknown[]][] = this.__queued ?? [];
    this.batch = [];
    this.__queued = [];
    const ks = st.keyspace;
    // ioredis answers [null, reply] for a reply and [err] (no second element) for an error
    const settle = (p: Promise<unknown>) => p.then((r) => [null, r], (e) => [e]);
    if (this.__streamsMulti) {
      // Queue-time errors (unknown command, wrong arity) discard the whole transaction.
      const previousErrors = queued.map(([name, args]) => queueTimeError(this.redis, name, args)).filter(Boolean);
      if (previousErrors.length) {
        const err = new ReplyError('EXECABORT Transaction discarded because of previous errors.');
        Object.assign(err, { previousErrors });
        return withCallback(Promise.reject(err), callback);
      }
      const redis = this.redis;
      const run = () => {
        const started = ks.atomically(() => withKeyspaceTime(ks, () => batch.map((cmd) => settle(cmd()))));
        unwatchAll(redis); // EXEC always ends every WATCH of the connection
        return Promise.all(started);
      };
      return withCallback(st.queue.submit(run, () => false), callback);
    }
    const run = async () => {
      const out: unknown[] = [];
      for (const cmd of batch) out.push(await settle(withKeyspaceTime(ks, cmd)));
      return out;
    };
    return withCallback(st.queue.submit(run, () => true), callback);
  };

  // ioredis's pipeline `call(name, …)`: an unknown command is queued and fails at exec time.
  const pipelineCall = (buffers: boolean) =>
    function call(this: any, name: string, ...args: unknown[]) {
      const lower = String(name).toLowerCase();
      if (lookupCommand(lower)) {
        // queued with the name as sent, which Redis echoes in its errors
        const flat = flattenArgs(args).map((a) => (Buffer.isBuffer(a) ? a : a === null || a === undefined ? '' : String(a)));
        const redis = this.redis;
        this._addTransaction((...a: unknown[]) => executeQueued(redis, String(name), a, buffers), String(name), flat, undefined);
        return this;
      }
      const fn = (buffers ? this[`${lower}Buffer`] : undefined) ?? this[lower];
      if (typeof fn === 'function' && !['call', 'callBuffer', 'exec', 'multi', 'pipeline'].includes(lower)) {
        return fn.apply(this, args);
      }
      const message = errUnknownCommand(String(name), flattenArgs(args).map(String)).replace(/[\r\n]/g, ' ');
      this._addTransaction(() => { throw new ReplyError(message); }, String(name), flattenArgs(args), undefined);
      return this;
    };
  Pipeline.prototype.call = pipelineCall(false);
  Pipeline.prototype.callBuffer = pipelineCall(true);
  return RedisMock;
}
