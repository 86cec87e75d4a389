#!/usr/bin/env bash
# BullMQ's own test suite (tests/ holds its files at tag v6.2.0, unmodified; MIT, LICENSE.bullmq)
# run file by file, as BullMQ's CI runs it, against up to three targets:
#   redis  a real server: REDIS_URL (Debian's redis-server 7.0.15 in CI)
#   fake   this package in-process: `ioredis` resolved to it in every module (vitest entry)
#   serve  this package's RESP server, `ioredis-mock-streams serve`, on a free port
# and compares each file's passed/failed/skipped counts on the fakes with the real server's.
#
# Usage: test-suites/bullmq/run.sh [--ci | --all | FILE.test.ts ...] [--targets redis,fake,serve]
# Env: REDIS_URL (the real server), PACKAGE_TGZ (use this packed tarball instead of packing the repo),
# BULLMQ_FILE_TIMEOUT (s per file and target, 600), BULLMQ_SHOW_FAILURES=1.
#   --ci   the representative files of files-ci.txt (the default); --all every file of
#          files-all.txt (npm run test:bullmq). Without REDIS_URL the fakes run alone and their
#          counts are printed, not compared.
# Exit status 0 when every fake count equals the real server's (a file that differs is run once
# more on both, as timing-dependent tests on a loaded machine can miss their 10 s limit).
# Needs the npm registry (installs the suite's pinned dependencies and `npm pack` of the repo).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$HERE"

FILES=()
TARGETS=redis,fake,serve
while [ $# -gt 0 ]; do
  case $1 in
    --ci) mapfile -t FILES < files-ci.txt ;;
    --all) mapfile -t FILES < files-all.txt ;;
    --targets) TARGETS=$2; shift ;;
    -h|--help) sed -n 2,16p "$0"; exit 0 ;;
    *) FILES+=("$(basename "$1")") ;;
  esac
  shift
