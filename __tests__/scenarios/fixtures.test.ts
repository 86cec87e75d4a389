/**
 * Every fixture in fixtures/ replayed on the fake (one test per scenario), and, when
 * REDIS_URL is set, every recorded fixture replayed on that real server so the fixtures
 * stay true. The real-server block empties the database named in REDIS_URL (FLUSHDB).
 */
import * as path from 'node:path';
import { listScenarioFiles, loadScenarioFile, type Scenario } from '../../lib/scenarios/format';
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

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) {
  console.warn('REDIS_URL not set: real-server fixture checks skipped');
}
(REDIS_URL ? describe : describe.skip)('recorded fixtures replayed on the real server (REDIS_URL)', () => {
  const recorded = scenarios.filter((s) => s.source === 'recorded');
  let target: RealTarget;
  beforeAll(() => {
    target = new RealTarget({ url: REDIS_URL as string });
  });
  afterAll(async () => {
    await target?.dispose();
  });
  it.each(recorded.map((s) => [s.name, s] as const))('%s', async (name, scenario) => {
    const result = await replayScenario(scenario, target);
    // A server older than the scenario's redisVersion skips it; anything else must pass.
    if (result.status !== 'skip') expect(formatResult(result)).toBe(`PASS ${name}`);
  });
});
