/**
 * Jest setup: `setupFilesAfterEnv` entry (`ioredis-mock-streams/jest`).
 *
 * Add to jest.config: `setupFilesAfterEnv: ['ioredis-mock-streams/jest']` (in `setupFiles`, which jest
 * runs before its test hooks exist, it throws a StreamsMockError saying so). Then
 * `import Redis from 'ioredis'` gives the fake in every test file, and:
 * - after each test every keyspace is emptied as FLUSHALL empties a server (the blocked calls of
 *   clients created outside tests stay blocked; a blocked XREADGROUP fails, its group gone),
 *   CONFIG and the ACL users go back to what they were when the test started (what module scope
 *   or beforeAll set lasts; what the test set ends with it), and clocks go back to the default
 *   (global) clock and Redis 8.10 (those set outside tests are kept too); the blocked calls of the clients
 *   the test created reject with "Connection is closed." and a warning names the test and their
 *   commands;
 * - once every afterEach hook of a test has run, the clients created during that test (in it or
 *   its beforeEach hooks) are closed, like a connection whose test is over: a loop the test
 *   left running sees "Connection is closed.", and if it keeps sending commands without ever
 *   letting the event loop turn, its commands stop settling (so jest can report and exit) and a
 *   warning names the test. Clients created outside tests (module scope, beforeAll) stay open.
 *
 * A test file that mocks ioredis itself after this (the ioredis-mock migration's leftover
 * `jest.mock('ioredis', () => require('ioredis-mock'))`) replaces this mock: a warning names the
 * line to remove (issue 23).
 *
 * Opt out per test file: `jest.unmock('ioredis')` at the top of the file (real ioredis), and/or
 * set `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true` to keep keyspaces and clients
 * between tests.
 */
import { StreamsMockError, ioredisMissingError } from '../clock/clock';
import { installJestLifecycle } from '../runners/jest-hooks';

declare const jest: { mock(name: string, factory: () => unknown): void; requireActual(name: string): unknown } | undefined;
declare const beforeAll: ((fn: () => void) => void) | undefined;

// vitest has no `jest` global: this file would silently leave real ioredis in place.
if (typeof jest === 'undefined' && process.env.VITEST) {
  throw new StreamsMockError(
    "'ioredis-mock-streams/jest' is the jest setup file; under vitest use setupFiles: ['ioredis-mock-streams/vitest'] " +
      "(or import 'ioredis-mock-streams/vitest' at the top of a test file)",
  );
}

/** Set when this file's mock factory ran (named mock… for babel-plugin-jest-hoist). */
let mockFactoryRan = false;

if (typeof jest !== 'undefined') {
  // jest.mock of a module jest cannot find fails with jest's own "Cannot find module 'ioredis'"
  try {
    require.resolve('ioredis');
  } catch {
    throw ioredisMissingError();
  }
  jest.mock('ioredis', () => {
    mockFactoryRan = true;
    return require('../cjs-entry');
  });
  // Once the test file's own code ran: did a jest.mock('ioredis', …) of its own replace ours?
  if (typeof beforeAll === 'function') {
    beforeAll(() => {
      if (mockFactoryRan) return;
      let resolved: unknown;
      try {
        resolved = require('ioredis');
      } catch {
        return;
      }
      if (mockFactoryRan || resolved === jest.requireActual('ioredis')) return; // ours, or jest.unmock('ioredis')
      // the file's own jest.mock gives this package too (the one-line route next to the setup file)
      if (resolved === require('../cjs-entry')) return;
      console.warn(
        "[ioredis-mock-streams] this test file mocks 'ioredis' itself (e.g. jest.mock('ioredis', () => require('ioredis-mock')), " +
          "left from a migration), which replaces the mock of the setup file 'ioredis-mock-streams/jest': the file gets plain " +
          'ioredis-mock — no consumer groups (XGROUP: "Unsupported command"), TYPE of a stream "list", nothing reset between tests. ' +
          'Remove that jest.mock line: the setup file already mocks ioredis in every test file.',
      );
    });
  }
}

// the per-test behaviour shared with the vitest and node:test entries (lib/runners/test-lifecycle.ts)
const installed = installJestLifecycle();
// jest runs `setupFiles` before it defines the test hooks: there this file would mock ioredis but
// reset nothing between tests, silently.
if (typeof jest !== 'undefined' && !installed) {
  throw new StreamsMockError(
    "'ioredis-mock-streams/jest' ran before jest's beforeEach/afterEach exist (a setupFiles entry?): keyspaces, clocks and " +
      "clients would not be reset between tests; put it in setupFilesAfterEnv: ['ioredis-mock-streams/jest'] in the jest config",
  );
}
