/**
 * Counters of one emulated server, as INFO reports them (server.h `struct redisServer` stats):
 * the dirty counter (`rdb_changes_since_last_save`), per-command statistics (INFO commandstats:
 * calls, usec, rejected_calls, failed_calls — keyed by Redis's full command name such as
 * `xgroup|create`), error statistics (INFO errorstats: count per error code, the first word of
 * the error text) and the Stats section counters.
 *
 * What the engine calls (one `ServerStats` per emulated server, shared by its databases):
 * - `addDirty(n)` whenever a command changes the dataset (`server.dirty += n`); stream commands
 *   report through `Db.dirty` (lib/commands/types.ts), other commands as their engine decides;
 * - `commandDone(name, usec, outcome, errorText?)` once per executed command: outcome `ok`,
 *   `failed` (an error raised while running: `failed_calls`) or `rejected` (refused before
 *   running — arity, NOAUTH, MULTI queue-time errors: `rejected_calls`); every error reply is
 *   also counted in errorstats and `total_error_replies`;
 * - `errorReply(errorText)` for error replies not tied to a known command (unknown command,
 *   protocol errors) — Redis counts them in errorstats too;
 * - `connectionOpened()` per accepted client; `keyspaceHit()`/`keyspaceMiss()` optional.
 * `resetStats()` is CONFIG RESETSTAT (it keeps `dirty`, as Redis does).
 */

export interface CommandStats {
  calls: number;
  /** Total execution time in microseconds. */
  usec: number;
  rejectedCalls: number;
  failedCalls: number;
}

export type CommandOutcome = 'ok' | 'failed' | 'rejected';

/**
 * The errorstats code of an error reply's text (the wire text after its `-`), as Redis's
 * `afterErrorReply` takes it: everything before the first space, when that space is within the
 * reply's first 32 bytes (`-` included); else `ERR`. Whatever the word is: a script's
 * `redis.error_reply('no prefix here')` counts `no`, `{err='-X y'}` (sent `--X y`) `-X`, `{err=' x'}`
 * an empty code (7.0.15 and 8.x).
 */
export function errorCode(message: string): string {
  const space = message.indexOf(' ');
  return space >= 0 && space <= 30 ? message.slice(0, space) : 'ERR';
}

/** errorstats stops adding new codes after 128 distinct ones (ERROR_STATS_NUMBER). */
const ERROR_STATS_NUMBER = 128;

export class ServerStats {
  /** Changes since the last save (`server.dirty`). */
  dirty = 0;
  /** Every change since the server started (never reset): a command changed the dataset when it moved. */
  changes = 0;
  /** Unix ms of the last (pretended) save: start time, SAVE/BGSAVE/FLUSHALL. */
  lastSaveMs: number;
  totalConnectionsReceived = 0;
  totalCommandsProcessed = 0;
  totalErrorReplies = 0;
  unexpectedErrorReplies = 0;
  rejectedConnections = 0;
  keyspaceHits = 0;
  keyspaceMisses = 0;
  /** Objects freed by a background (lazy) free: an async FUNCTION FLUSH of more than 64 functions. */
  lazyfreedObjects = 0;
  expiredKeys = 0;
  /** Hash fields deleted because their TTL passed (7.4 `expired_subkeys`): actively, lazily, or given a past time. */
  expiredSubkeys = 0;
  /** Keys evicted by the maxmemory policy (lib/engine/maxmemory.ts). */
  evictedKeys = 0;
  totalNetInputBytes = 0;
  totalNetOutputBytes = 0;
  totalReadsProcessed = 0;
  totalWritesProcessed = 0;
  /** Command statistics in first-call order. */
  readonly commands = new Map<string, CommandStats>();
  /** Error code → count, in first-seen order. */
  readonly errors = new Map<string, number>();

  constructor(nowMs: number) {
    this.lastSaveMs = nowMs;
  }

  addDirty(n = 1): void {
    if (n > 0) {
      this.dirty += n;
      this.changes += n;
    }
  }

  /** The end of a pretended BGSAVE child (`rdb-key-save-delay` set) on the keyspace clock, or null. */
  private bgsaveEndMs: number | null = null;
  /** `dirty` when that child started (the changes it saves). */
  private bgsaveDirty = 0;

  /** A BGSAVE child that writes for `durationMs` (rdb-key-save-delay per key) starts now. */
  bgsaveStart(nowMs: number, durationMs: number): void {
    this.bgsaveEndMs = nowMs + durationMs;
    this.bgsaveDirty = this.dirty;
  }

  /**
   * Whether the BGSAVE child still runs at `nowMs` (INFO rdb_bgsave_in_progress); one that ended
   * counts as a save at its end (the changes made since it started stay unsaved).
   */
  bgsaveInProgress(nowMs: number): boolean {
    if (this.bgsaveEndMs === null) return false;
    if (nowMs < this.bgsaveEndMs) return true;
    this.dirty = Math.max(0, this.dirty - this.bgsaveDirty);
    this.lastSaveMs = this.bgsaveEndMs;
    this.bgsaveEndMs = null;
    return false;
  }

