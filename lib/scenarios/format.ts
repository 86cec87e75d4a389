/**
 * Scenario fixture format: one JSON file per scenario, validated here.
 *
 * The format is documented for fixture authors in `fixtures/README.md`. In short:
 * `{ name, description, source, recordedOn?, server?, redisVersion, clock?, clients?, steps }`,
 * where a step is one of
 * - a command: `{ client?, cmd: [...], reply | error }`, or `{ client?, cmd, async: "r1" }`;
 * - an await:  `{ await: "r1", reply | error }`;
 * - a clock advance: `{ advance: ms }`.
 * Every step may carry a `comment` string. Expected replies may contain matchers
 * (see `matchers.ts`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRedisVersion } from '../version';
import { forEachMatcher, isBytes, type Arg, type Json } from './matchers';

export interface CommandStep {
  client?: string;
  cmd: Arg[];
  async?: string;
  reply?: Json;
  error?: string;
  comment?: string;
}
export interface AwaitStep {
  await: string;
  reply?: Json;
  error?: string;
  comment?: string;
}
export interface AdvanceStep {
  advance: number;
  comment?: string;
}
export type Step = CommandStep | AwaitStep | AdvanceStep;

export interface Scenario {
  name: string;
  description: string;
  source: 'recorded' | 'hand-written';
  recordedOn?: string;
  /** Which server a recording on a development build came from. */
  server?: string;
  redisVersion: string;
  clock?: number;
  clients?: string[];
  steps: Step[];
}

// ---------------------------------------------------------------------------------------------
// Shape checks (hand-written: the package keeps schema libraries off its dependencies). Each
// pushes "<path>: <problem>" and answers whether the value is usable.

type Problems = string[];
type Check = (value: unknown, where: string, problems: Problems) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const say = (problems: Problems, where: string, message: string): false => {
  problems.push(`${where || '(root)'}: ${message}`);
  return false;
};
const sub = (where: string, key: string | number) => (typeof key === 'number' ? `${where}[${key}]` : where ? `${where}.${key}` : key);

const string: Check = (v, where, p) => typeof v === 'string' || say(p, where, 'must be a string');
const nonEmpty: Check = (v, where, p) => (typeof v === 'string' && v.length > 0) || say(p, where, 'must be a non-empty string');
const wholeMs: Check = (v, where, p) => (typeof v === 'number' && Number.isInteger(v) && v >= 0) || say(p, where, 'must be a whole number >= 0');
const matching = (re: RegExp, hint: string): Check => (v, where, p) => (typeof v === 'string' && re.test(v)) || say(p, where, hint);

function isJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  return isObject(v) && Object.values(v).every(isJson);
}
const json: Check = (v, where, p) => isJson(v) || say(p, where, 'must be a JSON value');

const arg: Check = (v, where, p) => {
  if (typeof v === 'string') return true;
  if (isObject(v) && Object.keys(v).length === 1 && typeof v.ref === 'string' && v.ref !== '') return true;
  if (isBytes(v)) return true;
  return say(p, where, 'an argument is a string, {"hex": "<bytes as hex digit pairs>"} or {"ref": "name"}');
};

