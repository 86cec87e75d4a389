/**
 * Validation of the `streams` constructor option (library misuse is loud: StreamsMockError).
 * Hand-written: a schema library cost more import time than the rest of the package.
 */
import { acceptClock } from '../clock/accept';
import { StreamsMockError } from '../clock/clock';
import type { KeyspaceOptions } from '../keyspace/keyspace';
import { parseRedisVersion } from '../version';

const KEYS = ['clock', 'redisVersion'];

/** Parse `options.streams`; undefined when absent. Throws StreamsMockError when malformed. */
export function parseStreamsOptions(input: unknown): KeyspaceOptions | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new StreamsMockError(`invalid option streams: expected an object { clock?, redisVersion? }, got ${Array.isArray(input) ? 'an array' : typeof input}`);
  }
  const options = input as Record<string, unknown>;
  const unknown = Object.keys(options).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) {
    throw new StreamsMockError(`invalid option streams.${unknown[0]}: unknown option; streams takes clock and redisVersion`);
  }
  const out: KeyspaceOptions = {};
  if (options.clock !== undefined) {
    try {
      out.clock = acceptClock(options.clock);
    } catch (e) {
      throw new StreamsMockError(`invalid option streams.clock: ${(e as Error).message.replace('[ioredis-mock-streams] ', '')}`);
    }
  }
  if (options.redisVersion !== undefined) out.redisVersion = parseRedisVersion(options.redisVersion);
  return out;
}
