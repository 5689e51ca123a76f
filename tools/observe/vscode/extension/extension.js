// fieldnotes' MCP driver for VS Code: at startup, starts every configured MCP server
// (`workbench.mcp.startServer`) and calls the probe's tool outside chat with
// `vscode.lm.invokeTool`, so no chat model or sign-in is needed. Each step is logged to
// $MCP_DRIVER_LOG (default: driver.log in the extension host's working folder).
const vscode = require('vscode');
const fs = require('fs');
const LOG = process.env.MCP_DRIVER_LOG || 'driver.log';
const TOOL = process.env.MCP_DRIVER_TOOL || 'probe_echo';
const log = (m) => fs.appendFileSync(LOG, new Date().toISOString() + ' ' + m + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const found = () => vscode.lm.tools.find((t) => t.name.endsWith(TOOL));

exports.activate = async function () {
  log('activated; vscode ' + vscode.version);
  try {
    // The servers' definitions load after startup: ask again until the tool shows.
    for (let i = 0; i < 40 && !found(); i++) {
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
      log('startServer returned (' + i + ')');
      await sleep(1000);
    }
    const tool = found();
    log('tools: ' + vscode.lm.tools.filter((t) => t.name.startsWith('mcp_')).map((t) => t.name).join(', '));
    if (!tool) return;
    const result = await vscode.lm.invokeTool(tool.name, {
      input: { text: 'hello from vscode' },
      toolInvocationToken: undefined,
    });
    log('result: ' + JSON.stringify(result.content.map((c) => c.value ?? c)));
  } catch (e) {
    log('error: ' + (e && e.stack ? e.stack : e));
  }
};
