#!/bin/bash
# run.sh: one session of VS Code's MCP client (code-server, installed by install.sh) against
# `fieldnotes probe`, its observation written into OUT.
#
#   VSC=DIR OUT=DIR FIELDNOTES=BIN [ROOT=SITE] run.sh stdio [probe stdio flags…]
#   VSC=DIR OUT=DIR FIELDNOTES=BIN [ROOT=SITE] run.sh http PORT [probe http flags…]
#
# The user mcp.json names one server, the probe: over stdio, or at http://127.0.0.1:PORT/mcp
# (`type: "http"`; add `--mode legacy-only-404` to see the SSE fallback). code-server starts,
# drive.mjs opens its workbench, and the driver extension starts the server and calls its tool.
# MCP_DRIVER_CANCEL_MS=N (with `--tool-delay`) cancels the call after N ms; MCP_DRIVER_RESOURCES=1
# then opens the resource picker, where drive.mjs picks the entry showing $PICK. MCP_DRIVER_MODEL=1
# gives VS Code a stand-in language model, so an allowed sampling request is answered.
set -u
VSC=${VSC:?set VSC to install.sh\'s folder}
OUT=${OUT:?set OUT to the observations folder}; mkdir -p "$OUT"
FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
ROOT=${ROOT:-$(pwd)}
HERE=$(cd "$(dirname "$0")" && pwd)
export PATH=$VSC/node24/node_modules/node/bin:$PATH
V=$(node -e "console.log(require('$VSC/package/package.json').version)")
CODE=$(node -e "console.log(require('$VSC/package/lib/vscode/package.json').version)")
WHY="code-server $V (VS Code $CODE in a browser): a user mcp.json $1 server, started by workbench.mcp.startServer and its tool called with vscode.lm.invokeTool from an extension (tools/observe/vscode)"
[ -n "${MCP_DRIVER_CANCEL_MS:-}" ] && WHY="$WHY, the call's token cancelled after $MCP_DRIVER_CANCEL_MS ms"
[ -n "${MCP_DRIVER_MODEL:-}" ] && WHY="$WHY, a stand-in language model registered by the extension (vendor fieldnotes) and the server's sampling allowed for the session"
[ -n "${OPEN_URL:-}" ] && WHY="$WHY, a URL elicitation's page opened from its notification"
[ -n "${MCP_DRIVER_RESOURCES:-}" ] && WHY="$WHY, then the resource picker (quick access \`mcpr \`) opened and the entry showing ${PICK:-nothing} clicked${PICK_TYPE:+, then $PICK_TYPE typed into the input that followed}"
PROBE=(probe --root "$ROOT")
FLAGS=(--out "$OUT" --package "npm:code-server@$V" --command "$WHY")
rm -rf "$VSC/data/User/globalStorage" "$VSC/data/User/workspaceStorage" "$VSC/data/logs"
probe=
case $1 in
  stdio)
    shift
    python3 - "$FN" "$VSC/data/User/mcp.json" "${PROBE[@]}" stdio "${FLAGS[@]}" "$@" <<'PY'
import json, sys
fn, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
json.dump({"servers": {"fieldnotes-probe": {"type": "stdio", "command": fn, "args": args}}}, open(out, "w"))
PY
    ;;
  http)
    PORT=$2; shift 2
    printf '{"servers": {"fieldnotes-probe": {"type": "http", "url": "http://127.0.0.1:%s/mcp"}}}\n' "$PORT" > "$VSC/data/User/mcp.json"
    "$FN" "${PROBE[@]}" http --port "$PORT" "${FLAGS[@]}" "$@" &
    probe=$!
    sleep 1
    ;;
  *) echo "run.sh: stdio or http PORT" >&2; exit 2 ;;
esac
(cd "$VSC/package" && MCP_DRIVER_LOG=$OUT/driver.log exec node out/node/entry.js --auth none \
  --bind-addr 127.0.0.1:${CODE_SERVER_PORT:-8090} --user-data-dir "$VSC/data" \
  --extensions-dir "$VSC/ext" --disable-telemetry --disable-update-check "$VSC/ws" \
  > "$OUT/code-server.log" 2>&1) &
server=$!
sleep 4
timeout 150 node "$HERE/drive.mjs" "http://127.0.0.1:${CODE_SERVER_PORT:-8090}/?folder=$VSC/ws"
kill "$server"; wait "$server" 2>/dev/null
sleep 5
[ -n "$probe" ] && kill -INT "$probe" && wait "$probe"
ls "$OUT"
