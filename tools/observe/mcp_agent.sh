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
# pages claim too; the probe files the session under the client its `--package` names. RUN
# names the scratch folder (SCRATCH, default ./mcp-agent-RUN). STEPS is passed as the driver's
# --steps. The body is framework.sh's.
# For a URL the script prints the `--command` text the running probe should have been given.
# Every process left running with the scratch HOME is ended by its process id.
set -u
R=$1; TARGET=$2; shift 2
PKG=mcp-agent DRIVER=mcp_agent_driver.py STEPS=${STEPS:-tools,llm,resources,prompts} FLAGS=()
HOW_STDIO="MCPApp with MCPServerSettings transport stdio, Agent(server_names=[probe])"
url_args() {
  local t=${1:-streamable_http}
  URL_ARGS=("$t" "$TARGET")
  HOW_URL="$t <url> (MCPApp with MCPServerSettings transport $t, Agent(server_names=[probe]))"
}
. "$(dirname "$0")/framework.sh"
