#!/usr/bin/env bash
# Bull's own test suite (test/ holds its files at tag v4.15.0, unmodified; MIT, LICENSE.bull; the
# newest tag whose test folder was at hand: npm's latest is 4.16.5, whose 4.15.0 tests pass the
# same) run with mocha as Bull's CI runs it (`mocha 'test/test_*' --recursive --exit`, its
# .mocharc.json) against up to two targets:
#   redis  a real server: REDIS_URL (Debian's redis-server 7.0.15 in CI)
#   serve  this package's RESP server (dist/cli.js serve) on a free port, emulating the real
#          server's version (INFO's redis_version; BULL_REDIS_VERSION overrides; 7.0 without one)
# and compares the tests each passes. Bull's tests connect to 127.0.0.1:6379 (ioredis's default):
# redirect.js sends those connections to the target's port, the test files stay unmodified.
#
# Usage: test-suites/bull/run.sh [test_FILE.js ...] [--targets redis,serve]
# Env: REDIS_URL (the real server), BULL_REDIS_VERSION, BULL_RUN_TIMEOUT (s per run, 900),
# BULL_SHOW_FAILURES=1 (list every failing test).
# Exit status 0 when every test has the same outcome on serve as on the real server. A file with a
# differing test is run again on both targets, up to 3 runs in all; a test differs only if it
# differed in every run (Bull's suite has timing races: "Job .promote should process a promoted
# job according to its priority" fails on redis-server about one run in two, on the fake seldom;
# "Queue Cleaner should clean completed jobs respecting limit" needs its jobs done within 25 ms).
# Without REDIS_URL serve runs alone and its counts are printed. Needs the npm registry the first
# time (the suite's pinned dependencies) and a built dist/ (npm run build). About 2 min per target
# and run on an idle 2-CPU machine. trace/ holds a recording proxy and a replay on a manual clock
# that compare every reply, not only the tests' outcomes (how the expiry-boundary divergence was found).
# The run itself: test-suites/mocha-suite.sh (shared with the other mocha suites).
SUITE_NAME="bull suite"
SUITE_PACKAGE=bull
SUITE_DEFAULT_FILES=('test/test_*')
SUITE_RERUN='^test/test_'
SUITE_VERSION_VAR=BULL_REDIS_VERSION
SUITE_TIMEOUT_VAR=BULL_RUN_TIMEOUT
SUITE_SHOW_VAR=BULL_SHOW_FAILURES
suite_file() { echo "test/$(basename "$1")"; }
suite_link() {
  # Bull's tests require the library as ../ and ../lib/…: the published build of the same version
  ln -sfn node_modules/bull/lib lib
  ln -sfn node_modules/bull/index.js index.js
  echo "bull $(node -p 'require("bull/package.json").version'), ioredis $(node -p 'require("ioredis/package.json").version'), mocha $(node -p 'require("mocha/package.json").version')"
}
suite_mocha() {
  local port=$1 report=$2
  shift 2
  BULL_REDIS_PORT=$port SUITE_REPORT=$report NODE_ENV=test \
    timed_mocha --require ./redirect.js --reporter ../mocha-reporter.js "$@" --recursive --exit
}
source "$(dirname "$0")/../mocha-suite.sh"
