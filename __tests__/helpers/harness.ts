/**
 * A minimal in-memory harness for command-module unit tests: runs argv through the dispatcher
 * against a Map keyspace, with an explicit `now`. (End-to-end tests use the ioredis-mock
 * adapter instead; see __tests__/helpers/redis.ts.)
 */
import { dispatch } from '../../lib/commands/dispatch';
import type { CommandContext, CommandResult, Db } from '../../lib/commands/types';
import { CommandError, ERR_WRONGTYPE } from '../../lib/errors';
import { Stream } from '../../lib/model/stream';
import { DEFAULT_REDIS_VERSION, RedisVersion } from '../../lib/version';

export class Harness {
  readonly keys = new Map<string, unknown>();
  readonly signals: string[] = [];
  readonly events: [string, string][] = [];
  now = 1_700_000_000_000;
  version: RedisVersion = DEFAULT_REDIS_VERSION;
  canBlock = true;

  readonly db: Db = {
    getStream: (key) => {
      const v = this.keys.get(key);
      if (v === undefined) return undefined;
      if (!(v instanceof Stream)) throw new CommandError(ERR_WRONGTYPE);
      return v;
    },
    exists: (key) => this.keys.has(key),
    createStream: (key) => {
      const s = new Stream();
      this.keys.set(key, s);
      return s;
    },
    signalReady: (key) => void this.signals.push(key),
    touch: () => undefined,
    notify: (event, key) => void this.events.push([event, key]),
  };

  ctx(): CommandContext {
    return { now: this.now, version: this.version, db: this.db, canBlock: this.canBlock, isRetry: false };
  }

  /** Run a command; returns the reply (or BlockRequest) or throws CommandError. */
  run(...argv: (string | number)[]): CommandResult {
    return dispatch(this.ctx(), argv.map(String));
  }

  /** Run a command expected to fail; returns the error text. */
  error(...argv: (string | number)[]): string {
    try {
      this.run(...argv);
    } catch (e) {
      if (e instanceof CommandError) return e.message;
      throw e;
    }
    throw new Error(`expected ${argv.join(' ')} to fail`);
  }
}
