#!/bin/bash
# mcp_agent.sh: one run of tools/observe/mcp_agent_driver.py (mcp-agent's MCP client, PyPI
# mcp-agent, driven through its public API) against the probe, with a scratch HOME.
#
#   PY=VENV_PYTHON OUT=DIR FIELDNOTES=BIN ROOT=SITE [MPORT=P] mcp_agent.sh RUN stdio [probe flags…]
#   PY=VENV_PYTHON [MPORT=P] mcp_agent.sh RUN URL [streamable_http|sse]   (a running probe http)
#
# PY is the Python of a venv holding mcp-agent (pip install 'mcp-agent[openai]==VERSION'
# 'mcp<2'); its mcp-agent version names the observation's package. MPORT: a running
# `fieldnotes probe model --port P --out OUT`, for the driver's `llm` step (without it the step
# is skipped). mcp-agent sends the MCP SDK's default clientInfo (`mcp`), which other clients'
# pages claim too: give the probe a ROOT whose clients leave `mcp` to mcp-agent alone (a copy
# of the site without those pages) so it files the session under mcp-agent. RUN names the
# scratch folder (SCRATCH, default ./mcp-agent-RUN). STEPS is passed as the driver's --steps.
# For a URL the script prints the `--command` text the running probe should have been given.
# Every process left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
PY=${PY:?set PY to the python of a venv with mcp-agent}
D=$(cd "$(dirname "$0")" && pwd)/mcp_agent_driver.py
S=${SCRATCH:-$PWD/mcp-agent-$R}; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
V=$("$PY" -c 'import importlib.metadata as m; print(m.version("mcp-agent"))')
STEPS=${STEPS:-tools,llm,resources,prompts}
MODEL=(); [ -n "${MPORT:-}" ] && MODEL=(--model-url "http://127.0.0.1:$MPORT/v1")
CMD="python tools/observe/mcp_agent_driver.py --steps $STEPS${MPORT:+ --model-url <scripted model>}"
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="$CMD stdio -- <probe> (MCPApp with MCPServerSettings transport stdio, Agent(server_names=[probe]))"
  ARGS=(stdio -- "$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
        --package "pypi:mcp-agent@$V" --quiet-timeout "${QUIET:-5}" --idle-limit 600 --command "$CMD" "$@")
else
  T=${1:-streamable_http}
  CMD="$CMD $T <url> (MCPApp with MCPServerSettings transport $T, Agent(server_names=[probe]))"
  ARGS=("$T" "$TARGET")
  echo "command (give it to probe http as --command): $CMD"
fi
cd "$S/work" || exit 1
HOME=$S/home timeout 180 "$PY" "$D" --steps "$STEPS" "${MODEL[@]}" "${ARGS[@]}" \
  > "$S/client.out" 2> "$S/client.err" < /dev/null
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
