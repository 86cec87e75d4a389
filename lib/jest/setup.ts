/**
 * Jest setup: `setupFilesAfterEnv` entry (`ioredis-mock-streams/jest`).
 *
 * Add to jest.config: `setupFilesAfterEnv: ['ioredis-mock-streams/jest']`. Then
 * `import Redis from 'ioredis'` gives the fake in every test file, and:
 * - after each test every keyspace is emptied, blocked calls are released (they reject with
 *   "Connection is closed.") and clocks go back to the default (global) clock and Redis 8.10;
 *   a test that ended with blocked calls is named in a warning;
 * - once every afterEach hook of a test has run, the clients created during that test (in it or
 *   its beforeEach hooks) are closed, like a connection whose test is over: a loop the test
 *   left running sees "Connection is closed.", and if it keeps sending commands without ever
 *   letting the event loop turn, its commands stop settling (so jest can report and exit) and a
 *   warning names the test. Clients created outside tests (module scope, beforeAll) stay open.
 *
 * Opt out per test file: `jest.unmock('ioredis')` at the top of the file (real ioredis), and/or
 * set `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true` to keep keyspaces and clients
 * between tests.
 */
import { StreamsMockError } from '../clock/clock';
import { installTestLifecycle } from '../runners/test-lifecycle';

declare const jest: { mock(name: string, factory: () => unknown): void } | undefined;
declare const beforeEach: ((fn: () => void) => void) | undefined;
declare const afterEach: ((fn: () => void) => void) | undefined;
declare const afterAll: ((fn: () => void) => void) | undefined;
declare const expect: { getState(): { currentTestName?: string } } | undefined;

// vitest has no `jest` global: this file would silently leave real ioredis in place.
if (typeof jest === 'undefined' && process.env.VITEST) {
  throw new StreamsMockError(
    "'ioredis-mock-streams/jest' is the jest setup file; under vitest use setupFiles: ['ioredis-mock-streams/vitest'] " +
      "(or import 'ioredis-mock-streams/vitest' at the top of a test file)",
  );
}

if (typeof jest !== 'undefined') {
  jest.mock('ioredis', () => require('../cjs-entry'));
}

// the per-test behaviour shared with the vitest and node:test entries (lib/runners/test-lifecycle.ts)
if (typeof beforeEach === 'function' && typeof afterEach === 'function') {
  installTestLifecycle({
    beforeEach: (fn) => beforeEach(() => fn()),
    afterEach: (fn) => afterEach(() => fn()),
    afterAll: typeof afterAll === 'function' ? (fn) => afterAll(fn) : undefined,
    testName: () => (typeof expect !== 'undefined' ? expect.getState().currentTestName : undefined),
  });
}