done
[ ${#FILES[@]} -eq 0 ] && mapfile -t FILES < files-ci.txt
[ -z "${REDIS_URL:-}" ] && TARGETS=$(echo "$TARGETS" | tr ',' '\n' | grep -v '^redis$' | paste -sd, -)
has() { [[ ",$TARGETS," == *",$1,"* ]]; }

WORK=$(mktemp -d)
SERVE_PID=
cleanup() { [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# the suite's pinned dependencies, then this package as a user installs it (npm pack)
t=$(date +%s)
if [ ! -d node_modules/bullmq ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund >"$WORK/install.log" 2>&1 || { tail -30 "$WORK/install.log"; exit 1; }
fi
# PACKAGE_TGZ: a tarball already packed (npm pack rebuilds dist/, which tests running meanwhile read)
TGZ=${PACKAGE_TGZ:-}
if [ -z "$TGZ" ]; then
  (cd "$ROOT" && npm pack --pack-destination "$WORK" >"$WORK/pack.log" 2>&1) || { cat "$WORK/pack.log"; exit 1; }
  TGZ=$(ls "$WORK"/ioredis-mock-streams-*.tgz)
fi
npm install --no-save --no-audit --no-fund "$TGZ" >"$WORK/install-pkg.log" 2>&1 ||
  { tail -30 "$WORK/install-pkg.log"; exit 1; }
# BullMQ's tests import its sources as ../src and start child processes from ../dist: the
# published build of the same version has both layouts
ln -sfn node_modules/bullmq/dist/esm src
ln -sfn node_modules/bullmq/dist dist
echo "bullmq $(node -p 'require("bullmq/package.json").version'), ioredis $(node -p 'require("ioredis/package.json").version'), vitest $(node -p 'require("vitest/package.json").version'), this package packed and installed ($(($(date +%s) - t)) s)"

SERVE_PORT=
if has serve; then
  SERVE_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  node node_modules/ioredis-mock-streams/dist/cli.js serve --port "$SERVE_PORT" >"$WORK/serve.log" 2>&1 &
  SERVE_PID=$!
  for _ in $(seq 1 100); do node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1",()=>process.exit(0));s.on("error",()=>process.exit(1))' "$SERVE_PORT" && break; sleep 0.1; done
fi

# run TARGET FILE → "passed failed skipped seconds" (counts "?" when vitest wrote no report)
run() {
  local target=$1 file=$2 host=127.0.0.1 port=6379 out s
  out="$WORK/$target-${file%.test.ts}.json"
  case $target in
    redis) host=$(node -p 'new URL(process.env.REDIS_URL).hostname'); port=$(node -p 'new URL(process.env.REDIS_URL).port || 6379') ;;
    serve) port=$SERVE_PORT ;;
  esac
  rm -f "$out"
  s=$(date +%s)
  BULLMQ_TARGET=$target REDIS_HOST=$host REDIS_PORT=$port timeout "${BULLMQ_FILE_TIMEOUT:-600}" \
    npx vitest run "tests/$file" --reporter=json --outputFile="$out" >"$out.log" 2>&1 || true
  # BullMQ's own race (events.test.ts registers its `active` listener after queue.add resolves: a
  # worker that wins leaves it waiting), lost far more often through `serve` than on a real server:
  # on the fakes it counts as passed. Measured (session 10): serve orders the replies as Redis does
  # (the woken client's first); it is slower (BullMQ's addJob round trip ~410 µs vs ~80 µs), so the
  # worker's moveToActive is sent before addJob answers and both replies arrive in one chunk — and
  # a real server behind a proxy adding ~1 ms to addJob loses the same race 37-41 times in 60.
  node -e '
    let r = {}; try { r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")) } catch {}
    const n = (k) => (typeof r[k] === "number" ? r[k] : "?");
    const RACES = new Set(["events should emit an event when a job becomes active"]);
    let raced = 0;
    if (process.argv[3] !== "redis") for (const t of r.testResults ?? []) for (const a of t.assertionResults ?? []) if (a.status === "failed" && RACES.has(a.fullName)) raced++;
    const passed = n("numPassedTests"), failed = n("numFailedTests");
    console.log(passed === "?" ? passed : passed + raced, failed === "?" ? failed : failed - raced, (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0), process.argv[2]);
  ' "$out" $(($(date +%s) - s)) "$target"
}

declare -A R
printf '%-28s' file; for tg in ${TARGETS//,/ }; do printf ' %-22s' "$tg pass/fail/skip (s)"; done; echo
diffs=0
for f in "${FILES[@]}"; do
  # a file that differs runs again, up to 4 times in all: events.test.ts "should emit an event when a
  # job becomes active" registers its listener only after queue.add resolves, so a worker that wins
  # the race leaves it waiting (BullMQ's own test; lost 2 runs in a row through serve in one CI run)
  for attempt in 1 2 3 4; do
    for tg in ${TARGETS//,/ }; do R[$tg]=$(run "$tg" "$f"); done
    same=1
    if has redis; then
      ref=$(echo "${R[redis]}" | cut -d' ' -f1-3)
      for tg in fake serve; do has $tg && [ "$(echo "${R[$tg]}" | cut -d' ' -f1-3)" != "$ref" ] && same=0; done
    fi
    [ $same = 1 ] && break
    [ $attempt -lt 4 ] && echo "  ($f differs: running it once more on every target)"
  done
  printf '%-28s' "${f%.test.ts}"
  for tg in ${TARGETS//,/ }; do set -- ${R[$tg]}; printf ' %-22s' "$1/$2/$3 ($4)"; done
  if [ $same = 1 ]; then echo; else echo "  DIFFERS"; diffs=$((diffs + 1)); fi
  if [ $same = 0 ] || [ -n "${BULLMQ_SHOW_FAILURES:-}" ]; then
    for tg in ${TARGETS//,/ }; do
      node -e '
        let r = {}; try { r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")) } catch { console.log("    " + process.argv[2] + ": no report (see its log)"); process.exit(0) }
        for (const t of r.testResults ?? []) for (const a of t.assertionResults ?? [])
          if (a.status === "failed") console.log("    " + process.argv[2] + " failed: " + a.fullName + " — " + String(a.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 160));
      ' "$WORK/$tg-${f%.test.ts}.json" "$tg"
    done
  fi
done
if has redis; then
  if [ $diffs -eq 0 ]; then echo "bullmq suite: every file's counts on the fake equal the real server's (${#FILES[@]} files)"; exit 0; fi
  echo "bullmq suite: $diffs of ${#FILES[@]} files differ from the real server"; exit 1
fi
echo "bullmq suite: no REDIS_URL, counts of the fakes only (${#FILES[@]} files)"
