/**
 * Scenario recorder: plays scenario files against a real Redis server and writes the real
 * replies back into them.
 *
 * For each command or await step the real reply (or full error text) replaces the old
 * expectation. Where the old expectation holds matchers, they are kept if the real reply
 * satisfies them, so time-dependent values keep their tolerance; if a matcher is violated
 * (or a reply with matchers became an error, or a step got no reply in time) the file is
 * not written and the problem is reported — except on another server than the one the file was
 * recorded on (another `recordedOn`, or another `server` label): there the old server's
 * expectation is replaced by what this server answers, and listed (issue 23 item 13). Time-dependent values without a matcher (IDs XADD
 * generated from the clock, idle times, seen/active/delivery times, TTLs) are written as
 * matchers (./time-matchers.ts) and listed in the report, so the file replays on the fake and
 * on a server alike. The file then gets `source: "recorded"`, `recordedOn` (INFO server
 * `redis_version`) and `redisVersion` (its major.minor).
 *
 * A development build (255.255.255) does not say which Redis it is: recording on one needs
 * `redisVersion` (the fake mode the tree matches) and `server` (e.g. "redis 4f8cdc2a (7.4+
 * unstable)"), given as options or kept from an earlier recording on such a build.
 */
import * as fs from 'node:fs';
import {
  isAdvanceStep,
  isCommandStep,
  isDevelopmentBuild,
  listScenarioFiles,
  parseScenario,
  parseVersion,
  readScenarioText,
  type Scenario,
  type Step,
} from './format';
import { formatJson } from './json-format';
import { containsMatcher, mergeRecorded, type Bindings, type Json } from './matchers';
import { runScenario } from './replay';
import { withTimeMatchers, type TimeContext } from './time-matchers';
import { RealTarget } from './targets/real';

export interface RecordResult {
  file: string;
  name: string;
  /** updated: file rewritten with changes; unchanged: replies already matched; skipped; failed: file left as it was. */
  status: 'updated' | 'unchanged' | 'skipped' | 'failed';
  /** Explanations: changed steps, violations, skip reason. */
  messages: string[];
}

const STEP_KEYS = ['client', 'cmd', 'async', 'await', 'advance', 'reply', 'error', 'comment'] as const;

function orderStep(step: Record<string, unknown>): Json {
  const out: Record<string, Json> = {};
  for (const k of STEP_KEYS) if (step[k] !== undefined) out[k] = step[k] as Json;
  return out;
}

function orderScenario(s: Scenario, steps: Json[]): Json {
  const out: Record<string, Json> = { name: s.name, description: s.description, source: s.source };
  if (s.recordedOn !== undefined) out.recordedOn = s.recordedOn;
  if (s.server !== undefined) out.server = s.server;
  out.redisVersion = s.redisVersion;
  if (s.clock !== undefined) out.clock = s.clock;
  if (s.clients !== undefined) out.clients = s.clients;
  out.steps = steps;
  return out;
}

export interface RecordOptions {
  /** The fake mode (`"<major>.<minor>"`) the recording stands for; required on a development build. */
  redisVersion?: string;
  /** Which server this is, written as `server`; required on a development build. */
  server?: string;
  /** Allow emptying the URL's database first (FLUSHDB) when it holds keys (recordFiles). */
  flush?: boolean;
  /** Record scenarios that reach the whole server, on an empty server with no other client (RealTargetOptions.allowWholeServer). */
  allowWholeServer?: boolean;
  /** SIGINT/SIGTERM clean up before the process ends (RealTargetOptions.cleanUpOnSignals; the CLI). */
  cleanUpOnSignals?: boolean;
}

