/**
 * INFO commandstats bookkeeping shared by every connection: how each command name (as sent) is
 * named in commandstats, and which calls are timed (`performance.now()` twice per call is a
 * sizeable share of a fast command, so calls past the first ones are sampled).
 */
import { bytesOf as toByteString } from '../bytes/index';
import { commandStatsName } from '../stats/command-stats';

/** INFO/CLIENT LIST name of built-in `name` whose first argument is `firstArg` (`object|encoding`). */
export function builtinFullName(name: string, firstArg: unknown): string {
  return BUILTIN_KINDS.get(name)?.subNamed && firstArg !== undefined ? commandStatsName([name, toByteString(firstArg)], false) : name;
}

/** How INFO commandstats names a command of the engine or the registry (by lower-case name). */
export const COMMAND_KINDS = new Map<string, { name: string; kind: 'command' | 'container' | 'unknown'; subNamed: boolean; seen: number }>();
/** Spellings cached at most (names as sent: `XADD`, `xadd`, `XaDd` … each once). */
export const COMMAND_KINDS_MAX = 4096;

/** Built-ins the ioredis front end runs itself, by lower-case name (see `builtinTimingWeight`). */
export const BUILTIN_KINDS = new Map<string, { subNamed: boolean; seen: number }>();

/** Calls of a command name that are all timed for INFO commandstats `usec` (see `timingWeight`). */
export const TIMED_CALLS = 64;
/** Past `TIMED_CALLS`, one call in this many is timed (a power of two). */
export const TIMING_SAMPLE = 16;

/**
 * Whether to time this call for INFO commandstats `usec`, and what its time counts for: 1 (timed,
 * counts once), `TIMING_SAMPLE` (timed, stands for itself and the untimed calls around it) or 0
 * (not timed). `performance.now()` costs ~50 ns of CPU (more in wall time on a busy machine) and
 * timing takes two reads, a sizeable share of a fast command (XLEN runs in ~0.3 µs), so a name's
 * first `TIMED_CALLS` calls (by its spelling as sent) are timed, then one in `TIMING_SAMPLE`, its
 * time multiplied: past those first calls `usec` (and `usec_per_call`) is an estimate of the total
 * run time rather than a sum of measurements; `calls` and the other counters stay exact.
 */
export function timingWeight(raw: unknown): number {
  const known = COMMAND_KINDS.get(raw as string);
  return known === undefined ? 1 : sampledWeight(known);
}

/** The weight of one more call of a name whose calls so far are `known.seen` (see `timingWeight`). */
export function sampledWeight(known: { seen: number }): number {
  const seen = ++known.seen;
  if (seen <= TIMED_CALLS) return 1;
  return (seen & (TIMING_SAMPLE - 1)) === 0 ? TIMING_SAMPLE : 0;
}

