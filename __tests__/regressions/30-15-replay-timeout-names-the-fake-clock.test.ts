/**
 * A scenario awaiting a timed blocking command (`BLPOP q 0.1`) with no `advance` step records
 * fine on a server (real time passes) and then fails on the fake with only "no reply within
 * 1000 ms": the fake's clock moves only with `advance` steps. The failure now says so (found by a
 * fresh-user trial); with the advance the same scenario passes.
 */
import { replayScenario, formatResult } from '../../lib/scenarios/replay';
import { FakeTarget } from '../../lib/scenarios/targets/fake';
import type { Scenario } from '../../lib/scenarios/format';

const scenario = (steps: unknown[]): Scenario =>
  ({ name: 'blpop-timeout', description: 'x', source: 'hand-written', redisVersion: '8.10', clients: ['main', 'reader'], steps }) as unknown as Scenario;

describe('replaying a timed blocking command on the fake', () => {
  it('without an advance step: the timeout failure says the fake clock needs one', async () => {
    const r = await replayScenario(scenario([{ client: 'reader', cmd: ['BLPOP', 'q', '0.1'], async: 'b1' }, { await: 'b1', reply: null }]), new FakeTarget());
    expect(r.failure?.actual).toMatchObject({ kind: 'timeout' });
    expect(r.failure?.message).toMatch(/no reply within \d+ ms \(the fake's clock moves only with "advance" steps: a BLOCK or a blocking command's timeout needs one/);
  });

  it('with {"advance": 100} before the await: passes', async () => {
    const r = await replayScenario(
      scenario([{ client: 'reader', cmd: ['BLPOP', 'q', '0.1'], async: 'b1' }, { advance: 100 }, { await: 'b1', reply: null }]),
      new FakeTarget(),
    );
    expect(formatResult(r)).toBe('PASS blpop-timeout');
  });
});
