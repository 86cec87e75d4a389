/**
 * Under the jest setup file with `setReplyTiming('macrotask')`, a test that leaves a loop
 * retrying on its client (`for (;;) { try { await r.get('k') } catch {} }`, or a worker's
 * XREADGROUP … BLOCK loop) kept jest from ever exiting (found by a fresh-user trial): once the
 * setup closed the client, every rejection came a turn of the event loop later, so the spin guard,
 * which counts commands between turns, never stopped it. Now an orphaned client's commands since it
 * was closed are counted too: past the limit they stop settling, a warning names the test, and
 * jest exits. Each case runs a small test file in a child jest (killed after 60 s).
 */
import { runChildJest } from '../helpers/child-jest';

const leakingTestFile = (loop: string) => `
const Redis = require('ioredis');
require('ioredis-mock-streams').setReplyTiming('macrotask');
test('leaves a loop running', async () => {
  const r = new Redis();
  await r.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
  (async () => { for (;;) { try { ${loop} } catch {} } })();
});
test('runs the next test', async () => {
  const r = new Redis();
  expect(await r.xadd('other', '1-0', 'f', 'v')).toBe('1-0');
});
`;

describe.each([
  ['GET', "await r.get('k');"],
  ['XREADGROUP … BLOCK', "await r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 1000, 'STREAMS', 'jobs', '>');"],
])('a %s loop left running with macrotask reply timing', (_label, loop) => {
  let run: ReturnType<typeof runChildJest>;
  beforeAll(() => {
    run = runChildJest(leakingTestFile(loop));
  }, 70_000);

  it('does not keep jest from exiting', () => {
    expect(run.timedOut).toBe(false);
    expect(run.output).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(run.status).toBe(0);
  });

  it('names the test whose loop kept sending commands to its closed client', () => {
    expect(run.output).toMatch(/a client created by test "leaves a loop running" keeps sending commands after the test ended \(\d+ since it was closed\)/);
  });
});
