/**
 * Scenario replayer: runs the steps of a scenario on a target (fake or real server) and
 * compares every reply with the expectation, stopping at the first mismatch.
 *
 * Step indexes in results and messages are 0-based indexes into `steps`.
 */
import {
  clientOf,
  isAdvanceStep,
  isAwaitStep,
  isCommandStep,
  listScenarioFiles,
  loadScenarioFile,
  type Scenario,
  type Step,
} from './format';
import { bytesValue, matchReply, normalizeReply, resolveArgs, type Arg, type Bindings, type Json, type MatchResult, type Reply } from './matchers';
import { withTimeout, RaceAbortError, ReplayTimeoutError, type PendingCall, type Target, type TargetSession } from './targets/target';

/** What a command produced. */
export type Outcome =
  | { kind: 'reply'; value: Reply }
  | { kind: 'error'; message: string }
  /** No reply within the target's call timeout (the command is still blocked). */
  | { kind: 'timeout'; message: string };

export interface StepFailure {
  /** 0-based index into `steps`. */
  step: number;
  /** Client that ran the command. */
  client: string;
  /**
   * The command as sent (refs resolved); for an await step, the async command. A command whose
   * refs could not be resolved is shown as written (`{"ref": "name"}` in place).
   */
  command: Arg[];
  /** The expectation: `{ reply }` or `{ error }` (prefix). */
  expected: { reply?: Json; error?: string };
  /** What happened, if the command got that far. */
  actual: Outcome | null;
  /** One-line explanation, including the path of the first difference. */
  message: string;
}

export interface ReplayResult {
  name: string;
  file?: string;
  target: 'fake' | 'upstash' | 'real';
  /**
   * `race`: the replies may have matched, but another client connected to the real server while a
   * scenario that reaches the whole server ran, so it cannot be shown that only the scenario's own
   * data was touched (`raceReason` says what was seen). Counted like a failure (exit code 1).
   */
  status: 'pass' | 'fail' | 'skip' | 'race';
  /** Set when status is 'fail'. */
  failure?: StepFailure;
  /** Set when status is 'skip'. */
  skipReason?: string;
  /** Set when status is 'race' (or on a failure that also saw a race). */
  raceReason?: string;
  /**
   * Actual outcome per step index (command and await steps that ran; undefined for
   * advance steps and async starts). The recorder reads these.
   */
  outcomes: (Outcome | undefined)[];
}

export interface RunOptions {
  /**
   * Stop at the first step whose outcome differs from its expectation (replay). When
   * false (record), every step runs and all outcomes are collected.
   * @default true
   */
  stopOnMismatch?: boolean;
}

function toOutcome(promise: Promise<unknown>): Promise<Outcome> {
  return promise.then(
    (value): Outcome => ({ kind: 'reply', value: normalizeReply(value) }),
    (e: unknown): Outcome =>
      e instanceof ReplayTimeoutError
        ? { kind: 'timeout', message: e.message }
        : { kind: 'error', message: e instanceof Error ? e.message : String(e) },
  );
}

/**
 * A call with no reply in time on the fake (the Upstash handler's too): its clock (the scenario's `clock`) moves only with
 * `advance` steps, so a BLOCK or a blocking command's timeout that a real server reaches in real
 * time never comes without one (a trial recorded `BLPOP q 0.1` on a server, then the fake waited).
 */
function withClockHint(outcome: Outcome, target: Target): Outcome {
  if (outcome.kind !== 'timeout' || target.kind === 'real') return outcome;
  return { kind: 'timeout', message: `${outcome.message} (the fake's clock moves only with "advance" steps: a BLOCK or a blocking command's timeout needs one, e.g. {"advance": 100} before the await)` };
}

