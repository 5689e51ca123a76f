#!/bin/bash
# openclaw.sh: one run of OpenClaw (npm `openclaw`) against the probe, its observation written
# into OUT with the package version installed (`--package npm:openclaw@VERSION`).
#
#   PREFIX=DIR OUT=DIR FIELDNOTES=BIN ROOT=SITE [NODE=BIN] [MPORT=P] [TOOL=NAME] \
#     openclaw.sh exec RUN [probe flags…]        a headless agent turn calls TOOL over stdio
#   … openclaw.sh probe RUN [probe flags…]       `openclaw mcp probe` over stdio (no model)
#   … openclaw.sh url RUN URL [sse|streamable-http] `openclaw mcp probe` against a running
#                                                 `fieldnotes probe http` (no transport key: sse)
#   … openclaw.sh urlexec RUN URL [sse|streamable-http] a headless agent turn calls TOOL on a
#                                                 running `fieldnotes probe http` (its
#                                                 `--mode expire-session`, say)
#   … openclaw.sh oauth RUN URL                  the same with `transport: "streamable-http"` and
#                                                 `auth: "oauth"` (a `probe http --auth oauth`):
#                                                 `openclaw mcp login probe` prints the authorization
#                                                 URL and waits on its loopback callback (it opens no
#                                                 browser here); `fieldnotes probe browser` opens it,
#                                                 then `openclaw mcp probe` connects with the token
#
# PREFIX is where `npm install --prefix PREFIX openclaw@VERSION --ignore-scripts` put it; it
# needs Node 24 (`npm i node@24` brings one: NODE names that node binary). For `exec` start the
# scripted model first: `fieldnotes probe model --port $MPORT --out $OUT` (with `--tool
# probe__resources_list` and so on for the utility tools OpenClaw makes of resources and
# prompts, TOOL naming the same). OpenClaw's default Tool Search hides MCP tools behind its own
# `tool_search`/`tool_call` pair, which the scripted model does not drive, so the config sets
# `tools.toolSearch: false` and the MCP tools are offered to the model directly.
# The scratch HOME and working folder are made with mktemp and removed (the last lines the
# client printed are shown first); every process left
# running with that HOME is ended by its process id.
set -u
MODE=$1; R=$2; shift 2
FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
OUT=${OUT:?set OUT to the observations folder}; mkdir -p "$OUT"
PREFIX=${PREFIX:?set PREFIX to the openclaw install prefix}
NODE=${NODE:-node}
OC=$PREFIX/node_modules/openclaw/openclaw.mjs
V=$("$NODE" -e "console.log(require('$PREFIX/node_modules/openclaw/package.json').version)")
S=$(mktemp -d "${TMPDIR:-/tmp}/openclaw-$R.XXXXXX"); mkdir -p "$S/home/.openclaw" "$S/work"
trap 'rm -rf "$S"' EXIT
export HOME=$S/home; cd "$S/work" || exit 1
P=${MPORT:-18767}
TOOL=${TOOL:-probe_echo}; AUTH=
PROBE=("$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "$OUT" --package "npm:openclaw@$V"
       --quiet-timeout 3 --idle-limit 600)
case $MODE in
 exec) CMD="openclaw agent exec --json --code-mode direct --model scripted/probe 'Call the $TOOL tool.' (models.providers.scripted: openai-completions at the scripted model; tools.toolSearch: false)";;
 probe) CMD="openclaw mcp probe probe";;
 url) URL=$1; TR=${2:-}
  CMD="openclaw mcp probe probe (mcp.servers.probe: url${TR:+, transport $TR})";;
 urlexec) URL=$1; TR=${2:-};;
 oauth) URL=$1; TR=streamable-http; AUTH=1;;
 *) echo "openclaw.sh: MODE is exec, probe, url, urlexec or oauth" >&2; exit 2;;
esac
if [ "$MODE" = url ] || [ "$MODE" = urlexec ] || [ "$MODE" = oauth ]; then
  SERVER="{\"url\": \"$URL\"${TR:+, \"transport\": \"$TR\"}${AUTH:+, \"auth\": \"oauth\"}}"
else
  SERVER=$(python3 -c 'import json,sys; print(json.dumps({"command": sys.argv[1], "args": sys.argv[2:]}))' \
    "${PROBE[@]}" --command "$CMD" "$@")
fi
cat > "$HOME/.openclaw/openclaw.json" <<T
{"models": {"mode": "merge", "providers": {"scripted": {"baseUrl": "http://127.0.0.1:$P/v1", "apiKey": "x",
   "api": "openai-completions", "models": [{"id": "probe", "name": "probe", "reasoning": false,
   "input": ["text"], "contextWindow": 128000, "maxTokens": 4096}]}}},
 "tools": {"toolSearch": false},
 "agents": {"defaults": {"model": {"primary": "scripted/probe"}}},
 "mcp": {"servers": {"probe": $SERVER}}}
T
case $MODE in
 oauth) timeout 90 "$NODE" "$OC" mcp login probe > "$S/login.out" 2> "$S/login.err" & LOGIN=$!
  for _ in $(seq 60); do
    A=$(grep -o 'http://[^ ]*/authorize?[^ ]*' "$S/login.out" | head -1); [ -n "$A" ] && break; sleep 1
  done
  [ -n "$A" ] && "$FN" probe browser "$A"
  wait $LOGIN; tail -n 1 "$S/login.out"
  timeout 90 "$NODE" "$OC" mcp probe probe > "$S/client.out" 2> "$S/client.err";;
 exec|urlexec) timeout 180 "$NODE" "$OC" agent exec --json --code-mode direct --model scripted/probe \
   --cwd "$S/work" "Call the $TOOL tool." > "$S/client.out" 2> "$S/client.err";;
 *) timeout 90 "$NODE" "$OC" mcp probe probe > "$S/client.out" 2> "$S/client.err";;
esac
echo "exit $?"
# What the client printed last (its scratch folder goes with it).
tail -n 5 "$S/client.out"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
