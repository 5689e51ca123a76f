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
PKG=mcp-use DRIVER=mcp_use_driver.py STEPS=${STEPS:-tools,agent,resources,prompts,roots}
FLAGS=(); [ -n "${NOAUTH:-}" ] && FLAGS=(--no-auth)
ENVS=MCP_USE_ANONYMIZED_TELEMETRY=false
HOW_STDIO="MCPClient config command/args, create_session(probe)"
url_args() {
  URL_ARGS=(http "$TARGET")
  HOW_URL="${NOAUTH:+--no-auth }http <url> (MCPClient config url, create_session(probe))"
}
. "$(dirname "$0")/framework.sh"
