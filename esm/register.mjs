// node:test (or any plain Node program, mocha…): `node --import ioredis-mock-streams/register --test`.
// Every `import … from 'ioredis'` and `require('ioredis')` outside this package then gives the
// fake, and under node:test, as ioredis-mock-streams/jest does under jest
// (lib/runners/test-lifecycle.ts, shared by the three runner entries):
// - after each test every keyspace is emptied, blocked calls are released and clocks go back to
//   the defaults; CONFIG and the ACL users go back to what they were when the test started (what
//   before() set lasts); a test that ended with blocked calls is named in a warning;
// - once a test's afterEach hooks have run, the clients created during it (in it or its
//   beforeEach hooks) are closed; a loop the test left running that keeps sending commands
//   without letting the event loop turn stops (its commands no longer settle) and a warning
//   names the test. Clients created at module scope or in before() hooks stay open.
// ESM imports are redirected by a module.register() resolve hook (Node >= 20.6), CommonJS
// requires by the CommonJS resolver. Keep keyspaces and clients between tests with
// `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true`.
import { register } from 'node:module';
import lifecycle from '../dist/runners/test-lifecycle.js';
import { redirectIoredisRequires } from './require-hook.mjs';

register('./register-hooks.mjs', import.meta.url);
redirectIoredisRequires();

// The per-test hooks only under node:test's runner (`node --test`: the runner's process has
// --test, each test file's process NODE_TEST_CONTEXT): registering node:test hooks elsewhere
// (mocha, a plain program) would start node:test's harness there (an empty TAP report, and
// node:test's handling of unhandled rejections).
if (process.env.NODE_TEST_CONTEXT || process.execArgv.includes('--test')) {
  const { after, afterEach, beforeEach } = await import('node:test');
  lifecycle.installTestLifecycle({
    beforeEach,
    afterEach,
    afterAll: after,
    // t.fullName (Node >= 22.3) names the suites too; Node 20 has the test's own name
    testName: (t) => t?.fullName ?? t?.name,
  });
}
