/**
 * `pipeline()` and `multi()` on the engine. ioredis-mock's Pipeline class is kept (its
 * constructor, `length`, `multi([...])`'s array form), but every command method lives on
 * `Pipeline.prototype` (no per-pipeline copies) and queues a plain entry; `exec()` runs the
 * entries on the client's connection, in connection order:
 * - a pipeline runs them one after another (a blocked command holds the rest back, as on a
 *   connection) and answers ioredis's `[err, reply]` pairs (`[err]` for an error);
 * - a `multi()` is sent as ioredis sends it: MULTI, the commands, EXEC, each answered by the
 *   connection as the server answers (queued, refused at queue time, or run at once: MULTI,
 *   EXEC, DISCARD, WATCH, RESET, QUIT), and read as ioredis reads them: EXEC's error with
 *   `previousErrors`, else its replies as pairs (null when a WATCHed key was modified); each
 *   command's callback gets its QUEUED; `pipeline().multi()…exec()` is the same inside a pipeline.
 * Commands queued with `call(name, …)` keep the name as sent (Redis echoes it in errors); an
 * unknown one fails at exec time.
 */
import { delivered } from './delivery';
import { hasClientTimeouts, withClientTimeouts } from './command-timeouts';
import { newAbortError, newReplyError } from './reply-error';
import { type Connection, refuseWhileBusy } from '../engine/connection';
import type { Emulator, EmulatorTable } from '../engine/emulators';
import { ErrorReply, type Reply } from '../reply/reply';
import { asCalledByName } from './builtin-replies';
import { decodeBytes } from './encoding';
import { installedIoredisAtLeast } from './command-table';
import { CommandError } from '../errors';
import { CONN, OFFLINE_QUEUE_DISABLED, autoConnect, closeInstance, closingByClient, deferUntilReady, isClosing, notSetUpError, recordedDb, settledAsClient, settledWhenClosed, whenClosed } from './lifecycle';
import { buildArgv, clientArgs, encoderOf, friendlyStack, heldReplyOf, isNoScript, popCallback, lostConnection, processArguments, resentWhenReady, runBuiltinNow, runShardSubscription, selectSent, subscribedPing, subscriberModeRefusal, toClientError, withCallback } from './methods';
import { MethodLayer } from './method-layer';
import { guarded, noteClosedUse } from './spin-guard';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Instance = any;
type Callback = (err: unknown, result?: unknown) => void;

interface Route {
  kind: 'stream' | 'builtin' | 'engine';
  emulator?: Emulator;
}

/** A command queued in a pipeline. */
interface Entry {
  kind: 'stream' | 'builtin' | 'engine' | 'script';
  /** Method name (builtins: with a `Buffer` suffix) or the name as sent (`call`). */
  name: string;
  /** Lower-case command name. */
  base: string;
  buffers: boolean;
  /** Raw arguments; for built-ins the processed ones (ioredis-mock processArguments). */
  args: unknown[];
  emulator?: Emulator;
  /** Scripts (`defineCommand`): `[EVAL or EVALSHA, ...arguments]` for the raw ones, as sent now. */
  scriptArgs?: (args: unknown[]) => unknown[];
  /** Scripts: the call is sent as that command (an EVAL loads the script on the connection). */
  scriptSent?: (command: string) => void;
  /** Scripts: a NOSCRIPT reply: the connection no longer has the script. */
  scriptForget?: () => void;
  /** A client-side failure while queueing (answered in place at exec). */
  error?: unknown;
  /**
   * A built-in queued with `call(name, …)`: the name as sent. ioredis looks its reply transformers
   * up by that exact name, so `call('HGETALL')` skips hgetall's (see `asCalledByName`).
   */
  calledAs?: string;
  cb?: Callback;
  /**
   * showFriendlyErrorStack: the stack where the command was queued (ioredis's Commander gives a
   * pipeline's commands `errorStack` as it gives a client's); its error reply gets those frames.
   */
  site?: string;
}

function encode(redis: Instance, conn: Connection, reply: Reply, buffers: boolean, name: string): unknown {
  return encoderOf(redis, conn, buffers, name)(reply);
}

/** argv of an engine-bound entry. */
function argvOf(redis: Instance, e: Entry): string[] {
  // keyPrefix on what ioredis's table marks as keys (EVALSHA: the script's KEYS)
  if (e.kind === 'script') {
    const [command, ...args] = e.scriptArgs!(e.args);
    return buildArgv(command as string, args, redis.options?.keyPrefix, true);
  }
  return buildArgv(e.name, e.args, redis.options?.keyPrefix, true);
}