/** Records one file. Never throws for scenario problems; they come back as 'failed'. */
export async function recordFile(file: string, target: RealTarget, opts: RecordOptions = {}): Promise<RecordResult> {
  const failed = (name: string, messages: string[]): RecordResult => ({ file, name, status: 'failed', messages });
  let scenario: Scenario;
  try {
    scenario = parseScenario(JSON.parse(readScenarioText(file)), { file, requireExpectations: false, requireKnownVersion: false });
  } catch (e) {
    return failed(file, [(e as Error).message]);
  }
  const skip = await target.skipReason(scenario);
  if (skip !== null) return { file, name: scenario.name, status: 'skipped', messages: [skip] };

  const version = await target.serverVersion();
  let redisVersion = opts.redisVersion;
  let server = opts.server;
  if (isDevelopmentBuild(version)) {
    const earlier = scenario.recordedOn !== undefined && isDevelopmentBuild(scenario.recordedOn);
    redisVersion ??= earlier ? scenario.redisVersion : undefined;
    server ??= earlier ? scenario.server : undefined;
    if (redisVersion === undefined || server === undefined) {
      return failed(scenario.name, [
        `the server is a development build (${version}): give --redis-version (the fake mode it matches) and --server (which build)`,
      ]);
    }
  }
  const problems: string[] = [];
  const changes: string[] = [];
  // Another server than the recording's: its answers replace the old server's expectations.
  const otherServer = scenario.recordedOn !== undefined && (scenario.recordedOn !== version || scenario.server !== server);
  const recordedBy = `${scenario.recordedOn}${scenario.server !== undefined ? ` (${scenario.server})` : ''}`;
  const replaced = (i: number, why: string) => changes.push(`step ${i}: the expectation recorded on ${recordedBy} replaced (${why})`);
  const serverNowMs = await target.serverTimeMs();
  const run = await runScenario(scenario, target, { stopOnMismatch: false });
  if (run.failure && run.failure.step < 0) return failed(scenario.name, [run.failure.message]);
  // Replies recorded while another client may have changed the server are not written.
  if (run.raceReason !== undefined) return failed(scenario.name, [`race: ${run.raceReason}`]);

  const bindings: Bindings = new Map();
  // Generated IDs: value -> capture name; names not used by the scenario already.
  const ids = new Map<string, string>();
  const usedNames = new Set([...JSON.stringify(scenario.steps).matchAll(/"capture":\s*"([^"]+)"/g)].map((m) => m[1]));
  let idCounter = 0;
  const nextCaptureName = () => {
    let name: string;
    do name = `id${++idCounter}`;
    while (usedNames.has(name));
    usedNames.add(name);
    return name;
  };
  const asyncCmd = new Map<string, readonly string[]>();
  const timeContext = (i: number, cmd: readonly unknown[]): TimeContext => {
    const elapsedCandidates = [0];
    let sum = 0;
    for (let j = i - 1; j >= 0; j--) {
      const s = scenario.steps[j];
      if (isAdvanceStep(s)) elapsedCandidates.push((sum += s.advance));
    }
    return { cmd: cmd.map((a) => (typeof a === 'string' ? a : '')), elapsedCandidates, serverNowMs, ids, nextCaptureName };
  };
  const newSteps: Json[] = scenario.steps.map((step: Step, i: number) => {
    if (isCommandStep(step) && step.async !== undefined) asyncCmd.set(step.async, step.cmd as string[]);
    const copy: Record<string, unknown> = { ...step };
    if (isAdvanceStep(step) || (isCommandStep(step) && step.async !== undefined)) return orderStep(copy);
    const outcome = run.outcomes[i];
    const old = step as { reply?: Json; error?: string };
    if (outcome === undefined) {
      problems.push(`step ${i}: did not run (${run.failure?.step === i ? run.failure.message : 'an earlier step failed'})`);
      return orderStep(copy);
    }
    if (outcome.kind === 'timeout') {
      problems.push(`step ${i}: ${outcome.message}`);
      return orderStep(copy);
    }
    if (outcome.kind === 'error' && outcome.message.startsWith('[ioredis-mock-streams] ')) {
      // The library's own error (a command not sent), not the server's reply.
      problems.push(`step ${i}: ${outcome.message}`);
      return orderStep(copy);
    }
    if (outcome.kind === 'error') {
      if (old.reply !== undefined && containsMatcher(old.reply)) {
        if (otherServer) {
          replaced(i, `a reply with matchers became error ${JSON.stringify(outcome.message)}`);
          delete copy.reply;
          copy.error = outcome.message;
          return orderStep(copy);
        }
        problems.push(`step ${i}: expected a reply with matchers ${JSON.stringify(old.reply)}, got error ${JSON.stringify(outcome.message)}`);
        return orderStep(copy);
      }
      if (old.error !== outcome.message) changes.push(`step ${i}: error ${JSON.stringify(outcome.message)}`);
      delete copy.reply;
      copy.error = outcome.message;
      return orderStep(copy);
    }
    let merged = mergeRecorded(old.reply, outcome.value, bindings);
    if (!merged.ok && otherServer) {
      replaced(i, `matcher not satisfied at ${merged.path || '(reply)'}: ${merged.message}`);
      merged = mergeRecorded(undefined, outcome.value, bindings);
    }
    if (!merged.ok) {
      problems.push(`step ${i}: matcher not satisfied at ${merged.path || '(reply)'}: ${merged.message}`);
      return orderStep(copy);
    }
    // IDs the old matchers captured are generated IDs too: later exact copies become refs.
    for (const [name, value] of bindings) if (typeof value === 'string' && !ids.has(value) && /^\d+-\d+$/.test(value)) ids.set(value, name);
    const cmd = isCommandStep(step) ? step.cmd : asyncCmd.get((step as { await: string }).await) ?? [];
    const timed = withTimeMatchers(merged.value, outcome.value, timeContext(i, cmd));
    for (const n of timed.notes) changes.push(`step ${i}: ${n.what} at ${n.path} written as ${JSON.stringify(n.matcher)}`);
    if (old.error !== undefined || old.reply === undefined || JSON.stringify(old.reply) !== JSON.stringify(timed.value)) {
      changes.push(`step ${i}: reply ${JSON.stringify(timed.value)}`);
    }
    delete copy.error;
    copy.reply = timed.value;
    return orderStep(copy);
  });
  if (problems.length > 0) return failed(scenario.name, problems);

  const [major, minor] = parseVersion(version);
  const recorded: Scenario = { ...scenario, source: 'recorded', recordedOn: version, redisVersion: redisVersion ?? `${major}.${minor}` };
  if (server !== undefined) recorded.server = server;
  else delete recorded.server;
  const text = formatJson(orderScenario(recorded, newSteps));
  // The result must itself be a valid, complete scenario (a replaced expectation may have held a
  // capture that later steps refer to).
  try {
    parseScenario(JSON.parse(text), { file, requireKnownVersion: false });
  } catch (e) {
    return failed(scenario.name, [...changes.filter((c) => c.includes(' replaced (')), (e as Error).message]);
  }
  const before = fs.readFileSync(file, 'utf8');
  if (text === before) return { file, name: scenario.name, status: 'unchanged', messages: [] };
  fs.writeFileSync(file, text);
  if (changes.length === 0) changes.push('metadata or formatting only');
  return { file, name: scenario.name, status: 'updated', messages: changes };
}

/**
 * Records every scenario file under `paths` against the server at `url`, whose database must be
 * empty unless `opts.flush` allows emptying it (see RealTarget).
 * @throws NotEmptyDatabaseError before recording anything, or a connection error
 */
export async function recordFiles(paths: readonly string[], url: string, opts: RecordOptions = {}): Promise<RecordResult[]> {
  const target = new RealTarget({ url, recordedOnly: false, flush: opts.flush, allowWholeServer: opts.allowWholeServer, cleanUpOnSignals: opts.cleanUpOnSignals });
  try {
    await target.prepare();
    const results: RecordResult[] = [];
    for (const file of listScenarioFiles(paths)) results.push(await recordFile(file, target, opts));
    return results;
  } finally {
    await target.dispose();
  }
}
