# Shared by test-suites/bull/run.sh and test-suites/ioredis/run.sh (sourced, not run): another
# project's mocha suite, as that project runs it, against a real server (REDIS_URL) and against
# this package's RESP server (dist/cli.js serve), the tests each passes compared. The caller's
# header comment is its usage (printed by -h). The caller sets, then sources this file:
#   SUITE_NAME           the suite's name in messages ("bull suite")
#   SUITE_PACKAGE        the package whose presence in node_modules means the install is done
#   SUITE_DEFAULT_FILES  the test files when none is given (mocha globs)
#   SUITE_RERUN          a regexp: the report's files that may be run again (not a hook's helper)
#   SUITE_VERSION_VAR, SUITE_TIMEOUT_VAR, SUITE_SHOW_VAR: names of the suite's env variables (the
#                        fake's Redis version, seconds per run (900), list every failing test)
# and defines:
#   suite_file ARG            a file argument of the command line as mocha gets it
#   suite_link                links the published library where the tests import it; prints versions
#   suite_mocha PORT REPORT FILE…   runs mocha (its reporter: ../mocha-reporter.js, one line per
#                             test in REPORT) with the tests' connections sent to PORT
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$HERE"

FILES=()
TARGETS=redis,serve
while [ $# -gt 0 ]; do
  case $1 in
    --targets) TARGETS=$2; shift ;;
    -h|--help) sed -n '2,/^[^#]/p' "$HERE/run.sh" | grep '^#' | cut -c3-; exit 0 ;;
    *) FILES+=("$(suite_file "$1")") ;;
  esac
  shift
done
[ ${#FILES[@]} -eq 0 ] && FILES=("${SUITE_DEFAULT_FILES[@]}")
[ -z "${REDIS_URL:-}" ] && TARGETS=$(echo "$TARGETS" | tr ',' '\n' | grep -v '^redis$' | paste -sd, -)
has() { [[ ",$TARGETS," == *",$1,"* ]]; }
[ -f "$ROOT/dist/cli.js" ] || { echo "no $ROOT/dist/cli.js: npm run build first"; exit 1; }

WORK=$(mktemp -d)
SERVE_PID=
cleanup() { [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

if [ ! -d "node_modules/$SUITE_PACKAGE" ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund >"$WORK/install.log" 2>&1 || { tail -30 "$WORK/install.log"; exit 1; }
fi
suite_link

REAL_PORT=
if has redis; then
  REAL_PORT=$(node -p 'new URL(process.env.REDIS_URL).port || 6379')
  REAL_VERSION=$(node -e '
    const R = require("ioredis"); const c = new R(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    c.connect().then(() => c.info("server")).then((t) => { console.log(/redis_version:(\S+)/.exec(t)[1]); c.disconnect(); }, () => { console.log("?"); c.disconnect(); });')
  echo "real server: redis $REAL_VERSION at $REDIS_URL"
  [ "$(node -p 'new URL(process.env.REDIS_URL).hostname')" = 127.0.0.1 ] || [ "$(node -p 'new URL(process.env.REDIS_URL).hostname')" = localhost ] ||
    { echo "REDIS_URL must be on this machine (127.0.0.1 / localhost): the tests reach it through a port redirect"; exit 1; }
fi
SERVE_PORT=
if has serve; then
  V=${!SUITE_VERSION_VAR:-}
  if [ -z "$V" ]; then
    case ${REAL_VERSION:-} in
      7.0.*) V=7.0 ;; 7.2.*) V=7.2 ;; 7.4.*) V=7.4 ;; 8.0.*) V=8.0 ;; 8.2.*) V=8.2 ;; 8.4.*) V=8.4 ;;
      "") V=7.0 ;; *) V=8.10 ;; # a newer or unstable build (255.255.255): the fake's default
    esac
  fi
  SERVE_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  node "$ROOT/dist/cli.js" serve --port "$SERVE_PORT" --redis-version "$V" >"$WORK/serve.log" 2>&1 &
  SERVE_PID=$!
  for _ in $(seq 1 100); do node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1",()=>process.exit(0));s.on("error",()=>process.exit(1))' "$SERVE_PORT" && break; sleep 0.1; done
  echo "serve: $(head -1 "$WORK/serve.log")"