/** argv of a built-in entry (processed arguments), keyPrefix applied as ioredis applies it. */
function builtinArgvOf(redis: Instance, e: Entry): string[] {
  return buildArgv(e.base, e.args, redis.options?.keyPrefix, true);
}

/** Run argv at the head of the connection (the pipeline holds it); encoded, or a promise. */
function runArgvNow(redis: Instance, conn: Connection, argv: string[], buffers: boolean): unknown {
  let out: Reply | Promise<Reply>;
  try {
    out = conn.run(argv);
  } catch (err) {
    throw toClientError(err, argv);
  }
  const name = decodeBytes(argv[0]);
  if (!(out instanceof Promise)) return encode(redis, conn, out, buffers, name);
  return out.then(
    (r) => encode(redis, conn, r, buffers, name),
    (err) => Promise.reject(toClientError(err, argv)),
  );
}

/** Run one entry now; returns its value (or a promise), throws its error. */
function runEntry(redis: Instance, conn: Connection, e: Entry): unknown {
  if (e.error !== undefined) throw e.error;
  if (conn.closed) {
    noteClosedUse(redis, e.base);
    throw new Error('Connection is closed.');
  }
  if (e.base === 'ping' && !conn.inMulti) {
    const pong = subscribedPing(redis, conn, e.args, e.buffers);
    if (pong !== null) return pong;
  }
  if (e.kind === 'builtin') {
    if (conn.inMulti) return runArgvNow(redis, conn, builtinArgvOf(redis, e), e.buffers);
    const value = runBuiltinNow(redis, conn, e.name, e.base, e.emulator!, e.args);
    const sent = e.calledAs;
    if (sent === undefined || sent === e.base) return value;
    const asCalled = (v: unknown) => asCalledByName(redis, e.base, sent, e.args, v, e.buffers);
    return value instanceof Promise ? value.then(asCalled) : asCalled(value);
  }
  const refused = subscriberModeRefusal(redis, conn, e.base.toLowerCase());
  if (refused !== null) throw refused;
  if (e.kind === 'script') return runScriptEntry(redis, conn, e);
  const lower = e.base.toLowerCase();
  if ((lower === 'ssubscribe' || lower === 'sunsubscribe') && !conn.inMulti) return runShardSubscription(redis, conn, argvOf(redis, e), lower);
  return runArgvNow(redis, conn, argvOf(redis, e), e.buffers);
}

/**
 * A defined command in a batch, as ioredis's Script sends it: EVAL the first time on the
 * connection, EVALSHA after; on NOSCRIPT outside MULTI the call is sent again (as EVAL) and the
 * batch answers with that; inside MULTI it is only queued (EXEC answers NOSCRIPT in its place).
 */
function runScriptEntry(redis: Instance, conn: Connection, e: Entry): unknown {
  const once = () => {
    const argv = argvOf(redis, e);
    e.scriptSent?.(decodeBytes(argv[0]));
    return runArgvNow(redis, conn, argv, e.buffers);
  };
  if (conn.inMulti) return once();
  const again = (err: unknown) => {
    if (!isNoScript(err)) throw err;
    e.scriptForget?.();
    return once();
  };
  let value: unknown;
  try {
    value = once();
  } catch (err) {
    return again(err);
  }
  return value instanceof Promise ? value.catch(again) : value;
}

/** ioredis's reply pair: `[null, reply]`, or `[err]` for an error; the entry's callback too. */
function settle(e: Entry, run: () => unknown): Promise<[unknown, unknown?]> {
  let p: Promise<unknown>;
  try {
    p = Promise.resolve(run());
  } catch (err) {
    p = Promise.reject(err);
  }
  if (e.site !== undefined) {
    const site = e.site;
    p = p.catch((err: unknown) => Promise.reject(friendlyStack(err, site)));
  }
  if (e.cb) withCallback(p, e.cb).catch(() => undefined);
  return p.then(
    (r) => [null, r],
    (err) => [err],
  );
}

/** `settle`, with the pair at once when `run` answers synchronously (no callback on the entry). */
function settleNow(e: Entry, run: () => unknown): [unknown, unknown?] | Promise<[unknown, unknown?]> {
  if (e.cb) return settle(e, run);
  try {
    const value = run();
    return value instanceof Promise ? settle(e, () => value) : [null, value];
  } catch (err) {
    return [e.site === undefined ? err : friendlyStack(err, e.site)];
  }
}

/**
 * A pipeline entry under the client's commandTimeout / blockingTimeout, its timers started now:
 * `answer` gives it the server's pair (later answers are ignored), `pair` is ioredis's pair, the
 * timed-out one if a timer fired first; the entry's callback gets that outcome.
 */
