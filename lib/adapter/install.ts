/**
 * The ioredis front end: installs the engine (lib/engine) on ioredis-mock's class. The only
 * module that knows ioredis-mock's internals, with its helpers in this folder.
 *
 * Per instance the state is one engine `Connection` (its keyspace, order, MULTI/WATCH, closed
 * state); every method lives on the prototype, defined once at install time:
 * - ioredis-mock's raw command emulators are harvested from its `Pipeline` (emulators.ts) and
 *   run by prototype methods re-implementing its `command()` wrapper (methods.ts), so
 *   `_initCommands` — ~500 closures per instance — is replaced by a no-op;
 * - stream commands, connection commands (SELECT, CLIENT, HELLO, WATCH, QUIT …), scripts and
 *   the clock's TTL family run on the engine;
 * - `call`/`callBuffer`/`send_command`, `pipeline()`/`multi()` (pipeline.ts), `defineCommand`,
 *   `connect`/`disconnect`/`quit`/`status` (lifecycle.ts), the `scan…Stream` family (ioredis's
 *   own ScanStream).
 * Keyspaces: the `context` ioredis-mock looks up per host:port/db gets the engine keyspace's
 * store as its data and the server's pub/sub channels; its WATCH emitter becomes inert (the
 * engine does WATCH), so no instance is registered anywhere and unreferenced clients are
 * collected.
 */
import { delivered } from './delivery';
import { withClientTimeouts } from './command-timeouts';
import { asCalledByName } from './builtin-replies';
import { commandTable, installedIoredisDir, installedIoredisMajor } from './command-table';
import { hasCaseInsensitiveTransformer, replyContextOf } from './ioredis-reply';

/** The installed ioredis's convertBufferToString (built/utils): Buffers in arrays and plain objects too. */
function buffersToStrings(value: unknown, encoding: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const utils = require(`${installedIoredisDir()}/built/utils`) as { convertBufferToString(v: unknown, e: string): unknown };
  return utils.convertBufferToString(value, encoding);
}
import { StreamsMockError } from '../clock/clock';
import { COMMANDS } from '../commands/index';
import { lookupCommand } from '../commands/dispatch';
import { noticeLoadedIoredisCommand } from './user-transformers';
import type { Keyspace } from '../keyspace/keyspace';
import { CONNECTION_COMMANDS } from '../engine/commands/index';
import { lua } from '../engine/commands/scripting';
import { type Connection, parsedKeyspaceEvents } from '../engine/connection';
import { isSetupClose } from '../engine/connection/order';
import { type Emulator, type EmulatorTable, harvestEmulators } from '../engine/emulators';
import { allKeyspaces as engineKeyspaces, keyspaceFor, serverFor } from '../engine/registry';
import { toByteString } from './encoding';
import { CONN, closeInstance, connectInstance, dbOfClient, installLifecycleHooks, notSetUpError, openInstance, settledAsClient } from './lifecycle';
import {
  builtinMethod,
  clientMode,
  engineMethod,
  flatten,
  isNoScript,
  popCallback,
  runBuiltinCommand,
  runEngineCommand,
  runStreamCommand,
  streamMethod,
  withCallback,
  answered,
} from './methods';
import { installPipeline, newPipeline } from './pipeline';
import { MethodLayer } from './method-layer';
import { parseStreamsOptions } from './options';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Instance = any;
type MockClass = any;

const INSTALLED = Symbol.for('ioredis-mock-streams.installed');
const OPTIONS = Symbol.for('ioredis-mock-streams.options');
const CONTEXT = Symbol.for('ioredis-mock-streams.context');
const ATTACHED = Symbol.for('ioredis-mock-streams.attachedContext');

/** Every keyspace created so far (the jest setup's reset walks them). */
export const allKeyspaces = {
  [Symbol.iterator]: (): Iterator<Keyspace> => engineKeyspaces(),
};