/** Checks one outcome against a step's expectation, binding captures on the way. */
export function checkOutcome(expected: { reply?: Json; error?: string }, actual: Outcome, bindings: Bindings): MatchResult {
  if (actual.kind === 'timeout') return { ok: false, path: '', message: actual.message };
  if (expected.error !== undefined) {
    if (actual.kind === 'reply') return { ok: false, path: '', message: `expected an error starting with ${JSON.stringify(expected.error)}, got reply ${JSON.stringify(actual.value)}` };
    if (!actual.message.startsWith(expected.error)) return { ok: false, path: '', message: `expected an error starting with ${JSON.stringify(expected.error)}, got ${JSON.stringify(actual.message)}` };
    return { ok: true };
  }
  if (expected.reply !== undefined) {
    if (actual.kind === 'error') return { ok: false, path: '', message: `expected reply ${JSON.stringify(expected.reply)}, got error ${JSON.stringify(actual.message)}` };
    const r = matchReply(expected.reply, actual.value, bindings);
    if (!r.ok) return { ok: false, path: r.path, message: r.path ? `at ${r.path}: ${r.message}` : r.message };
    return { ok: true };
  }
  return { ok: false, path: '', message: 'the step has no "reply" or "error" (record the scenario first)' };
}

function expectationOf(step: Step): { reply?: Json; error?: string } {
  const s = step as { reply?: Json; error?: string };
  const out: { reply?: Json; error?: string } = {};
  if (s.reply !== undefined) out.reply = s.reply;
  if (s.error !== undefined) out.error = s.error;
  return out;
}

/**
 * Runs a scenario on a target (no skip check). Returns pass, or fail with the first
 * mismatching step. Target failures (connection refused, unknown client) are reported
 * as a failure of the step where they happened.
 */
export async function runScenario(scenario: Scenario, target: Target, opts: RunOptions = {}): Promise<ReplayResult> {
  const stopOnMismatch = opts.stopOnMismatch ?? true;
  const result: ReplayResult = { name: scenario.name, target: target.kind, status: 'pass', outcomes: [] };
  const bindings: Bindings = new Map();
  const started = new Map<string, { outcome: Promise<Outcome>; command: Arg[]; client: string }>();
  const fail = (failure: StepFailure): ReplayResult => {
    if (!result.failure) result.failure = failure;
    result.status = 'fail';
    return result;
  };

  // Set when the target refused a command because another client connected (RaceAbortError):
  // the run stops there and its result is `race`.
  let aborted: string | undefined;
  const noteAbort = (p: Promise<unknown>): void => {
    p.catch((e: unknown) => {
      if (e instanceof RaceAbortError) aborted ??= e.message.replace(/^\[ioredis-mock-streams\] /, '');
    });
  };

  let session: TargetSession;
  try {
    session = await target.open(scenario);
  } catch (e) {
    return fail({ step: -1, client: '', command: [], expected: {}, actual: null, message: `could not start: ${(e as Error).message}` });
  }
  try {
    for (let i = 0; i < scenario.steps.length; i++) {
      const step = scenario.steps[i];
      if (isAdvanceStep(step)) {
        await session.advance(step.advance);
        continue;
      }
      let client: string;
      let command: Arg[];
      let outcome: Outcome;
      if (isCommandStep(step)) {
        client = clientOf(scenario, step);
        let argv: (string | Buffer)[];
        try {
          argv = resolveArgs(step.cmd, bindings);
          // as shown in a report: bytes that are not UTF-8 text as {"hex"}
          command = argv.map((a) => (typeof a === 'string' ? a : bytesValue(a)));
        } catch (e) {
          // a ref whose captured value is no argument (an array, null): the command as written
          const message = (e as Error).message.replace(/^\[ioredis-mock-streams\] /, '');
          const failure = { step: i, client, command: step.cmd, expected: expectationOf(step), actual: null, message };
          if (stopOnMismatch) return fail(failure);
          fail(failure);
          continue;
        }
        let call: Promise<unknown>;
        try {
          call = session.call(client, argv);
        } catch (e) {
          call = Promise.reject(e);
        }
        noteAbort(call);
        if (step.async !== undefined) {
          const pending: PendingCall = { settled: false };
          // toOutcome never rejects, so an abandoned async command cannot cause an unhandled rejection.
          const settled = toOutcome(call).then((o) => {
            pending.settled = true;
            return o;
          });
          started.set(step.async, { outcome: settled, command, client });
          await session.settleAsync(client, pending);
          continue;
        }
        outcome = withClockHint(await toOutcome(withTimeout(call, target.callTimeoutMs, `step ${i}`)), target);
      } else if (isAwaitStep(step)) {
        const s = started.get(step.await);
        if (!s) throw new Error(`[ioredis-mock-streams] await "${step.await}" has no async step`);
        client = s.client;
        command = s.command;
        try {
          outcome = await withTimeout(s.outcome, target.callTimeoutMs, `step ${i} (await "${step.await}")`);
        } catch (e) {
          // s.outcome never rejects; only the timeout can.
          outcome = withClockHint({ kind: 'timeout', message: (e as Error).message }, target);
        }
      } else {
        continue;
      }
      if (aborted !== undefined) {
        result.status = 'race';
        result.raceReason = aborted;
        return result;
      }
      result.outcomes[i] = outcome;
      const expected = expectationOf(step);
      const check = checkOutcome(expected, outcome, bindings);
      if (!check.ok) {
        const failure: StepFailure = { step: i, client, command, expected, actual: outcome, message: check.message };
        if (stopOnMismatch) return fail(failure);
        fail(failure);
      }
    }
    return result;
  } finally {
    // `result` is the object every return above hands back: a race seen at close marks it.
    const race = await session.close();
    if (typeof race === 'string') {
      result.raceReason = race;
      if (result.status === 'pass' || aborted !== undefined) result.status = 'race';
    }
  }
}