function timedEntry(redis: Instance, e: Entry): { answer: (pair: [unknown, unknown?]) => void; pair: Promise<[unknown, unknown?]> } {
  let answer!: (pair: [unknown, unknown?]) => void;
  const raw = new Promise<unknown>((resolve, reject) => {
    answer = (pair) => (pair.length === 1 ? reject(pair[0]) : resolve(pair[1]));
  });
  const value = withClientTimeouts(redis, e.kind === 'script' ? 'evalsha' : e.name, e.args, 0, raw);
  if (e.cb) withCallback(value, e.cb).catch(() => undefined);
  return { answer, pair: value.then((r) => [null, r] as [unknown, unknown?], (err) => [err] as [unknown, unknown?]) };
}

/** The reply transformer's name of an entry (ioredis picks transformers by the name as sent). */
function replyNameOf(e: Entry): string {
  if (e.kind === 'script') return 'evalsha';
  if (e.kind === 'builtin') return e.calledAs ?? e.base;
  return e.name;
}

/**
 * EXEC sent in a batch: its reply, each element of an array reply read by the command queued
 * right before EXEC in that place, as ioredis's Pipeline#fillResult does (the i-th of L elements
 * by the entry L - i before EXEC); an error element stays an error (no `command`).
 */
function runExecEntry(redis: Instance, conn: Connection, entries: Entry[], at: number): unknown {
  const e = entries[at];
  const argv = argvOf(redis, e);
  let out: Reply | Promise<Reply>;
  try {
    out = conn.run(argv);
  } catch (err) {
    throw toClientError(err, argv);
  }
  const read = (reply: Reply): unknown => {
    if (!Array.isArray(reply)) return encode(redis, conn, reply, e.buffers, 'exec');
    const n = reply.length;
    return reply.map((r: Reply, i: number) => {
      if (r instanceof ErrorReply) return newReplyError(decodeBytes(r.message).replace(/[\r\n]/g, ' '));
      const by = entries[at - (n - i)];
      try {
        return by === undefined ? encode(redis, conn, r, false, 'exec') : encode(redis, conn, r, by.buffers, replyNameOf(by));
      } catch (err) {
        return err;
      }
    });
  };
  if (!(out instanceof Promise)) return read(out);
  return out.then(read, (err) => Promise.reject(toClientError(err, argv)));
}

/**
 * A batch sent as the client sends it: each entry answered in turn, as the server answers it on
 * this connection (inside MULTI: QUEUED, or the refusal; MULTI, EXEC, DISCARD, WATCH, RESET as
 * the server runs them there). QUIT closes the client; what the batch sent after it is aborted
 * (ioredis 5 and 6: an AbortError "Command aborted due to connection close" with the command).
 */
function runSequence(redis: Instance, conn: Connection, entries: Entry[], onAnswer?: (i: number, pair: [unknown, unknown?]) => void): Pairs | Promise<Pairs> {
  // the connection's queue dropped meanwhile (a test ended while a command of the batch was
  // blocked): the rest of the batch is rejected as the client's close rejects it
  return continueSequence(redis, conn, entries, onAnswer, { out: [], aborted: false, drops: conn.queueDrops }, 0);
}

type Pairs = [unknown, unknown?][];

/**
 * runSequence from entry `from` on: the pairs at once while every entry answers at once (the
 * connection is then free for what was sent after the batch, as a server answers the whole batch
 * before it reads on: a disconnect() right after finds them all run), else a promise that holds
 * the connection until the last entry has answered.
 */
function continueSequence(redis: Instance, conn: Connection, entries: Entry[], onAnswer: ((i: number, pair: [unknown, unknown?]) => void) | undefined, state: { out: Pairs; aborted: boolean; drops: number }, from: number): Pairs | Promise<Pairs> {
  const out = state.out;
  for (let i = from; i < entries.length; i++) {
    const e = entries[i];
    const lower = e.base.toLowerCase();
    let run: () => unknown;
    if (state.aborted) {
      run = () => {
        throw newAbortError(sentCommandOf(redis, e));
      };
    } else if (conn.queueDrops !== state.drops) {
      run = () => {
        throw new Error(CLOSED_MESSAGE);
      };
    } else if (lower === 'exec' && e.error === undefined && e.kind !== 'builtin' && !conn.closed) {
      run = () => runExecEntry(redis, conn, entries, i);
    } else if (lower === 'quit' && e.error === undefined && !conn.closed) {
      run = () => {
        closingByClient(redis, conn);
        const value = runArgvNow(redis, conn, argvOf(redis, e), e.buffers);
        if (conn.closed && redis[CONN] === conn) closeInstance(redis);
        state.aborted = conn.closed;
        return value;
      };
    } else {
      run = () => runEntry(redis, conn, e);
    }
    if (conn.server.busyScript !== null && !state.aborted) {
      // another connection's script keeps the server busy (past busy-reply-threshold: the
      // sequence runs only then): each command refused with BUSY unless Redis runs it then
      const inner = run;
      run = () => {
        refuseBusy(redis, conn, e);
        return inner();
      };
    }
    // sent in one write: the replies of the entries before are not written yet (SCRIPT DEBUG)
    conn.repliesPending = i > 0;
    let pair: [unknown, unknown?] | Promise<[unknown, unknown?]>;
    try {
      pair = settleNow(e, run);
    } finally {
      conn.repliesPending = false;
    }
    if (pair instanceof Promise) {
      return pair.then((answered) => {
        out.push(answered);
        onAnswer?.(i, answered);
        return continueSequence(redis, conn, entries, onAnswer, state, i + 1);
      });
    }
    out.push(pair);
    onAnswer?.(i, pair);
  }
  return out;
}

