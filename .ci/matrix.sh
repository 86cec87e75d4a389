#!/usr/bin/env bash
# CI matrix for "every client and runner people use today" (run after `npm ci`; .ci/run calls it
# after `npm test`, which is the whole suite on ioredis 6.0.0, the dev dependency):
#   1. the whole suite again on ioredis 5.11.1 (`npm run test:ioredis5`: jest maps `ioredis` to
#      the `ioredis5` dev alias; typecheck with tsconfig.ioredis5.json); REDIS_URL, when set, is
#      used as by `npm test`;
#   1b. the adapter tests of what ioredis 6.1.0 changed on ioredis 6.1.0 (IOREDIS_VERSION=6.1:
#      jest maps `ioredis` to the `ioredis61` dev alias; ~10-40 s);
#   2. `npm pack` of the package, installed the way a user installs it (`npm install <tarball>`,
#      no flags) into small consumer projects (.ci/consumers), each with the ioredis it names:
#      jest 29 + ioredis 5.11.1, jest 30 + ioredis 6.0.0, vitest 4.1 + ioredis 6.0.0 (also both
#      pools, with and without isolation) and vitest 5.1 the same where the Node line allows it (>= 22.12), node:test + ioredis 6.0.0 (each runner's setup entry:
#      reset, clients closed after their test, warnings for leaked loops and blocked reads),
#      ESM TypeScript (nodenext, bundler) + ioredis 6.0.0 and 5.11.1,
#      plain installs next to ioredis 5.0.0 / 6.0.0 and next to a project's own ioredis-mock
#      (ioredis 5.11.1), and with Yarn 1 (ioredis 6.0.0) and Yarn 4 (ioredis 5.11.1), @upstash/redis through msw 2 under jest, and through msw 3 when the Node
#      line allows it (>= 22.12). Each install must be clean: no npm warning, `npm ls` valid.
# It runs on the `node` first in PATH: `.ci/node-line.sh 22 -- .ci/matrix.sh` for Node 22.
# Usage: .ci/matrix.sh [--skip-suite]   (MATRIX_ONLY=name,name runs only those consumers)
# Needs the npm registry (consumers install their runner). Prints one PASS/FAIL line per step,
# then (issue 23 item 16) each failed step again with its reason and the end of its log, so that
# they are the last lines of the output. Timeouts are sized for a loaded 2-CPU machine: 60 s per
# test in every runner (MATRIX_TEST_TIMEOUT, ms), 15 min per install and per run
# (MATRIX_STEP_TIMEOUT, s), 30 min for the whole suite on ioredis 5 (MATRIX_SUITE_TIMEOUT, s); a
# step that hits one says so.
# Registry snapshot: npm resolves every consumer's dependencies as of MATRIX_NPM_BEFORE (default
# 2026-12-01; `npm install --before`; empty: the newest). The installs have no lock file, and a
# registry can hold a package whose own dependency it does not yet (tldts 7.6.6 asked for a
# tldts-core 7.6.6 the registry lacked: every msw 2 install failed with ETARGET); a fixed date
# gives every run the same tree. Move it forward when a pinned version above is newer.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

START=$(date +%s)
NODE_VERSION=$(node -p process.versions.node)
NPM_BEFORE=${MATRIX_NPM_BEFORE-2026-12-01}
echo "matrix on Node $NODE_VERSION ($(command -v node)), npm $(npm --version), registry as of ${NPM_BEFORE:-now}"
TEST_TIMEOUT=${MATRIX_TEST_TIMEOUT:-60000}
STEP_TIMEOUT=${MATRIX_STEP_TIMEOUT:-900}
SUITE_TIMEOUT=${MATRIX_SUITE_TIMEOUT:-1800}
SKIP_SUITE=0
[ "${1:-}" = "--skip-suite" ] && SKIP_SUITE=1

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
FAILED=()  # the FAIL lines of this shell (the whole-suite step); consumers' are read from their .out
pass() { echo "PASS $1 ($2 s)"; }
fail() { echo "FAIL $1 ($2 s)"; failures=$((failures + 1)); FAILED+=("FAIL $1 ($2 s)"); }  # a consumer's own count dies with its subshell
now() { date +%s; }
# why <exit status> → the reason of a failed command: a timeout, or its exit status
why() { if [ "$1" = 124 ] || [ "$1" = 137 ]; then echo "timed out after ${2:-$STEP_TIMEOUT} s"; else echo "exit status $1"; fi; }

