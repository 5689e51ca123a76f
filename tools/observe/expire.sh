#!/bin/bash
# expire.sh: one run of a shipped client over Streamable HTTP against
# `fieldnotes probe http --mode expire-session` (its first tools/call is answered 404, the
# session ended), driven by `fieldnotes probe model` to call the probe's tool; the observation
# says whether the client began a new session with initialize and sent the call again.
#
#   PREFIX=DIR OUT=DIR FIELDNOTES=BIN ROOT=SITE [PORT=18802] [MPORT=18767] expire.sh CLIENT PACKAGE
#
# CLIENT is claude-code, codex, gemini-cli, goose, opencode or qwen-code, installed under PREFIX/CLIENT by
# `observe.py install`; PACKAGE is the npm package@version that ran (the observation's
# `--package`). The client gets a scratch HOME beside PREFIX; the probe and the model are
# started here and stopped when the client is done.
set -u
C=$1; PKG=$2
OUT=${OUT:?set OUT to the observations folder}; mkdir -p "$OUT"
FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
PREFIX=${PREFIX:?set PREFIX to the install prefix of observe.py}
ROOT=${ROOT:?set ROOT to the site (for client ids)}
PORT=${PORT:-18802}; MPORT=${MPORT:-18767}
B=$PREFIX/$C/node_modules/.bin
LOGS=$(dirname "$PREFIX")/expire-$C; rm -rf "$LOGS"; mkdir -p "$LOGS/home/w"
export HOME=$LOGS/home; cd "$HOME/w" || exit 1
URL=http://127.0.0.1:$PORT/mcp; M=http://127.0.0.1:$MPORT
"$FN" probe model --port "$MPORT" --out "$OUT" > "$LOGS/model.log" 2>&1 &
model=$!
case $C in
 codex)
  CMD="codex exec --json --skip-git-repo-check 'Call the probe_echo tool.' (mcp_servers.probe url, model_provider at the scripted model); probe: --mode expire-session"
  mkdir -p $HOME/.codex; cat > $HOME/.codex/config.toml <<T
model = "gpt-5"
model_provider = "scripted"
[model_providers.scripted]
name = "scripted"
base_url = "$M/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
[mcp_servers.probe]
url = "$URL"
[mcp_servers.probe.tools.probe_echo]
approval_mode = "approve"
T
  RUN=(env OPENAI_API_KEY=x timeout 120 $B/codex exec --json --skip-git-repo-check "Call the probe_echo tool.");;
 gemini-cli)
  CMD="gemini -p 'Call the probe_echo tool.' (mcpServers.probe httpUrl, trust: true; GOOGLE_GEMINI_BASE_URL=scripted model); probe: --mode expire-session"
  mkdir -p $HOME/.gemini
  echo "{\"mcpServers\": {\"probe\": {\"httpUrl\": \"$URL\", \"trust\": true}}, \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}" > $HOME/.gemini/settings.json
  echo "{\"$HOME/w\": \"TRUST_FOLDER\"}" > $HOME/.gemini/trustedFolders.json
  RUN=(env GOOGLE_GEMINI_BASE_URL=$M GEMINI_API_KEY=x timeout 120 $B/gemini -p "Call the probe_echo tool." --output-format stream-json);;
 goose)
  CMD="goose run --no-session --no-profile -t 'Call the probe_echo tool.' --with-streamable-http-extension URL (GOOSE_PROVIDER=openai, OPENAI_HOST=scripted model); probe: --mode expire-session"
  RUN=(env GOOSE_PROVIDER=openai GOOSE_MODEL=gpt-4o OPENAI_HOST=$M OPENAI_API_KEY=x GOOSE_MODE=auto
    timeout 120 $B/goose-binary-linux-x64 run --no-session --no-profile
    -t "Call the probe_echo tool." --with-streamable-http-extension "$URL");;
 qwen-code)
  CMD="qwen -p 'Call the probe_echo tool.' (mcpServers.probe httpUrl, trust: true; OPENAI_BASE_URL=scripted model); probe: --mode expire-session"
  mkdir -p $HOME/.qwen
  echo "{\"mcpServers\": {\"probe\": {\"httpUrl\": \"$URL\", \"trust\": true}}, \"security\": {\"auth\": {\"selectedType\": \"openai\"}}}" > $HOME/.qwen/settings.json
  echo "{\"$HOME/w\": \"TRUST_FOLDER\"}" > $HOME/.qwen/trustedFolders.json
  RUN=(env OPENAI_BASE_URL=$M/v1 OPENAI_MODEL=scripted OPENAI_API_KEY=x timeout 120 $B/qwen -p "Call the probe_echo tool.");;
 opencode)
  CMD="opencode run --format json 'Call the probe_echo tool.' (mcp.probe type remote, url; provider @ai-sdk/openai-compatible at the scripted model); probe: --mode expire-session"
  cat > opencode.json <<T
{"\$schema": "https://opencode.ai/config.json",
 "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "scripted",
   "options": {"baseURL": "$M/v1", "apiKey": "x"}, "models": {"probe": {"name": "probe"}}}},
 "model": "scripted/probe", "permission": {"*": "allow"},
 "mcp": {"probe": {"type": "remote", "url": "$URL", "oauth": false}}}
T
  RUN=(timeout 120 $B/opencode run --format json "Call the probe_echo tool.");;
 claude-code)
  CMD="claude mcp add --transport http probe URL; claude -p 'Call the probe_echo tool.' --allowedTools mcp__probe__probe_echo (ANTHROPIC_BASE_URL=scripted model); probe: --mode expire-session"
  $B/claude mcp add --transport http probe $URL > /dev/null 2>&1
  RUN=(env ANTHROPIC_BASE_URL=$M ANTHROPIC_API_KEY=x timeout 120 $B/claude -p "Call the probe_echo tool." --output-format stream-json --verbose --allowedTools mcp__probe__probe_echo);;
esac
"$FN" probe http --root "$ROOT" --port "$PORT" --mode expire-session --out "$OUT" \
  --package "npm:$PKG" --command "$CMD" > "$LOGS/probe.log" 2>&1 &
probe=$!
sleep 1
"${RUN[@]}" > "$LOGS/client.out" 2> "$LOGS/client.err"; echo "client exit $?"
sleep 4; kill -INT "$probe"; wait "$probe"; kill "$model"; wait "$model" 2>/dev/null
ls "$OUT"
