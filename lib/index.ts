/**
 * ioredis-mock-streams: Redis Streams consumer groups for ioredis-mock, exact to real Redis,
 * on a clock the test controls.
 *
 * @example
 * import Redis, { createFakeClock } from 'ioredis-mock-streams';
 * const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
 * const redis = new Redis({ streams: { clock, redisVersion: '8.10' } });
 */
import RedisMockBase = require('@ioredis-mock-streams/mock-runtime');
import type IORedis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { AbortError as AbortErrorClass, ReplyError as ReplyErrorClass } from 'redis-errors';
import { adapterModule, installStreamsOnFirstUse } from './adapter/bootstrap';
import { normalizeClientArgs } from './adapter/client-options';
import type { KeyspaceOptions } from './keyspace/keyspace';
export type {} from './ioredis-augment'; // types only: `streams` option, …Buffer twins and typed stream replies on ioredis's typings
export type {
  StreamEntry,
  StreamEntryBuffer,
  XAutoClaimReply,
  XAutoClaimJustIdReply,
  XAutoClaimReplyBuffer,
  XAutoClaimJustIdReplyBuffer,
  XPendingSummaryReply,
  XPendingExtendedReply,
  XPendingSummaryReplyBuffer,
  XPendingExtendedReplyBuffer,
} from './ioredis-augment';

// Start-up cost (jest loads the package once per test file): the adapter and the engine behind
// it load with the first client, not with the package (./adapter/bootstrap.ts); redis-errors
// with the first use of `ReplyError` (a getter below).

/** A value as a misuse error names it: `null`, `undefined`, `a string`, `an object` … */
function valueName(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  const t = typeof v;
  return t === 'object' ? 'an object' : t === 'undefined' ? 'undefined' : `a ${t}`;
}

/**
 * Install the engine on an ioredis-mock class (idempotent): every instance created afterwards
 * has XADD, XREADGROUP, XAUTOCLAIM … and every other command as methods, `…Buffer` twins, in
 * `pipeline()` and `multi()`, and through `call()`. The default export's class gets it with its
 * first instance.
 * @param RedisMock the class exported by `ioredis-mock` 8
 * @returns the same class
 */
export function installStreams<T>(RedisMock: T): T {
  if (typeof RedisMock !== 'function' || typeof (RedisMock as { prototype?: unknown }).prototype !== 'object') {
    throw new ClockError(`installStreams() takes the class ioredis-mock exports (require('ioredis-mock')), not ${valueName(RedisMock)}`);
  }
  return adapterModule().installStreams(RedisMock);
}
export { createFakeClock, FakeClock } from './clock/fake-clock';
export type { FakeClockOptions } from './clock/fake-clock';
export { globalClock } from './clock/global-clock';
export { realClock } from './clock/real-clock';
export type { ReplyTiming } from './adapter/delivery';
/**
 * When the replies of the package's ioredis clients settle: 'microtask' (default) or 'macrotask'
 * (a turn of the event loop later, as through a socket). See lib/adapter/delivery.ts.
 * @throws StreamsMockError for another value
 */
export function setReplyTiming(timing: import('./adapter/delivery').ReplyTiming): void {
  // loaded on use: the import path stays as small as before (startup test)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./adapter/delivery') as typeof import('./adapter/delivery')).setReplyTiming(timing);
}
export { StreamsMockError } from './clock/clock';
import { StreamsMockError as ClockError } from './clock/clock';
export type { Clock, ClockTimer } from './clock/clock';
export { REDIS_VERSIONS, DEFAULT_REDIS_VERSION, FEATURE_SINCE } from './version';
export type { RedisVersion } from './version';
export type { KeyspaceOptions } from './keyspace/keyspace';

/**
 * The `ReplyError` your ioredis exports (redis-errors' class, resolved from your ioredis): every
 * error reply of the fake is an instance of it (ioredis 6: of its `SimpleError` subclass, as
 * real ioredis 6 delivers them). This package's redis-errors when no ioredis is installed.
 */
