/**
 * The command methods of the fake client, defined once on the prototype (no per-instance
 * closures): each reads the instance's engine `Connection` (lifecycle.ts `CONN`).
 *
 * - Stream commands (`xadd`, `xreadgroupBuffer` …): arguments flattened as ioredis does, key
 *   arguments prefixed as ioredis's command table says, bytes to the engine, the typed reply
 *   encoded as ioredis delivers RESP2 (strings or Buffers, numbers, arrays).
 * - ioredis-mock's built-ins (`get`, `hgetall` …): its thin `command()` wrapper re-implemented
 *   (lib/index.js 8.13.1: callback, argument transformers, subscriber/offline checks, reply
 *   transformers) around the raw emulator run with `this` = the instance, plus the keyspace
 *   clock, Redis's arity and WRONGTYPE on streams (builtins.ts).
 * - Connection commands (`select`, `client`, `hello`, `watch`, `quit`, `eval` …), the clock's
 *   TTL family and every other Redis command: through the engine.
 * Every path runs in connection order (behind a blocked call of the same client), rejects
 * with "Connection is closed." once closed, answers error replies as ioredis's `ReplyError`
 * and never throws synchronously. While `MULTI` (sent through `call()`) is open, every command
 * goes to the engine and answers `QUEUED`.
 */
import { performance } from 'perf_hooks';
import { dirname } from 'path';
import { newReplyError } from './reply-error';
import { CommandError } from '../errors';
import { type Connection, type StreamLane, connectionClosedError, streamLane } from '../engine/connection';
import type { Emulator, EmulatorTable } from '../engine/emulators';
import { ErrorReply, PushReply, type Reply } from '../reply/reply';
import { runBuiltin } from '../engine/emulated/builtins';
import { callWithinLimit } from '../engine/emulated/large-args';
import { type SpinVerdict, noteClosedUse, spinCheck } from './spin-guard';
import { decodeBytes, numberArg, toByteString } from './encoding';
import { isAscii, utf8Of } from '../bytes';
import { decodeReplyFor, encodeReplyFor, transformerContext } from './ioredis-reply';
import { userArgumentTransformer, userReplyTransformer } from './user-transformers';
import { mendBuiltinReply } from './builtin-replies';
import { installedIoredisAtLeast, installedIoredisMajor, ioredisMajorKnown, privateIoredisModule } from './command-table';
import { applyKeyPrefix } from './keys';
import { errorCommandArgs } from './redact';
import { CONN, autoConnect, closeInstance, closingByClient, deferUntilReady, flushedByLoss, notSetUpError, quitAnsweredWhileClosing, settledAsClient, quitSent, recordedDb, rejectedOnceClosed, rejectedWhenClosed, selectAsIoredis61, selectNoted } from './lifecycle';
import { delivered, macrotaskTiming } from './delivery';
import { withClientTimeouts } from './command-timeouts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Instance = any;
type Callback = (err: unknown, result?: unknown) => void;


/**
 * ioredis's node-style callback on a command promise, as its `standard-as-callback` attaches it:
 * only a function is called (`exec(true)`, `exec(null)`: the promise alone); `(null)` for an
 * undefined result, `(null, result)` otherwise; a falsy rejection reason wrapped in an Error (its
 * `cause`); a callback that throws rethrows from a `setTimeout` (an uncaught exception, not an
 * unhandled rejection).
 */
export function withCallback<T>(p: Promise<T>, cb: Callback | undefined): Promise<T> {
  if (typeof cb !== 'function') return p;
  p.then(
    (r) => callBack(cb, r === undefined ? [null] : [null, r]),
    (e: unknown) => callBack(cb, [e ? e : Object.assign(new Error(`${e}`), { cause: e })]),
  );
  return p;
}

/** The package's files (dist/): frames ioredis's showFriendlyErrorStack leaves out, as it leaves out its own. */
const PACKAGE_DIR = dirname(__dirname);

/**
 * ioredis's `showFriendlyErrorStack` (Commander: `errorStack: new Error()` when the method is
 * called; Command: `optimizeErrorStack`): an error reply's stack becomes the caller's, from the
 * first frame outside the package. Called synchronously inside the method; `reply` as it is
 * without the option.
 */
function withFriendlyStack<T>(redis: Instance, reply: Promise<T>): Promise<T> {
  if (!redis?.options?.showFriendlyErrorStack) return reply;
  const site = new Error().stack ?? '';
  return reply.catch((err: unknown) => Promise.reject(friendlyStack(err, site)));
}

/**
 * ioredis's optimizeErrorStack: `err` (an Error) gets the frames of `site` (a stack taken where
 * the command was called) from the first one outside the package; returns `err`.
 */
export function friendlyStack(err: unknown, site: string): unknown {
  if (err instanceof Error && typeof err.stack === 'string') {
    const frames = site.split('\n');
    let i = 1;
    while (i < frames.length && frames[i].includes(PACKAGE_DIR)) i++;
    err.stack = err.stack.slice(0, Math.max(0, err.stack.indexOf('\n'))) + frames.slice(i).map((f) => `\n${f}`).join('');
  }
  return err;
}

/**
 * A method's reply as ioredis hands it back: its client timeouts (commandTimeout,
 * blockingTimeout: `withClientTimeouts`, `args` from index `from`), the delivery timing,
 * showFriendlyErrorStack, then the node-style callback when one was given. Called synchronously
 * inside the method (the friendly stack is the caller's).
 */
export function answered(redis: Instance, name: unknown, args: readonly unknown[], from: number, reply: Promise<unknown>, cb: Callback | undefined): Promise<unknown> {
  return withCallback(withFriendlyStack(redis, delivered(withClientTimeouts(redis, name, args, from, reply))), cb);
}

function callBack(cb: Callback, args: [unknown, unknown?]): void {
  try {
    (cb as (...a: unknown[]) => void)(...args);
  } catch (err) {
    setTimeout(() => {
      throw err;
    }, 0);
  }
}

/** A NOSCRIPT error reply (ioredis's Script resends the call on one). */
export function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.includes('NOSCRIPT');
}

/** Take a trailing callback off `args` (mutates it, as ioredis-mock does). */
export function popCallback(args: unknown[]): Callback | undefined {
  const last = args.length - 1;
  if (last >= 0 && typeof args[last] === 'function') {
    const cb = args[last] as Callback;
    args.length = last;
    return cb;
  }
  return undefined;
}

/**
 * The encoder of a reply for this client, as the installed ioredis delivers it: its
 * `protocol` / `replyMapping` / `stringNumbers`, the protocol the connection now speaks (HELLO),
 * a `…Buffer` method or not, and the command name as sent (ioredis picks its reply transformers
 * by that exact name: `call('XREADGROUP')` differs from `xreadgroup()` on RESP3).
 */
