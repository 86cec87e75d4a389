/**
 * The public view of a keyspace (host:port/db) that tests read and change: `streamsKeyspace()`
 * of a fake client, and the same view for the other front ends' keyspaces.
 */
import type { Keyspace, KeyspaceOptions } from './keyspace';

/** What a test can read and change of a client's keyspace (host:port/db). */
export interface StreamsKeyspace {
  /** The keyspace clock (shared by all clients of the keyspace). */
  readonly clock: KeyspaceOptions['clock'];
  /** The emulated Redis version, e.g. '8.10'. */
  readonly redisVersion: string;
  /** Number of calls blocked in XREAD/XREADGROUP. */
  readonly blockedCount: number;
  /** Replace the clock (not while calls are blocked). */
  setClock(clock: NonNullable<KeyspaceOptions['clock']>): void;
  /** Emulate another Redis version, e.g. '7.0'. Throws StreamsMockError on unknown versions. */
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
    setClock: (clock) => ks.setClock(clock),
    setRedisVersion: (v) => ks.setRedisVersion(v),
    reset: () => ks.reset(),
    onEvent: (listener) => ks.onEvent(listener),
  };
}