export declare const ReplyError: typeof ReplyErrorClass;
Object.defineProperty(exports, 'ReplyError', {
  enumerable: true,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  get: () => (require('./adapter/reply-error') as typeof import('./adapter/reply-error')).ioredisReplyErrorClass() as typeof ReplyErrorClass,
});

// ioredis's other named exports (ioredis 5 and 6 `built/index.js`), so code written for ioredis
// (`import { Command, ScanStream } from 'ioredis'`) runs on the fake: the classes of the project's
// ioredis, each loaded on first use (never with this package). Read from their own files, not
// through `require('ioredis')`, which a test may have mocked with this package.
function fromIoredis(file: string, name = 'default'): () => unknown {
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { installedIoredisDir } = require('./adapter/command-table') as typeof import('./adapter/command-table');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const value = (require(`${installedIoredisDir()}/built/${file}`) as Record<string, unknown>)[name];
    // the user's Command.setArgumentTransformer / setReplyTransformer apply to the fake too
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (file === 'Command') (require('./adapter/user-transformers') as typeof import('./adapter/user-transformers')).watchIoredisTransformers(value);
    return value;
  };
}
/** ioredis's `Command` class (of your ioredis), e.g. for `Command.setArgumentTransformer`. */
export declare const Command: typeof import('ioredis').Command;
/** ioredis's `ScanStream` class (the fake's `scanStream()` returns one). */
export declare const ScanStream: typeof import('ioredis').ScanStream;
/** ioredis's `Pipeline` class (the fake's `pipeline()` returns ioredis-mock's own pipeline). */
export declare const Pipeline: typeof import('ioredis').Pipeline;
/** ioredis's `AbstractConnector` class (the fake opens no connections). */
export declare const AbstractConnector: typeof import('ioredis').AbstractConnector;
/** ioredis's `SentinelConnector` class (the fake opens no connections). */
export declare const SentinelConnector: typeof import('ioredis').SentinelConnector;
/** ioredis's `SentinelIterator` class. */
export declare const SentinelIterator: typeof import('ioredis').SentinelIterator;
/** ioredis's client defaults (`Redis.defaultOptions` of your ioredis). */
export declare const defaultOptions: RedisOptions;
for (const [name, get] of [
  ['Command', fromIoredis('Command')],
  ['ScanStream', fromIoredis('ScanStream')],
  ['Pipeline', fromIoredis('Pipeline')],
  ['AbstractConnector', fromIoredis('connectors/AbstractConnector')],
  ['SentinelConnector', fromIoredis('connectors/SentinelConnector')],
  ['SentinelIterator', fromIoredis('connectors/SentinelConnector', 'SentinelIterator')],
  // a static of ioredis's class (ioredis's client defaults), not in its typings
  ['defaultOptions', fromIoredis('redis/RedisOptions', 'DEFAULT_REDIS_OPTIONS')],
] as const) {
  Object.defineProperty(exports, name, { enumerable: true, configurable: true, get });
}

// ioredis 6.1's exported error classes (built/errors of the project's ioredis, loaded on first
// use): `err instanceof MaxRetriesPerRequestError` as with ioredis; undefined with an ioredis that
// has no such class (WatchError and the maintenance timeouts are ioredis 6.1's; ioredis 5 and 6.0
// have MaxRetriesPerRequestError without exporting it: given, as the class their rejections use).
/** ioredis's `MaxRetriesPerRequestError` (a command of a client that gave up reconnecting; ioredis 6.1 exports it). */
export declare const MaxRetriesPerRequestError: typeof AbortErrorClass;
/** ioredis 6.1's `WatchError` (a transaction whose WATCH a connection handoff invalidated). */
export declare const WatchError: typeof AbortErrorClass;
/** ioredis 6.1's `CommandTimeoutDuringMaintenanceError`. */
export declare const CommandTimeoutDuringMaintenanceError: typeof AbortErrorClass;
/** ioredis 6.1's `SocketTimeoutDuringMaintenanceError`. */
export declare const SocketTimeoutDuringMaintenanceError: typeof AbortErrorClass;
for (const name of ['MaxRetriesPerRequestError', 'WatchError', 'CommandTimeoutDuringMaintenanceError', 'SocketTimeoutDuringMaintenanceError']) {
  const get = fromIoredis('errors', name);
  Object.defineProperty(exports, name, {
    enumerable: true,
    configurable: true,
    get: () => {
      try {
        return get();
      } catch {
        return undefined; // no ioredis, or one without built/errors
      }
    },
  });
}

