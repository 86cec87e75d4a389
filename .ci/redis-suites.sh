#!/usr/bin/env bash
# Redis's own suites against the fake's RESP server, in Redis's external-server mode: the stream
# suites (tests/unit/type/stream.tcl and stream-cgroups.tcl) and the sets of units below.
#
# usage: .ci/redis-suites.sh [--redis-version V] [--port P] [--write-expected FILE] [--set streams|core|more]
#   --redis-version V   emulate V (default 8.10) and compare with .ci/redis-suites/expected-V.txt
#                       (the names of the tests a real server of that version passes; one per line)
#   --port P            run against a server already listening on 127.0.0.1:P instead of starting
#                       the fake (e.g. a real redis-server, to record an expected list)
#   --write-expected F  write the sorted names of the passed tests to F (with --port: record)
#   --set S             streams (default): unit/type/stream and stream-cgroups, every expected test
#                       and no other must pass. core: the suites of the families the engine owns
#                       (.ci/redis-suites/core-units.txt), tags -needs:debug -slow -large-memory,
#                       compared with expected-core-V.txt as a ratchet: every expected test must
#                       pass (a newly passing one is reported, to be added to the list)
#                       more: the units of .ci/redis-suites/more-units.txt (multi, bitops, dump, scan,
#                       pubsub, info-command, bitfield, pubsubshard, hash-field-expire, …), same tags,
#                       compared EXACTLY with expected-more-V.txt: the tests the real server of V
#                       passes (recorded with --port REAL --write-expected), no test missing and none
#                       extra. Lines there are "unit/X: test name". A unit whose run differs gets one
#                       more run (a test passed in either run counts: timing-dependent tests).
#                       more-units.txt format, one unit a line:
#                         UNIT [untag=LINE[,LINE…]] [skip=/REGEXP] [skip@V=/REGEXP …]
#                       skip=/RE: the runner's --skiptest /RE (tests whose name matches the regexp,
#                       written without spaces, are not run, on the real servers as on the fake: a
#                       known divergence, named in more-units.txt); skip@V=/RE: for version V only (--redis-version, also
#                       when recording with --port: pass the real server's, 7.0 for 7.0.15; e.g. a
#                       test that crashes that real server). untag drops
#                       the tags external:skip and needs:debug from those lines of the unit's .tcl (in
#                       the copy the runner uses), each of which must be a start_server line carrying
#                       one of them: blocks that need neither a second server nor DEBUG, skipped in
#                       external-server mode only by their block tag. Tests inside that call DEBUG
#                       fail alike on a real server (enable-debug-command no) and on the fake.
# env: REDIS_TESTS_DIR  the copy of Redis's tests/ + utils/ (default /work/shared/redis-tests);
#                       when missing the run is skipped with a message (exit 0) unless
#                       REQUIRE_REDIS_SUITES=1.
# Exit 1 when the passed tests differ from the expected list (any missing or extra test).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

version=8.10
port=""
write_expected=""
set=streams
while [[ $# -gt 0 ]]; do
  case "$1" in
    --redis-version) version=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --write-expected) write_expected=$2; shift 2 ;;
    --set) set=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

tests_dir=${REDIS_TESTS_DIR:-/work/shared/redis-tests}
if [[ ! -f $tests_dir/tests/test_helper.tcl ]]; then
  msg="redis suites: SKIPPED (no Redis test suite at $tests_dir; set REDIS_TESTS_DIR)"
  if [[ ${REQUIRE_REDIS_SUITES:-0} == 1 ]]; then echo "$msg" >&2; exit 1; fi
  echo "$msg"
  exit 0
