/**
 * The interface the replayer drives: a place where scenario commands run. Three
 * implementations: `fake.ts` (this library on ioredis-mock, fake clock), `upstash.ts` (this
 * library through its Upstash REST front end) and `real.ts` (a real Redis server through ioredis).
 */
import type { Scenario } from '../format';
import { realClearTimeout, realSetTimeout } from '../../clock/real-timers';

/** State of a command started with `async`, shared with the target while it settles. */
export interface PendingCall {
  /** Becomes true once the command's promise resolved or rejected. */
  settled: boolean;
}

/** One scenario's run: its clients and its clock. */
export interface TargetSession {
  /**
   * Runs a command on a client; resolves with the reply (bulk strings as Buffers where the target
   * can, so that bytes that are not UTF-8 text stay as they are), rejects with the Redis error.
   */
  call(client: string, argv: readonly (string | Buffer)[]): Promise<unknown>;
  /** Lets `ms` milliseconds pass (fake clock tick, or a real sleep). */
  advance(ms: number): Promise<void>;
  /**
   * Called right after an `async` command was sent, before the next step runs, so the
   * order of events is deterministic: resolves once the command is blocked on the
   * server (or already settled).
   */
  settleAsync(client: string, pending: PendingCall): Promise<void>;
  /**
   * Closes every client of this run. Resolves with a reason when the run cannot be proven to have
   * touched only what it created (the real-server target: another client connected while a
   * whole-server scenario ran); the replayer then reports `race`, never `pass`.
   */
  close(): Promise<string | void>;
}

export interface Target {
  readonly kind: 'fake' | 'upstash' | 'real';
  /** Longest wait for one command or await step before the step fails, in ms. */
  readonly callTimeoutMs: number;
  /** A reason to skip this scenario on this target, or null to run it. */
  skipReason(scenario: Scenario): Promise<string | null>;
  /** Starts a fresh, empty keyspace with the scenario's clients. */
  open(scenario: Scenario): Promise<TargetSession>;
  /** Releases target-wide resources (connections). */
  dispose(): Promise<void>;
}

/** Sleeps in real time (Node's own timers: fake timers cannot stall the replayer). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}

/** Rejects with a `[ioredis-mock-streams]` timeout error when `promise` takes longer than `ms` (real time). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof realSetTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = realSetTimeout(() => reject(new ReplayTimeoutError(`${what}: no reply within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => realClearTimeout(timer));
}

/** A step that got no reply in time. Not a Redis error: reported as a replay failure. */
export class ReplayTimeoutError extends Error {
  constructor(message: string) {
    super(`[ioredis-mock-streams] ${message}`);
    this.name = 'ReplayTimeoutError';
  }
}

/**
 * A whole-server command was not sent because another client connected to the real server since
 * the scenario started: the run stops there and its result is `race` (this error's message says
 * what was seen).
 */
export class RaceAbortError extends Error {
  constructor(message: string) {
    super(`[ioredis-mock-streams] ${message}`);
    this.name = 'RaceAbortError';
  }
}

/** A scenario client by name; a name the scenario did not declare is a library error. */
export function clientNamed<C>(clients: ReadonlyMap<string, C>, name: string): C {
  const c = clients.get(name);
  if (!c) throw new Error(`[ioredis-mock-streams] unknown client "${name}"`);
  return c;
}
