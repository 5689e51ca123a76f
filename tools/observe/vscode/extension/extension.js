// fieldnotes' MCP driver for VS Code: at startup, starts every configured MCP server
// (`workbench.mcp.startServer`) and calls the probe's tool outside chat with
// `vscode.lm.invokeTool`, so no chat model or sign-in is needed. Each step is logged to
// $MCP_DRIVER_LOG (default: driver.log in the extension host's working folder).
// $MCP_DRIVER_CANCEL_MS: cancel the call's token after that many ms (give the probe
// `--tool-delay`), as a user stopping a tool does. $MCP_DRIVER_RESOURCES=1: afterwards open
// the MCP resource picker (quick access `mcpr `), where drive.mjs picks the entry $PICK.
const vscode = require('vscode');
const fs = require('fs');
const LOG = process.env.MCP_DRIVER_LOG || 'driver.log';
const TOOL = process.env.MCP_DRIVER_TOOL || 'probe_echo';
const log = (m) => fs.appendFileSync(LOG, new Date().toISOString() + ' ' + m + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const found = () => vscode.lm.tools.find((t) => t.name.endsWith(TOOL));

// The user's token for the call: cancelled after $MCP_DRIVER_CANCEL_MS, if set.
function callToken() {
  const ms = Number(process.env.MCP_DRIVER_CANCEL_MS || 0);
  if (!ms) return undefined;
  const source = new vscode.CancellationTokenSource();
  setTimeout(() => {
    log('cancelling the call after ' + ms + ' ms');
    source.cancel();
  }, ms);
  return source.token;
}

// $MCP_DRIVER_MODEL=1: a language model of its own (vendor `fieldnotes`), always answering the
// same line, so a server's sampling request has a model to go to once the user allows it.
async function registerModel() {
  if (!process.env.MCP_DRIVER_MODEL) return;
  vscode.lm.registerLanguageModelChatProvider('fieldnotes', {
    provideLanguageModelChatInformation: async () => [
      {
        id: 'fieldnotes-model',
        name: 'fieldnotes model',
        family: 'fieldnotes',
        version: '1',
        maxInputTokens: 8192,
        maxOutputTokens: 1024,
        capabilities: {},
      },
    ],
    provideLanguageModelChatResponse: async (model, messages, options, progress) => {
      log('model asked, ' + messages.length + ' message(s)');
      progress.report(new vscode.LanguageModelTextPart('hello from the fieldnotes model'));
    },
    provideTokenCount: async () => 1,
  });
  log('language model registered');
  // Models are resolved on demand: ask for this one, so sampling finds it among the defaults.
  const models = await vscode.lm.selectChatModels({ vendor: 'fieldnotes' });
  log('models: ' + models.map((m) => m.id).join(', '));
}

// Open the resource picker, where the browser script picks a resource as a user would
// (drive.mjs, $PICK), and say which editor that opened.
async function browseResources() {
  await vscode.commands.executeCommand('workbench.action.quickOpen', 'mcpr ');
  log('resource picker open');
  await sleep(20000);
  const opened = vscode.window.activeTextEditor;
  log('active editor: ' + (opened ? opened.document.uri.toString() : 'none'));
  if (opened) log('its text: ' + JSON.stringify(opened.document.getText().slice(0, 200)));
}

exports.activate = async function () {
  log('activated; vscode ' + vscode.version);
  try {
    await registerModel();
    // The servers' definitions load after startup: ask again until the tool shows.
    for (let i = 0; i < 40 && !found(); i++) {
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
      log('startServer returned (' + i + ')');
      await sleep(1000);
    }
    const tool = found();
    log('tools: ' + vscode.lm.tools.filter((t) => t.name.startsWith('mcp_')).map((t) => t.name).join(', '));
    if (!tool) return;
    try {
      const result = await vscode.lm.invokeTool(
        tool.name,
        { input: { text: 'hello from vscode' }, toolInvocationToken: undefined },
        callToken(),
      );
      log('result: ' + JSON.stringify(result.content.map((c) => c.value ?? c)));
    } catch (e) {
      log('call ended: ' + (e && e.message ? e.message : e));
    }
    if (process.env.MCP_DRIVER_RESOURCES) await browseResources();
  } catch (e) {
    log('error: ' + (e && e.stack ? e.stack : e));
  }
};