fi
if ! command -v tclsh >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tcl >/dev/null) || true
fi
command -v tclsh >/dev/null 2>&1 || { echo "redis suites: tclsh missing (apt-get install -y tcl)" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The runner writes tmp files next to the tests: run a copy.
cp -r "$tests_dir" "$work/redis-tests"

label="port $port"
if [[ -z $port ]]; then
  npm run build >/dev/null
  node dist/cli.js serve --port 0 --redis-version "$version" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    port=$(sed -n 's/.*listening on redis:\/\/[^:]*:\([0-9]*\).*/\1/p' "$work/server.log")
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { cat "$work/server.log" >&2; echo "redis suites: the server did not start" >&2; exit 1; }
  label="fake, Redis $version"
fi

if [[ $set == more ]]; then
  more_units=$root/.ci/redis-suites/more-units.txt
  expected_more=$root/.ci/redis-suites/expected-more-$version.txt
  mkdir -p "$work/more"
  # untag=: drop the block tags that skip a block only because the server is external (checked)
  while read -r u opts; do
    [[ -n $u && $u != \#* ]] || continue
    for opt in $opts; do
      [[ $opt == skip=* || $opt == skip@*=* ]] && continue
      [[ $opt == untag=* ]] || { echo "more-units.txt: unknown option '$opt' for $u" >&2; exit 2; }
      for ln in $(echo "${opt#untag=}" | tr , ' '); do
        f=$work/redis-tests/tests/$u.tcl
        if ! sed -n "${ln}p" "$f" | grep -qE 'start_server.*(external:skip|needs:debug)'; then
          echo "more-units.txt: line $ln of $u.tcl is not a start_server line tagged external:skip or needs:debug:" >&2
          sed -n "${ln}p" "$f" >&2
          exit 2
        fi
        sed -i -E "${ln}s/ ?(external:skip|needs:debug)//g" "$f"
      done
    done
  done <"$more_units"
  # run_more_unit UNIT OUT [RUNNER-ARG…]: the runner's output in OUT.log, the passed tests ("UNIT: name") in OUT.ok
  run_more_unit() {
    (
      cd "$work/redis-tests"
      TERM=dumb tclsh tests/test_helper.tcl --host 127.0.0.1 --port "$port" \
        --single "$1" --tags "-needs:debug -slow -large-memory" --durable --timeout 300 "${@:3}" >"$2.log" 2>&1 || true
    )
    sed -e 's/\x1b\[[0-9;]*m//g' "$2.log" | grep -aE '^\[ok\]: ' | sed -E "s/^\[ok\]: //; s/ \([0-9]+ ms\)\$//; s|^|$1: |" |
      LC_ALL=C sort >"$2.ok" || true
  }
  : >"$work/out.txt"
  while read -r u opts; do
    [[ -n $u && $u != \#* ]] || continue
    extra=()
    for opt in $opts; do [[ $opt == skip=* || $opt == "skip@$version="* ]] && extra+=(--skiptest "${opt#*=}"); done
    n=$work/more/$(echo "$u" | tr / _)
    run_more_unit "$u" "$n.1" "${extra[@]}"
    cp "$n.1.ok" "$n.pass"
    cat "$n.1.log" >>"$work/out.txt"
    if [[ -z $write_expected && -f $expected_more ]]; then
      grep -aF "$u: " "$expected_more" | LC_ALL=C sort >"$n.expected" || true
      if ! cmp -s "$n.expected" "$n.1.ok"; then
        echo "redis suites (more): $u differs from the expected list; running it once more"
        run_more_unit "$u" "$n.2" "${extra[@]}"
        # the union (a line kept as often as in the run that has it most: duplicate names count)
        LC_ALL=C comm "$n.1.ok" "$n.2.ok" | sed 's/^\t*//' | LC_ALL=C sort >"$n.pass"
        cat "$n.2.log" >>"$work/out.txt"
      fi
    fi
  done <"$more_units"
  cat "$work"/more/*.pass 2>/dev/null | grep -av '^$' | LC_ALL=C sort >"$work/more-passed.txt" || true
elif [[ $set == core ]]; then
  # one runner per unit: a unit that aborts (7.0 has no set-max-listpack-entries, which
  # unit/type/set sets first, as Debian's 7.0.15 does) must not take the others with it
  run_core_units() {
    while read -r u; do
      [[ -n $u && $u != \#* ]] || continue
      (
        cd "$work/redis-tests"
        TERM=dumb tclsh tests/test_helper.tcl --host 127.0.0.1 --port "$port" \
          --single "$u" --tags "-needs:debug -slow -large-memory" --durable --timeout 300 >>"$work/out.txt" 2>&1 || true
      )
    done <"$root/.ci/redis-suites/core-units.txt"
  }
  : >"$work/out.txt"
  run_core_units
  # a unit whose timing-dependent test missed on a loaded machine gets one more run (a test
  # passed in either run counts as passed; the failures reported are the second run's too)
  expected_core=$root/.ci/redis-suites/expected-core-$version.txt
  if [[ -z $write_expected && -f $expected_core ]]; then
    sed -e 's/\x1b\[[0-9;]*m//g' "$work/out.txt" | grep -aE '^\[ok\]: ' | sed -E 's/^\[ok\]: //; s/ \([0-9]+ ms\)$//' | LC_ALL=C sort >"$work/first.txt" || true
    if [[ -n $(LC_ALL=C comm -23 "$expected_core" "$work/first.txt") ]]; then
      echo "redis suites (core): $(LC_ALL=C comm -23 "$expected_core" "$work/first.txt" | wc -l) expected tests missed; running the units once more"
      run_core_units
    fi
  fi
else
  (
    cd "$work/redis-tests"
    TERM=dumb tclsh tests/test_helper.tcl --host 127.0.0.1 --port "$port" \
      --single unit/type/stream --single unit/type/stream-cgroups \
      --tags -needs:debug --durable --timeout 300 >"$work/out.txt" 2>&1 || true
  )
fi

sed -e 's/\x1b\[[0-9;]*m//g' "$work/out.txt" >"$work/clean.txt"
grep -aE '^\[ok\]: ' "$work/clean.txt" | sed -E 's/^\[ok\]: //; s/ \([0-9]+ ms\)$//' | LC_ALL=C sort >"$work/passed.txt" || true
[[ $set == more ]] && cp "$work/more-passed.txt" "$work/passed.txt"
grep -aE '^\[err\]: ' "$work/clean.txt" | sed -E 's/^\[err\]: //; s/ in tests\/unit\/.*$//' | LC_ALL=C sort >"$work/failed.txt" || true
passed=$(wc -l <"$work/passed.txt")
failed=$(wc -l <"$work/failed.txt")
echo "redis suites ($label): $passed passed, $failed failed"
# (more: the failures are listed only when the passed tests differ from the expected ones, below;
# most of them are the real server's failures too)
if [[ -s $work/failed.txt && $set != more ]]; then
  echo "failed tests:"
  sed 's/^/  /' "$work/failed.txt"
  grep -a -A3 -E '^\[err\]: ' "$work/clean.txt" | grep -avE '^\[(err|ok)\]|^--$' | head -60 | sed 's/^/    /' || true
fi
if grep -aq 'exception\]' "$work/clean.txt"; then
  echo "the runner aborted:" >&2
  grep -a -A12 'exception\]' "$work/clean.txt" >&2 || true
fi

if [[ -n $write_expected ]]; then
  cp "$work/passed.txt" "$write_expected"
  echo "wrote $write_expected ($passed tests)"
  exit 0
fi

expected=$root/.ci/redis-suites/expected-$version.txt
[[ $set == core ]] && expected=$root/.ci/redis-suites/expected-core-$version.txt
[[ $set == more ]] && expected=$root/.ci/redis-suites/expected-more-$version.txt
if [[ ! -f $expected ]]; then
  echo "redis suites: no expected list $expected" >&2
  exit 1
fi
if [[ $set == core ]]; then
  missing=$(LC_ALL=C comm -23 "$expected" "$work/passed.txt")
  extra=$(LC_ALL=C comm -13 "$expected" "$work/passed.txt")
  [[ -n $extra ]] && echo "redis suites (core): $(echo "$extra" | wc -l) tests pass that $expected does not list yet (record them with --write-expected)"
  if [[ -z $missing ]]; then
    echo "redis suites (core): every one of the $(wc -l <"$expected") expected tests passes"
    exit 0
  fi
  echo "redis suites (core): expected tests that no longer pass:"
  echo "$missing" | sed 's/^/  /'
  exit 1
fi
if diff -u "$expected" "$work/passed.txt" >"$work/diff.txt"; then
  echo "redis suites: as expected ($(wc -l <"$expected") of $(wc -l <"$expected") expected tests pass)"
  exit 0
fi
echo "redis suites: passed tests differ from $expected (- expected but not passed, + passed but not expected):"
grep -aE '^[-+][^-+]' "$work/diff.txt" | sed 's/^/  /'
if [[ $set == more ]]; then
  grep -aE '^-[^-]' "$work/diff.txt" | sed -E 's/^-unit\/[^:]*: //' | head -20 | while IFS= read -r name; do
    grep -a -A3 -F "[err]: $name in tests/" "$work/clean.txt" | head -4 | sed 's/^/    /' || true
  done
fi
exit 1
