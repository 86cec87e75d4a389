/**
 * Every fixture in fixtures/ replayed on the fake (one test per scenario), and, when
 * REDIS_URL / REDIS_UNSTABLE_URL are set, every recorded fixture replayed on the server of its
 * recording so the fixtures stay true. The real-server blocks need the database named in the
 * URL empty (they delete the keys the scenarios create).
 */
import * as path from 'node:path';
import { isDevelopmentBuild, listScenarioFiles, loadScenarioFile, type Scenario } from '../../lib/scenarios/format';
import { formatResult, replayScenario } from '../../lib/scenarios/replay';
import { FakeTarget } from '../../lib/scenarios/targets/fake';
import { RealTarget } from '../../lib/scenarios/targets/real';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');
const scenarios: Scenario[] = listScenarioFiles([FIXTURES]).map((file) => loadScenarioFile(file));

describe('fixture files', () => {
  it('there are at least 32 recorded fixtures', () => {
    expect(scenarios.filter((s) => s.source === 'recorded').length).toBeGreaterThanOrEqual(32);
  });

  it('keep each clock advance at 300 ms or less, so a real-server replay stays fast', () => {
    const long = scenarios.flatMap((s) =>
      s.steps.flatMap((step, i) => ('advance' in step && step.advance > 300 ? [`${s.name} step ${i}: ${step.advance}`] : [])),
    );
    expect(long).toEqual([]);
  });
});

describe('fixtures replayed on the fake', () => {
  const target = new FakeTarget();
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (name, scenario) => {
    const result = await replayScenario(scenario, target);
    expect(formatResult(result)).toBe(`PASS ${name}`);
  });
});

/**
 * Recorded fixtures are re-checked on a server of the line they were recorded on: the ones from
 * the 4f8cdc2a development tree (recordedOn 255.255.255, `server` says which build) with
 * REDIS_UNSTABLE_URL, all others (redis-server 7.0.15) with REDIS_URL. The target skips a
 * scenario recorded on another line; each block below only lists its own, so none is skipped.
 */
const recorded = scenarios.filter((s) => s.source === 'recorded');
recheckOn(
  'REDIS_URL',
  process.env.REDIS_URL,
  recorded.filter((s) => !isDevelopmentBuild(s.recordedOn ?? '')),
);
recheckOn(
  'REDIS_UNSTABLE_URL',
  process.env.REDIS_UNSTABLE_URL,
  recorded.filter((s) => isDevelopmentBuild(s.recordedOn ?? '')),
);

function recheckOn(envName: string, url: string | undefined, list: Scenario[]): void {
  if (!url) console.warn(`${envName} not set: real-server fixture checks of ${list.length} recorded fixtures skipped`);
  // skip: no server URL (REDIS_URL / REDIS_UNSTABLE_URL): skipped with the warning printed above; CI sets both
  (url ? describe : describe.skip)(`recorded fixtures replayed on the real server (${envName})`, () => {
    let target: RealTarget;
    beforeAll(() => {
      target = new RealTarget({ url: url as string });
    });
    afterAll(async () => {
      await target?.dispose();
    });
    it.each(list.map((s) => [s.name, s] as const))('%s', async (name, scenario) => {
      const result = await replayScenario(scenario, target);
      // A server older than the scenario's redisVersion skips it; anything else must pass.
      if (result.status !== 'skip') expect(formatResult(result)).toBe(`PASS ${name}`);
    });
  });
}
