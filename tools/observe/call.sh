#!/bin/bash
# call.sh: one run of a shipped client driven by `fieldnotes probe model` to call the probe's
# tool, its observation written into OUT with the package version installed (`--package`).
#
#   PREFIX=DIR OUT=DIR FIELDNOTES=BIN [ROOT=SITE] [MPORT=P] [CANCEL=1] call.sh CLIENT RUN [probe flags…]
#
# CLIENT is claude-code, codex, gemini-cli, goose, opencode or qwen-code, installed under
# PREFIX/CLIENT by `observe.py install` (the version pins.json names). Start the scripted model
# first, into the same OUT: `fieldnotes probe model --port $MPORT --out $OUT`. RUN names the
# scratch folder (PREFIX/../call-CLIENT-RUN: its own HOME and working folder). CANCEL=1 gives
# the client a 2 s tool timeout (pass the probe `--tool-delay 10000` so a cancellation shows).
# Every process left running with the scratch HOME is ended by its process id.
#
# KB=ROOT drives the client against `fieldnotes mcp --root ROOT` instead of the probe, through
# mcp_wire.py, which logs the raw wire to the scratch folder's wire.jsonl (FALLBACK=1: the
# proxy refuses server/discover, so a dual-era client must fall back). TOOL names the tool the
# client is asked for (default probe_echo); start `probe model --tool TOOL --arguments JSON`.
#
# SLASH=NAME (opencode only): run the slash command NAME (an MCP prompt is `server:prompt`,
# e.g. probe:probe_prompt) with `opencode run --command NAME WORDS…`, WORDS from $WORDS
# (default `fieldnotes`), instead of asking for a tool.
set -u
C=$1; R=$2; shift 2
FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
# The site whose client ids name the observation (a clientInfo name such as codex-mcp-client
# maps to `codex` there): this repository unless ROOT says otherwise.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
OUT=${OUT:?set OUT to the observations folder}; mkdir -p "$OUT"
PREFIX=${PREFIX:?set PREFIX to the install prefix of observe.py}
S=$(dirname "$PREFIX")/call-$C-$R; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
export HOME=$S/home; cd "$S/work" || exit 1
BIN=$PREFIX/$C/node_modules/.bin
P=${MPORT:-18767}
URL=http://127.0.0.1:$P
ver() { node -e "console.log(require('$PREFIX/$C/node_modules/$1/package.json').version)"; }
case $C in
 claude-code) PKG=@anthropic-ai/claude-code;;
 codex) PKG=@openai/codex;;
 gemini-cli) PKG=@google/gemini-cli;;
 opencode) PKG=opencode-ai;;
 goose) PKG=@aaif/goose-binary-linux-x64;;
 qwen-code) PKG=@qwen-code/qwen-code;;
esac
V=$(ver $PKG)
T2=${CANCEL:+2}
TOOL=${TOOL:-probe_echo}
PROBE=("$FN" probe stdio --root "$ROOT" --out "$OUT" --package "npm:$PKG@$V" --quiet-timeout 3 --idle-limit 600 "$@")
# serving CMD: the server the client is given (the probe, told the client's command line,
# or fieldnotes mcp behind the wire log), as SERVER, and its arguments as JSON in PJ.
serving() {
  if [ -n "${KB:-}" ]; then
    SERVER=(python3 "$(cd "$(dirname "$0")" && pwd)/mcp_wire.py" "$S/wire.jsonl" ${FALLBACK:+--refuse-discover} -- "$FN" mcp --root "$KB")
  else
    SERVER=("${PROBE[@]}" --command "$1")
  fi
  PJ=$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "${SERVER[@]:1}")
}
case $C in
 claude-code)
  CMD="claude -p 'Call the $TOOL tool.' --output-format stream-json --verbose --allowedTools mcp__probe__$TOOL (ANTHROPIC_BASE_URL=scripted model)"
  serving "$CMD"
  $BIN/claude mcp add probe -- "${SERVER[@]}" >/dev/null
  [ -n "$T2" ] && export MCP_TOOL_TIMEOUT=2000
  ANTHROPIC_BASE_URL=$URL ANTHROPIC_API_KEY=x timeout 120 $BIN/claude -p "Call the $TOOL tool." --output-format stream-json --verbose --allowedTools mcp__probe__$TOOL > $S/client.out 2> $S/client.err ;;
 codex)
  CMD="codex exec --json --skip-git-repo-check 'Call the $TOOL tool.' (model_provider at the scripted model, wire_api responses)"
  serving "$CMD"
  mkdir -p $HOME/.codex
  cat > $HOME/.codex/config.toml <<T