/** Replays one scenario: skipped if the target cannot run it, else `runScenario`. */
export async function replayScenario(scenario: Scenario, target: Target): Promise<ReplayResult> {
  const reason = await target.skipReason(scenario);
  if (reason !== null) return { name: scenario.name, target: target.kind, status: 'skip', skipReason: reason, outcomes: [] };
  return runScenario(scenario, target);
}

/** Loads and replays every scenario under `paths` (files or directories), in file order. */
export async function replayFiles(paths: readonly string[], target: Target): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for (const file of listScenarioFiles(paths)) {
    let scenario: Scenario;
    try {
      // a mode the fake lacks cannot run on the fake (nor through its Upstash front end)
      scenario = loadScenarioFile(file, { requireKnownVersion: target.kind !== 'real' });
    } catch (e) {
      results.push({
        name: file,
        file,
        target: target.kind,
        status: 'fail',
        failure: { step: -1, client: '', command: [], expected: {}, actual: null, message: (e as Error).message },
        outcomes: [],
      });
      continue;
    }
    results.push({ ...(await replayScenario(scenario, target)), file });
  }
  return results;
}

function commandText(command: readonly Arg[]): string {
  return command.map((a) => (typeof a !== 'string' ? JSON.stringify(a) : /^[^\s"]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

function outcomeText(o: Outcome | null): string {
  if (o === null) return '(nothing)';
  if (o.kind === 'reply') return JSON.stringify(o.value);
  if (o.kind === 'error') return `error ${JSON.stringify(o.message)}`;
  return `timeout (${o.message})`;
}

function expectedText(e: { reply?: Json; error?: string }): string {
  if (e.error !== undefined) return `error starting with ${JSON.stringify(e.error)}`;
  if (e.reply !== undefined) return JSON.stringify(e.reply);
  return '(none)';
}

/**
 * One line per result: `PASS name`, `SKIP name: reason`, or
 * `FAIL name: step N [client] COMMAND: difference`, where a difference inside a reply
 * (at a path such as `[0][1]`) is followed by the whole expected and actual values.
 */
export function formatResult(r: ReplayResult): string {
  if (r.status === 'pass') return `PASS ${r.name}`;
  if (r.status === 'skip') return `SKIP ${r.name}: ${r.skipReason}`;
  if (r.status === 'race') return `RACE ${r.name}: ${r.raceReason}`;
  const f = r.failure!;
  const race = r.raceReason ? `; RACE: ${r.raceReason}` : '';
  if (f.step < 0) return `FAIL ${r.name}: ${f.message}${race}`;
  const whole = f.message.startsWith('at [') ? `; expected ${expectedText(f.expected)}, actual ${outcomeText(f.actual)}` : '';
  return `FAIL ${r.name}: step ${f.step} [${f.client}] ${commandText(f.command)}: ${f.message}${whole}${race}`;
}

/** `N passed, M failed` plus `, K skipped` / `, R not proven (race)` when there are some. */
export function formatSummary(results: readonly ReplayResult[]): string {
  const count = (s: ReplayResult['status']) => results.filter((r) => r.status === s).length;
  const skipped = count('skip');
  const races = count('race');
  return `${count('pass')} passed, ${count('fail')} failed${skipped > 0 ? `, ${skipped} skipped` : ''}${races > 0 ? `, ${races} not proven (race)` : ''}`;
}
