#!/bin/bash
# hermes.sh: one headless run of Hermes Agent (PyPI hermes-agent, with its `mcp` extra) driven by
# `fieldnotes probe model` to call the probe's tool, its MCP server given in config.yaml.
#
#   HERMES=BIN OUT=DIR FIELDNOTES=BIN ROOT=SITE [MPORT=P] hermes.sh RUN stdio [probe flags…]
#   HERMES=BIN [MPORT=P] hermes.sh RUN URL [sse]   (a `fieldnotes probe http` already running)
#
# HERMES is the venv's `hermes` (pip install 'hermes-agent[mcp]==VERSION'); the venv's
# hermes-agent version names the observation's package. Start the scripted model first:
# `fieldnotes probe model --port P --out OUT`. RUN names the scratch folder (SCRATCH, default
# ./hermes-RUN: its own HOME and working folder). A third argument `sse` sets `transport: sse`.
# Every process left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
HERMES=${HERMES:?set HERMES to the hermes binary of a venv}
P=${MPORT:-18767}
S=${SCRATCH:-$PWD/hermes-$R}; rm -rf "$S"; mkdir -p "$S/home/.hermes" "$S/work"
V=$("$(dirname "$HERMES")/python" -c 'import importlib.metadata as m; print(m.version("hermes-agent"))')
ASK="Call the probe_echo tool."
CMD="hermes -z '$ASK' (config.yaml: model.provider custom at the scripted model, mcp_servers.probe"
Y=$S/home/.hermes/config.yaml
cat > "$Y" <<T
model:
  provider: custom
  base_url: http://127.0.0.1:$P/v1
  api_key: x
  default: probe
mcp_servers:
  probe:
T
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="$CMD command)"
  PROBE=("$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
         --package "pypi:hermes-agent@$V" --quiet-timeout 3 --idle-limit 600 --command "$CMD" "$@")
  PJ=$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "${PROBE[@]:1}")
  printf '    command: %s\n    args: %s\n' "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "${PROBE[0]}")" "$PJ" >> "$Y"
else
  printf '    url: %s\n' "$TARGET" >> "$Y"
  [ "${1:-}" = sse ] && printf '    transport: sse\n' >> "$Y"
fi
cd "$S/work" || exit 1
HOME=$S/home OPENAI_API_KEY=x timeout 180 "$HERMES" -z "$ASK" > "$S/client.out" 2> "$S/client.err"
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
