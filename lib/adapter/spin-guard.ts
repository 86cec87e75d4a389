/**
 * Keeps a command loop from starving the event loop.
 *
 * The fake answers through promises alone, so a loop that sends commands whose replies come at
 * once (`while (running) { try { await redis.xreadgroup(…) } catch {} }` once its group is gone)
 * never lets the event loop turn: no timer fires again, jest's test timeout included, and jest
 * hangs without printing anything. A real connection goes through the socket, so the same loop
 * only burns CPU. The guard counts commands between two turns of the event loop; past
 * `SPIN_LIMIT` the next command first waits for a macrotask (Node's own `setImmediate`,
 * ../clock/real-timers.ts: no fake timers replace it). Normal tests stay
 * fast and deterministic: a test loop of a thousand produce/consume/ack cycles (3,000 commands,
 * all answered in microtasks) runs without a wait; past ten thousand commands in one turn a loop
 * waits one macrotask per ten thousand. A runaway loop still yields: every ~0.1 s when each of its
 * commands fails (`catch {}` around an XREADGROUP refused with NOGROUP, measured). (With a
 * limit of 1,000, that 1,000-cycle loop paid two macrotask waits, each taking the stream methods'
 * slow path and deoptimizing their compiled code: ~15 ms of a fresh process's CPU, measured by
 * `npm run bench`'s stream cold path.)
 *
 * Clients the jest setup closed because their test ended (`orphan`) go further: once such a
 * client spins, its later commands never settle, so the leaked loop stops for good and jest can
 * exit. Observers (the jest setup) hear about each spinning client once (and once more when it
 * is parked), to name its test.
 */
import { realSetImmediate } from '../clock/real-timers';

/** Commands allowed between two turns of the event loop before one waits for a macrotask. */
export const SPIN_LIMIT = 10_000;

export type SpinVerdict = 'run' | 'park' | Promise<void>;

export interface SpinInfo {
  /** The client whose command passed the limit. */
  client: object;
  /** Commands sent since the event loop last turned. */
  commands: number;
  /** The jest setup closed this client (its test ended): its commands now never settle. */
  parked: boolean;
  /**
   * Counted since the test lifecycle closed the client, however often the event loop turned
   * (with reply timing 'macrotask' every rejection takes a turn), not since the last turn.
   */
  sinceClosed?: boolean;
}

/** Clients closed by the jest setup after their test ended, with that test's name. */
const orphans = new WeakMap<object, string>();
/** Clients already reported, as spinning and as parked (each once). */
const reportedSpin = new WeakSet<object>();
const reportedPark = new WeakSet<object>();
const parkedClients = new WeakSet<object>();
const observers = new Set<(info: SpinInfo) => void>();

let count = 0;
let armed = false;
/** Some client was ever parked (spares the WeakSet lookup per command until then). */
let anyParked = false;
/** What a command past the limit waits for (made only then: most turns never need it), and its resolver. */
let turn: Promise<void> | undefined;
let endTurn: (() => void) | undefined;

/** One macrotask per turn of the event loop in which commands ran: the count starts again. */
function arm(): void {
  armed = true;
  realSetImmediate(turned);
}

function turned(): void {
  armed = false;
  count = 0;
  const resolve = endTurn;
  turn = undefined;
  endTurn = undefined;
  resolve?.();
}

/** The promise of the current turn's end (the first command past the limit makes it). */
function turnEnd(): Promise<void> {
  turn ??= new Promise<void>((resolve) => (endTurn = resolve));
  return turn;
}

/**
 * Called by a client before each command: 'run' (go on now), a promise (wait for the event loop
 * to turn first), or 'park' (a spinning orphan: never answer).
 */
export function spinCheck(client: object): SpinVerdict {
  if (anyParked && parkedClients.has(client)) return 'park';
  if (!armed) arm();
  if (++count <= SPIN_LIMIT) return 'run';
  const parked = orphans.has(client);
  if (parked) park(client, { client, commands: count, parked });
  else if (!reportedSpin.has(client)) {
    reportedSpin.add(client);
    for (const o of observers) o({ client, commands: count, parked });
  }
  return parked ? 'park' : turnEnd();
}

/** Park an orphaned client (its commands never settle again) and report it, once. */
function park(client: object, info: SpinInfo): void {
  parkedClients.add(client);
  anyParked = true;
  if (reportedPark.has(client)) return;
  reportedPark.add(client);
  for (const o of observers) o(info);
}

/** Mark a client its test no longer owns (the jest setup closed it). */
export function markOrphan(client: object, testName: string): void {
  orphans.set(client, testName);
}

/** The test that owned an orphaned client. */
export function orphanTestOf(client: object): string | undefined {
  return orphans.get(client);
}

const closedUseObservers = new Set<(client: object, command: string) => void>();
/** Commands sent to each orphaned client since it was closed. */
const closedUses = new WeakMap<object, number>();

/**
 * A command sent to a client that is closed: the observers of `onClosedUse` hear of it when the
 * test lifecycle closed that client (an orphan). Its caller rejects the command as ever.
 * @param command the command's name as the method or pipeline entry has it
 */
export function noteClosedUse(client: object, command: string): void {
  if (!orphans.has(client)) return;
  // A loop that keeps retrying on its closed client is parked past the limit even when each
  // rejection comes a turn of the event loop later (reply timing 'macrotask'), where the
  // per-turn count of spinCheck never reaches it: it would run for ever and keep the runner alive.
  const n = (closedUses.get(client) ?? 0) + 1;
  closedUses.set(client, n);
  if (n > SPIN_LIMIT && !parkedClients.has(client)) park(client, { client, commands: n, parked: true, sinceClosed: true });
  for (const o of closedUseObservers) o(client, command);
}

/** Hear about each command sent to an orphaned client after it was closed. @returns unsubscribe */
export function onClosedUse(observer: (client: object, command: string) => void): () => void {
  closedUseObservers.add(observer);
  return () => void closedUseObservers.delete(observer);
}

/** Hear about each client that passes the limit (once per client). @returns unsubscribe */
export function onSpin(observer: (info: SpinInfo) => void): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}

/**
 * Run a client's command (a single command, or a whole `pipeline()`/`multi()` exec) behind the
 * guard: now, after the event loop turned, or never (a spinning orphan).
 */
export function guarded<T>(client: object, run: () => Promise<T>): Promise<T> {
  const verdict = spinCheck(client);
  if (verdict === 'run') return run();
  if (verdict === 'park') return new Promise<T>(() => undefined);
  return verdict.then(run);
}
