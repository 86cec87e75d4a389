#!/usr/bin/env bash
# CI matrix for "every client and runner people use today" (run after `npm ci`; .ci/run calls it
# after `npm test`, which is the whole suite on ioredis 6.0.0, the dev dependency):
#   1. the whole suite again on ioredis 5.11.1 (`npm run test:ioredis5`: jest maps `ioredis` to
#      the `ioredis5` dev alias; typecheck with tsconfig.ioredis5.json); REDIS_URL, when set, is
#      used as by `npm test`;
#   2. `npm pack` of the package, installed the way a user installs it (`npm install <tarball>`,
#      no flags) into small consumer projects (.ci/consumers), each with the ioredis it names:
#      jest 29 + ioredis 5.11.1, jest 30 + ioredis 6.0.0, vitest 4.1 + ioredis 6.0.0 (also both
#      pools, with and without isolation), node:test + ioredis 6.0.0 (each runner's setup entry:
#      reset, clients closed after their test, warnings for leaked loops and blocked reads),
#      ESM TypeScript (nodenext, bundler) + ioredis 6.0.0 and 5.11.1,
#      plain installs next to ioredis 5.0.0 / 6.0.0 and next to a project's own ioredis-mock
#      (ioredis 5.11.1). Each install must be clean: no npm warning, `npm ls` valid.
# Usage: .ci/matrix.sh [--skip-suite]   (MATRIX_ONLY=name,name runs only those consumers)
# Needs the npm registry (consumers install their runner). Prints one PASS/FAIL line per step.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

START=$(date +%s)
SKIP_SUITE=0
[ "${1:-}" = "--skip-suite" ] && SKIP_SUITE=1

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
pass() { echo "PASS $1 ($2 s)"; }
fail() { echo "FAIL $1 ($2 s)"; failures=$((failures + 1)); }  # a consumer's own count dies with its subshell
now() { date +%s; }

if [ "$SKIP_SUITE" = 0 ]; then
  t=$(now)
  if npm run test:ioredis5 >"$WORK/suite-ioredis5.log" 2>&1; then
    pass "whole suite on ioredis 5.11.1: $(grep -E '^Tests:' "$WORK/suite-ioredis5.log" | tail -1)" $(($(now) - t))
  else
    tail -80 "$WORK/suite-ioredis5.log"
    fail "whole suite on ioredis 5.11.1" $(($(now) - t))
  fi
fi

t=$(now)
npm pack --pack-destination "$WORK" >"$WORK/pack.log" 2>&1 || { cat "$WORK/pack.log"; exit 1; }
TGZ=$(ls "$WORK"/ioredis-mock-streams-*.tgz)
echo "packed $(basename "$TGZ") ($(du -k "$TGZ" | cut -f1) kB) in $(($(now) - t)) s"

# consumer <name> <template> <packages to install…> -- <command…>
consumer() {
  local name=$1 template=$2
  shift 2
  local pkgs=()
  while [ "$1" != "--" ]; do pkgs+=("$1"); shift; done
  shift
  local dir="$WORK/$name" t
  t=$(now)
  mkdir -p "$dir"
  cp -R "$ROOT/.ci/consumers/$template/." "$dir/"
  if ! (cd "$dir" && npm install --no-audit --no-fund "${pkgs[@]}" "$TGZ" >install.log 2>&1); then
    cat "$dir/install.log"; fail "$name: npm install" $(($(now) - t)); return 0
  fi
  # npm's own notices about other packages (e.g. install-scripts of a runner's dependency) are not ours
  if grep -iE 'npm (warn|error)' "$dir/install.log" | grep -qiE 'ERESOLVE|peer|ioredis|invalid|conflict'; then
    cat "$dir/install.log"; fail "$name: npm install printed dependency warnings" $(($(now) - t)); return 0
  fi
  if ! (cd "$dir" && npm ls --all >ls.log 2>&1); then
    tail -20 "$dir/ls.log"; fail "$name: npm ls" $(($(now) - t)); return 0
  fi
  if (cd "$dir" && "$@" >run.log 2>&1); then
    pass "$name" $(($(now) - t))
  else
    tail -60 "$dir/run.log"; fail "$name" $(($(now) - t))
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

launch jest29-ioredis5 jest jest@29.7.0 ioredis@5.11.1 -- npx jest --ci
launch jest30-ioredis6 jest jest@30.5.2 ioredis@6.0.0 -- npx jest --ci
launch vitest4-ioredis6 vitest vitest@4.1.12 vite@8.3.8 ioredis@6.0.0 -- \
  sh -c 'npx vitest run && npx vitest run --config vitest.pools.config.mjs &&
    ! npx vitest run --config vitest.misuse.config.mjs >misuse.log 2>&1 && grep -q "ioredis-mock-streams/vitest" misuse.log &&
    ! npx vitest run --config vitest.isolate-misuse.config.mjs >isolate-misuse.log 2>&1 && grep -q "with isolate: false" isolate-misuse.log'
# (a loop that outlives its test must stop: without that the run never exits, hence the timeout)
launch node-test-ioredis6 node-test ioredis@6.0.0 -- timeout 300 node --import ioredis-mock-streams/register --test tests/
launch esm-ts-ioredis6 esm-ts typescript@5.9.3 @types/node@20.19.43 ioredis@6.0.0 -- \
  sh -c 'npx tsc -p tsconfig.bundler.json && npx tsc -p tsconfig.nodenext.json && node out/main.js'
launch esm-ts-ioredis5 esm-ts typescript@5.9.3 @types/node@20.19.43 ioredis@5.11.1 -- \
  sh -c 'npx tsc -p tsconfig.bundler.json && npx tsc -p tsconfig.nodenext.json && node out/main.js'
launch install-ioredis5.0.0 install ioredis@5.0.0 -- node smoke.cjs
launch install-ioredis6.0.0 install ioredis@6.0.0 -- node smoke.cjs
launch install-own-ioredis-mock install ioredis@5.11.1 ioredis-mock@8.13.1 -- node smoke.cjs
wait

for name in "${names[@]}"; do
  cat "$WORK/$name.out"
  if ! grep -q "^PASS $name" "$WORK/$name.out"; then failures=$((failures + 1)); fi
done
echo "matrix: $failures failed (total $(($(now) - START)) s)"
exit $((failures > 0))
