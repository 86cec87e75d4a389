// `node --require ioredis-mock-streams/register` (a CommonJS preload: `--require`, NODE_OPTIONS,
// mocha's `require:`): what `--import ioredis-mock-streams/register` does (esm/register.mjs), run
// synchronously — that entry is an ES module with a top-level await, which `require` cannot load
// (Node 20: ERR_REQUIRE_ESM, Node 22/24: ERR_REQUIRE_ASYNC_MODULE).
'use strict';
const Module = require('node:module');
const { pathToFileURL } = require('node:url');
const path = require('node:path');
const { redirectIoredisRequires } = require('./require-hook.cjs');
const lifecycle = require('../dist/runners/test-lifecycle.js');

// The per-test hooks only in a test file's process under node:test's runner (NODE_TEST_CONTEXT),
// registered now, before the file defines its tests. The runner's own process (`--test`) runs no
// test with the default isolation ("process"), and Node runs `--require` preloads there too: a hook
// registered from it would start a second, empty test harness. With isolation "none" the runner
// runs the files itself, after its preloads, and a preload's hooks do not reach its tests: that
// takes the ES module entry (`--import`), which Node runs at the right time there.
if (process.env.NODE_TEST_CONTEXT) installNodeTestHooks();
else if (process.execArgv.includes('--test') && testIsolationNone([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)])) {
  const { StreamsMockError } = require('../dist/clock/clock.js');
  throw new StreamsMockError(
    "--require ioredis-mock-streams/register cannot reset the fake between tests with test isolation 'none' " +
      '(node:test runs the test files in its own process, after the preloads): use --import ioredis-mock-streams/register',
  );
}

// ESM imports of 'ioredis' (the same module.register() hooks as the ESM entry; Node >= 20.6)
Module.register(pathToFileURL(path.join(__dirname, 'register-hooks.mjs')).href);
redirectIoredisRequires();

/**
 * Is `--test-isolation=none` (or Node 22's `--experimental-test-isolation=none`) among the flags
 * (the command line's and NODE_OPTIONS')? A config file's (`--experimental-config-file`) is not read.
 */
function testIsolationNone(argv) {
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(?:experimental-)?test-isolation(?:=(.*))?$/.exec(argv[i]);
    if (m && (m[1] ?? argv[i + 1]) === 'none') return true;
  }
  return false;
}

function installNodeTestHooks() {
  const { after, afterEach, beforeEach } = require('node:test');
  lifecycle.installTestLifecycle({
    beforeEach,
    afterEach,
    afterAll: after,
    // t.fullName (Node >= 22.3) names the suites too; Node 20 has the test's own name
    testName: (t) => t?.fullName ?? t?.name,
  });
}
