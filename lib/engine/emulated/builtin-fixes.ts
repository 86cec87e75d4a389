/**
 * The built-ins the adapter answers or corrects itself instead of taking ioredis-mock's answer
 * (./builtins.ts runBuiltin), by lower-case name, and their modules, loaded on first use: a
 * jest test file that never sends one of these commands does not read or run them (each test
 * file evaluates the client's modules again), so the first client's cost does not grow with
 * every correction.
 */
import type * as IntegersModule from './integers';
import type * as LongDoubleModule from './long-double';
import type * as ZsetRangesModule from './zset-ranges';
import type * as ZsetScoresModule from './zset-scores';

/** HINCRBY: exact 64-bit arithmetic (./integers.ts; INCR & co. are engine commands, lib/commands/incr.ts). */
export const INTEGER_COMMANDS: ReadonlySet<string> = new Set(['hincrby']);

/** HINCRBYFLOAT: the sum in long double (./long-double.ts; INCRBYFLOAT is an engine command). */
export const LONG_DOUBLE_COMMANDS: ReadonlySet<string> = new Set(['hincrbyfloat']);

/** Sorted-set commands whose replies hold scores, printed as the version prints them (./zset-scores.ts). */
export const SCORE_REPLY_COMMANDS: ReadonlySet<string> = new Set([
  'zscore', 'zincrby', 'zmscore', 'zscan', 'zpopmin', 'zpopmax', 'zrange', 'zrangebyscore', 'zrevrange', 'zrevrangebyscore', 'zunion', 'zinter', 'zdiff', 'zrandmember',
]);

/** Score ranges selected as Redis does (./zset-ranges.ts). */
export const SCORE_RANGE_COMMANDS: ReadonlySet<string> = new Set(['zrangebyscore', 'zrevrangebyscore', 'zcount', 'zremrangebyscore', 'zrange']);

/* eslint-disable @typescript-eslint/no-require-imports */
let integers: typeof IntegersModule | undefined;
let longDouble: typeof LongDoubleModule | undefined;
let zsetRanges: typeof ZsetRangesModule | undefined;
let zsetScores: typeof ZsetScoresModule | undefined;

export const integersModule = (): typeof IntegersModule => (integers ??= require('./integers') as typeof IntegersModule);
export const longDoubleModule = (): typeof LongDoubleModule => (longDouble ??= require('./long-double') as typeof LongDoubleModule);
export const zsetRangesModule = (): typeof ZsetRangesModule => (zsetRanges ??= require('./zset-ranges') as typeof ZsetRangesModule);
export const zsetScoresModule = (): typeof ZsetScoresModule => (zsetScores ??= require('./zset-scores') as typeof ZsetScoresModule);