if [ "$SKIP_SUITE" = 0 ]; then
  t=$(now)
  # bounded (SUITE_TIMEOUT s, default 1800; the run takes ~250 s here): a hang fails this step
  # with the files that had not finished, instead of eating CI's whole budget in silence
  if timeout --kill-after=20 "$SUITE_TIMEOUT" npm run test:ioredis5 >"$WORK/suite-ioredis5.log" 2>&1; then st=0; else st=$?; fi
  if [ "$st" = 0 ]; then
    pass "whole suite on ioredis 5.11.1: $(grep -E '^Tests:' "$WORK/suite-ioredis5.log" | tail -1)" $(($(now) - t))
  else
    tail -80 "$WORK/suite-ioredis5.log"
    if [ "$st" = 124 ] || [ "$st" = 137 ]; then
      echo "timed out after $SUITE_TIMEOUT s; test files without a PASS/FAIL line (the one running is among them):"
      (IOREDIS_MAJOR=5 npx jest --listTests 2>/dev/null | sed "s|^$ROOT/||" | sort) >"$WORK/all-files" || true
      (grep -aoE '^(PASS|FAIL) +[^ ]+' "$WORK/suite-ioredis5.log" | awk '{print $2}' | sort) >"$WORK/done-files" || true
      comm -23 "$WORK/all-files" "$WORK/done-files" | head -20
    fi
    fail "whole suite on ioredis 5.11.1: $(why "$st" "$SUITE_TIMEOUT") $(grep -E '^(Tests|Test Suites):' "$WORK/suite-ioredis5.log" | tail -2 | tr '\n' ' ')" $(($(now) - t))
    SUITE_TAIL=$(grep -E '^\s*● ' "$WORK/suite-ioredis5.log" | head -10 || true)
  fi
fi

if [ "$SKIP_SUITE" = 0 ]; then
  t=$(now)
  IO61_FILES="__tests__/adapter/ioredis61-call-transformers.test.ts __tests__/adapter/ioredis-reply.test.ts __tests__/adapter/ioredis-replies-e2e.test.ts __tests__/adapter/command-table.test.ts __tests__/adapter/handshake.test.ts __tests__/adapter/reply-mapping-options.test.ts __tests__/adapter/hello.test.ts __tests__/adapter/send-command.test.ts __tests__/regressions/11-incr-64-bit.test.ts __tests__/regressions/11-resp3-doubles-as-ioredis-reads.test.ts __tests__/regressions/11-pipeline-call-reply-transformers.test.ts __tests__/adapter/ioredis-named-exports.test.ts __tests__/regressions/27-1-unsubscribe-all-with-other-kind-left.test.ts"
  # shellcheck disable=SC2086
  if IOREDIS_VERSION=6.1 timeout --kill-after=20 "$STEP_TIMEOUT" npx jest --ci $IO61_FILES >"$WORK/adapter-ioredis61.log" 2>&1; then
    pass "adapter tests on ioredis 6.1.0: $(grep -E '^Tests:' "$WORK/adapter-ioredis61.log" | tail -1)" $(($(now) - t))
  else
    st=$?
    tail -60 "$WORK/adapter-ioredis61.log"
    fail "adapter tests on ioredis 6.1.0: $(why "$st") $(grep -E '^Tests:' "$WORK/adapter-ioredis61.log" | tail -1)" $(($(now) - t))
  fi
fi

t=$(now)
npm pack --pack-destination "$WORK" >"$WORK/pack.log" 2>&1 || { cat "$WORK/pack.log"; exit 1; }
TGZ=$(ls "$WORK"/ioredis-mock-streams-*.tgz)
echo "packed $(basename "$TGZ") ($(du -k "$TGZ" | cut -f1) kB) in $(($(now) - t)) s"

