/**
 * The public view of a keyspace (host:port/db) that tests read and change: `streamsKeyspace()`
 * of a fake client, and the same view for the other front ends' keyspaces.
 */
import { StreamsMockError, type Clock } from '../clock/clock';
import type { Keyspace, KeyspaceOptions } from './keyspace';

/** What a test can read and change of a client's keyspace (host:port/db). */
export interface StreamsKeyspace {
  /**
   * The keyspace clock (shared by all clients of the keyspace): the clock given in
   * `streams.clock` / `setClock()`, else db 0's of the same server (another database nobody
   * configured follows it), else the global clock; `clock.now()` is ms since the epoch.
   */
  readonly clock: Clock;
  /** The emulated Redis version, e.g. '8.10'. */
  readonly redisVersion: string;
  /** Number of calls blocked in XREAD/XREADGROUP (and the other blocking commands). */
  readonly blockedCount: number;
  /**
   * Resolves once at least `count` calls of this keyspace are blocked (a reader's XREADGROUP …
   * BLOCK reached the keyspace and waits), so a test can move the clock or write only then.
   * Checks every 1 ms of real time (timers captured at import, so fake timers do not stall it).
   * @param count whole number >= 0, @default 1
   * @param options.timeoutMs real ms to wait before rejecting, @default 2000
   * @throws (rejects with) StreamsMockError for a bad count, or when `timeoutMs` passed first
   *   (the message says how many calls are blocked)
   */
  waitForBlocked(count?: number, options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Replace the clock of this keyspace and of the databases that follow it (the other databases
   * of a db 0 keyspace that have no clock of their own). Throws StreamsMockError while calls are
   * blocked in one of them, or for a value that is not a clock.
   */
  setClock(clock: NonNullable<KeyspaceOptions['clock']>): void;
  /**
   * Emulate another Redis version, e.g. '7.0' (also in the databases that follow this one).
   * Throws StreamsMockError on unknown versions.
   */
  setRedisVersion(version: string): void;
  /** Delete every key and release blocked calls (they reject with "Connection is closed."). */
  reset(): void;
  /**
   * Observe the keyspace events of stream commands (`xadd`, `xtrim`, `xdel`, `xsetid`,
   * `xgroup-create`, `xgroup-setid`, `xgroup-destroy`, `xgroup-createconsumer`,
   * `xgroup-delconsumer`), with the full key, whatever `notifyKeyspaceEvents` says.
   * @returns a function that removes the listener
   */
  onEvent(listener: (event: string, key: string) => void): () => void;
}

/** The view of `ks`. */
export function keyspaceView(ks: Keyspace): StreamsKeyspace {
  return {
    get clock() {
      return ks.clock;
    },
    get redisVersion() {
      return ks.redisVersion;
    },
    get blockedCount() {
      return ks.blocking.size;
    },
    waitForBlocked(count = 1, options = {}) {
      if (!Number.isInteger(count) || count < 0) {
        return Promise.reject(new StreamsMockError(`waitForBlocked(count) needs an integer >= 0, got ${String(count)}`));
      }
      const timeoutMs = options.timeoutMs ?? 2000;
      if (!(typeof timeoutMs === 'number' && timeoutMs >= 0)) {
        return Promise.reject(new StreamsMockError(`waitForBlocked(count, { timeoutMs }) needs ms >= 0, got ${String(timeoutMs)}`));
      }
      const n = (k: number) => `${k} call${k === 1 ? ' is' : 's are'} blocked`;
      // loaded on first use: off the package's import path (__tests__/adapter/startup.test.ts)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { waitForCount } = require('../clock/wait-for-count') as typeof import('../clock/wait-for-count');
      return waitForCount(count, () => ks.blocking.size, timeoutMs, `waitForBlocked(${count})`, n).promise;
    },
    setClock: (clock) => ks.setClock(clock),
    setRedisVersion: (v) => ks.setRedisVersion(v),
    reset: () => ks.reset(),
    onEvent: (listener) => ks.onEvent(listener),
  };
}