export function encoderOf(redis: Instance, conn: Connection | undefined, buffers: boolean, name: string): (reply: Reply) => unknown {
  return (reply) => encodeFor(redis, conn, buffers, name, reply);
}

/**
 * `encoderOf(redis, conn, buffers, name)(reply)` without the closure. The protocol is read when
 * the reply arrives: HELLO's own reply comes in the new protocol.
 */
export function encodeFor(redis: Instance, conn: Connection | undefined, buffers: boolean, name: string, reply: Reply): unknown {
  const wire = conn?.protocol;
  if (wire === 3 && (ioredisMajorKnown || installedIoredisMajor()) === 5) {
    // ioredis 5 cannot read RESP3: its parser fails on the reply, and the reconnect it then
    // makes speaks RESP2 again
    conn!.setProtocol(2);
    throw new Error('Protocol error, got "%" as reply type byte. Please report this.');
  }
  const user = userReplyTransformer(name);
  if (user === undefined || reply instanceof ErrorReply) return encodeReplyFor(redis.options, buffers, name, wire, reply);
  // the user's reply transformer gets what ioredis's built-in one would (and the context ioredis 6 passes)
  const value = decodeReplyFor(redis.options, buffers, wire, reply);
  return installedIoredisMajor() === 5 ? user(value) : user(value, transformerContext(redis.options, name));
}

/** A command error as ioredis delivers it: a ReplyError with `command: { name, args }`. */
export function toClientError(err: unknown, argv?: string[]): unknown {
  if (!(err instanceof CommandError)) return err;
  // Redis never emits CR/LF inside an error line (networking.c addReplyErrorLength).
  const reply = newReplyError(decodeBytes(err.message).replace(/[\r\n]/g, ' '));
  if (argv) {
    const name = decodeBytes(argv[0]);
    Object.assign(reply, { command: { name, args: errorCommandArgs(name, clientArgs(argv)) } });
  }
  return reply;
}

/** An argv's arguments as ioredis's `err.command.args` holds them: text, or the caller's Buffer. */
export function clientArgs(argv: string[]): unknown[] {
  const given = givenArgs.get(argv);
  const out = new Array<unknown>(argv.length - 1);
  for (let i = 1; i < argv.length; i++) {
    const g = given?.[i - 1];
    out[i - 1] = g !== undefined && Buffer.isBuffer(g) ? g : decodeBytes(argv[i]);
  }
  return out;
}

/** The connection, or the reason a command cannot run (never throws). */
function usableConnection(redis: Instance, emulators: EmulatorTable, name: string): Connection | Error {
  const conn: Connection | undefined = redis?.[CONN];
  if (conn === undefined) return notSetUpError();
  if (redis.status === 'wait') autoConnect(redis, emulators);
  const live: Connection = redis[CONN];
  if (live.closed) {
    noteClosedUse(redis, name);
    return connectionClosedError();
  }
  return live;
}

const SUBSCRIBER_ERROR = 'Connection in subscriber mode, only subscriber commands may be used';
/** Commands ioredis allows in subscriber mode (Command.ts FLAGS.VALID_IN_SUBSCRIBER_MODE, 5 and 6). */
const SUBSCRIBER_COMMANDS = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe', 'ping', 'quit']);

/**
 * Whether ioredis refuses other commands now: a subscribed client on a RESP2 connection (ioredis
 * 5, or ioredis 6 with `protocol: 2`). Under RESP3 pub/sub messages are push frames, so ioredis 6
 * lets a subscribed client send any command (utils isResp2SubscriberMode).
 */
function inResp2SubscriberMode(redis: Instance, conn: Connection | undefined): boolean {
  if (!redis.subscriberMode) return false;
  const live: Connection | undefined = conn ?? redis[CONN];
  return live === undefined || live.protocol === 2;
}

/**
 * ioredis's `redis.mode`: "monitor" for a MONITOR client, "subscriber" while it refuses other
 * commands (RESP2 subscriber mode), else "normal".
 */
export function clientMode(redis: Instance): 'normal' | 'subscriber' | 'monitor' {
  if (redis.options?.monitor || redis.status === 'monitoring') return 'monitor';
  return inResp2SubscriberMode(redis, undefined) ? 'subscriber' : 'normal';
}

/**
 * The error ioredis gives a command sent in RESP2 subscriber mode that is not a subscriber
 * command (`base`: its lower-case name), or null: pipelines and `multi()` check each command as
 * the single methods do (ioredis's sendCommand refuses it before it is written).
 */
export function subscriberModeRefusal(redis: Instance, conn: Connection, base: string): Error | null {
  if (redis?.status === 'monitoring') return MONITOR_COMMANDS.has(base) ? null : new Error(MONITORING_ERROR);
  return !SUBSCRIBER_COMMANDS.has(base) && inResp2SubscriberMode(redis, conn) ? new Error(SUBSCRIBER_ERROR) : null;
}

/**
 * ioredis's monitor client (status `monitoring`, from `redis.monitor()`) refuses every command
 * but MONITOR and AUTH before writing it (event_handler.js readyHandler, Command.ts FLAGS
 * VALID_IN_MONITOR_MODE; the same in 5.11.1 and 6.0.0): single commands, pipelines (each
 * command's pair) and `multi()` (the whole exec) reject with this plain Error.
 */
const MONITORING_ERROR = "Connection is in monitoring mode, can't process commands.";
const MONITOR_COMMANDS = new Set(['monitor', 'auth']);

function isArgsFlat(args: unknown[]): boolean {
  for (let i = 0; i < args.length; i++) if (Array.isArray(args[i])) return false;
  return true;
}

/** ioredis's flattening: arrays spread one level (iteratively: no argument-count limit). */
export function flatten(args: unknown[]): unknown[] {
  if (isArgsFlat(args)) return args;
  const out: unknown[] = [];
  for (const a of args) {
    if (Array.isArray(a)) for (const x of a) out.push(x);
    else out.push(a);
  }
  return out;
}

/** argv bytes of a command as ioredis sends it (key prefix applied when `prefixKeys`). */
export function buildArgv(name: string, args: unknown[], keyPrefix: unknown, prefixKeys: boolean): string[] {
  let flat = flatten(args);
  // ioredis's argument transformer for the name as sent (hset/hmset/mset/msetnx with an object
  // or Map): methods use the lower-case name; `call('HSET', {…})` is not transformed, as in ioredis
  const user = userArgumentTransformer(name);
  if (user !== undefined) flat = user(flat === args ? args.slice() : flat) as unknown[];
  else if (ARGUMENT_TRANSFORMED.has(name)) flat = ioredisTransformers().argument[name]!(flat) as unknown[];
  if (prefixKeys && keyPrefix) flat = applyKeyPrefix(name, flat, keyPrefix as string | Buffer);
  return argvOf(name, flat);
}