/** The engine connection of a fake client. */
export function connectionOf(redis: Instance): Connection {
  const conn: Connection | undefined = redis?.[CONN];
  if (!conn) throw notSetUpError();
  return conn;
}

/** The keyspace (current db) a fake client uses. */
export function keyspaceOf(redis: Instance): Keyspace {
  const conn = connectionOf(redis);
  // before its handshake's SELECT ran: the db of the options (the connection is still in db 0)
  const db = dbOfClient(redis, conn);
  return db === conn.db ? conn.keyspace : conn.server.keyspace(db);
}

/** ioredis-mock's WATCH emitter, made inert: the engine does WATCH (no per-client listeners). */
const INERT_EMITTER = Object.freeze({
  on() {
    return this;
  },
  off() {
    return this;
  },
  removeListener() {
    return this;
  },
  emit: () => false,
  setMaxListeners() {
    return this;
  },
  listenerCount: () => 0,
});

/**
 * Point an ioredis-mock context (one per host:port/db) at the engine: its data and expiries
 * become the keyspace store's (keys stored before are moved over), its channels the server's.
 */
function attachContext(context: any, keyData: string): void {
  if (!context || context[ATTACHED]) return;
  const m = /^(.*):(\d+)\/(.+)$/.exec(String(keyData));
  if (!m) return;
  const db = Number(m[3]);
  const server = serverFor(m[1], Number(m[2]));
  const ks = keyspaceFor(m[1], Number(m[2]), Number.isInteger(db) && db >= 0 ? db : 0);
  const oldData = context.data;
  const oldExpires = context.expires;
  if (oldData && oldData !== ks.store.data) {
    for (const key of oldData.keys()) {
      ks.store.data.set(key, oldData.get(key));
      if (oldExpires?.has(key)) ks.store.expires.set(key, oldExpires.get(key));
    }
  }
  context.data = ks.store.data;
  context.expires = ks.store.expires;
  context.modifiedKeyEvents = INERT_EMITTER;
  context.channels = server.channels;
  context.patternChannels = server.patternChannels;
  context[ATTACHED] = true;
}

/** Names of ioredis-mock's table that are helpers, not commands. */
const NOT_COMMAND_METHODS = new Set(['connect', 'customCommand', 'defineArgv', 'defineKeys', 'defineRedisObject', 'defineCommand', 'evaluate']);

/** Engine commands kept out of the generic engine route (own methods below; pub/sub stays
 *  ioredis-mock's, which delivers messages as events of the instance). */