model = "gpt-5"
model_provider = "scripted"
[model_providers.scripted]
name = "scripted"
base_url = "$URL/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
[mcp_servers.probe]
command = "${SERVER[0]}"
args = $PJ
T
  [ -n "$T2" ] && echo "tool_timeout_sec = 2" >> $HOME/.codex/config.toml
  OPENAI_API_KEY=x timeout 120 $BIN/codex exec --json --skip-git-repo-check "Call the $TOOL tool." > $S/client.out 2> $S/client.err ;;
 gemini-cli)
  CMD="gemini -p 'Call the $TOOL tool.' --output-format stream-json (GOOGLE_GEMINI_BASE_URL=scripted model, trust: true)"
  serving "$CMD"
  mkdir -p $HOME/.gemini
  echo "{\"mcpServers\": {\"probe\": {\"command\": \"${SERVER[0]}\", \"args\": $PJ, \"trust\": true${T2:+, \"timeout\": 2000}}}, \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}" > $HOME/.gemini/settings.json
  echo "{\"$S/work\": \"TRUST_FOLDER\"}" > $HOME/.gemini/trustedFolders.json
  GOOGLE_GEMINI_BASE_URL=$URL GEMINI_API_KEY=x timeout 120 $BIN/gemini -p "Call the $TOOL tool." --output-format stream-json > $S/client.out 2> $S/client.err ;;
 qwen-code)
  CMD="qwen -p 'Call the $TOOL tool.' (OPENAI_BASE_URL=scripted model /v1, trust: true)"
  serving "$CMD"
  mkdir -p $HOME/.qwen
  echo "{\"mcpServers\": {\"probe\": {\"command\": \"${SERVER[0]}\", \"args\": $PJ, \"trust\": true${T2:+, \"timeout\": 2000}}}, \"security\": {\"auth\": {\"selectedType\": \"openai\"}}}" > $HOME/.qwen/settings.json
  echo "{\"$S/work\": \"TRUST_FOLDER\"}" > $HOME/.qwen/trustedFolders.json
  OPENAI_BASE_URL=$URL/v1 OPENAI_MODEL=scripted OPENAI_API_KEY=x timeout 120 $BIN/qwen -p "Call the $TOOL tool." > $S/client.out 2> $S/client.err ;;
 goose)
  CMD="goose run --no-session --no-profile -t 'Call the $TOOL tool.' (GOOSE_PROVIDER=openai, OPENAI_HOST=scripted model)"
  serving "$CMD"
  # goose splits an extension's command line at spaces, quotes and all: a script holds it.
  printf '#!/bin/sh\nexec %s\n' "$(python3 -c 'import shlex,sys; print(shlex.join(sys.argv[1:]))' "${SERVER[@]}")" > probe.sh
  GOOSE_PROVIDER=openai GOOSE_MODEL=gpt-4o OPENAI_HOST=$URL OPENAI_API_KEY=x GOOSE_MODE=auto \
   timeout 120 $BIN/goose-binary-linux-x64 run --no-session --no-profile \
   -t "Call the $TOOL tool." --with-extension "probe:sh $S/work/probe.sh" > $S/client.out 2> $S/client.err ;;
 opencode)
  MSG=("Call the $TOOL tool."); [ -n "${SLASH:-}" ] && MSG=(--command "$SLASH" ${WORDS:-fieldnotes})
  CMD="opencode run --format json $(python3 -c 'import shlex,sys; print(shlex.join(sys.argv[1:]))' "${MSG[@]}") (provider @ai-sdk/openai-compatible at the scripted model)"
  serving "$CMD"
  PJ=$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "${SERVER[@]}")
  cat > opencode.json <<T
{"\$schema": "https://opencode.ai/config.json",
 "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "scripted",
   "options": {"baseURL": "$URL/v1", "apiKey": "x"}, "models": {"probe": {"name": "probe"}}}},
 "model": "scripted/probe",
 "permission": {"*": "allow"},
 "mcp": {"probe": {"type": "local", "command": $PJ${T2:+, "timeout": 2000}}}}
T
  timeout 120 $BIN/opencode run --format json "${MSG[@]}" > $S/client.out 2> $S/client.err ;;
esac
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill $p 2>/dev/null; done; true