/**
 * `result` of an exec() settled no earlier than the reply its client holds back at the call (a
 * command sent before that woke a blocked client: `heldReplyOf`), as a connection answers in
 * order. Taken when exec() is called, and waited for outside the connection's queue: a command
 * queued after the pipeline is never waited for by it.
 */
function afterEarlierReplies<T>(redis: Instance, result: Promise<T>): Promise<T> {
  const conn: Connection | undefined = redis?.[CONN];
  const before = conn === undefined ? undefined : heldReplyOf(conn);
  if (before === undefined) return result;
  return before.then(
    () => result,
    () => result,
  );
}

/** runSequence's check of an entry against a busy script (refuseWhileBusy), as the client's error. */
function refuseBusy(redis: Instance, conn: Connection, e: Entry): void {
  if (e.error !== undefined) return; // refused by the client before it is sent
  const argv = e.kind === 'builtin' ? builtinArgvOf(redis, e) : argvOf(redis, e);
  try {
    refuseWhileBusy(conn, argv);
  } catch (err) {
    throw toClientError(err, argv);
  }
}

/** An entry's command as ioredis keeps it on its errors (`{ name, args }`, keyPrefix applied). */
function sentCommandOf(redis: Instance, e: Entry): { name: string; args: unknown[] } {
  try {
    const argv = e.kind === 'builtin' ? builtinArgvOf(redis, e) : argvOf(redis, e);
    return { name: e.name, args: clientArgs(argv) };
  } catch {
    return { name: e.name, args: [] };
  }
}

/** ioredis's rejection of the commands of a closed client. */
const CLOSED_MESSAGE = 'Connection is closed.';

/** A control entry of a batch (MULTI / EXEC sent around a `multi()`'s commands). */
function controlEntry(name: string): Entry {
  return { kind: 'engine', name, base: name, buffers: false, args: [] };
}

/**
 * ioredis's `multi().exec()` answer from the batch's pairs: EXEC's error (its `previousErrors`
 * the errors before it), else EXEC's reply as `[null, reply]` / `[err]` pairs, null when WATCH failed.
 */
function unwrapTransaction(pairs: [unknown, unknown?][]): unknown {
  const [err, value] = pairs[pairs.length - 1];
  if (err) {
    const previousErrors = pairs.slice(0, -1).filter((p) => p[0]).map((p) => p[0]);
    if (err instanceof Error) Object.assign(err, { previousErrors });
    throw err;
  }
  if (!Array.isArray(value)) return value ?? null;
  return value.map((v) => (v instanceof Error ? [v] : [null, v]));
}

/**
 * A new `pipeline()` (`transaction` false) or `multi()` of client `redis`: an instance of
 * ioredis-mock's Pipeline class (`instanceof` holds), made without its constructor, which
 * parks the pipeline on the client and defines its own `length` (installPipeline defines
 * ioredis's).
 */
export function newPipeline(RedisMock: any, redis: Instance, transaction: boolean): any {
  const pipeline = Object.create(RedisMock.Pipeline.prototype);
  pipeline.batch = [];
  pipeline.redis = redis;
  pipeline._transactions = 0;
  if (transaction) pipeline.__streamsMulti = true;
  pipeline.copyCommands(); // the client's defineCommand scripts, as the constructor copies them
  return pipeline;
}