const SPECIAL = new Set(['multi', 'exec', 'quit', 'monitor', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe']);

/** What `call(name, …)` runs for each lower-case name. */
interface Route {
  kind: 'stream' | 'builtin' | 'engine';
  emulator?: Emulator;
}

/** The methods of the prototype being installed, added in one step (method-layer.ts). */
let methodLayer: MethodLayer | undefined;

function defineMethod(proto: object, name: string, fn: unknown): void {
  if (methodLayer) methodLayer.define(name, fn);
  else Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

/** ioredis's command list (every Redis command is a method of an ioredis client). */
function ioredisCommandNames(): string[] {
  // the installed ioredis's own list (./command-table.ts): its version decides which methods exist
  return commandTable().list.filter((c) => !c.includes('|') && c !== 'monitor');
}

/**
 * Install the engine on an ioredis-mock class (idempotent). Every instance created afterwards
 * has XADD, XREADGROUP, XAUTOCLAIM … and every other command as methods, `…Buffer` twins, in
 * `pipeline()` and `multi()`, and through `call()`; runs them on the engine connection of the
 * instance (order behind blocked calls, MULTI/WATCH, QUIT, closed state), on the keyspace
 * clock. Replaces ioredis-mock's own XADD, XLEN, XRANGE, XREVRANGE and XREAD.
 * @param RedisMock the class exported by `ioredis-mock` 8 (default: the installed package)
 * @returns the same class
 */
export function installStreams<T extends MockClass>(RedisMock: T): T {
  const proto = (RedisMock as MockClass).prototype;
  if (proto[INSTALLED]) return RedisMock;
  Object.defineProperty(proto, INSTALLED, { value: true });
  const emulators: EmulatorTable = harvestEmulators((RedisMock as MockClass).Pipeline);
  methodLayer = new MethodLayer(proto);

  // --- keyspace wiring and per-instance state
  Object.defineProperty(proto, 'context', {
    configurable: true,
    get(this: Instance) {
      return this[CONTEXT];
    },
    set(this: Instance, value: unknown) {
      attachContext(value, this.keyData);
      this[CONTEXT] = value;
    },
  });
  // ioredis-mock's per-instance key views become views of the connection's current keyspace
  for (const prop of ['data', 'expires'] as const) {
    Object.defineProperty(proto, prop, {
      configurable: true,
      get(this: Instance) {
        const conn: Connection | undefined = this[CONN];
        if (conn) return conn.keyViews()[prop];
        return this[Symbol.for(`ioredis-mock-streams.${prop}`)];
      },
      set(this: Instance, value: unknown) {
        // the constructor's own views (used before the connection exists, e.g. initial data)
        if (!this[CONN]) this[Symbol.for(`ioredis-mock-streams.${prop}`)] = value;
      },
    });
  }
  Object.defineProperty(proto, 'options', {
    configurable: true,
    get(this: Instance) {
      return this[OPTIONS];
    },
    set(this: Instance, value: any) {
      this[OPTIONS] = value;
      const conn: Connection | undefined = this[CONN];
      if (conn) {
        const streams = parseStreamsOptions(value?.streams);
        if (streams) conn.keyspace.configure(streams);
        return;
      }
      // ioredis-mock assigns the options last in its constructor
      noticeLoadedIoredisCommand();
      openInstance(this, value, emulators);
      this[Symbol.for('ioredis-mock-streams.data')] = undefined;
      this[Symbol.for('ioredis-mock-streams.expires')] = undefined;
    },
  });
  // ioredis-mock's emulators publish keyspace events by the instance's parsed flags: they follow
  // the connection's (CONFIG SET notify-keyspace-events for the whole server, else the option)
  Object.defineProperty(proto, 'keyspaceEvents', {
    configurable: true,
    get(this: Instance) {
      const conn: Connection | undefined = this[CONN];
      const own = this[OPTIONS]?.notifyKeyspaceEvents;
      return parsedKeyspaceEvents(conn ? conn.notifyKeyspaceEvents : typeof own === 'string' ? own : '');
    },
    set() {
      /* ioredis-mock's constructor assigns its own parse of the option: derived instead */
    },
  });
  // ioredis's `mode` ("normal", "subscriber", "monitor") and `isCluster` (false: a Cluster is its own class)
  Object.defineProperty(proto, 'mode', {
    configurable: true,
    get(this: Instance) {
      return clientMode(this);
    },
  });
  Object.defineProperty(proto, 'isCluster', { configurable: true, writable: true, value: false });
  installLifecycleHooks(proto);
  // no per-instance command closures: the methods are on the prototype
  defineMethod(proto, '_initCommands', function _initCommands() {
    /* methods live on the prototype */
  });

  // --- command methods
  const routes = new Map<string, Route>();
  /** Every command method defined below (the Pipeline gets the same set). */
  const commandMethods: string[] = [];
  const defineCommandMethod = (name: string, fn: unknown) => {
    defineMethod(proto, name, fn);
    commandMethods.push(name);
  };
  const builtinNames = Object.keys(emulators).filter((n) => !NOT_COMMAND_METHODS.has(n));
  for (const name of builtinNames) {
    defineCommandMethod(name, builtinMethod(emulators, name, emulators[name]));
    if (!name.endsWith('Buffer')) routes.set(name, { kind: 'builtin', emulator: emulators[name] });
  }
  // a method for each command of the installed ioredis's list, as ioredis defines them (a command
  // it does not list, XACKDEL on ioredis 5, is `call('xackdel', …)` on the fake as on a real client),
  // and `sentinel`, which ioredis's Commander adds
  const ioredisNames = new Set([...ioredisCommandNames(), 'sentinel']);
  const engineNames = [...CONNECTION_COMMANDS.keys()].filter((n) => !SPECIAL.has(n));
  for (const name of engineNames) {
    if (ioredisNames.has(name)) {
      defineCommandMethod(name, engineMethod(emulators, name, false));
      defineCommandMethod(`${name}Buffer`, engineMethod(emulators, name, true));
    }
    routes.set(name, { kind: 'engine' });
  }
  for (const spec of COMMANDS.values()) {
    if (ioredisNames.has(spec.name)) {
      defineCommandMethod(spec.name, streamMethod(emulators, spec.name, false));
      defineCommandMethod(`${spec.name}Buffer`, streamMethod(emulators, spec.name, true));
    }
    routes.set(spec.name, { kind: 'stream' });
  }
  // every other Redis command: the engine says what it is (StreamsMockError: not emulated)
  for (const name of ioredisNames) {
    if (routes.has(name) || SPECIAL.has(name)) continue;
    defineCommandMethod(name, engineMethod(emulators, name, false));
    defineCommandMethod(`${name}Buffer`, engineMethod(emulators, name, true));
  }
  defineCommandMethod('quit', engineMethod(emulators, 'quit', false));
  defineCommandMethod('quitBuffer', engineMethod(emulators, 'quit', true));
  // ioredis's monitor(): a monitoring duplicate emitting 'monitor' events (./monitor.ts)
  defineMethod(proto, 'monitor', function monitor(this: Instance, ...args: unknown[]) {
    const cb = popCallback(args);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return withCallback((require('./monitor') as typeof import('./monitor')).startMonitor(this, emulators), cb);
  });

  /**
   * Run `name` as `call()` does: stream, built-in or engine command; the name kept as sent.
   * `asSent`: the name as the caller spelled it, when `name` is not (sendCommand's Command).
   */
  const callCommand = (redis: Instance, name: unknown, args: unknown[], buffers: boolean, asSent?: string): Promise<unknown> => {
    if (typeof name !== 'string' && !Buffer.isBuffer(name)) {
      return Promise.reject(new StreamsMockError('call(name, ...args): the command name must be a string'));
    }
    const sent = typeof name === 'string' ? name : name.toString();
    const lower = sent.toLowerCase();
    // QUIT as quit() sends it: the client marks itself closing as it writes it (ioredis's manuallyClosing)
    if (lower === 'quit') return runEngineCommand(redis, emulators, sent, args, buffers, asSent);
    const route = routes.get(lower);
    if (route?.kind === 'stream' || (!route && lookupCommand(lower))) return runStreamCommand(redis, emulators, sent, args, buffers);
    if (route?.kind === 'builtin') {
      const method = buffers ? `${lower}Buffer` : lower;
      const emulator = emulators[method] ?? route.emulator!;
      // ioredis's transformers are keyed by the exact name: call('HGETALL') skips hgetall's
      return runBuiltinCommand(redis, emulators, method, lower, emulator, args).then((v) => asCalledByName(redis, lower, sent, args, v, buffers));
    }
    return runEngineCommand(redis, emulators, sent, args, buffers, asSent);
  };

  for (const [method, buffers] of [['call', false], ['callBuffer', true], ['send_command', false]] as const) {
    defineMethod(proto, method, function call(this: Instance, ...args: unknown[]) {
      const cb = popCallback(args);
      const [name, ...rest] = args;
      return answered(this, name, rest, 0, callCommand(this, name, rest, buffers), cb);
    });
  }

  // ioredis's Commander: getBuiltinCommands (its command list without monitor, plus sentinel),
  // createBuiltinCommand(name) ({ string, buffer } functions of a client) and
  // addBuiltinCommand(name) (methods `name` and `nameBuffer` on this client). Each sends the
  // command as `call(name, …)` does (ioredis's generateFunction: the same Command path).
  defineMethod(proto, 'getBuiltinCommands', function getBuiltinCommands(this: Instance) {
    return [...commandTable().list.filter((n) => n !== 'monitor' && !n.includes('|')), 'sentinel'];
  });
  const builtinFunction = (name: string, buffers: boolean) =>
    function builtin(this: Instance, ...args: unknown[]) {
      return (buffers ? this.callBuffer : this.call).call(this, name, ...args);
    };
  defineMethod(proto, 'createBuiltinCommand', function createBuiltinCommand(this: Instance, name: string) {
    return { string: builtinFunction(name, false), buffer: builtinFunction(name, true) };
  });
  defineMethod(proto, 'addBuiltinCommand', function addBuiltinCommand(this: Instance, name: string) {
    (this.addedBuiltinSet ??= new Set<string>()).add(name);
    this[name] = builtinFunction(name, false);
    this[`${name}Buffer`] = builtinFunction(name, true);
  });

  // ioredis's sendCommand(command): the reply as the wire gives it (the name upper-cased, so no
  // reply transformer runs here; Buffers), then the Command's own conversion (its reply
  // encoding, ioredis's transformer for its name, ioredis 6's reply context), as Redis#sendCommand
  defineMethod(proto, 'sendCommand', function sendCommand(this: Instance, command: any) {
    if (!command || typeof command.name !== 'string' || !Array.isArray(command.args) || typeof command.resolve !== 'function') {
      return Promise.reject(new StreamsMockError("sendCommand(command): pass an ioredis Command, e.g. new Command('set', ['k', 'v']) (Command from 'ioredis')"));
    }
    const context = replyContextOf(installedIoredisMajor(), this.options);
    if (typeof command.setReplyContext === 'function') command.setReplyContext(context);
    if (context.caseInsensitiveTransformers && hasCaseInsensitiveTransformer(command.name) && typeof command.transformReply === 'function') {
      // ioredis 6.1: the upper-cased name sent here gets the transformer of the Command's own
      // name (any casing finds it) in the fake's encoding already; the Command keeps only its
      // reply encoding (convertBufferToString), as it would apply it before that transformer
      // (which only regroups the array, so the order does not matter)
      command.transformReply = function transformReply(this: any, result: unknown) {
        return this.replyEncoding ? buffersToStrings(result, this.replyEncoding) : result;
      };
    }
    delivered(withClientTimeouts(this, command.name, command.args, 0, callCommand(this, command.name.toUpperCase(), command.args, true, command.name))).then(
      (reply) => command.resolve(reply),
      (err) => {
        // the error names the command as the Command spelled it (not the upper-cased name sent)
        if (err && typeof err === 'object' && err.command && typeof err.command === 'object') err.command = { ...err.command, name: command.name };
        // a rejection the test setup's end-of-test close caused is no unhandled one (settledAsClient)
        if (isSetupClose(err)) command.promise.catch(() => undefined);
        command.reject(err);
      },
    );
    return command.promise;
  });

  // --- lifecycle
  defineMethod(proto, 'connect', function connect(this: Instance, callback?: unknown) {
    return withCallback(connectInstance(this, emulators), typeof callback === 'function' ? (callback as never) : undefined);
  });
  defineMethod(proto, 'disconnect', function disconnect(this: Instance, reconnect?: unknown) {
    closeInstance(this, reconnect === true);
  });
  defineMethod(proto, 'end', function end(this: Instance) {
    closeInstance(this);
  });

  // --- transactions: MULTI through call() is the engine's; multi() is a Pipeline (pipeline.ts)
  // The Pipeline's ~1500 methods are installed with the first pipeline()/multi() (pipeline.ts):
  // a test file that never pipelines does not pay for them.
  let pipelineInstalled = false;
  const ensurePipeline = () => {
    if (pipelineInstalled) return;
    pipelineInstalled = true;
    installPipeline(RedisMock, emulators, routes, commandMethods);
  };
  // made by newPipeline, not ioredis-mock's pipeline()/multi(): those park the new pipeline on the
  // client (`this.batch`), where a later `exec()` on the client would run it (a real ioredis
  // client keeps no such pipeline), and give it a `length` of their own
  defineMethod(proto, 'pipeline', function pipeline(this: Instance, ...args: unknown[]) {
    ensurePipeline();
    // ioredis's `pipeline(commands)`: each `[name, …args]` queued through the pipeline's own method
    // (`['multi']` … `['exec']` make a transaction inside it); anything else than an array: none
    const batch = newPipeline(RedisMock, this, false);
    const commands = args[0];
    if (Array.isArray(commands)) for (const [name, ...rest] of commands as unknown[][]) batch[name as string](...rest);
    return batch;
  });
  defineMethod(proto, 'multi', function multi(this: Instance, ...args: unknown[]) {
    // ioredis's `multi({ pipeline: false })` (also `multi(commands, { pipeline: false })`, which
    // ignores the commands): MULTI is sent at once; the client's next commands answer QUEUED and
    // `exec()` sends EXEC (ioredis Redis#multi → Commander#multi)
    const options = args.length === 1 && !Array.isArray(args[0]) ? args[0] : args[1];
    if ((options as { pipeline?: unknown } | undefined)?.pipeline === false) {
      return runEngineCommand(this, emulators, 'multi', [], false);
    }
    ensurePipeline();
    // ioredis's `multi(commands)`: the commands queued after MULTI, as `pipeline(commands)` queues them
    const batch = newPipeline(RedisMock, this, true);
    const commands = args[0];
    if (Array.isArray(commands)) for (const [name, ...rest] of commands as unknown[][]) batch[name as string](...rest);
    return batch;
  });
  defineMethod(proto, 'exec', function exec(this: Instance, callback?: unknown) {
    const cb = typeof callback === 'function' ? (callback as never) : undefined;
    // EXEC on the connection (a `multi()` pipeline is exec'd on itself, as with ioredis);
    // EXEC after `multi({ pipeline: false })`: ioredis wraps the replies as a pipeline's,
    // `[null, reply]` or `[error]` each (transaction.ts wrapMultiResult); null when WATCH failed
    // (settledAsClient: the wrapping is a promise of its own; a rejection the test setup's
    // end-of-test close caused is no unhandled one there either)
    const wrapped = settledAsClient(
      delivered(withClientTimeouts(this, 'exec', [], 0, runEngineCommand(this, emulators, 'exec', [], false))).then((replies) =>
        Array.isArray(replies) ? replies.map((r) => (r instanceof Error ? [r] : [null, r])) : replies,
      ),
    );
    return withCallback(wrapped, cb);
  });
  // execBuffer: EXEC's replies as they are (ioredis does not wrap them), values as Buffers
  defineMethod(proto, 'execBuffer', function execBuffer(this: Instance, callback?: unknown) {
    const cb = typeof callback === 'function' ? (callback as never) : undefined;
    return answered(this, 'exec', [], 0, runEngineCommand(this, emulators, 'exec', [], true), cb);
  });

  // --- scripts: ioredis `defineCommand(name, { numberOfKeys?, lua })` (per instance, as ioredis)
  defineMethod(proto, 'defineCommand', function defineCommand(this: Instance, name: string, definition: { numberOfKeys?: number | null; lua: string }) {
    const fixed = typeof definition?.numberOfKeys === 'number';
    let sha: string | undefined;
    // ioredis's Script: the first call on a socket sends EVAL with the body (which caches it in
    // the server), later ones EVALSHA; a NOSCRIPT reply (SCRIPT FLUSH, a restart) makes the socket
    // unknown again and the call is resent — as EVAL. Inside MULTI nothing is resent: EXEC
    // answers NOSCRIPT in that command's place. Per defined command and connection, as ioredis's
    // per-Script WeakSet of sockets.
    const loadedOn = new WeakSet<object>();
    const connOf = (redis: Instance): Connection | undefined => redis?.[CONN];
    /** `[command, ...arguments]` of a call now: EVAL with the body, or EVALSHA once sent on this connection. */
    const toArgs = (redis: Instance, raw: unknown[]): unknown[] => {
      const args = flatten(raw);
      const conn = connOf(redis);
      const loaded = conn !== undefined && loadedOn.has(conn);
      if (!fixed && args.length < 1) return [loaded ? 'evalsha' : 'eval']; // the command's arity error
      sha ??= lua().sha1hex(toByteString(definition?.lua));
      const head = loaded ? ['evalsha', sha] : ['eval', definition?.lua];
      return fixed ? [...head, definition.numberOfKeys, ...args] : [...head, ...args];
    };
    /** The call is being sent as `command`: an EVAL loads the script on this connection. */
    const sent = (redis: Instance, command: string) => {
      const conn = connOf(redis);
      if (conn !== undefined && command === 'eval') loadedOn.add(conn);
    };
    const forget = (redis: Instance) => {
      const conn = connOf(redis);
      if (conn !== undefined) loadedOn.delete(conn);
    };
    const method = (buffers: boolean) =>
      function customCommand(this: Instance, ...raw: unknown[]) {
        const cb = popCallback(raw);
        const attempt = (): Promise<unknown> => {
          let argv: unknown[];
          try {
            argv = toArgs(this, raw);
          } catch (err) {
            return Promise.reject(err);
          }
          sent(this, argv[0] as string);
          return runEngineCommand(this, emulators, argv[0] as string, argv.slice(1), buffers);
        };
        // (settledAsClient: the retry is a promise of its own; a rejection the test setup's
        // end-of-test close caused is no unhandled one there either)
        const reply = settledAsClient(
          attempt().catch((err: unknown) => {
            if (!isNoScript(err)) throw err;
            forget(this);
            return attempt();
          }),
        );
        return answered(this, 'evalsha', raw, 0, reply, cb);
      };
    this[name] = method(false);
    this[`${name}Buffer`] = method(true);
    // for pipeline()/multi(): ioredis-mock's Pipeline copies customCommands
    const redis = this;
    const command = { kind: 'script', toArgs: (raw: unknown[]) => toArgs(redis, raw), sent: (c: string) => sent(redis, c), forget: () => forget(redis) };
    this.customCommands[name] = command;
    this.customCommands[`${name}Buffer`] = command;
  });

  // --- scan streams: ioredis's own ScanStream calling the methods above
  for (const [method, command, hasKey] of [
    ['scanStream', 'scan', false],
    ['scanBufferStream', 'scanBuffer', false],
    ['sscanStream', 'sscan', true],
    ['sscanBufferStream', 'sscanBuffer', true],
    ['hscanStream', 'hscan', true],
    ['hscanBufferStream', 'hscanBuffer', true],
    ['zscanStream', 'zscan', true],
    ['zscanBufferStream', 'zscanBuffer', true],
  ] as const) {
    defineMethod(proto, method, function scanStream(this: Instance, ...args: unknown[]) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ScanStream = (require('ioredis/built/ScanStream') as { default: new (opt: object) => unknown }).default;
      const key = hasKey ? args[0] : undefined;
      const options = (hasKey ? args[1] : args[0]) ?? {};
      return new ScanStream({ objectMode: true, key, redis: this, command, ...(options as object) });
    });
  }

  methodLayer.commit();
  methodLayer = undefined;
  return RedisMock;
}
