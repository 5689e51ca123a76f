#!/bin/bash
# beeai.sh: one run of tools/observe/beeai_driver.py (BeeAI Framework's MCP client, PyPI
# beeai-framework, driven through its public API) against the probe, with a scratch HOME.
#
#   PY=VENV_PYTHON OUT=DIR FIELDNOTES=BIN ROOT=SITE [MPORT=P] beeai.sh RUN stdio [probe flags…]
#   PY=VENV_PYTHON [MPORT=P] beeai.sh RUN URL [streamable_http|sse]   (a running probe http)
#
# PY is the Python of a venv holding beeai-framework (pip install 'beeai-framework[mcp]==VERSION');
# its beeai-framework version names the observation's package. MPORT: a running
# `fieldnotes probe model --port P --out OUT`, for the driver's `llm` step (without it the step
# is skipped). BeeAI sends the MCP SDK's default clientInfo (`mcp`), which other clients' pages
# claim too; the probe files the session under the client its `--package` names. RUN names the
# scratch folder (SCRATCH, default ./beeai-RUN). STEPS is passed as the driver's --steps.
# For a URL the script prints the `--command` text the running probe should have been given.
# Every process left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
PY=${PY:?set PY to the python of a venv with beeai-framework}
D=$(cd "$(dirname "$0")" && pwd)/beeai_driver.py
S=${SCRATCH:-$PWD/beeai-$R}; rm -rf "$S"; mkdir -p "$S/home" "$S/work"
V=$("$PY" -c 'import importlib.metadata as m; print(m.version("beeai-framework"))')
STEPS=${STEPS:-tools,llm}
MODEL=(); [ -n "${MPORT:-}" ] && MODEL=(--model-url "http://127.0.0.1:$MPORT/v1")
CMD="python tools/observe/beeai_driver.py --steps $STEPS${MPORT:+ --model-url <scripted model>}"
if [ "$TARGET" = stdio ]; then
  FN=${FIELDNOTES:?set FIELDNOTES to the fieldnotes binary}
  CMD="$CMD stdio -- <probe> (MCPTool.from_client(stdio_client(StdioServerParameters(...))), RequirementAgent with OpenAIChatModel)"
  ARGS=(stdio -- "$FN" probe stdio --root "${ROOT:?set ROOT to the site}" --out "${OUT:?set OUT}"
        --package "pypi:beeai-framework@$V" --quiet-timeout "${QUIET:-5}" --idle-limit 600 --command "$CMD" "$@")
else
  T=${1:-streamable_http}
  case $T in sse) F=sse_client;; *) F=streamablehttp_client;; esac
  CMD="$CMD $T <url> (MCPTool.from_client($F(url)), RequirementAgent with OpenAIChatModel)"
  ARGS=("$T" "$TARGET")
  echo "command (give it to probe http as --command): $CMD"
fi
cd "$S/work" || exit 1
HOME=$S/home timeout 180 "$PY" "$D" --steps "$STEPS" "${MODEL[@]}" "${ARGS[@]}" \
  > "$S/client.out" 2> "$S/client.err" < /dev/null
echo "exit $?"
for p in $(grep -l -a "HOME=$S/home" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do [ "$p" != "$$" ] && kill "$p" 2>/dev/null; done; true