/** ioredis's `print`: a callback that logs `Error: <err>` or `Reply: <reply>`. */
export function print(err: Error | null, reply?: unknown): void {
  if (err) console.log('Error: ' + err);
  else console.log('Reply: ' + reply);
}

/** Options of the fake client: ioredis's options plus `streams` (and ioredis-mock's `data`). */
export interface StreamsMockOptions extends RedisOptions {
  /** Clock and Redis version of this client's keyspace (shared by every client of it). */
  streams?: KeyspaceOptions;
  /** ioredis-mock: initial keys. */
  data?: Record<string, unknown>;
}

/**
 * ioredis 6's reply mappings (its `replyMapping` option): `'legacy'` (RESP2 shapes, the
 * default) or `'resp3'` (maps as objects, doubles as numbers). ioredis 5 has no such option.
 */
export type ReplyMappingMode = 'legacy' | 'resp3';

/**
 * The `replyMapping` option, typed as the installed ioredis types it: `{ replyMapping?: M }`
 * when its `RedisOptions` has the option (ioredis 6), nothing to add on ioredis 5 (where
 * `replyMapping` stays an unknown option, as it is for ioredis 5 itself).
 */
type ReplyMappingOption<M> = 'replyMapping' extends keyof RedisOptions ? { replyMapping?: M } : unknown;

/**
 * ioredis's class with one extra generic construct signature in front, so that the
 * instantiation expression `typeof IORedisClassProbe<M>` compiles with either ioredis: with
 * ioredis 6 (a generic class) it keeps ioredis's own constructors instantiated with M; with
 * ioredis 5 (not generic) it drops them and only the placeholder (instance type `never`)
 * remains. A type-only declaration: nothing of it exists at run time.
 */
declare const IORedisClassProbe: (new <M>(mapping: M) => never) & typeof IORedis;

/**
 * The client type `new Redis({ replyMapping: M })` gives with the installed ioredis: ioredis 6's
 * `Redis<M>` (its commands typed for that mapping: XREADGROUP and XREAD a `Record<key, entries>`
 * under `'resp3'`), or ioredis 5's `Redis` (not generic, no `replyMapping` option).
 */
export type StreamsRedisInstance<M extends ReplyMappingMode = 'legacy'> = [M] extends [ReplyMappingMode]
  ? OrIORedis<InstanceType<typeof IORedisClassProbe<M>>>
  : never;
type OrIORedis<I> = [I] extends [never] ? IORedis : I;

/**
 * The fake client class: ioredis-mock with the stream commands installed. Its constructor
 * takes what ioredis's does, plus `streams` (and ioredis-mock's `data`), and gives the client
 * type ioredis's constructor gives for the same arguments: with ioredis 6,
 * `new Redis({ replyMapping: 'resp3' })` is a `Redis<'resp3'>`, as for ioredis's own class.
 */
