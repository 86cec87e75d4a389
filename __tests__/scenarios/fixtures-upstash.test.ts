/**
 * Every fixture in fixtures/ replayed through the second front end: the Upstash REST handler,
 * raw requests (one `POST /` per command, base64 responses). A scenario that needs what REST
 * cannot do (a blocked command, BLOCK, connection-state commands such as MULTI or WATCH) is
 * skipped with its reason in the test name; everything else must give the recorded replies.
 */
import * as path from 'node:path';
import { listScenarioFiles, loadScenarioFile, type Scenario } from '../../lib/scenarios/format';
import { formatResult, replayScenario } from '../../lib/scenarios/replay';
import { UpstashTarget, upstashSkipReason } from '../../lib/scenarios/targets/upstash';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');
const scenarios: Scenario[] = listScenarioFiles([FIXTURES]).map((file) => loadScenarioFile(file));
const runnable = scenarios.filter((s) => upstashSkipReason(s) === null);
const skipped = scenarios.filter((s) => upstashSkipReason(s) !== null);

describe('fixtures replayed through the Upstash REST front end', () => {
  const target = new UpstashTarget();
  it.each(runnable.map((s) => [s.name, s] as const))('%s', async (name, scenario) => {
    const result = await replayScenario(scenario, target);
    expect(formatResult(result)).toBe(`PASS ${name}`);
  });
  // skip: scenarios Upstash cannot run (each test title gives upstashSkipReason)
  it.skip.each(skipped.map((s) => [s.name, upstashSkipReason(s)] as const))('%s — skipped: %s', () => undefined);

  it('skips only scenarios that need blocking or connection state', () => {
    const reasons = skipped.map((s) => upstashSkipReason(s) as string);
    expect(reasons.every((r) => /async|with BLOCK|does not serve/.test(r))).toBe(true);
    // Most fixtures do not block: the REST front end is held to them too.
    expect(runnable.length).toBeGreaterThanOrEqual(70);
  });
});
