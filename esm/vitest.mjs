// vitest setup: `setupFiles: ['ioredis-mock-streams/vitest']` in the vitest config (every test
// file of the project), or `import 'ioredis-mock-streams/vitest'` first thing in one test file.
// `import Redis from 'ioredis'` then gives the fake, and, as ioredis-mock-streams/jest does under
// jest (lib/runners/test-lifecycle.ts, shared by the three runner entries):
// - after each test every keyspace is emptied, blocked calls are released and clocks go back to
//   the default (global) clock and Redis 8.10; CONFIG and the ACL users go back to what they were
//   when the test started (what beforeAll set lasts); a test that ended with blocked calls is
//   named in a warning;
// - once a test's afterEach hooks have run, the clients created during it (in it or its
//   beforeEach hooks) are closed; a loop the test left running that keeps sending commands
//   without letting the event loop turn stops (its commands no longer settle) and a warning names
//   the test. Clients created at module scope or in beforeAll stay open.
// A dependency's `require('ioredis')` made through Node (BullMQ building a connection from
// options) gets the fake as well (./require-hook.mjs).
// Opt out: `vi.unmock('ioredis')` in a file gives its imports real ioredis; setting
// `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true` keeps keyspaces and clients between tests.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, expect, vi } from 'vitest';
import lifecycle from '../dist/runners/test-lifecycle.js';
import { StreamsMockError } from './index.mjs';
import { redirectIoredisRequires } from './require-hook.mjs';

// With `isolate: false` the test files of a worker share one module graph: imported from a test
// file, this module runs once per worker, so the files after the first would get real ioredis and
// no reset, silently. Setup files are re-run for every test file. (vitest's worker state is not
// public API: without it there is no check.)
const worker = globalThis.__vitest_worker__;
if (worker?.config?.isolate === false && Array.isArray(worker.config.setupFiles)) {
  const real = (file) => {
    try {
      return realpathSync(file);
    } catch {
      return file;
    }
  };
  const self = real(fileURLToPath(import.meta.url));
  if (!worker.config.setupFiles.some((file) => real(file) === self)) {
    throw new StreamsMockError(
      "with isolate: false, `import 'ioredis-mock-streams/vitest'` in a test file would mock ioredis in the first " +
        "test file of each worker only; use setupFiles: ['ioredis-mock-streams/vitest'] in the vitest config " +
        '(vitest re-runs setup files for every test file), or the vi.mock one-liner in each file',
    );
  }
}

vi.mock('ioredis', () => import('ioredis-mock-streams'));
// and the `require('ioredis')` of dependencies vitest leaves to Node (BullMQ given connection
// options), which vi.mock does not reach: under jest they get the fake too
redirectIoredisRequires();

lifecycle.installTestLifecycle({
  beforeEach,
  afterEach,
  afterAll,
  testName: (context) => expect.getState().currentTestName ?? context?.task?.name,
});
