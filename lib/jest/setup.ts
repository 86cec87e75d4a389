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
import { allKeyspaces } from '../adapter/install';
import { onClientCreated } from '../adapter/client-registry';
import { markOrphan, onSpin, orphanTestOf } from '../adapter/spin-guard';
import { resetAllKeyspaces, StreamsMockError } from '../index';

declare const jest: { mock(name: string, factory: () => unknown): void } | undefined;
declare const beforeEach: ((fn: () => void) => void) | undefined;
declare const afterEach: ((fn: () => void) => void) | undefined;
declare const afterAll: ((fn: () => void) => void) | undefined;
declare const expect: { getState(): { currentTestName?: string } } | undefined;

const PREFIX = '[ioredis-mock-streams]';
const keepState = () => Boolean((globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_STATE__);

/** The test running now (from its first beforeEach hook to the end of our afterEach), if any. */
let currentTest: string | undefined;
/** The last test that started, and whether it has ended. */
let lastTest: string | undefined;
let lastTestEnded = false;
/** Clients created during the current/last test, closed once all its afterEach hooks ran. */
let createdInTest: { client: { disconnect(): void }; test: string }[] = [];

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

onClientCreated((client) => {
  if (currentTest !== undefined) createdInTest.push({ client: client as { disconnect(): void }, test: currentTest });
});

onSpin(({ client, commands, parked }) => {
  const owner = orphanTestOf(client);
  if (owner !== undefined) {
    console.warn(
      `${PREFIX} a client created by test "${owner}" keeps sending commands after the test ended ` +
        `(${commands} without letting the event loop turn): a loop outlived its test. The client was closed; ` +
        `${parked ? 'its commands no longer settle' : 'its commands now wait for the event loop'}. ` +
        'Stop the loop inside the test (e.g. a flag the loop checks, then await the loop).',
    );
  } else if (lastTest !== undefined && lastTestEnded) {
    console.warn(
      `${PREFIX} a client keeps sending commands after test "${lastTest}" ended (${commands} without letting ` +
        'the event loop turn): a loop outlived its test; its commands now wait for the event loop. ' +
        'Stop the loop inside the test (e.g. a flag the loop checks, then await the loop).',
    );
  }
});

/** Close the clients created during the previous test (all its hooks have run by now). */
function closeClientsOfEndedTest(): void {
  const clients = createdInTest;
  createdInTest = [];
  for (const { client, test } of clients) {
    markOrphan(client, test);
    try {
      client.disconnect();
    } catch {
      // already closed
    }
  }
}

if (typeof beforeEach === 'function') {
  beforeEach(() => {
    if (!keepState()) closeClientsOfEndedTest();
    currentTest = typeof expect !== 'undefined' ? expect.getState().currentTestName : undefined;
    lastTest = currentTest;
    lastTestEnded = false;
  });
}

if (typeof afterEach === 'function') {
  afterEach(() => {
    const test = currentTest;
    currentTest = undefined;
    lastTestEnded = true;
    if (keepState()) return;
    let blocked = 0;
    for (const ks of allKeyspaces) blocked += ks.blocking.size;
    if (blocked > 0) {
      console.warn(
        `${PREFIX} test "${test ?? '(unknown)'}" ended with ${blocked} blocked call${blocked === 1 ? '' : 's'} ` +
          '(XREAD/XREADGROUP BLOCK); the reset after it rejected them with "Connection is closed.". ' +
          'Await or stop blocking reads inside the test.',
      );
    }
    resetAllKeyspaces();
  });
}

if (typeof afterAll === 'function') {
  afterAll(() => {
    if (!keepState()) closeClientsOfEndedTest();
  });
}
