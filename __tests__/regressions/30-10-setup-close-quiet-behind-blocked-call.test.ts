/**
 * Commands a test leaves queued behind its own blocked call never answer on a real server; the
 * fake's setup closes the test's clients at its end and rejects them, and such a rejection must
 * not fail the next test as an unhandled one. Session 29 quieted most calls; these three made a
 * promise of their own around the engine's and still surfaced it (found while checking the
 * `multi()…exec()` case left open then): `exec()` after `multi({ pipeline: false })`,
 * `sendCommand(new Command(…))`, and a `defineCommand` script (its NOSCRIPT retry).
 */
import { runChildJest } from '../helpers/child-jest';

const LEFT_BEHIND_A_BLOCKED_CALL: Record<string, string> = {
  'exec() after multi({ pipeline: false })': "s.multi({ pipeline: false }); s.set('k', 1); s.exec()",
  'sendCommand(new Command(…))': "s.sendCommand(new Redis.Command('get', ['k']))",
  'a defineCommand script': "s.defineCommand('own', { numberOfKeys: 1, lua: 'return 1' }); s.own('k')",
};

describe('a command left behind a test\'s blocked call, rejected by the setup\'s end-of-test close', () => {
  it.each(Object.entries(LEFT_BEHIND_A_BLOCKED_CALL))('is no unhandled rejection: %s (the next test passes)', (_name, call) => {
    const { status, output } = runChildJest(`
const Redis = require('ioredis-mock-streams');
test('leaves a call behind a blocked read', async () => {
  const s = new Redis();
  await s.ping();
  s.blpop('nolist', 0);
  ${call};
});
test('next', async () => {
  await new Promise((res) => setTimeout(res, 50));
});
`);
    expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(status).toBe(0);
  });
});
