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
import type { ReplyError as ReplyErrorClass } from 'redis-errors';
import { adapterModule, installStreamsOnFirstUse } from './adapter/bootstrap';
import { normalizeClientArgs } from './adapter/client-options';
import type { KeyspaceOptions } from './keyspace/keyspace';
export type {} from './ioredis-augment'; // types only: `streams` option, …Buffer twins and typed stream replies on ioredis's typings

// Start-up cost (jest loads the package once per test file): the adapter and the engine behind
// it load with the first client, not with the package (./adapter/bootstrap.ts); redis-errors
// with the first use of `ReplyError` (a getter below).

/**
 * Install the engine on an ioredis-mock class (idempotent): every instance created afterwards
 * has XADD, XREADGROUP, XAUTOCLAIM … and every other command as methods, `…Buffer` twins, in
 * `pipeline()` and `multi()`, and through `call()`. The default export's class gets it with its
 * first instance.
 * @param RedisMock the class exported by `ioredis-mock` 8
 * @returns the same class
 */
export function installStreams<T>(RedisMock: T): T {
  return adapterModule().installStreams(RedisMock);
}
export { createFakeClock, FakeClock } from './clock/fake-clock';
export type { FakeClockOptions } from './clock/fake-clock';
export { globalClock } from './clock/global-clock';
export { realClock } from './clock/real-clock';
export { StreamsMockError } from './clock/clock';
export type { Clock, ClockTimer } from './clock/clock';
export { REDIS_VERSIONS, DEFAULT_REDIS_VERSION, FEATURE_SINCE } from './version';
export type { RedisVersion } from './version';
export type { KeyspaceOptions } from './keyspace/keyspace';

/** ioredis's `ReplyError` (from redis-errors): the class of every error reply. */
export declare const ReplyError: typeof ReplyErrorClass;
Object.defineProperty(exports, 'ReplyError', {
  enumerable: true,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  get: () => (require('redis-errors') as { ReplyError: typeof ReplyErrorClass }).ReplyError,
});

/** Options of the fake client: ioredis's options plus `streams` (and ioredis-mock's `data`). */
export interface StreamsMockOptions extends RedisOptions {
  /** Clock and Redis version of this client's keyspace (shared by every client of it). */
  streams?: KeyspaceOptions;
  /** ioredis-mock: initial keys. */
  data?: Record<string, unknown>;
}

/** The fake client class: ioredis-mock with the stream commands installed. */
export interface StreamsRedisConstructor {
  new (options?: StreamsMockOptions): IORedis;
  new (port: number, options?: StreamsMockOptions): IORedis;
  new (port: number, host: string, options?: StreamsMockOptions): IORedis;
  new (path: string, options?: StreamsMockOptions): IORedis;
  readonly prototype: IORedis;
}

installStreamsOnFirstUse(RedisMockBase);

/**
 * The fake client class, named `Redis` like ioredis's: ioredis-mock's class (with the engine
 * installed) taking its constructor arguments as ioredis does (`new Redis('redis://:pw@host:6380/2')`
 * selects db 2; `rediss://`, `?db=`, a port number, option objects).
 */
class Redis extends (RedisMockBase as unknown as new (options?: object) => object) {
  constructor(...args: unknown[]) {
    super(normalizeClientArgs(args));
  }

  /** A new client with this one's options (its own connection to the same keyspace). */
  duplicate(override?: object): Redis {
    return new Redis({ ...(this as unknown as { options: object }).options, ...override });
  }
}
const RedisClass = Redis as unknown as StreamsRedisConstructor;
export { RedisClass as Redis };
/** ioredis-mock's Cluster class (also has the stream commands). */
export const Cluster = (RedisMockBase as unknown as { Cluster: unknown }).Cluster;
export default RedisClass;

import { type StreamsKeyspace, keyspaceView as view } from './keyspace/view';
export type { StreamsKeyspace } from './keyspace/view';

/** The keyspace of a fake client: its clock, emulated version and blocked calls. */
export function streamsKeyspace(redis: IORedis): StreamsKeyspace {
  return view(adapterModule().keyspaceOf(redis));
}

/**
 * Reset every keyspace created so far: keys deleted, blocked calls released, CONFIG back to the
 * defaults, and (unless `keepClocks`) each keyspace back on the default global clock and
 * version 8.10.
 */
export function resetAllKeyspaces(options: { keepClocks?: boolean } = {}): void {
  // every front end's keyspaces live in the engine's registry
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { allKeyspaces } = require('./engine/registry') as typeof import('./engine/registry');
  for (const ks of allKeyspaces()) {
    if (options.keepClocks) {
      ks.reset();
      ks.config.reset();
    } else ks.restoreDefaults();
  }
}
