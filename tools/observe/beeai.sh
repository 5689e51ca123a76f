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
PKG=beeai-framework DRIVER=beeai_driver.py STEPS=${STEPS:-tools,llm} FLAGS=()
HOW_STDIO="MCPTool.from_client(stdio_client(StdioServerParameters(...))), RequirementAgent with OpenAIChatModel"
url_args() {
  local t=${1:-streamable_http} f=streamablehttp_client
  [ "$t" = sse ] && f=sse_client
  URL_ARGS=("$t" "$TARGET")
  HOW_URL="$t <url> (MCPTool.from_client($f(url)), RequirementAgent with OpenAIChatModel)"
}
. "$(dirname "$0")/framework.sh"