  /** FLUSHALL kills the BGSAVE child (killRDBChild): nothing saved. */
  bgsaveKill(): void {
    this.bgsaveEndMs = null;
  }

  /** A save happened (SAVE, BGSAVE, FLUSHALL with save points): dirty restarts at 0. */
  saved(nowMs: number): void {
    this.dirty = 0;
    this.lastSaveMs = nowMs;
  }

  connectionOpened(): void {
    this.totalConnectionsReceived++;
  }

  /** Count an error reply in errorstats and total_error_replies. */
  errorReply(message: string): void {
    this.totalErrorReplies++;
    const code = errorCode(message);
    const seen = this.errors.get(code);
    if (seen !== undefined) this.errors.set(code, seen + 1);
    else if (this.errors.size < ERROR_STATS_NUMBER) this.errors.set(code, 1);
  }

  /**
   * One command finished. `name` is Redis's full name (`xadd`, `xgroup|create`); `usec` its
   * run time. Error texts of failed/rejected calls go to errorstats as well.
   */
  commandDone(name: string, usec: number, outcome: CommandOutcome, errorText?: string): void {
    const s = this.commandRecord(name);
    if (outcome === 'rejected') {
      s.rejectedCalls++;
    } else {
      s.calls++;
      s.usec += usec;
      this.totalCommandsProcessed++;
      if (outcome === 'failed') s.failedCalls++;
    }
    if (outcome !== 'ok' && errorText !== undefined) this.errorReply(errorText);
  }

  /**
   * The commandstats record of `name` (created, in first-call order, when absent). Valid until
   * `resetStats` (which bumps `generation`): a caller that keeps it checks the generation.
   */
  commandRecord(name: string): CommandStats {
    let s = this.commands.get(name);
    if (!s) this.commands.set(name, (s = { calls: 0, usec: 0, rejectedCalls: 0, failedCalls: 0 }));
    return s;
  }

  /** `commandDone(name, usec, 'ok')` on a record from `commandRecord` of this generation. */
  commandOk(record: CommandStats, usec: number): void {
    record.calls++;
    record.usec += usec;
    this.totalCommandsProcessed++;
  }

  /**
   * latency-tracking no (latencystats): each command's calls and usec when it was turned off (a
   * command first run since counts from 0), null while on; `untracked`: what ran while it was off.
   * Kept at the switch and read by INFO, so the per-command path does not test the setting.
   */
  private latencyOffAt: Map<string, readonly [number, number]> | null = null;
  private readonly untracked = new Map<string, readonly [number, number]>();

  /** CONFIG SET latency-tracking yes|no. */
  setLatencyTracking(on: boolean): void {
    if (!on) {
      this.latencyOffAt ??= new Map([...this.commands].map(([n, c]) => [n, [c.calls, c.usec] as const]));
      return;
    }
    if (this.latencyOffAt === null) return;
    for (const [n, c] of this.commands) {
      const [calls, usec] = this.latencyOffAt.get(n) ?? [0, 0];
      const [uCalls, uUsec] = this.untracked.get(n) ?? [0, 0];
      this.untracked.set(n, [uCalls + c.calls - calls, uUsec + c.usec - usec]);
    }
    this.latencyOffAt = null;
  }

  /** The calls and usec of `name` that INFO latencystats shows: those run while latency-tracking was on. */
  trackedLatency(name: string, c: CommandStats): readonly [calls: number, usec: number] {
    const [calls, usec] = this.latencyOffAt === null ? [c.calls, c.usec] : this.latencyOffAt.get(name) ?? [0, 0];
    const u = this.untracked.get(name);
    return u === undefined ? [calls, usec] : [calls - u[0], usec - u[1]];
  }

  /** Bumped by `resetStats`: records from `commandRecord` before it are no longer counted. */
  generation = 0;

  /** CONFIG RESETSTAT: command, error and Stats counters back to zero (dirty is kept). */
  resetStats(): void {
    this.generation++;
    this.commands.clear();
    this.untracked.clear();
    if (this.latencyOffAt !== null) this.latencyOffAt = new Map();
    this.errors.clear();
    this.totalConnectionsReceived = 0;
    this.totalCommandsProcessed = 0;
    this.totalErrorReplies = 0;
    this.unexpectedErrorReplies = 0;
    this.rejectedConnections = 0;
    this.keyspaceHits = 0;
    this.keyspaceMisses = 0;
    this.lazyfreedObjects = 0;
    this.expiredKeys = 0;
    this.expiredSubkeys = 0;
    this.evictedKeys = 0;
    this.totalNetInputBytes = 0;
    this.totalNetOutputBytes = 0;
    this.totalReadsProcessed = 0;
    this.totalWritesProcessed = 0;
  }
}