fi

# run TARGET ATTEMPT FILE… → the target's report in $WORK/TARGET-ATTEMPT.tsv, "seconds" on stdout
run() {
  local target=$1 attempt=$2 port s
  shift 2
  port=$SERVE_PORT
  [ "$target" = redis ] && port=$REAL_PORT
  s=$(date +%s)
  suite_mocha "$port" "$WORK/$target-$attempt.tsv" "$@" >"$WORK/$target-$attempt.log" 2>&1 || true
  touch "$WORK/$target-$attempt.tsv"
  echo $(($(date +%s) - s))
}
# the mocha command of suite_mocha, under the suite's time limit
timed_mocha() { timeout "${!SUITE_TIMEOUT_VAR:-900}" npx mocha "$@"; }
counts() { node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
  const n = (s) => lines.filter((l) => l.startsWith(s + "\t")).length;
  console.log(`${n("pass")} passed, ${n("fail")} failed, ${n("pending")} pending`);' "$1"; }

attempt=1
for tg in ${TARGETS//,/ }; do
  secs=$(run "$tg" 1 "${FILES[@]}")
  echo "$tg: $(counts "$WORK/$tg-1.tsv") ($secs s)"
  if [ -n "${!SUITE_SHOW_VAR:-}" ]; then grep '^fail' "$WORK/$tg-1.tsv" | cut -f3,4 | sed "s/^/  $tg failed: /" || true; fi
done
if ! has redis; then echo "$SUITE_NAME: no REDIS_URL, serve's counts only"; exit 0; fi

# compare.js A B [PREVIOUS] → the tests whose outcome differs (file<TAB>title<TAB>outcomes), those
# in PREVIOUS only when given (a test differs only if it differed in every run)
cat >"$WORK/compare.js" <<'JS'
const fs = require('fs');
const read = (f) => { const m = new Map(); for (const l of fs.readFileSync(f, 'utf8').split('\n').filter(Boolean)) { const [s, file, title, err] = l.split('\t'); m.set(file + '\t' + title, [s, err]); } return m; };
const [a, b, prev] = process.argv.slice(2);
const A = read(a), B = read(b);
const before = prev ? new Set(fs.readFileSync(prev, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t').slice(0, 2).join('\t'))) : null;
const keys = new Set([...A.keys(), ...B.keys()]);
for (const k of keys) {
  if (before && !before.has(k)) continue;
  const x = A.get(k) ?? ['missing', ''], y = B.get(k) ?? ['missing', ''];
  if (x[0] !== y[0]) console.log(`${k}\treal ${x[0]}${x[1] ? ' (' + x[1] + ')' : ''}; serve ${y[0]}${y[1] ? ' (' + y[1] + ')' : ''}`);
}
JS
node "$WORK/compare.js" "$WORK/redis-1.tsv" "$WORK/serve-1.tsv" >"$WORK/diff-1.txt"
while [ -s "$WORK/diff-$attempt.txt" ] && [ $attempt -lt 3 ]; do
  prev=$attempt
  mapfile -t again < <(cut -f1 "$WORK/diff-$prev.txt" | grep -E "$SUITE_RERUN" | sort -u)
  [ ${#again[@]} -eq 0 ] && break # a hook's failure (no test file): not run again
  attempt=$((attempt + 1))
  echo "  $(wc -l <"$WORK/diff-$prev.txt") test(s) differ: running ${again[*]} once more on both targets"
  for tg in redis serve; do run "$tg" "$attempt" "${again[@]}" >/dev/null; done
  node "$WORK/compare.js" "$WORK/redis-$attempt.tsv" "$WORK/serve-$attempt.tsv" "$WORK/diff-$prev.txt" >"$WORK/diff-$attempt.txt"
done
if [ -s "$WORK/diff-$attempt.txt" ]; then
  sed 's/^/  DIFFERS: /' "$WORK/diff-$attempt.txt"
  echo "$SUITE_NAME: $(wc -l <"$WORK/diff-$attempt.txt") test(s) differ from the real server in every run ($attempt runs)"
  exit 1
fi
echo "$SUITE_NAME: every test has the real server's outcome on serve"
