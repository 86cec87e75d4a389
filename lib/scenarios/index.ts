/** Scenario fixtures: format, matchers, replayer, recorder and targets. */
export {
  parseScenario,
  loadScenarioFile,
  listScenarioFiles,
  ScenarioFormatError,
  DEFAULT_CLOCK,
  DEFAULT_CLIENTS,
  type Scenario,
  type Step,
  type CommandStep,
  type AwaitStep,
  type AdvanceStep,
  type ValidateOptions,
} from './format';
export { matchReply, mergeRecorded, parseMatcher, type Bytes, type Json, type Reply, type Matcher, type Bindings, type MatchResult } from './matchers';
export {
  runScenario,
  replayScenario,
  replayFiles,
  formatResult,
  formatSummary,
  type Outcome,
  type ReplayResult,
  type StepFailure,
  type RunOptions,
} from './replay';
export { recordFile, recordFiles, type RecordResult } from './record';
export { formatJson } from './json-format';
export type { Target, TargetSession } from './targets/target';
export { RealTarget, type RealTargetOptions } from './targets/real';
export { FakeTarget, type FakeTargetOptions } from './targets/fake';
export { UpstashTarget, upstashSkipReason } from './targets/upstash';
