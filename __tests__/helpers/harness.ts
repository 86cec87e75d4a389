/**
 * A minimal in-memory harness for command-module unit tests: runs argv through the dispatcher
 * against a Map keyspace, with an explicit `now`. (End-to-end tests use the ioredis-mock
 * adapter instead; see __tests__/helpers/redis.ts.)
 */
import { dispatch } from '../../lib/commands/dispatch';
import type { BlockRequest, CommandContext, CommandResult, Db } from '../../lib/commands/types';
import { isBlockRequest } from '../../lib/commands/types';
import { toResp2Plain } from '../../lib/reply/reply';
import { CommandError, ERR_WRONGTYPE } from '../../lib/errors';
import { Stream } from '../../lib/model/stream';
import { DEFAULT_REDIS_VERSION, RedisVersion } from '../../lib/version';

/** A command result in RESP2 form; a BlockRequest's re-runs answer in RESP2 form too. */
export function plainResult(out: CommandResult): CommandResult {
  if (!isBlockRequest(out)) return toResp2Plain(out) as CommandResult;
  const request: BlockRequest = { ...out, retry: (ctx, key) => plainResult(out.retry(ctx, key)) as ReturnType<BlockRequest['retry']> };
  return request;
}

export class Harness {
  readonly keys = new Map<string, unknown>();
  readonly signals: string[] = [];
  readonly events: [string, string][] = [];
  /** Keyspace notifications of every class, as `[type, event, key]`. */
  readonly notifications: [string, string, string][] = [];
  /** Absolute TTLs (ms) by key. */
  readonly ttls = new Map<string, number>();
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
    lookup: (key) => {
      const at = this.ttls.get(key);
      if (at !== undefined && at <= this.now) {
        this.keys.delete(key);
        this.ttls.delete(key);
      }
      return this.keys.get(key);
    },
    store: (key, value, keepTtl) => {
      this.keys.set(key, value);
      if (!keepTtl) this.ttls.delete(key);
    },
    remove: (key) => {
      this.ttls.delete(key);
      return this.keys.delete(key);
    },
    ttlAt: (key) => (this.keys.has(key) ? this.ttls.get(key) : undefined),
    setTtlAt: (key, at) => void this.ttls.set(key, at),
    persist: (key) => this.ttls.delete(key),
    notifyEvent: (type, event, key) => void this.notifications.push([type, event, key]),
    keyNames: () => [...this.keys.keys()],
  };

  ctx(): CommandContext {
    return { now: this.now, version: this.version, db: this.db, canBlock: this.canBlock, isRetry: false };
  }

  /**
   * Run a command; returns the reply in its RESP2 form (`toResp2Plain`: what a RESP2 client
   * sees, e.g. XREAD's map as `[key, entries]` pairs, `+OK` as 'OK', nils as null) or the
   * BlockRequest, or throws CommandError. `runTyped` returns the typed reply itself.
   */
  run(...argv: (string | number)[]): CommandResult {
    return plainResult(this.runTyped(...argv));
  }

  runTyped(...argv: (string | number)[]): CommandResult {
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