/**
 * The arguments as the caller gave them, for an argv that had a Buffer among them: ioredis's
 * `err.command.args` holds a Buffer argument as that Buffer (numbers become strings), and
 * toClientError gives it back so.
 */
const givenArgs = new WeakMap<readonly unknown[], readonly unknown[]>();

/** argv of `name` and the (flattened, transformed, prefixed) arguments as byte strings. */
function argvOf(name: string, args: readonly unknown[]): string[] {
  const argv = new Array<string>(args.length + 1);
  argv[0] = toByteString(name); // the name's bytes too: call('ű') is sent as UTF-8, as ioredis writes it
  let buffers = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a === 'object' && a !== null && Buffer.isBuffer(a)) buffers = true;
    argv[i + 1] = toByteString(a);
  }
  if (buffers) givenArgs.set(argv, args);
  return argv;
}

/**
 * Run argv on the connection in order and encode the reply for ioredis. Synchronous until the
 * final promise when the connection is ready and the command does not block.
 */
export function executeArgv(redis: Instance, conn: Connection, argv: string[], buffers: boolean): Promise<unknown> {
  if (conn.ready) {
    const served = conn.ks.blocking.served;
    let out: Reply | Promise<Reply>;
    try {
      out = conn.runReady(argv);
    } catch (err) {
      return Promise.reject(toClientError(err, argv));
    }
    const reply = inOrder(conn, answer(redis, conn, argv, buffers, decodeBytes(argv[0]), out));
    return conn.ks.blocking.served === served ? reply : afterWoken(conn, reply);
  }
  const encode = encoderOf(redis, conn, buffers, decodeBytes(argv[0]));
  const sentInDb = recordedDb(redis);
  const later = conn.execute(argv).then(
    (r) => encode(r),
    (err) => resentAfterLoss(redis, conn, argv, buffers, err, sentInDb),
  );
  // an error nobody handles is an unhandled rejection, as with ioredis (settledAsClient)
  return inOrder(conn, settledAsClient(later));
}

/**
 * A command the server's close of the connection interrupted (a blocked read, or one waiting
 * behind it): ioredis keeps it (prevCommandQueue) and sends it again once reconnected
 * (`autoResendUnfulfilledCommands`, default true), in the db it was sent in. Other errors, a
 * client that is not reconnecting (disconnect(), quit(), no retryStrategy), or a connection its
 * server's SHUTDOWN closed (README: its callers reject with `Connection is closed.`) reject as they are.
 * A rejection handler: an error reply is thrown, not returned as a rejected promise, so the call
 * settles in the same microtask as a reply would (two turns later, a command the client sent after
 * it — CLIENT UNBLOCK … ERROR, then PING — settled first, where a server's reply comes in order).
 */
function resentAfterLoss(redis: Instance, conn: Connection, argv: string[], buffers: boolean, err: unknown, sentInDb: number | undefined): Promise<unknown> {
  const again = resentWhenReady(redis, conn, decodeBytes(argv[0]), err, sentInDb, (live) => executeArgv(redis, live, argv, buffers));
  if (again !== null) return again;
  if (lostConnection(conn, err)) return rejectedOnceClosed(redis, toClientError(err, argv));
  throw toClientError(err, argv);
}

/** `err` is the close of `conn` by its server or the client (not an error reply, not SHUTDOWN's close). */
export function lostConnection(conn: Connection, err: unknown): boolean {
  // (not after SHUTDOWN: the server that would answer them is gone, whatever answers the port next)
  return err instanceof Error && err.message === 'Connection is closed.' && conn.closed && !conn.closedByShutdown && !(err instanceof CommandError);
}

/**
 * What the loss of `conn` interrupted (`err`), sent again with `send` on the client's next
 * connection once it is ready, when ioredis would resend it (reconnecting, and
 * `autoResendUnfulfilledCommands` not false): a command, or a pipeline or transaction that was
 * waiting behind a blocked call. Null when it is not resent; rejected with ioredis's
 * MaxRetriesPerRequestError when the loss flushed the client's command queue (flushedByLoss).
 */
export function resentWhenReady<T>(redis: Instance, conn: Connection, name: string, err: unknown, sentInDb: number | undefined, send: (live: Connection) => Promise<T>): Promise<T> | null {
  const status = redis?.status;
  if (!lostConnection(conn, err)) return null;
  const flushed = flushedByLoss(conn);
  if (flushed !== undefined) return Promise.reject(flushed);
  if (redis.options?.autoResendUnfulfilledCommands === false || (status !== 'reconnecting' && status !== 'connecting' && status !== 'connect')) return null;
  const again = () => {
    const live: Connection = redis[CONN];
    return live.closed ? Promise.reject(connectionClosedError()) : send(live);
  };
  // in the db the client had selected when it sent it (ioredis selects it first when it differs)
  return deferUntilReady(redis, name, again, false, { sentInDb: sentInDb ?? recordedDb(redis) ?? 0 });
}

/**
 * What a command run now answers the ioredis client: its reply encoded (`name` as sent), or,
 * when it blocked, the reply encoded once it is served.
 */
