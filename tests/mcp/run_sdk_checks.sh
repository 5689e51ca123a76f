#!/usr/bin/env bash
# Drives `fieldnotes mcp` with the official MCP SDKs, clients this project did not write:
# Python (check_server.py, `mcp` from PyPI) and TypeScript (ts/check.mjs, pinned with its
# package-lock). Installs what it needs; run by .ci/run after `cargo test` built the binary.
# Usage: bash tests/mcp/run_sdk_checks.sh FIELDNOTES_BINARY
set -euo pipefail
binary="$(realpath "$1")"
cd "$(dirname "$0")"
root="$(realpath ../..)"

# A Debian python3 refuses a plain `pip install` (PEP 668): then it is told it may.
python3 -m pip --version >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip; }
pip_install() { python3 -m pip install --quiet --disable-pip-version-check "$@"; }
python3 -c "import mcp.client.streamable_http" 2>/dev/null || pip_install mcp==2.3.0 || pip_install --break-system-packages mcp==2.3.0
timeout 300 python3 check_server.py "$binary" "$root"

(cd ts && npm ci --no-audit --no-fund)
timeout 300 node ts/check.mjs "$binary" "$root"