/** An object with exactly these optional/required keys, each checked. */
function object(fields: Record<string, { check: Check; required?: boolean }>): Check {
  return (v, where, p) => {
    if (!isObject(v)) return say(p, where, 'must be an object');
    const before = p.length;
    const unknown = Object.keys(v).filter((k) => !(k in fields));
    if (unknown.length > 0) say(p, where, `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
    for (const [key, f] of Object.entries(fields)) {
      if (v[key] === undefined) {
        if (f.required) say(p, sub(where, key), 'is required');
      } else f.check(v[key], sub(where, key), p);
    }
    return p.length === before;
  };
}

function array(item: Check, min: number, tooShort: string): Check {
  return (v, where, p) => {
    if (!Array.isArray(v)) return say(p, where, 'must be an array');
    if (v.length < min) return say(p, where, tooShort);
    const before = p.length;
    v.forEach((x, i) => item(x, sub(where, i), p));
    return p.length === before;
  };
}

const optional = (check: Check) => ({ check });
const required = (check: Check) => ({ check, required: true });

const commandStep = object({
  client: optional(nonEmpty),
  cmd: required(array(arg, 1, 'cmd needs at least the command name')),
  async: optional(nonEmpty),
  reply: optional(json),
  error: optional(string),
  comment: optional(string),
});
const awaitStep = object({ await: required(nonEmpty), reply: optional(json), error: optional(string), comment: optional(string) });
/**
 * An advance is slept on a real server (setTimeout: at most 2^31 - 1 ms, Node makes a longer
 * delay 1 ms) and ticked on the fake clock: a whole number of ms up to setTimeout's limit.
 */
const MAX_ADVANCE = 2 ** 31 - 1;
const advanceMs: Check = (v, where, p) =>
  (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_ADVANCE) || say(p, where, `must be a whole number of ms from 0 to ${MAX_ADVANCE} (a replay on a server sleeps it; keep it at 300 or less)`);
const advanceStep = object({ advance: required(advanceMs), comment: optional(string) });

/** Picks the step's shape from its distinguishing key, for readable errors. */
const step: Check = (v, where, p) => {
  const obj = isObject(v) ? v : {};
  const check = 'advance' in obj ? advanceStep : 'await' in obj ? awaitStep : 'cmd' in obj ? commandStep : null;
  if (check === null) return say(p, where, 'a step needs "cmd", "await" or "advance"');
  return check(v, where, p);
};

const scenarioShape = object({
  name: required(matching(/^[a-z0-9][a-z0-9.-]*$/, 'use lower-case kebab-case')),
  description: required(nonEmpty),
  source: required((v, where, p) => v === 'recorded' || v === 'hand-written' || say(p, where, 'must be "recorded" or "hand-written"')),
  recordedOn: optional(matching(/^\d+\.\d+\.\d+/, 'must be a full server version, e.g. "7.0.15"')),
  server: optional(nonEmpty),
  redisVersion: required(matching(/^\d+\.\d+$/, 'use "<major>.<minor>", e.g. "7.0"')),
  clock: optional(wholeMs),
  clients: optional(array(nonEmpty, 1, 'needs at least one client')),
  steps: required(array(step, 1, 'needs at least one step')),
});

/** Default start of the fake clock (ms since the epoch) when `clock` is absent. */
export const DEFAULT_CLOCK = 1700000000000;
/** Default client list when `clients` is absent. */
export const DEFAULT_CLIENTS: readonly string[] = ['main'];

export function isCommandStep(step: Step): step is CommandStep {
  return 'cmd' in step;
}
export function isAwaitStep(step: Step): step is AwaitStep {
  return 'await' in step;
}
export function isAdvanceStep(step: Step): step is AdvanceStep {
  return 'advance' in step;
}

/** Client names of a scenario (`clients`, or `["main"]`). */
export function clientsOf(scenario: Scenario): readonly string[] {
  return scenario.clients ?? DEFAULT_CLIENTS;
}

/** The client a command step runs on: its `client`, else the first declared client. */
export function clientOf(scenario: Scenario, step: CommandStep): string {
  return step.client ?? clientsOf(scenario)[0];
}

export class ScenarioFormatError extends Error {
  constructor(
    readonly file: string | undefined,
    readonly problems: string[],
  ) {
    super(`[ioredis-mock-streams] invalid scenario${file ? ` ${file}` : ''}:\n  ${problems.join('\n  ')}`);
    this.name = 'ScenarioFormatError';
  }
}

export interface ValidateOptions {
  /**
   * Require every non-async command step and every await step to have `reply` or
   * `error`. The replayer requires it; the recorder does not (it fills them in).
   * @default true
   */
  requireExpectations?: boolean;
  /**
   * Require `redisVersion` to be a mode the fake emulates (7.0 … 8.10). Replay on the fake and
   * format require it; replay on a real server and the recorder do not (a scenario newer than the
   * server is skipped there, and a recording is written with its server's version).
   * @default true
   */
  requireKnownVersion?: boolean;
  /** Used in error messages and to check that `name` equals the file's base name. */
  file?: string;
}

/**
 * Checks the rules a schema cannot express: declared clients, async/await pairing,
 * matcher syntax, capture-before-ref order, unique capture names, recorded metadata.
 */
function semanticProblems(s: Scenario, opts: ValidateOptions): string[] {
  const problems: string[] = [];
  const requireExpectations = opts.requireExpectations ?? true;
  if (opts.file !== undefined) {
    const base = path.basename(opts.file, '.json');
    if (base !== s.name) problems.push(`name "${s.name}" must equal the file name "${base}"`);
  }
  // the fake's mode (the check FakeTarget runs): replay refused an unknown one only when it
  // started the scenario, format not at all
  if (opts.requireKnownVersion ?? true) {
    try {
      parseRedisVersion(s.redisVersion);
    } catch (e) {
      problems.push((e as Error).message.replace(/^\[ioredis-mock-streams\] /, ''));
    }
  }
  if (s.source === 'recorded' && s.recordedOn === undefined) problems.push('a recorded scenario needs "recordedOn"');
  if (s.source === 'hand-written' && s.recordedOn !== undefined) problems.push('"recordedOn" is only for recorded scenarios');
  if (s.source === 'hand-written' && s.server !== undefined) problems.push('"server" is only for recorded scenarios');
  if (s.recordedOn !== undefined && isDevelopmentBuild(s.recordedOn) && s.server === undefined) {
    problems.push(`recorded on a development build (${s.recordedOn}): "server" must say which one`);
  }
  const clients = clientsOf(s);
  if (new Set(clients).size !== clients.length) problems.push('"clients" has duplicate names');
  // the fake clock starts at `clock` and moves by every advance: it must stay a safe integer of ms
  let end = s.clock ?? DEFAULT_CLOCK;
  for (const step of s.steps) if (isAdvanceStep(step)) end += step.advance;
  if (end > Number.MAX_SAFE_INTEGER) problems.push(`"clock" plus the advances reach ${end} ms, past 2^53 - 1 (the fake clock's range)`);

  const captured = new Set<string>();
  const pending = new Map<string, number>(); // async name -> step index
  const usedAsync = new Set<string>();
  const checkExpected = (expected: Json | undefined, where: string): void => {
    if (expected === undefined) return;
    // Refs may only point at captures bound by earlier steps or earlier in this reply.
    forEachMatcher(expected, (m, p) => {
      if (typeof m === 'string') {
        problems.push(`${where}${p}: ${m}`);
        return;
      }
      if (m.kind === 'ref' && !captured.has(m.name)) problems.push(`${where}${p}: {"ref": "${m.name}"} before any capture of it`);
      if (m.capture !== undefined) {
        if (captured.has(m.capture)) problems.push(`${where}${p}: "${m.capture}" is captured twice`);
        captured.add(m.capture);
      }
    });
  };
  const checkOutcome = (step: { reply?: Json; error?: string }, where: string, needed: boolean): void => {
    const hasReply = step.reply !== undefined;
    const hasError = step.error !== undefined;
    if (hasReply && hasError) problems.push(`${where}: give "reply" or "error", not both`);
    if (needed && !hasReply && !hasError) problems.push(`${where}: needs "reply" or "error"`);
    if (hasError && step.error === '') problems.push(`${where}: "error" must not be empty`);
  };

  s.steps.forEach((step, i) => {
    const where = `steps[${i}]`;
    if (isCommandStep(step)) {
      if (step.client !== undefined && !clients.includes(step.client)) problems.push(`${where}: client "${step.client}" is not in "clients"`);
      for (const arg of step.cmd as Arg[]) {
        if (typeof arg !== 'string' && 'ref' in arg && !captured.has(arg.ref)) problems.push(`${where}.cmd: {"ref": "${arg.ref}"} before any capture of it`);
      }
      if (step.async !== undefined) {
        if (step.reply !== undefined || step.error !== undefined) problems.push(`${where}: an async step gets its reply in the matching "await" step`);
        if (pending.has(step.async) || usedAsync.has(step.async)) problems.push(`${where}: async name "${step.async}" is used twice`);
        pending.set(step.async, i);
        usedAsync.add(step.async);
      } else {
        checkOutcome(step, where, requireExpectations);
        checkExpected(step.reply, `${where}.reply`);
      }
    } else if (isAwaitStep(step)) {
      if (!pending.has(step.await)) problems.push(`${where}: await "${step.await}" without an earlier async step of that name`);
      pending.delete(step.await);
      checkOutcome(step, where, requireExpectations);
      checkExpected(step.reply, `${where}.reply`);
    }
  });
  for (const [name, i] of pending) problems.push(`steps[${i}]: async "${name}" is never awaited`);
  return problems;
}

/**
 * Deepest nesting of arrays and objects a scenario may have. The checks, the matcher and the
 * formatter walk values recursively; a file nested far deeper (a trial wrote a reply nested
 * 200,000 levels) is refused before they run instead of overflowing the stack.
 */
export const MAX_NESTING = 1000;

/** Whether `raw` nests arrays and objects more than MAX_NESTING levels deep (walked without recursion). */
function nestedTooDeeply(raw: unknown): boolean {
  const stack: [unknown, number][] = [[raw, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_NESTING) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

/** Validates a parsed JSON value as a scenario; throws ScenarioFormatError listing all problems. */
export function parseScenario(raw: unknown, opts: ValidateOptions = {}): Scenario {
  if (nestedTooDeeply(raw)) {
    throw new ScenarioFormatError(opts.file, [`the scenario is nested too deeply (more than ${MAX_NESTING} levels of arrays and objects)`]);
  }
  const shapeProblems: Problems = [];
  if (!scenarioShape(raw, '', shapeProblems)) throw new ScenarioFormatError(opts.file, shapeProblems);
  const scenario = raw as Scenario;
  const problems = semanticProblems(scenario, opts);
  if (problems.length > 0) throw new ScenarioFormatError(opts.file, problems);
  return scenario;
}

/** A scenario file's text, without the byte-order mark some editors write (not part of the JSON). */
export function readScenarioText(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Reads and validates one scenario file. */
export function loadScenarioFile(file: string, opts: Omit<ValidateOptions, 'file'> = {}): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(readScenarioText(file));
  } catch (e) {
    throw new ScenarioFormatError(file, [`not valid JSON: ${(e as Error).message}`]);
  }
  return parseScenario(raw, { ...opts, file });
}

/**
 * Expands files and directories into a sorted list of scenario files. Directories are
 * read (not recursively) for `*.json`; explicitly named files are taken as given.
 */
export function listScenarioFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      throw new ScenarioPathError(p, `no such file or folder: ${p}`);
    }
    if (st.isDirectory()) {
      const before = files.length;
      for (const name of fs.readdirSync(p).sort()) {
        if (name.endsWith('.json')) files.push(path.join(p, name));
      }
      // an empty run passing would hide a wrong path
      if (files.length === before) throw new ScenarioPathError(p, `no scenario file (*.json) in the folder ${p}`);
    } else {
      files.push(p);
    }
  }
  return files;
}

/** A path given for scenarios that names no file, or a folder without one (`listScenarioFiles`). */
export class ScenarioPathError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`[ioredis-mock-streams] ${message}`);
    this.name = 'ScenarioPathError';
  }
}

/**
 * True for the version a build of Redis's development branch reports (255.255.255): it says
 * nothing about the tree's age, so such recordings name their server in `server` and their
 * fake mode in `redisVersion` explicitly.
 */
export function isDevelopmentBuild(version: string): boolean {
  return /^255\.255\.255/.test(version);
}

/**
 * True if a recording made on `recordedOn` belongs to a server reporting `serverVersion`: same
 * <major>.<minor> (a development build only matches a development build).
 */
export function sameServerLine(recordedOn: string, serverVersion: string): boolean {
  return compareVersions(recordedOn, serverVersion) === 0;
}

/** "7.0.15" or "7.0" -> [7, 0]. */
export function parseVersion(v: string): [number, number] {
  const m = /^(\d+)\.(\d+)/.exec(v);
  if (!m) throw new Error(`[ioredis-mock-streams] bad version "${v}"`);
  return [Number(m[1]), Number(m[2])];
}

/** Compares two "<major>.<minor>[.patch]" versions by major and minor only. */
export function compareVersions(a: string, b: string): number {
  const [a1, a2] = parseVersion(a);
  const [b1, b2] = parseVersion(b);
  return a1 !== b1 ? a1 - b1 : a2 - b2;
}
