/**
 * Jest setup: `setupFilesAfterEach`-style entry (`ioredis-mock-streams/jest`).
 *
 * Add to jest.config: `setupFilesAfterEnv: ['ioredis-mock-streams/jest']`. Then
 * `import Redis from 'ioredis'` gives the fake in every test file, and after each test every
 * keyspace is emptied, blocked calls are released and clocks go back to the default (global)
 * clock and Redis 8.10.
 *
 * Opt out per test file: `jest.unmock('ioredis')` at the top of the file (real ioredis), and/or
 * set `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true` to keep keyspaces between tests.
 */
import { resetAllKeyspaces } from '../index';

declare const jest: { mock(name: string, factory: () => unknown): void } | undefined;
declare const afterEach: ((fn: () => void) => void) | undefined;

if (typeof jest !== 'undefined') {
  jest.mock('ioredis', () => require('../cjs-entry'));
}

if (typeof afterEach === 'function') {
  afterEach(() => {
    if ((globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_STATE__) return;
    resetAllKeyspaces();
  });
}
