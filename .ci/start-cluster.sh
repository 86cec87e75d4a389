#!/usr/bin/env bash
# Start a real Redis Cluster of 3 masters (Debian's redis-server 7.0.15, or REDIS_SERVER=<binary>)
# on free loopback ports, as `redis-cli --cluster create` makes it, and print its URL (the first
# node) on stdout, e.g. redis://127.0.0.1:41234 — for REDIS_CLUSTER_URL (__tests__/server/cluster.test.ts):
#
#   export REDIS_CLUSTER_URL=$(.ci/start-cluster.sh)
#
# The servers run daemonized in a temporary directory (named on stderr); their pids are in
# <dir>/pids, one a line, and also appended to $CLUSTER_PIDS_FILE when it is set. Stop them with
# `kill $(cat <dir>/pids)`. Exit status 1 when redis-server/redis-cli are missing or the cluster
# does not reach cluster_state:ok within 10 s.
set -euo pipefail
BIN=${REDIS_SERVER:-redis-server}
CLI=${REDIS_CLI:-redis-cli}
command -v "$BIN" >/dev/null 2>&1 || { echo "start-cluster: $BIN not found" >&2; exit 1; }
command -v "$CLI" >/dev/null 2>&1 || { echo "start-cluster: $CLI not found" >&2; exit 1; }

port_free() { node -e 'const s=require("net").createServer();s.on("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close(()=>process.exit(0)))' "$1"; }
# a free port whose cluster bus port (port + 10000) is free too
free_cluster_port() {
  local p
  for _ in $(seq 1 50); do
    p=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    if [ "$p" -le 55535 ] && port_free $((p + 10000)); then echo "$p"; return 0; fi
  done
  return 1
}

dir=$(mktemp -d -t redis-cluster-XXXXXX)
ports=()
for _ in 1 2 3; do
  p=$(free_cluster_port)
  "$BIN" --port "$p" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "nodes-$p.conf" \
    --save '' --appendonly no --dir "$dir" --daemonize yes --pidfile "$dir/$p.pid" --logfile "$dir/$p.log" >/dev/null
  ports+=("$p")
done
for p in "${ports[@]}"; do
  for _ in $(seq 1 50); do
    "$CLI" -p "$p" ping >/dev/null 2>&1 && [ -f "$dir/$p.pid" ] && break
    sleep 0.1
  done
  cat "$dir/$p.pid" >>"$dir/pids"
  echo >>"$dir/pids"
done
sed -i '/^$/d' "$dir/pids"
[ -n "${CLUSTER_PIDS_FILE:-}" ] && cat "$dir/pids" >>"$CLUSTER_PIDS_FILE"

"$CLI" --cluster create "127.0.0.1:${ports[0]}" "127.0.0.1:${ports[1]}" "127.0.0.1:${ports[2]}" --cluster-yes >"$dir/create.log" 2>&1 ||
  { echo "start-cluster: redis-cli --cluster create failed (see $dir/create.log)" >&2; exit 1; }
ok=0
for _ in $(seq 1 100); do
  ok=1
  for p in "${ports[@]}"; do
    "$CLI" -p "$p" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || ok=0
  done
  [ "$ok" = 1 ] && break
  sleep 0.1
done
[ "$ok" = 1 ] || { echo "start-cluster: the cluster did not reach cluster_state:ok (logs in $dir)" >&2; exit 1; }
echo "start-cluster: $("$BIN" --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') cluster on 127.0.0.1:${ports[0]},${ports[1]},${ports[2]}; dir $dir (stop: kill \$(cat $dir/pids))" >&2
echo "redis://127.0.0.1:${ports[0]}"