export interface StreamsRedisConstructor {
  new <M extends ReplyMappingMode = 'legacy'>(port: number, host: string, options: StreamsMockOptions & ReplyMappingOption<M>): StreamsRedisInstance<M>;
  new <M extends ReplyMappingMode = 'legacy'>(path: string, options: StreamsMockOptions & ReplyMappingOption<M>): StreamsRedisInstance<M>;
  new <M extends ReplyMappingMode = 'legacy'>(port: number, options: StreamsMockOptions & ReplyMappingOption<M>): StreamsRedisInstance<M>;
  new (port: number, host: string): IORedis;
  new <M extends ReplyMappingMode = 'legacy'>(options: StreamsMockOptions & ReplyMappingOption<M>): StreamsRedisInstance<M>;
  new (port: number): IORedis;
  new (path: string): IORedis;
  new (): IORedis;
  readonly prototype: IORedis;
  /** ioredis's Cluster class on in-process fake nodes (see `Cluster`). */
  readonly Cluster: StreamsClusterConstructor;
}

/** Options of the fake `Cluster`: ioredis's, plus the keyspace's clock/version and the number of masters. */
export type StreamsClusterOptions = import('ioredis').ClusterOptions & {
  /** Clock and emulated version of the cluster's keyspace (as the client option `streams`). */
  streams?: import('./keyspace/keyspace').KeyspaceOptions;
  /** Masters of the emulated cluster, made by its first client. @default 3 */
  masters?: number;
  /** Warn when a Lua script touches a key it did not declare in KEYS. @default false */
  warnUndeclaredKeys?: boolean;
};

/** The fake `Cluster` class: ioredis's `Cluster`, constructed with `StreamsClusterOptions`. */
export interface StreamsClusterConstructor {
  new (startupNodes: import('ioredis').ClusterNode[], options?: StreamsClusterOptions): import('ioredis').Cluster;
  readonly prototype: import('ioredis').Cluster;
}

installStreamsOnFirstUse(RedisMockBase);

