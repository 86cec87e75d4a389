// vitest setup: `setupFiles: ['ioredis-mock-streams/vitest']` in the vitest config (every test
// file of the project), or `import 'ioredis-mock-streams/vitest'` first thing in one test file.
// `import Redis from 'ioredis'` then gives the fake, and after each test every keyspace is
// emptied, blocked calls are released and clocks go back to the default (global) clock and
// Redis 8.10 — as ioredis-mock-streams/jest does under jest.
// Opt out: `vi.unmock('ioredis')` in a file gives it real ioredis; setting
// `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true` keeps keyspaces between tests.
import { afterEach, vi } from 'vitest';
import { resetAllKeyspaces } from './index.mjs';

vi.mock('ioredis', () => import('ioredis-mock-streams'));

afterEach(() => {
  if (globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__) return;
  resetAllKeyspaces();
});