export function installPipeline(
  RedisMock: any,
  emulators: EmulatorTable,
  routes: ReadonlyMap<string, Route>,
  commandMethods: readonly string[],
): void {
  const Pipeline = RedisMock.Pipeline;
  if (!Pipeline) return;
  const pproto = Pipeline.prototype;

  const queue = (pipeline: any, e: Entry) => {
    if (pipeline.redis?.options?.showFriendlyErrorStack) e.site = new Error().stack ?? '';
    (pipeline.batch ??= []).push(e);
    pipeline._transactions = (pipeline._transactions ?? 0) + 1;
    return pipeline;
  };

  // ioredis's Pipeline#length, the length of its command queue (5.x and 6.x): a multi()'s MULTI
  // counts, and its EXEC once exec() has queued it; the commands stay counted after exec()
  Object.defineProperty(pproto, 'length', {
    configurable: true,
    get(this: any) {
      const multi = this.__streamsMulti === true ? 1 : 0;
      const sent: Entry[] | undefined = this.__streamsEntries;
      return multi + (sent?.length ?? 0) + (this.batch?.length ?? 0) + (sent !== undefined ? multi : 0);
    },
  });

  // ioredis's Pipeline keeps its client's options (`this.options = redis.options`, 5.x and 6.x)
  const OWN_OPTIONS = Symbol('ioredis-mock-streams.pipelineOptions');
  Object.defineProperty(pproto, 'options', {
    configurable: true,
    get(this: any) {
      return OWN_OPTIONS in this ? this[OWN_OPTIONS] : this.redis?.options;
    },
    set(this: any, value: unknown) {
      this[OWN_OPTIONS] = value;
    },
  });

  // ioredis's Pipeline marks itself (`isPipeline: true`; `isCluster`: its client's, false here)
  for (const [name, value] of [['isPipeline', true], ['isCluster', false]] as const) {
    if (!(name in pproto)) Object.defineProperty(pproto, name, { configurable: true, writable: true, value });
  }

  const layer = new MethodLayer(pproto); // one step for ~1500 methods (method-layer.ts)
  const define = (name: string, fn: unknown) => layer.define(name, fn);

  const builtinEntry = (name: string, emulator: Emulator, args: unknown[], cb?: Callback): Entry => {
    const base = name.endsWith('Buffer') ? name.slice(0, -'Buffer'.length) : name;
    const e: Entry = { kind: 'builtin', name, base, buffers: name.endsWith('Buffer'), args: [], emulator, cb };
    try {
      e.args = processArguments(args, base);
    } catch (err) {
      e.error = err;
    }
    return e;
  };

  // one method per command on the prototype
  for (const name of commandMethods) {
    const base = name.endsWith('Buffer') ? name.slice(0, -'Buffer'.length) : name;
    const buffers = name.endsWith('Buffer');
    const route = routes.get(base);
    const emulator = emulators[name];
    if (route?.kind === 'builtin' && typeof emulator === 'function') {
      define(name, function pipelineBuiltin(this: any, ...args: unknown[]) {
        const cb = popCallback(args);
        return queue(this, builtinEntry(name, emulator, args, cb));
      });
    } else if (base === 'select') {
      define(name, function pipelineSelect(this: any, ...args: unknown[]) {
        const cb = popCallback(args);
        this.__streamsSelects = true;
        return queue(this, { kind: 'engine', name: base, base, buffers, args, cb });
      });
    } else {
      const kind = route?.kind === 'stream' ? 'stream' : 'engine';
      define(name, function pipelineCommand(this: any, ...args: unknown[]) {
        const cb = popCallback(args);
        return queue(this, { kind, name: base, base, buffers, args, cb });
      });
    }
  }

  // ioredis's `pipeline.call(name, …)`: the name as sent
  for (const [method, buffers] of [['call', false], ['callBuffer', true]] as const) {
    define(method, function call(this: any, name: unknown, ...args: unknown[]) {
      const cb = popCallback(args);
      const sent = String(name);
      const base = sent.toLowerCase();
      const route = routes.get(base);
      if (route?.kind === 'builtin') {
        const emulator = (buffers ? emulators[`${base}Buffer`] : undefined) ?? route.emulator!;
        const e = builtinEntry(buffers ? `${base}Buffer` : base, emulator, args, cb);
        e.calledAs = sent;
        return queue(this, e);
      }
      if (base === 'select') this.__streamsSelects = true;
      return queue(this, { kind: route?.kind === 'stream' ? 'stream' : 'engine', name: sent, base, buffers, args, cb });
    });
  }

  // only the client's own scripts (defineCommand) are copied per pipeline
  define('copyCommands', function copyCommands(this: any) {
    const custom = this.redis?.customCommands ?? {};
    for (const name of Object.keys(custom)) this[name] = this._createCommand(name, custom[name]);
  });
  define('_createCommand', function _createCommand(this: any, name: string, command: any) {
    return (...args: unknown[]) => {
      const cb = popCallback(args);
      if (command && command.kind === 'script') {
        return queue(this, { kind: 'script', name, base: 'evalsha', buffers: name.endsWith('Buffer'), args, scriptArgs: command.toArgs, scriptSent: command.sent, scriptForget: command.forget, cb });
      }
      return queue(this, builtinEntry(name, command, args, cb));
    };
  });
  define('_addTransaction', function _addTransaction(this: any, emulator: Emulator, name: string, args: unknown[], cb?: Callback) {
    const base = name.endsWith('Buffer') ? name.slice(0, -'Buffer'.length) : name;
    return queue(this, { kind: 'builtin', name, base, buffers: name.endsWith('Buffer'), args, emulator, cb });
  });

  /**
   * Run now, or once the client is ready (ioredis's offline queue); `refused` without one.
   * `sent`: what ioredis records as it writes or queues the batch's commands (SELECT).
   */
  const whenReady = <T>(redis: any, name: string, run: () => Promise<T>, refused: () => Promise<T>, sent?: (held: boolean) => void, opensWithSelect = false, heldFailed?: (err: unknown) => Promise<T>): Promise<T> => {
    if (redis?.status === 'wait') autoConnect(redis, emulators);
    const status = redis?.status;
    if ((status === 'connecting' || status === 'connect' || status === 'reconnecting') && redis.options?.enableOfflineQueue === false) return refused();
    // held: ioredis's flush of its offline queue sends each command again (Redis#sendCommand
    // records each SELECT once more); it selects the db the batch was queued in first, unless
    // the batch's first command is itself a SELECT
    const held = deferUntilReady(redis, name, sent === undefined ? run : () => (sent(true), run()), false, { opensWithSelect, failed: heldFailed });
    sent?.(held !== null);
    return held ?? run();
  };

  /** The batch's first command is a SELECT ioredis records (see selectsSent). */
  const opensWithSelect = (entries: Entry[]): boolean => entries.length > 0 && entries[0].base === 'select' && entries[0].kind === 'engine' && entries[0].error === undefined;

  /**
   * The batch's SELECTs as ioredis records them when exec() writes or queues each command
   * (methods.ts selectSent): by the name as sent, whatever the server answers (a transaction
   * EXEC discards included); none when the client refuses them (closed, RESP2 subscriber mode,
   * monitoring).
   */
  const selectsSent = (redis: any, entries: Entry[]) => (held: boolean) => {
    if (!held) {
      const conn: Connection | undefined = redis?.[CONN];
      if (conn === undefined || conn.closed || subscriberModeRefusal(redis, conn, 'select') !== null) return;
    }
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e.base === 'select' && e.kind === 'engine' && e.error === undefined) selectSent(redis, e.name, e.args);
    }
  };

  const closedPairs = (entries: Entry[], err: Error) => entries.map((e) => settle(e, () => Promise.reject(err)));

  /**
   * A transaction in the queue ioredis flushes when the client closes: MULTI, each command (their
   * callbacks get it) and EXEC rejected with one error `err`, the exec()'s; its previousErrors
   * that error once per command before EXEC (5.11.1, 6.0.0; 6.1 leaves out the errors that are
   * EXEC's own: none).
   */
  const closedTransaction = (entries: Entry[], err: Error): Promise<never> => {
    void Promise.all(closedPairs(entries, err));
    return Promise.reject(Object.assign(err, { previousErrors: installedIoredisAtLeast(6, 1) ? [] : [err, ...entries.map(() => err)] }));
  };

  /**
   * A transaction ioredis refuses command by command (sent before `ready` with
   * `enableOfflineQueue: false`, or once the client has ended): MULTI, each command (their
   * callbacks get their error) and EXEC each with an error of its own; the exec() rejects with
   * EXEC's, its previousErrors the others (5.11.1, 6.0.0, 6.1.0).
   */
  const refusedTransaction = (entries: Entry[], message = OFFLINE_QUEUE_DISABLED): Promise<never> => {
    const refusal = () => new Error(message);
    const errors = [refusal(), ...entries.map(refusal)];
    void Promise.all(entries.map((e, i) => settle(e, () => Promise.reject(errors[i + 1]))));
    return Promise.reject(Object.assign(refusal(), { previousErrors: errors }));
  };

  // ioredis's Pipeline#multi: MULTI queued in the batch; the next exec() queues EXEC (and
  // returns the pipeline) instead of sending the batch
  define('multi', function multi(this: any, ...args: unknown[]) {
    const cb = popCallback(args);
    this.__streamsOpen = (this.__streamsOpen ?? 0) + 1;
    return queue(this, { kind: 'engine', name: 'multi', base: 'multi', buffers: false, args, cb });
  });

  define('exec', function exec(this: any, callback?: Callback) {
    if ((this.__streamsOpen ?? 0) > 0 && !this.__streamsExecuted) {
      this.__streamsOpen -= 1;
      const cb = typeof callback === 'function' ? callback : undefined;
      queue(this, { kind: 'engine', name: 'exec', base: 'exec', buffers: false, args: [], cb });
      // multi() inside a multi(): ioredis's transaction exec (transaction.js) queues EXEC for
      // the inner one, then calls the pipeline's exec for its own, which queues a second EXEC and
      // returns the pipeline, not a promise: it throws this TypeError (ioredis 5 and 6)
      if (this.__streamsMulti) {
        this.__streamsOpen = Math.max(0, this.__streamsOpen - 1);
        queue(this, { kind: 'engine', name: 'exec', base: 'exec', buffers: false, args: [], cb: undefined });
        throw new TypeError('exec.call(...).then is not a function');
      }
      return this;
    }
    // exec() again: ioredis sends the batch again (`resend`) but answers from the first run; a
    // multi() pipeline then shows its raw replies — MULTI's, each command's (QUEUED or its
    // refusal), EXEC's
    const first: Promise<unknown> | undefined = this.__streamsExecuted;
    if (first) {
      resend(this);
      const raw = () => this.__streamsRaw ?? first;
      const again = this.__streamsMulti ? first.then(raw, raw) : first;
      return withCallback(again, callback);
    }
    // a QUIT in the batch, or a client disconnect() is closing: what the close rejects comes after it
    // (settledAsClient: a rejection the test setup's end-of-test close caused is no unhandled one)
    const result = settledAsClient(delivered(closesClient(this) ? settledWhenClosed(this.redis, runExec.call(this)) : runExec.call(this)));
    this.__streamsExecuted = result;
    return withCallback(result, callback);
  });

  /**
   * exec() again: ioredis 5 and 6 send the batch again (MULTI and EXEC around a `multi()`'s) and
   * answer from the first run; the new replies go nowhere (callbacks do not fire again).
   */
  function resend(pipeline: any): void {
    const entries: Entry[] | undefined = pipeline.__streamsEntries;
    const redis = pipeline.redis;
    const conn: Connection | undefined = redis?.[CONN];
    if (!entries || !conn || conn.closed || redis.status !== 'ready') return;
    const plain = entries.map((e) => ({ ...e, cb: undefined }));
    if (!pipeline.__streamsMulti && plain.length === 0) return;
    const seq = pipeline.__streamsMulti ? [controlEntry('multi'), ...plain, controlEntry('exec')] : plain;
    conn.enqueue(() => runSequence(redis, conn, seq), true).catch(() => undefined);
  }

  function closesClient(pipeline: any): boolean {
    return isClosing(pipeline.redis) || hasQuit(pipeline.batch ?? []);
  }

  /** A QUIT among the entries (any casing). */
  function hasQuit(entries: Entry[]): boolean {
    for (let i = 0; i < entries.length; i++) {
      const base = entries[i].base;
      if (base.length === 4 && base.toLowerCase() === 'quit') return true;
    }
    return false;
  }

  function runExec(this: any): Promise<unknown> {
    const redis = this.redis;
    let conn: Connection | undefined = redis?.[CONN];
    const entries: Entry[] = this.batch ?? [];
    this.batch = [];
    this.__streamsEntries = entries;
    // the db the client records as the batch is sent (before its own SELECTs): a resend selects it
    const sentInDb = recordedDb(redis);
    const sent = this.__streamsSelects === true ? selectsSent(redis, entries) : undefined;
    if (redis?.batch === this) redis.batch = undefined;
    if (!conn) return Promise.reject(notSetUpError());
    // a QUIT in the batch marks the client as closing itself as the batch is written (ioredis's
    // manuallyClosing): a connection the server closes before the QUIT ran ends the client
    if (redis.status === 'ready' && !conn.closed && hasQuit(entries)) closingByClient(redis, conn);
    // held for `ready`: the connection of that time (a reconnection makes a new one)
    const current = (): Connection => (conn = redis[CONN] as Connection);
    // the batch in the connection's order; one still waiting behind a blocked call when the
    // connection is lost is sent again once reconnected, as ioredis resends its unfulfilled commands
    // (a batch not resent rejects once the client has closed, with status `end`, as ioredis's
    // close handler flushes its queue: `flushed` makes that rejection)
    const send =
      <T>(run: () => T | Promise<T>, flushed: (err: unknown) => Promise<T> = (err) => Promise.reject(err)) =>
      (): Promise<T> => {
        const on = current();
        let started = false;
        const start = () => {
          started = true;
          return run();
        };
        return on.enqueue(start, true).catch((err: unknown) => {
          if (started) return Promise.reject(err);
          // resent as often as the connection is lost before the batch runs
          return resentWhenReady(redis, on, 'exec', err, sentInDb, () => send(run, flushed)()) ?? (lostConnection(on, err) ? whenClosed(redis).then(() => flushed(err)) : Promise.reject(err));
        });
      };
    if (this.__streamsMulti) {
      // flushed with the client's queue (held for `ready`, or behind a blocked call): ioredis's transaction error
      const flushedTransaction = (err: unknown): Promise<never> =>
        err instanceof Error && err.message === CLOSED_MESSAGE && !('previousErrors' in err) && !(err instanceof CommandError) ? closedTransaction(entries, err) : Promise.reject(err);
      // EXEC's own error (EXECABORT) gets the stack of exec()'s caller, as ioredis's EXEC command
      // made there; the errors inside EXEC's reply keep the library's (ioredis: its decoder's)
      const execEntry = controlEntry('exec');
      if (redis?.options?.showFriendlyErrorStack) execEntry.site = new Error().stack ?? '';
      const run = () => {
        const conn = current();
        if (conn.closed) {
          // it rejects, where a plain pipeline resolves with the errors. Sent while the client
          // closes (right after quit()/disconnect()), ioredis's flushQueue rejects MULTI, each
          // command (their callbacks get the error) and EXEC with one error, the exec()'s, its
          // previousErrors that error once per command before EXEC (5.11.1, 6.0.0; 6.1 leaves out
          // the errors that are EXEC's own: none); once it has ended, each is refused with an
          // error of its own
          if (redis?.status === 'end') return refusedTransaction(entries, CLOSED_MESSAGE);
          return closedTransaction(entries, new Error(CLOSED_MESSAGE));
        }
        // RESP2 subscriber mode: ioredis refuses the MULTI itself, so the whole exec rejects
        const refused = subscriberModeRefusal(redis, conn, 'multi');
        if (refused !== null) throw refused;
        // sent as ioredis sends it: MULTI, the commands, EXEC, each answered as the server answers
        // (queued, refused at queue time, or run at once: MULTI, EXEC, DISCARD, WATCH, RESET, QUIT)
        const answered = (pairs: Pairs) => {
          this.__streamsRaw = pairs;
          return unwrapTransaction(pairs);
        };
        const pairs = runSequence(redis, conn, [controlEntry('multi'), ...entries, execEntry]);
        return pairs instanceof Promise ? pairs.then(answered) : answered(pairs);
      };
      // one exec is one command for the spin guard (a loop of pipelines must let the event loop turn too);
      // commandTimeout: the exec rejects with 'Command timed out' when the transaction is not
      // answered in time (held behind a blocked call, CLIENT PAUSE), as ioredis's
      return withClientTimeouts(
        redis,
        'exec',
        [],
        0,
        afterEarlierReplies(
          redis,
          guarded(redis, () => whenReady(redis, 'exec', send(run, flushedTransaction), () => refusedTransaction(entries), sent, false, flushedTransaction)),
        ),
      );
    }
    // The entries run one after the other as the server reads them, without a turn in between
    // unless one answers later (a blocked call): they were all sent with exec(), so a
    // disconnect() right after it finds them run, as a real server answers the whole batch
    // before it sees the connection end (ioredis 5 and 6 then deliver every reply).
    // commandTimeout / blockingTimeout: each command's timers start with exec() (ioredis sends
    // them all then); the pipeline answers once every command is answered or timed out, while the
    // commands themselves keep the connection until the server has answered them
    const timed = hasClientTimeouts(redis) ? entries.map((e) => timedEntry(redis, e)) : null;
    const plain = timed === null ? entries : entries.map((e) => (e.cb === undefined ? e : { ...e, cb: undefined }));
    const run = () => runSequence(redis, current(), plain, timed === null ? undefined : (i, pair) => timed[i].answer(pair));
    // one exec is one command for the spin guard (a loop of pipelines must let the event loop turn
    // too); a pipeline sent before `ready` with enableOfflineQueue false: each command gets the error;
    // one held for `ready` when the client disconnects: each command gets "Connection is closed."
    // (ioredis flushes its offline queue command by command: exec resolves with the errors)
    const all = afterEarlierReplies(
      redis,
      guarded(redis, () =>
        whenReady(redis, 'exec', send(run), () => Promise.all(closedPairs(plain, new Error(OFFLINE_QUEUE_DISABLED))), sent, opensWithSelect(entries)).catch(
          (err: unknown) => Promise.all(closedPairs(plain, err instanceof Error ? err : new Error(String(err)))),
        ),
      ),
    );
    if (timed === null) return all;
    all.then((pairs) => pairs.forEach((pair, i) => timed[i].answer(pair)));
    return Promise.all(timed.map((t) => t.pair));
  }
  layer.commit();
}