function answer(redis: Instance, conn: Connection, argv: string[], buffers: boolean, name: string, out: Reply | Promise<Reply>): Promise<unknown> {
  if (out instanceof Promise) return blockedReply(redis, conn, argv, buffers, out);
  try {
    return Promise.resolve(encodeFor(redis, conn, buffers, name, out));
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The reply of a blocked command, encoded for ioredis when it is served. */
function blockedReply(redis: Instance, conn: Connection, argv: string[], buffers: boolean, out: Promise<Reply>): Promise<unknown> {
  const encode = encoderOf(redis, conn, buffers, decodeBytes(argv[0]));
  const sentInDb = recordedDb(redis);
  const blocked = out.then(
    (r) => encode(r),
    (err) => resentAfterLoss(redis, conn, argv, buffers, err, sentInDb),
  );
  // released by the test setup's end-of-test close: no unhandled rejection (a real server would
  // have kept it blocked); released by disconnect(): one, as with ioredis
  const reply = settledAsClient(blocked);
  blockedReplies.set(conn, reply);
  return reply;
}

/** The reply promise of each connection's blocked call (the latest), for `afterWoken`. */
const blockedReplies = new WeakMap<Connection, Promise<unknown>>();

/**
 * The reply of a command that woke blocked clients, settled after theirs: a server writes the
 * unblocked clients' replies before the command's own (BlockingQueue.woken), so with a real
 * server `await lpush()` resumes after the `blpop()` it served has resumed.
 */
function afterWoken(conn: Connection, reply: Promise<unknown>): Promise<unknown> {
  const woken = conn.ks.blocking.woken;
  let waits: Promise<unknown>[] | undefined;
  for (let i = 0; i < woken.length; i++) {
    const served = blockedReplies.get(woken[i] as Connection);
    if (served !== undefined && served !== reply) (waits ??= []).push(served);
  }
  if (waits === undefined) return reply;
  const held = Promise.allSettled(waits).then(() => reply);
  hold(conn, held);
  return held;
}

/**
 * Each connection's latest reply that settles later than its command ran (`afterWoken`, or one
 * waiting behind such a reply), until it settles; `heldCount` of them in all.
 */
const heldReplies = new WeakMap<Connection, Promise<unknown>>();
let heldCount = 0;

function hold(conn: Connection, held: Promise<unknown>): void {
  heldCount++;
  heldReplies.set(conn, held);
  const release = () => {
    heldCount--;
    if (heldReplies.get(conn) === held) heldReplies.delete(conn);
  };
  held.then(release, release);
}

/** The connection's reply still held back (`hold`), if any: what a reply of a later command waits for. */
export function heldReplyOf(conn: Connection): Promise<unknown> | undefined {
  return heldCount === 0 ? undefined : heldReplies.get(conn);
}

/**
 * `reply` of a command that ran now on `conn`, settled no earlier than the replies of the
 * connection's earlier commands, as Redis answers a connection's commands in order: a command
 * that woke a blocked client has its reply held back (`afterWoken`), and a PING sent after it must
 * not resolve first.
 */
function inOrder(conn: Connection, reply: Promise<unknown>): Promise<unknown> {
  const held = heldReplyOf(conn);
  if (held === undefined || held === reply) return reply;
  const next = held.then(
    () => reply,
    () => reply,
  );
  const answer = settledAsClient(next);
  hold(conn, answer);
  return answer;
}

/**
 * The spin guard (spin-guard.ts) runs before every command of a client: run now (callers check
 * `spinCheck(redis) === 'run'` themselves: no closure on that path), or here: first wait for the
 * event loop to turn (a loop of commands that answer at once), or never settle (the loop of a
 * finished test, whose client the jest setup closed).
 */
function deferred(verdict: Exclude<SpinVerdict, 'run'>, run: () => Promise<unknown>): Promise<unknown> {
  if (verdict === 'park') return new Promise(() => undefined);
  return verdict.then(run);
}

/**
 * ioredis's offline queue before the spin guard: a command sent while the client is not ready
 * (a `wait` client connects first) runs once it is, or is refused (deferUntilReady). Returns
 * null when the command can run now.
 */
function heldUntilReady(redis: Instance, emulators: EmulatorTable, name: string, again: () => Promise<unknown>, buffers = false): Promise<unknown> | null {
  if (redis?.status === 'wait' && redis[CONN] !== undefined) autoConnect(redis, emulators);
  // the caller's promise (no catch of its own: a command sent before `ready` whose error nobody
  // handles is an unhandled rejection, as ioredis's offline queue makes it)
  return deferUntilReady(redis, name, again, buffers);
}

/** A stream command from a method, `call()` or `send_command()`; `name` as sent. */
export function runStreamCommand(redis: Instance, emulators: EmulatorTable, name: string, args: unknown[], buffers: boolean): Promise<unknown> {
  if (redis?.status !== 'ready') {
    const held = heldUntilReady(redis, emulators, name, () => runStreamCommand(redis, emulators, name, args, buffers));
    if (held !== null) return held;
  }
  const verdict = spinCheck(redis);
  if (verdict === 'run') return runStreamNow(redis, emulators, name, args, buffers);
  return deferred(verdict, () => runStreamNow(redis, emulators, name, args, buffers));
}

/**
 * A stream command from its method (`xadd()`, `xreadgroupBuffer()` …): `runStreamCommand` on
 * the short path when the client is in the usual state (ready, connected, nothing queued ahead,
 * no keyPrefix, not subscribed): argv built in one pass, the engine's `runLane`. Same replies,
 * errors and order; any other state takes `runStreamCommand`.
 */
function runStreamMethod(redis: Instance, emulators: EmulatorTable, lane: StreamLane, seen: unknown[], call: unknown[], flat: boolean, buffers: boolean): Promise<unknown> {
  const conn: Connection | undefined = redis[CONN];
  if (redis?.status !== 'ready' && conn !== undefined) {
    // A client's first commands wait for `ready`: held, they come back here, so they take the
    // short path too (not the general one: compiling both paths in the first command of a
    // fresh client cost it about as much as its next thousand commands)
    const held = heldUntilReady(redis, emulators, lane.name, () => runStreamMethod(redis, emulators, lane, seen, call, flat, buffers));
    if (held !== null) return held;
  }
  if (!inUsualState(redis, conn)) {
    return runStreamCommand(redis, emulators, lane.name, argsOf(call), buffers);
  }
  const verdict = spinCheck(redis);
  if (verdict !== 'run') {
    if (verdict === 'park') return new Promise(() => undefined);
    // after the turn, the short path again when the client is still in the usual state (the
    // general path's functions are not compiled for the 1,001st command of a loop)
    return verdict.then(() => runStreamMethodAfterTurn(redis, emulators, lane, seen, call, flat, buffers));
  }
  return runOnLane(redis, conn, lane, seen, call, flat, buffers);
}

/** The state the lane serves: ready and connected, nothing ahead, not subscribed, no keyPrefix. */
function inUsualState(redis: Instance, conn: Connection | undefined): conn is Connection {
  return conn !== undefined && redis.status === 'ready' && conn.ready && !conn.closed && !redis.subscriberMode && !redis.options?.keyPrefix;
}

/** `runStreamMethod` for a command that waited for the event loop to turn (the spin guard). */
function runStreamMethodAfterTurn(redis: Instance, emulators: EmulatorTable, lane: StreamLane, seen: unknown[], call: unknown[], flat: boolean, buffers: boolean): Promise<unknown> {
  const conn: Connection | undefined = redis[CONN];
  if (!inUsualState(redis, conn)) {
    return runStreamNow(redis, emulators, lane.name, argsOf(call), buffers);
  }
  return runOnLane(redis, conn, lane, seen, call, flat, buffers);
}

/** The lane itself: argv built in one pass, `Connection.runLane`, the reply encoded. */
function runOnLane(redis: Instance, conn: Connection, lane: StreamLane, seen: unknown[], call: unknown[], flat: boolean, buffers: boolean): Promise<unknown> {
  let out: Reply | Promise<Reply>;
  let argv: string[];
  try {
    // an array argument is spread one level first, as ioredis does (buildArgv)
    argv = flat && userArgumentTransformer(lane.name) === undefined ? toLaneArgv(call, seen) : buildArgv(lane.name, argsOf(call), undefined, false);
  } catch (err) {
    return Promise.reject(err);
  }
  const blocking = conn.ks.blocking;
  const served = blocking.served;
  try {
    out = conn.runLane(lane, argv);
  } catch (err) {
    return Promise.reject(toClientError(err, argv));
  }
  let reply: Promise<unknown>;
  if (typeof out === 'string' && !buffers && (conn.protocol !== 3 || (ioredisMajorKnown || installedIoredisMajor()) === 6) && userReplyTransformer(lane.name) === undefined) {
    // encodeFor of a bulk string for a string method (GET's value, XADD's ID), in every protocol
    // but RESP3 on ioredis 5 (encodeFor fails that one): its UTF-8 text
    reply = Promise.resolve(isAscii(out) ? out : utf8Of(out));
  } else if (out instanceof Promise) reply = blockedReply(redis, conn, argv, buffers, out);
  else {
    try {
      reply = Promise.resolve(encodeFor(redis, conn, buffers, lane.name, out));
    } catch (err) {
      reply = Promise.reject(err);
    }
  }
  if (heldCount !== 0) reply = inOrder(conn, reply);
  return blocking.served === served ? reply : afterWoken(conn, reply);
}

/** The arguments of a method call held as `[name, ...args]` (the general path's form). */
function argsOf(call: readonly unknown[]): unknown[] {
  return call.slice(1);
}

/** Argument positions whose last ASCII string a method remembers (`toLaneArgv`), and its longest. */
const REMEMBERED_ARGS = 16;
const REMEMBERED_LENGTH = 12;

/**
 * `buildArgv(name, args, undefined, false)` in place: `call` is `[name, ...args]` with no array
 * among the arguments, each argument becomes its byte string. `seen`: the method's ASCII string
 * arguments of the last call by position; the same string again (`'GROUP'`, the group, the key)
 * needs no check of its characters.
 */
function toLaneArgv(call: unknown[], seen: unknown[]): string[] {
  const n = call.length;
  for (let i = 1; i < n; i++) {
    const a = call[i];
    if (typeof a === 'string' && a === seen[i]) continue;
    // the caller's Buffers kept for an error's `command.args` (givenArgs)
    if (typeof a === 'object' && a !== null && !givenArgs.has(call)) givenArgs.set(call, call.slice(1));
    const bytes = toByteString(a);
    // short ones only: IDs change from call to call, and comparing two of them reads them (the
    // ID just formatted, the usual one, is known ASCII to toByteString without reading it)
    if (bytes === a && i <= REMEMBERED_ARGS && a.length <= REMEMBERED_LENGTH) seen[i] = a;
    call[i] = bytes;
  }
  return call as string[];
}

function runStreamNow(redis: Instance, emulators: EmulatorTable, name: string, args: unknown[], buffers: boolean): Promise<unknown> {
  const conn = usableConnection(redis, emulators, name);
  if (conn instanceof Error) return rejectedWhenClosed(redis, conn);
  const refused = subscriberModeRefusal(redis, conn, name.toLowerCase());
  if (refused !== null) return Promise.reject(refused);
  let argv: string[];
  try {
    argv = buildArgv(name, args, redis.options?.keyPrefix, true);
  } catch (err) {
    return Promise.reject(err);
  }
  return executeArgv(redis, conn, argv, buffers);
}

/** The shard channels the client's connection subscribed to (SSUBSCRIBE), as byte strings. */
export const SHARD_CHANNELS = Symbol.for('ioredis-mock-streams.shardChannels');

/** SSUBSCRIBE / SUNSUBSCRIBE on the engine: the last confirmation's count, as ioredis resolves. */
function shardSubscription(redis: Instance, conn: Connection, name: string, args: unknown[], lower: string): Promise<unknown> {
  let argv: string[];
  try {
    argv = buildArgv(name, args, redis.options?.keyPrefix, true);
  } catch (err) {
    return Promise.reject(err);
  }
  // run in connection order: the confirmations counted are this command's, not those of one
  // sent after it before it settled (Promise.all of several SSUBSCRIBEs: 2, 3, 4 as on Redis)
  return conn.enqueue(() => runShardSubscription(redis, conn, argv, lower));
}

/**
 * SSUBSCRIBE / SUNSUBSCRIBE run now at the head of the connection (a method's turn, a pipeline's
 * entry): what ioredis resolves it with, the count of its last confirmation push (DataHandler:
 * the shard channels the connection is subscribed to then; null without one).
 * @throws the client's error for an error reply
 */
export function runShardSubscription(redis: Instance, conn: Connection, argv: string[], lower: string): unknown {
  let count: unknown = null;
  const wasSubscriber = redis.subscriberMode === true;
  const off = conn.onPush((msg) => {
    if (msg instanceof PushReply && msg.items[0] === lower) count = msg.items[2];
  });
  try {
    conn.run(argv); // never blocks: its confirmations are pushed while it runs
  } catch (err) {
    throw toClientError(err, argv);
  } finally {
    off();
  }
  // kept on the client: the engine drops them when the server closes the connection, and
  // ioredis restores them after a reconnection (lifecycle.ts connectionLost)
  redis[SHARD_CHANNELS] = conn.shardSubscriptions();
  // ioredis's subscriber condition covers SSUBSCRIBE too (a RESP2 client then refuses other commands)
  afterSubscriptionChange(redis, conn, wasSubscriber);
  return count;
}

/**
 * ioredis's record of the db it selected (Redis#sendCommand: 5.11.1 built/Redis.js:435, 6.0.0
 * :465, 6.1.0 :549): a command named exactly `select` (6.1: in any casing) whose first argument
 * is an integer to ioredis's utils `isInt` (14, '14', a Buffer of '14', but also '14.0' or '1e1',
 * which the server refuses) sets `condition.select` to `parseInt(arg, 10)`, when the command is
 * written or queued for `ready`, whatever the server answers. Not for a command refused before
 * that (closed client, RESP2 subscriber mode, enableOfflineQueue: false). Only called with a
 * name whose lower case is `select`; `sent` is the name as the caller spelled it.
 */
export function selectSent(redis: Instance, sent: string, args: unknown[]): void {
  if (sent !== 'select' && !selectAsIoredis61()) return;
  const first = flatten(args)[0]; // ioredis's Command flattens its arguments first
  if (isIntAsIoredis(first)) selectNoted(redis, parseInt(first as string, 10));
}

/** ioredis utils `isInt` (the same in 5.11.1, 6.0.0 and 6.1.0); false where it would throw (a Symbol). */
function isIntAsIoredis(value: unknown): boolean {
  try {
    const x = parseFloat(value as string);
    return !isNaN(value as number) && (x | 0) === x;
  } catch {
    return false;
  }
}

/**
 * A command the engine answers (connection commands, TTLs, scripts, anything unemulated).
 * `asSent`: the name as the caller spelled it when `name` differs (sendCommand upper-cases it).
 */
export function runEngineCommand(redis: Instance, emulators: EmulatorTable, name: string, args: unknown[], buffers: boolean, asSent?: string): Promise<unknown> {
  if (redis?.status !== 'ready') {
    const held = heldUntilReady(redis, emulators, asSent ?? name, () => runEngineCommand(redis, emulators, name, args, buffers, asSent), buffers);
    if (held !== null) {
      // queued for `ready` (not refused): ioredis records a SELECT it queues, and again when it sends it
      if (name.length === 6 && redis.options?.enableOfflineQueue !== false && name.toLowerCase() === 'select') selectSent(redis, asSent ?? name, args);
      return held;
    }
  }
  const verdict = spinCheck(redis);
  if (verdict === 'run') return runEngineNow(redis, emulators, name, args, buffers, asSent);
  return deferred(verdict, () => runEngineNow(redis, emulators, name, args, buffers, asSent));
}

/**
 * PING on a subscribed RESP2 connection: `['pong', message]` (server.c pingCommand; `''` without
 * a message), as a method, `call()` or a pipeline sends it; null when the client is not in that
 * state (or the arity is wrong: the engine answers that). The subscriptions of an ioredis client
 * are ioredis-mock's, which the engine's PING does not see.
 */
export function subscribedPing(redis: Instance, conn: Connection, args: unknown[], buffers: boolean): unknown[] | null {
  if (!inResp2SubscriberMode(redis, conn)) return null;
  const flat = flatten(args);
  if (flat.length > 1) return null;
  conn.noteCommand('ping');
  const reply = ['pong', flat.length === 1 ? flat[0] : ''];
  return reply.map((v) => (buffers ? (Buffer.isBuffer(v) ? v : Buffer.from(String(v))) : Buffer.isBuffer(v) ? v.toString() : String(v)));
}

function runEngineNow(redis: Instance, emulators: EmulatorTable, name: string, args: unknown[], buffers: boolean, asSent?: string): Promise<unknown> {
  const conn = usableConnection(redis, emulators, name);
  const lower = name.toLowerCase();
  if (conn instanceof Error) {
    // disconnect() then quit(): ioredis answers the QUIT itself (its socket is ended)
    if (lower === 'quit' && quitAnsweredWhileClosing(redis)) return Promise.resolve(buffers ? Buffer.from('OK') : 'OK');
    return rejectedWhenClosed(redis, conn);
  }
  const refused = subscriberModeRefusal(redis, conn, lower);
  if (refused !== null) return Promise.reject(refused);
  if (lower === 'select') selectSent(redis, asSent ?? name, args);
  // SSUBSCRIBE / SUNSUBSCRIBE answer with pushes (one per channel); ioredis resolves with the
  // count of the last one (DataHandler: the shard channels the connection is subscribed to)
  if (lower === 'ssubscribe' || lower === 'sunsubscribe') return shardSubscription(redis, conn, name, args, lower);
  // PING on a subscribed RESP2 connection answers [pong, message] (server.c pingCommand); the
  // subscriptions of an ioredis client are ioredis-mock's, which the engine does not count
  if (lower === 'ping') {
    const pong = subscribedPing(redis, conn, args, buffers);
    if (pong !== null) return Promise.resolve(pong);
  }
  let argv: string[];
  try {
    argv = buildArgv(name, args, redis.options?.keyPrefix, true);
  } catch (err) {
    return Promise.reject(err);
  }
  if (lower === 'quit') closingByClient(redis, conn);
  const p = executeArgv(redis, conn, argv, buffers);
  if (lower !== 'quit') return p;
  // QUIT answered: the connection is closed (lifecycle `close` → `end`)
  const answered = p.then((r) => {
    if (conn.closed && redis[CONN] === conn) closeInstance(redis);
    return r;
  });
  quitSent(redis, answered);
  return answered;
}

// ---------------------------------------------------------------------------------------------
// ioredis-mock's command() wrapper

interface Transformers {
  argument: Record<string, ((args: unknown[]) => unknown[]) | undefined>;
  reply: Record<string, ((reply: unknown) => unknown) | undefined>;
}

/**
 * The commands the bundled ioredis 5.11's Command has argument / reply transformers for (a test
 * checks them against it). Its module, with the ~20 modules it requires (@ioredis/commands and
 * its 45 KB table, debug …), loads on the first of these: a jest test file that sends none of
 * them does not pay for it.
 */
export const ARGUMENT_TRANSFORMED = new Set(['mset', 'msetnx', 'hset', 'hmset']);
export const REPLY_TRANSFORMED = new Set(['hgetall']);
let transformers: Transformers | undefined;

function ioredisTransformers(): Transformers {
  return (transformers ??= privateIoredisModule<{ default: { _transformer: Transformers } }>('built/Command').default._transformer);
}

/** ioredis-mock processArguments: flatten, ioredis's argument transformer, values to strings. */
export function processArguments(args: unknown[], base: string): unknown[] {
  // ioredis's Command: `args.flat()` first, then the argument transformer (hset/hmset/mset …
  // see an array argument already spread, and an object or Map still whole)
  const user = userArgumentTransformer(base);
  const transform = user ?? (ARGUMENT_TRANSFORMED.has(base) ? ioredisTransformers().argument[base] : undefined);
  const spread = user !== undefined && isArgsFlat(args) ? args.slice() : flatten(args);
  const flat = transform ? transform(spread) : spread;
  const out = new Array<unknown>(flat.length);
  for (let i = 0; i < flat.length; i++) {
    const a = flat[i];
    out[i] = a === null || a === undefined ? '' : Buffer.isBuffer(a) ? a : typeof a === 'number' ? numberArg(a) : String(a);
  }
  return out;
}

/** ioredis-mock processReply: ioredis's reply transformer (HGETALL's object → object). */
function processReply(result: unknown, base: string): unknown {
  const transform = REPLY_TRANSFORMED.has(base) ? ioredisTransformers().reply[base] : undefined;
  if (!transform) return result;
  const flat = base === 'hgetall' && result !== null && typeof result === 'object' && !Array.isArray(result) ? Object.entries(result as object).flat() : result;
  return transform(flat);
}

/** ioredis-mock throwIfCommandIsNotAllowed. */
function checkAllowed(redis: Instance, conn: Connection, base: string): void {
  const refused = redis.channels !== undefined ? subscriberModeRefusal(redis, conn, base) : null;
  if (refused !== null) throw refused;
  if (!redis.connected && !redis.options?.enableOfflineQueue) {
    throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
  }
}

const SUBSCRIPTION_CHANGES = new Set(['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe']);

/** How many channels or patterns of a channel store the instance listens to (ioredis-mock's). */
function listenedIn(redis: Instance, store: { instanceListeners?: Map<string, Map<unknown, unknown>> } | undefined): number {
  let n = 0;
  for (const listeners of store?.instanceListeners?.values() ?? []) if (listeners.has(redis)) n++;
  return n;
}

/**
 * After (P)(UN)SUBSCRIBE: the count Redis confirms with (the client's channels + patterns,
 * pubsub.c clientSubscriptionsCount; ioredis-mock counts only one kind) and subscriber mode on
 * while it is above 0 or shard channels remain (ioredis-mock leaves it on after a bare
 * UNSUBSCRIBE). After (S)SUBSCRIBE/SUNSUBSCRIBE too.
 */
function afterSubscriptionChange(redis: Instance, conn: Connection, wasSubscriber: boolean): number {
  const count = listenedIn(redis, redis.channels) + listenedIn(redis, redis.patternChannels);
  const on = count > 0 || (redis[SHARD_CHANNELS]?.length ?? 0) > 0;
  // the server's side at once (a RESP2 connection refuses other commands now); ioredis's own
  // refusal from the confirmation on (DataHandler sets condition.subscriber as the reply comes,
  // before the command settles): what the client sends in the same turn still reaches the server
  // (5.11.1, 6.0.0 with protocol 2: "ERR Can't execute 'get': only (P|S)SUBSCRIBE / …"), and
  // after an UNSUBSCRIBE of the last channel ioredis still refuses it itself until the reply
  conn.frontEndSubscriber = on;
  redis.subscriberMode = wasSubscriber;
  if (on !== wasSubscriber) {
    // (a promise's reaction: fake timers can fake queueMicrotask)
    void Promise.resolve().then(() => {
      if (redis[CONN] === conn && !conn.closed) redis.subscriberMode = conn.frontEndSubscriber;
    });
  }
  return count;
}

/**
 * Run one of ioredis-mock's emulators now (the connection is ours): processed arguments,
 * keyspace clock, arity/WRONGTYPE guard, stream reply fixes, reply transformer. Returns the
 * value (or a promise of it, for INFO); throws the command's error.
 */
export function runBuiltinNow(redis: Instance, conn: Connection, name: string, base: string, emulator: Emulator, processed: unknown[]): unknown {
  checkAllowed(redis, conn, base);
  const wasSubscriber = redis.subscriberMode === true;
  conn.expireDueFirst();
  const ks = conn.keyspace;
  let result: unknown;
  // INFO counts it as the engine counts the commands it runs (commandstats, commands processed)
  const weight = conn.builtinTimingWeight(base);
  const start = weight === 0 ? 0 : performance.now();
  const writesBefore = ks.modifications;
  // client-side caching (CLIENT TRACKING): the command is the server's current one
  const tracking = conn.server.tracking;
  let tracked: { argv: string[]; saved: ReturnType<NonNullable<typeof tracking>['enter']> } | null = null;
  let ran = false;
  try {
    conn.checkBuiltinAcl(base, sentArgv(base, processed)); // the user's permissions (command, channels)
    conn.checkServerState(base, processed.length + 1, processed[0]); // maxmemory, min-replicas-to-write
    // keyPrefix on the arguments ioredis's table marks as keys (as ioredis does before sending)
    const keyPrefix = redis.options?.keyPrefix;
    if (keyPrefix) processed = applyKeyPrefix(base, processed, keyPrefix as string | Buffer);
    if (tracking !== null) {
      const argv = sentArgv(base, processed);
      tracked = { argv, saved: tracking.enter(conn, argv) };
    }
    // Redis's arity check, the keyspace clock, errors as Redis's (builtins.ts); a long
    // argument list is refused (large-args.ts)
    // channels and patterns go on the server's emitters as byte strings (distinct bytes,
    // distinct channels: lib/engine/commands/pubsub.ts publishNow)
    const emulatorArgs = SUBSCRIPTION_CHANGES.has(base) ? processed.map(toByteString) : processed;
    result = runBuiltin(ks, name, emulatorArgs, (args) => callWithinLimit(base, args, (all) => emulator.apply(redis, all)));
    ran = true;
  } catch (err) {
    conn.recordBuiltin(base, processed[0], start, weight, err);
    throw toClientError(err, sentArgv(base, processed));
  } finally {
    conn.addBuiltinDirty(base, processed.length + 1, ks.modifications - writesBefore);
    ks.blocking.flush();
    if (tracked !== null) tracking!.leave(conn, tracked.argv, ran, tracked.saved);
  }
  if (result instanceof Promise) {
    const args = processed;
    result.then(
      () => conn.recordBuiltin(base, args[0], start, weight, undefined),
      (err) => conn.recordBuiltin(base, args[0], start, weight, err),
    );
  } else conn.recordBuiltin(base, processed[0], start, weight, undefined);
  conn.noteBuiltin(base, processed[0]);
  if (SUBSCRIPTION_CHANGES.has(base)) {
    const count = afterSubscriptionChange(redis, conn, wasSubscriber);
    if (processed.length === 0 && count > 0 && (base === 'unsubscribe' || base === 'punsubscribe') && !installedIoredisAtLeast(6, 1)) {
      return unsettledUnsubscribe(redis, base, count);
    }
    result = count;
  }
  // ioredis-mock answers ioredis 5's RESP2 shapes: reshape for the installed ioredis and the client's options
  return mendBuiltinReply(
    redis,
    name,
    processed,
    result instanceof Promise ? result.then((r) => processReply(r, base), (err) => Promise.reject(toClientError(err, sentArgv(base, processed)))) : processReply(result, base),
  );
}

/** The clients warned about an UNSUBSCRIBE / PUNSUBSCRIBE of all that never settles. */
const warnedUnsettledUnsubscribe = new WeakSet<object>();

/**
 * UNSUBSCRIBE / PUNSUBSCRIBE without arguments while subscriptions of the other kind remain (the
 * confirmation's count above 0): ioredis 5 and 6.0 settle an unsubscribe of all only on a count of
 * 0 (DataHandler fillUnsubCommand), so against a server the promise never settles (checked with
 * real 7.0.15 and the post-7.4 build); 6.1 settles it once none of its own kind remain. The same
 * here before 6.1, with a warning (once per client) saying why.
 */
function unsettledUnsubscribe(redis: Instance, base: string, count: number): Promise<never> {
  if (!warnedUnsettledUnsubscribe.has(redis)) {
    warnedUnsettledUnsubscribe.add(redis);
    const other = base === 'unsubscribe' ? 'pattern' : 'channel';
    console.warn(
      `[ioredis-mock-streams] ${base}() without arguments left ${count} ${other} subscription${count === 1 ? '' : 's'}, and ioredis settles it only ` +
        `when the count it confirms reaches 0 (before ioredis 6.1): its promise never settles, as against a Redis server. Name the ` +
        `${base === 'unsubscribe' ? 'channels' : 'patterns'} to leave, leave the ${other}s first, or use ioredis 6.1 or later.`,
    );
  }
  return new Promise<never>(() => undefined);
}

/** The command as ioredis sent it (an error's `command`): name, then arguments as byte strings. */
function sentArgv(base: string, processed: unknown[]): string[] {
  return argvOf(base, processed);
}

/** A built-in sent while MULTI (through `call()`) is open: queued by the engine. */
function queueBuiltin(redis: Instance, conn: Connection, name: string, base: string, processed: unknown[]): unknown {
  const keyPrefix = redis.options?.keyPrefix;
  if (keyPrefix) processed = applyKeyPrefix(base, processed, keyPrefix as string | Buffer);
  const argv = argvOf(base, processed);
  try {
    return encoderOf(redis, conn, name.endsWith('Buffer'), base)(conn.run(argv) as Reply);
  } catch (err) {
    throw toClientError(err, argv);
  }
}

/** One of ioredis-mock's commands, from a method or `call()`. */
export function runBuiltinCommand(redis: Instance, emulators: EmulatorTable, name: string, base: string, emulator: Emulator, args: unknown[]): Promise<unknown> {
  if (redis?.status !== 'ready') {
    const held = heldUntilReady(redis, emulators, name, () => runBuiltinCommand(redis, emulators, name, base, emulator, args));
    if (held !== null) return held;
  }
  const verdict = spinCheck(redis);
  if (verdict === 'run') return runBuiltinCommandNow(redis, emulators, name, base, emulator, args);
  return deferred(verdict, () => runBuiltinCommandNow(redis, emulators, name, base, emulator, args));
}

function runBuiltinCommandNow(redis: Instance, emulators: EmulatorTable, name: string, base: string, emulator: Emulator, args: unknown[]): Promise<unknown> {
  const conn = usableConnection(redis, emulators, name);
  if (conn instanceof Error) return rejectedWhenClosed(redis, conn);
  let processed: unknown[];
  try {
    processed = processArguments(args, base);
  } catch (err) {
    return Promise.reject(err);
  }
  if (conn.ready && !conn.inMulti) {
    try {
      return Promise.resolve(runBuiltinNow(redis, conn, name, base, emulator, processed));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  // an error nobody handles is an unhandled rejection, as with ioredis (settledAsClient)
  return settledAsClient(
    conn.enqueue(() => (conn.inMulti ? queueBuiltin(redis, conn, name, base, processed) : runBuiltinNow(redis, conn, name, base, emulator, processed))),
  );
}

// ---------------------------------------------------------------------------------------------
// Method factories (called once per command at install time)

export function streamMethod(emulators: EmulatorTable, name: string, buffers: boolean) {
  const lane = streamLane(name);
  const seen: unknown[] = [];
  return function streamCommand(this: Instance): Promise<unknown> {
    // `[name, ...args]` straight from `arguments` (read by index: V8 makes no arguments object
    // nor rest array), without a trailing callback, as ioredis-mock takes it off
    let n = arguments.length;
    let cb: Callback | undefined;
    if (n > 0 && typeof arguments[n - 1] === 'function') cb = arguments[--n] as Callback;
    const call = new Array<unknown>(n + 1);
    call[0] = name;
    let flat = true;
    for (let i = 0; i < n; i++) {
      const a: unknown = arguments[i];
      // an array is spread, an object or Map transformed (hset/mset): the general path
      if (typeof a === 'object' && a !== null && (Array.isArray(a) || (!Buffer.isBuffer(a) && ARGUMENT_TRANSFORMED.has(name)))) flat = false;
      call[i + 1] = a;
    }
    // The usual state in this one function (each V8 tier compiles fewer functions over a test
    // file's first commands): runStreamMethod's short path with no client timers (withClientTimeouts
    // returns the reply itself) and replies in microtasks (delivered returns it too).
    const conn: Connection | undefined = this[CONN];
    const options = this.options;
    if (
      cb === undefined &&
      conn !== undefined &&
      this.status === 'ready' &&
      conn.ready &&
      !conn.closed &&
      !this.subscriberMode &&
      (options === undefined || options === null || (!options.keyPrefix && options.commandTimeout === undefined && options.blockingTimeout === undefined && !options.showFriendlyErrorStack)) &&
      !macrotaskTiming
    ) {
      const verdict = spinCheck(this);
      if (verdict === 'run') return runOnLane(this, conn, lane, seen, call, flat, buffers);
      if (verdict === 'park') return new Promise(() => undefined);
      return verdict.then(() => runStreamMethodAfterTurn(this, emulators, lane, seen, call, flat, buffers));
    }
    return answered(this, name, call, 1, runStreamMethod(this, emulators, lane, seen, call, flat, buffers), cb);
  };
}

export function engineMethod(emulators: EmulatorTable, name: string, buffers: boolean) {
  return function engineCommand(this: Instance, ...args: unknown[]): Promise<unknown> {
    const cb = popCallback(args);
    return answered(this, name, args, 0, runEngineCommand(this, emulators, name, args, buffers), cb);
  };
}

export function builtinMethod(emulators: EmulatorTable, name: string, emulator: Emulator) {
  const base = name.endsWith('Buffer') ? name.slice(0, -'Buffer'.length) : name;
  return function builtinCommand(this: Instance, ...args: unknown[]): Promise<unknown> {
    const cb = popCallback(args);
    return answered(this, name, args, 0, runBuiltinCommand(this, emulators, name, base, emulator, args), cb);
  };
}
