// Drives `fieldnotes mcp` with the official MCP TypeScript SDK (pinned in package.json), a
// client this project did not write, over stdio and Streamable HTTP: it initializes, lists
// and calls every tool (the SDK validates each structured answer against the tool's output
// schema with ajv), reads a resource and gets a prompt.
//
// Usage: node check.mjs FIELDNOTES_BINARY SITE_ROOT   (run by .ci/run)
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [binary, root] = process.argv.slice(2);
const TODAY = "2026-12-06";
const NOTE = "cline-defaults-a-url-server-to-sse";
const CALLS = {
  support: { client: "Cline", capability: "transport.sse" },
  search: { query: "streamable http", limit: 3 },
  note: { id: NOTE },
  clients: {},
  capabilities: { group: "transports" },
  compare: { a: "cline", b: "zed", only_differences: true },
  lint: { text: "---\nid: a-draft\n---\nA [link](/research/no-such-note.md).\n" },
};

async function exercise(transport, name) {
  const client = new Client({ name: "fieldnotes-ts-check", version: "1" });
  await client.connect(transport);
  assert.equal(client.getServerVersion().name, "fieldnotes");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(CALLS).sort());
  for (const tool of tools) {
    assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    const result = await client.callTool({ name: tool.name, arguments: CALLS[tool.name] });
    assert.ok(!result.isError, `${tool.name}: ${JSON.stringify(result.content)}`);
    assert.ok(result.structuredContent, `${tool.name}: no structured content`);
  }
  const uri = `https://canimcp.io/research/${NOTE}.md`;
  const { contents } = await client.readResource({ uri });
  assert.equal(contents[0].mimeType, "text/markdown");
  const prompt = await client.getPrompt({ name: "verify-claim", arguments: { note: NOTE } });
  assert.match(prompt.messages[0].content.text, /lastVerified/);
  await client.close();
  console.log(`${name}: ok`);
}

async function overHttp() {
  const server = spawn(binary, ["mcp", "--http", "--port", "0", "--root", root, "--today", TODAY], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let seen = "";
      server.stderr.on("data", (chunk) => {
        seen += chunk;
        const found = seen.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
        if (found) resolve(found[0]);
      });
      server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${seen}`)));
    });
    await exercise(new StreamableHTTPClientTransport(new URL(url)), "streamable http");
  } finally {
    server.kill();
  }
}

await exercise(
  new StdioClientTransport({ command: binary, args: ["mcp", "--root", root, "--today", TODAY] }),
  "stdio",
);
await overHttp();