# consumer <name> <template> <packages to install…> -- <command…>: the template project with the
# tarball npm-installed next to the packages, then the command. Template `yarn:<yarn package spec>`:
# the install template, the tarball added with that Yarn (node_modules linker; a cache of its own:
# Yarn 1 keeps the copy of a tarball path it saw first) — Yarn fetched a bundled dependency from
# the registry and failed (yarnpkg/yarn#5998): the package ships ioredis-mock as a file of its own.
consumer() {
  local name=$1 template=$2 yarn=
  shift 2
  if [[ $template == yarn:* ]]; then yarn=${template#yarn:}; template=install; fi
  local pkgs=()
  while [ "$1" != "--" ]; do pkgs+=("$1"); shift; done
  shift
  local dir="$WORK/$name" t st
  t=$(now)
  mkdir -p "$dir"
  cp -R "$ROOT/.ci/consumers/$template/." "$dir/"
  if [ -n "$yarn" ]; then
    mkdir -p "$dir/.yarn-cache" && touch "$dir/yarn.lock"
    if (cd "$dir" && YARN_CACHE_FOLDER="$dir/.yarn-cache" YARN_NODE_LINKER=node-modules YARN_ENABLE_TELEMETRY=0 YARN_ENABLE_GLOBAL_CACHE=0 \
      timeout "$STEP_TIMEOUT" npx -y "$yarn" add "${pkgs[@]}" "ioredis-mock-streams@file:$TGZ" >install.log 2>&1); then st=0; else st=$?; fi
    if [ "$st" != 0 ]; then
      tail -30 "$dir/install.log"; fail "$name: yarn add: $(why $st)" $(($(now) - t)); return 0
    fi
  else
    if (cd "$dir" && timeout "$STEP_TIMEOUT" npm install --no-audit --no-fund ${NPM_BEFORE:+--before="$NPM_BEFORE"} "${pkgs[@]}" "$TGZ" >install.log 2>&1); then st=0; else st=$?; fi
    if [ "$st" != 0 ]; then
      cat "$dir/install.log"; fail "$name: npm install: $(why $st)" $(($(now) - t)); return 0
    fi
    # npm's own notices about other packages (e.g. install-scripts of a runner's dependency) are not ours
    if grep -iE 'npm (warn|error)' "$dir/install.log" | grep -qiE 'ERESOLVE|peer|ioredis|invalid|conflict'; then
      cat "$dir/install.log"; fail "$name: npm install printed dependency warnings" $(($(now) - t)); return 0
    fi
    if ! (cd "$dir" && npm ls --all >ls.log 2>&1); then
      tail -20 "$dir/ls.log"; fail "$name: npm ls" $(($(now) - t)); return 0
    fi
  fi
  if (cd "$dir" && timeout "$STEP_TIMEOUT" "$@" >run.log 2>&1); then st=0; else st=$?; fi
  if [ "$st" = 0 ]; then
    pass "$name" $(($(now) - t))
  else
    tail -60 "$dir/run.log"
    # the reason: the runner's own failure lines (jest/vitest ●/FAIL/×, node:test "not ok"), else the status
    local reason
    reason=$(grep -aE '^\s*(●|FAIL |×|✗|not ok|Error:|AssertionError)' "$dir/run.log" | grep -v '^\s*● Console' | head -3 | sed 's/^\s*//' | tr '\n' ';' || true)
    fail "$name: $(why $st)${reason:+: $reason}" $(($(now) - t))
  fi
}

# Consumers run in parallel (npm installs dominate); their reports are printed in this order.
names=()
launch() {
  local name=$1
  if [ -n "${MATRIX_ONLY:-}" ] && [[ ",$MATRIX_ONLY," != *",$name,"* ]]; then return 0; fi
  names+=("$name")
  consumer "$@" >"$WORK/$name.out" 2>&1 &
}

JEST="npx jest --ci --testTimeout=$TEST_TIMEOUT"
VITEST="npx vitest run --testTimeout=$TEST_TIMEOUT --hookTimeout=$TEST_TIMEOUT"
launch jest29-ioredis5 jest jest@29.7.0 ioredis@5.11.1 -- $JEST
launch jest30-ioredis6 jest jest@30.5.2 ioredis@6.0.0 -- $JEST
launch vitest4-ioredis6 vitest vitest@4.1.12 vite@8.3.8 ioredis@6.0.0 -- \
  sh -c "$VITEST && $VITEST --config vitest.pools.config.mjs &&
    ! $VITEST --config vitest.misuse.config.mjs >misuse.log 2>&1 && grep -q ioredis-mock-streams/vitest misuse.log &&
    ! $VITEST --config vitest.isolate-misuse.config.mjs >isolate-misuse.log 2>&1 && grep -q 'with isolate: false' isolate-misuse.log"
# vitest 5 (what `npm i -D vitest` installs on Node >= 22.12; it needs that line): the same project
if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'; then
  launch vitest5-ioredis6 vitest vitest@5.1.2 vite@8.3.8 ioredis@6.0.0 -- \
    sh -c "$VITEST && $VITEST --config vitest.pools.config.mjs &&
      ! $VITEST --config vitest.misuse.config.mjs >misuse.log 2>&1 && grep -q ioredis-mock-streams/vitest misuse.log &&
      ! $VITEST --config vitest.isolate-misuse.config.mjs >isolate-misuse.log 2>&1 && grep -q 'with isolate: false' isolate-misuse.log"
elif [ -z "${MATRIX_ONLY:-}" ] || [[ ",$MATRIX_ONLY," == *",vitest5-ioredis6,"* ]]; then
  echo "vitest5-ioredis6 not run: vitest 5 needs Node >= 22.12 (this is $NODE_VERSION)"
fi
# (a loop that outlives its test must stop: without that the run never exits; the step timeout
# ends it)
# (the files by glob: Node 22 and later read a directory given to --test as a file path)
# (and as a CommonJS preload: `--require`, the entry's require condition)
launch node-test-ioredis6 node-test ioredis@6.0.0 -- \
  sh -c "node --import ioredis-mock-streams/register --test --test-timeout=$TEST_TIMEOUT tests/*.test.* &&
    node --require ioredis-mock-streams/register --test --test-timeout=$TEST_TIMEOUT tests/*.test.*"
launch esm-ts-ioredis6 esm-ts typescript@5.9.3 @types/node@20.19.43 ioredis@6.0.0 -- \
  sh -c 'npx tsc -p tsconfig.bundler.json && npx tsc -p tsconfig.nodenext.json && node out/main.js'
launch esm-ts-ioredis5 esm-ts typescript@5.9.3 @types/node@20.19.43 ioredis@5.11.1 -- \
  sh -c 'npx tsc -p tsconfig.bundler.json && npx tsc -p tsconfig.nodenext.json && node out/main.js'
launch install-ioredis5.0.0 install ioredis@5.0.0 -- node smoke.cjs
launch install-ioredis6.0.0 install ioredis@6.0.0 -- node smoke.cjs
launch install-own-ioredis-mock install ioredis@5.11.1 ioredis-mock@8.13.1 -- node smoke.cjs
launch install-yarn1-ioredis6 yarn:yarn@1.22.22 ioredis@6.0.0 -- node smoke.cjs
launch install-yarn4-ioredis5 yarn:@yarnpkg/cli-dist@4.5.3 ioredis@5.11.1 -- node smoke.cjs
# @upstash/redis through ioredis-mock-streams/msw under jest: msw 2 on every line, msw 3 (Node
# >= 22.12, ES modules only) where the line allows it
UPSTASH=(jest@30.5.2 @babel/plugin-transform-modules-commonjs@7.29.14 @upstash/redis@1.39.0 ioredis@6.0.0)
launch upstash-msw2 upstash-msw "${UPSTASH[@]}" msw@2.15.0 -- env MSW_MAJOR=2 $JEST
if node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'; then
  launch upstash-msw3 upstash-msw "${UPSTASH[@]}" msw@3.0.5 babel-plugin-transform-import-meta@2.3.3 -- \
    env MSW_MAJOR=3 $JEST -c jest.msw3.config.js
elif [ -z "${MATRIX_ONLY:-}" ] || [[ ",$MATRIX_ONLY," == *",upstash-msw3,"* ]]; then
  echo "upstash-msw3 not run: msw 3 needs Node >= 22.12 (this is $NODE_VERSION)"
fi
wait

for name in "${names[@]}"; do
  cat "$WORK/$name.out"
  if ! grep -q "^PASS $name" "$WORK/$name.out"; then
    failures=$((failures + 1))
    line=$(grep -m1 "^FAIL $name" "$WORK/$name.out" || echo "FAIL $name: no result (its shell ended early)")
    FAILED+=("$line")
  fi
done
# The failed steps again, last, with their reasons (a step's log is printed above in full)
if [ "$failures" -gt 0 ]; then
  echo "---- matrix on Node $NODE_VERSION: failed steps ----"
  printf '%s\n' "${FAILED[@]}"
  [ -n "${SUITE_TAIL:-}" ] && echo "$SUITE_TAIL"
fi
echo "matrix on Node $NODE_VERSION: $failures failed (total $(($(now) - START)) s)"
exit $((failures > 0))
