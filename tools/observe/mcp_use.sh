#!/bin/bash
# mcp_use.sh: one run of tools/observe/mcp_use_driver.py (mcp-use's MCPClient, PyPI mcp-use,
# driven through its public API) against the probe, with a scratch HOME and telemetry off.
#
#   PY=VENV_PYTHON OUT=DIR FIELDNOTES=BIN ROOT=SITE [MPORT=P] mcp_use.sh RUN stdio [probe flags…]
#   PY=VENV_PYTHON [MPORT=P] mcp_use.sh RUN URL     (a running probe http: …/mcp, or …/sse)
#
# PY is the Python of a venv holding mcp-use (pip install mcp-use==VERSION langchain-openai);
# its mcp-use version names the observation's package. MPORT: a running
# `fieldnotes probe model --port P --out OUT`, for the driver's `agent` step (without it the
# step is skipped). mcp-use sends its own clientInfo name (`mcp-use`). RUN names the scratch
# folder (SCRATCH, default ./mcp-use-RUN). STEPS is passed as the driver's --steps; NOAUTH=1
# passes --no-auth (`"auth": null`, needed for an SSE URL: see the driver). For a URL
# the script prints the `--command` text the running probe should have been given. Every
# process left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
PY=${PY:?set PY to the python of a venv with mcp-use}
D=$(cd "$(dirname "$0")" && pwd)/mcp_use_driver.py
S=${SCRATCH:-$PWD/mcp-use-$R}; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
V=$("$PY" -c 'import importlib.metadata as m; print(m.version("mcp-use"))')
STEPS=${STEPS:-tools,agent,resources,prompts,roots}
NOAUTH_FLAG=(); [ -n "${NOAUTH:-}" ] && NOAUTH_FLAG=(--no-auth)
MODEL=(); [ -n "${MPORT:-}" ] && MODEL=(--model-url "http://127.0.0.1:$MPORT/v1")
CMD="python tools/observe/mcp_use_driver.py --steps $STEPS${MPORT:+ --model-url <scripted model>}"
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="$CMD stdio -- <probe> (MCPClient config command/args, create_session(probe))"
  ARGS=(stdio -- "$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
        --package "pypi:mcp-use@$V" --quiet-timeout "${QUIET:-5}" --idle-limit 600 --command "$CMD" "$@")
else
  CMD="$CMD${NOAUTH:+ --no-auth} http <url> (MCPClient config url, create_session(probe))"
  ARGS=(http "$TARGET")
  echo "command (give it to probe http as --command): $CMD"
fi
cd "$S/work" || exit 1
HOME=$S/home MCP_USE_ANONYMIZED_TELEMETRY=false timeout 180 "$PY" "$D" --steps "$STEPS" "${MODEL[@]}" "${NOAUTH_FLAG[@]}" "${ARGS[@]}" \
  > "$S/client.out" 2> "$S/client.err" < /dev/null
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