/** Whether `new value()` could run (without running it). */
function isConstructor(value: unknown): boolean {
  if (typeof value !== 'function') return false;
  try {
    Reflect.construct(Object, [], value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The fake client class, named `Redis` like ioredis's: ioredis-mock's class (with the engine
 * installed) taking its constructor arguments as ioredis does (`new Redis('redis://:pw@host:6380/2')`
 * selects db 2; `rediss://`, `?db=`, a port number, option objects).
 */
class Redis extends (RedisMockBase as unknown as new (options?: object) => object) {
  constructor(...args: unknown[]) {
    const options = normalizeClientArgs(args);
    // ioredis constructs `new this.options.Connector(this.options)` when one is given; the fake
    // opens no socket and calls none, but a value that is no constructor fails as it does there
    const connector = (options as { Connector?: unknown }).Connector;
    if (connector && !isConstructor(connector)) throw new TypeError('this.options.Connector is not a constructor');
    super(options);
  }

  /** `new Redis(...args)`, as ioredis's static (kept for node-redis compatibility). */
  static createClient(...args: unknown[]): Redis {
    return new Redis(...args);
  }

  /**
   * A new client with this one's options (its own connection to the same keyspace). Its `streams`
   * option (clock, Redis version) is not applied to the keyspace again, unless `override` gives
   * one: a clock or version set since (`streamsKeyspace(redis).setClock()`) stays.
   */
  duplicate(override?: object): Redis {
    const { streams: _applied, ...options } = (this as unknown as { options: { streams?: unknown } }).options ?? {};
    return new Redis({ ...options, ...override });
  }
}
const RedisClass = Redis as unknown as StreamsRedisConstructor;
export { RedisClass as Redis };
/**
 * ioredis's own `Cluster` class (of your ioredis) served by the fake: its node connections reach
 * in-process fake nodes of an emulated Redis Cluster (3 masters by default) instead of sockets,
 * so slots, MOVED, CROSSSLOT, pipelines, MULTI, scripts, pub/sub and blocking reads behave as
 * against a real cluster (lib/cluster/in-process.ts). Also `Redis.Cluster`. Loaded on first use.
 */
export declare const Cluster: StreamsClusterConstructor;
const clusterGetter = () => (require('./cluster/in-process') as typeof import('./cluster/in-process')).fakeClusterClass();
Object.defineProperty(exports, 'Cluster', { enumerable: true, configurable: true, get: clusterGetter });
Object.defineProperty(Redis, 'Cluster', { enumerable: false, configurable: true, get: clusterGetter });
export default RedisClass;

import { type StreamsKeyspace, keyspaceView as view } from './keyspace/view';
export type { StreamsKeyspace } from './keyspace/view';

/** The keyspace of a fake client (or of a fake `Cluster`): its clock, emulated version and blocked calls. */
export function streamsKeyspace(redis: IORedis | StreamsRedisInstance<'resp3'> | import('ioredis').Cluster): StreamsKeyspace {
  if (redis === null || (typeof redis !== 'object' && typeof redis !== 'function')) {
    throw new ClockError(`streamsKeyspace() takes a client of the fake (new Redis() from ioredis-mock-streams) or its Cluster, not ${valueName(redis)}`);
  }
  // the fake Cluster: its keyspace (lib/cluster/in-process.ts)
  const clusterKeyspace = (redis as unknown as Record<symbol, unknown>)[Symbol.for('ioredis-mock-streams.clusterKeyspace')];
  if (clusterKeyspace !== undefined) return view(clusterKeyspace as Parameters<typeof view>[0]);
  return view(adapterModule().keyspaceOf(redis as IORedis));
}

/**
 * Reset every keyspace created so far: a script still running (in slices) is stopped, its caller
 * rejecting with StreamsMockError "… a script still running at the reset …", keys deleted,
 * blocked calls released, CONFIG back to the defaults, and (unless `keepClocks`) each keyspace
 * back on the default global clock and version 8.10.
 * @throws StreamsMockError when `options` is not an object of `{ keepClocks?: boolean }`
 */
export function resetAllKeyspaces(options: { keepClocks?: boolean } = {}): void {
  if (options === null || typeof options !== 'object') {
    throw new ClockError(`resetAllKeyspaces(options): options must be an object such as { keepClocks: true }, got ${valueName(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'keepClocks') throw new ClockError(`resetAllKeyspaces(options): unknown option '${key}' (the one option is keepClocks)`);
  }
  if (options.keepClocks !== undefined && typeof options.keepClocks !== 'boolean') {
    throw new ClockError(`resetAllKeyspaces(options): keepClocks must be true or false, got ${valueName(options.keepClocks)}`);
  }
  // every front end's keyspaces live in the engine's registry
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { allKeyspaces, stopRunningScripts } = require('./engine/registry') as typeof import('./engine/registry');
  stopRunningScripts();
  for (const ks of allKeyspaces()) {
    if (options.keepClocks) {
      ks.reset();
      ks.config.reset();
    } else ks.restoreDefaults();
  }
}

/**
 * For the one-line route (`jest.mock('ioredis', () => require('ioredis-mock-streams'))`, or
 * `vi.mock` with vitest's `globals: true`): call once at the top of a test file to get what the
 * setup file does around each test of that file — keyspaces emptied as by FLUSHALL (blocked calls
 * of clients made outside tests stay blocked; the test's own are released and named), CONFIG and
 * ACL users given back as they were when the test started,
 * clocks and versions back to the defaults (clients made outside tests with `streams` options
 * keep theirs), the clients created during a test closed once its afterEach hooks ran, and a loop
 * that outlived its test stopped and named. Calling it twice in a file registers nothing more.
 * @throws StreamsMockError outside a test file (no `beforeEach`/`afterEach` globals)
 */
export function useTestLifecycle(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { installJestLifecycle } = require('./runners/jest-hooks') as typeof import('./runners/jest-hooks');
  if (!installJestLifecycle()) {
    throw new ClockError('useTestLifecycle() registers beforeEach/afterEach hooks: call it at the top of a jest (or vitest with globals) test file');
  }
}
