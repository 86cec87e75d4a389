#!/usr/bin/env bash
# ioredis's own functional test suite (test/ holds test/helpers and test/functional of tag v6.0.0,
# unmodified, without test/functional/cluster, whose tests talk only to ioredis's MockServer; MIT,
# LICENSE.ioredis) run with mocha as ioredis runs it (`test:js`: ts-node, TS_NODE_TRANSPILE_ONLY,
# its mocha options in .mocharc.json) on the published ioredis 6.0.0 (lib -> node_modules/ioredis/built,
# the build of the same sources) against up to two targets:
#   redis  a real server: REDIS_URL (Debian's redis-server 7.0.15 when this was written)
#   serve  this package's RESP server (dist/cli.js serve) on a free port, emulating the real
#          server's version (INFO's redis_version; IOREDIS_SUITE_REDIS_VERSION overrides; 7.0 without one)
# and compares the tests each passes. The tests connect to 127.0.0.1:6379 (ioredis's default):
# redirect.js sends those connections to the target's port, the test files stay unmodified.
# Many tests are skipped below a Redis version (584 of 2242 on 7.0.15); many others drive ioredis's
# own MockServer (ports 17379-17383, 27379-27382, 30000-30010 must be free) and pass or fail alike.
#
# Usage: test-suites/ioredis/run.sh [test/functional/FILE.ts ...] [--targets redis,serve]
# Env: REDIS_URL (the real server, on this machine), IOREDIS_SUITE_REDIS_VERSION,
# IOREDIS_RUN_TIMEOUT (s per run, 900), IOREDIS_SHOW_FAILURES=1 (list every failing test).
# Exit status 0 when every test has the same outcome on serve as on the real server. A file with a
# differing test is run again on both targets, up to 3 runs in all; a test differs only if it
# differed in every run. Without REDIS_URL serve runs alone and its counts are printed. Needs the
# npm registry the first time (the suite's pinned dependencies) and a built dist/ (npm run build).
# About 40 s per target on a 2-CPU machine. The targets run one after the other: MockServer ports.
# The run itself: test-suites/mocha-suite.sh (shared with the other mocha suites).
SUITE_NAME="ioredis suite"
SUITE_PACKAGE=ioredis
SUITE_DEFAULT_FILES=('test/functional/**/*.ts')
SUITE_RERUN='^test/functional/'
SUITE_VERSION_VAR=IOREDIS_SUITE_REDIS_VERSION
SUITE_TIMEOUT_VAR=IOREDIS_RUN_TIMEOUT
SUITE_SHOW_VAR=IOREDIS_SHOW_FAILURES
suite_file() { echo "$1"; }
suite_link() {
  # ioredis's tests import the library as ../../lib/…: the published build of the same version
  ln -sfn node_modules/ioredis/built lib
  echo "ioredis $(node -p 'require("ioredis/package.json").version'), mocha $(node -p 'require("mocha/package.json").version')"
}
suite_mocha() {
  local port=$1 report=$2
  shift 2
  IOREDIS_REDIS_PORT=$port SUITE_REPORT=$report TS_NODE_TRANSPILE_ONLY=true NODE_ENV=test \
    timed_mocha --no-experimental-strip-types --reporter ../mocha-reporter.js 'test/helpers/*.ts' "$@"
}
source "$(dirname "$0")/../mocha-suite.sh"
