// Drives `fieldnotes probe` with the official MCP TypeScript SDK (@modelcontextprotocol/sdk),
// a client this project did not write, over stdio, Streamable HTTP, legacy SSE and the
// 404-then-SSE fallback; then a client killed mid-session. After each, it reads the
// observation the probe wrote and checks its results against what this client is known to do.
//
// Usage: node ts_client.mjs FIELDNOTES_BINARY   (run from .ci/run)

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";

const [fieldnotes, mode] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function client() {
  const c = new Client(
    { name: "ts-sdk-probe-test", version: "1.0.0" },
    { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } } },
  );
  c.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }));
  c.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "hello" },
    model: "none",
  }));
  c.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
  c.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    await c.listTools();
  });
  return c;
}

/** Every page of a list (the probe gives two): the items under `key`. */
async function all(list, key) {
  const items = [];
  let cursor;
  do {
    const page = await list(cursor ? { cursor } : undefined);
    items.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

async function exercise(c) {
  const tools = await all((p) => c.listTools(p), "tools");
  assert.equal(tools[0].name, "probe_echo");
  const called = await c.callTool({ name: "probe_echo", arguments: { text: "hi" } });
  // The text and structuredContent carry different marks (which one a model was shown), and
  // both the session's own mark (whose result a model was shown).
  const mark = /^fieldnotes-text-content: hi \((fieldnotes-session-\d+-\d+)\)$/.exec(called.content[0].text);
  assert.ok(mark, called.content[0].text);
  assert.deepEqual(called.structuredContent, {
    echo: "hi",
    part: "fieldnotes-structured-content",
    session: mark[1],
  });
  await all((p) => c.listResources(p), "resources");
  await c.readResource({ uri: "probe://fieldnotes/about" });
  await all((p) => c.listPrompts(p), "prompts");
  await c.getPrompt({ name: "probe_prompt" });
  // Time for the probe's requests, and for the list_changed round trip.
  await sleep(1500);
}

/** The one observation in `dir` (waiting up to 15 s): its text. */
async function observation(dir) {
  for (let i = 0; i < 150; i++) {
    const md = readdirSync(dir).filter((f) => f.endsWith(".md"));
    if (md.length === 1) return readFileSync(join(dir, md[0]), "utf8");
    assert.ok(md.length <= 1, `one observation in ${dir}: ${md}`);
    await sleep(100);
  }
  throw new Error(`no observation written in ${dir}`);
}

function status(text, id) {
  const escaped = id.replace(/\./g, "\\.");
  const match = new RegExp(`\\n  ${escaped}:\\n    status: '?(\\w+)'?`).exec(text);
  return match ? match[1] : undefined;
}

function expect(text, expected) {
  for (const [id, want] of Object.entries(expected)) {
    assert.equal(status(text, id), want, `${id} in\n${text}`);
  }
}

const common = {
  "core.initialization": "yes",
  "tools.list": "yes",
  "tools.call": "yes",
  "tools.listChanged": "yes",
  "resources.list": "yes",
  "resources.read": "yes",
  "prompts.list": "yes",
  "prompts.get": "yes",
  "roots.list": "yes",
  "roots.listChanged": "yes",
  "sampling.createMessage": "yes",
  "elicitation.form": "yes",
  "elicitation.url": "yes",
};

/** Starts `fieldnotes probe http`; resolves to [process, URL]. */
function httpProbe(dir, probeMode) {
  const child = spawn(fieldnotes, ["probe", "http", "--port", "0", "--out", dir, "--quiet-timeout", "1", "--mode", probeMode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const line = text.split("\n")[0];
      if (text.includes("\n")) resolve([child, line.trim()]);
    });
    child.on("exit", (code) => reject(new Error(`probe exited ${code}`)));
  });
}

async function stdio() {
  const dir = mkdtempSync(join(tmpdir(), "probe-ts-"));
  const c = client();
  await c.connect(new StdioClientTransport({ command: fieldnotes, args: ["probe", "stdio", "--out", dir, "--quiet-timeout", "1"] }));
  await exercise(c);
  await c.close();
  const text = await observation(dir);
  expect(text, { ...common, "transports.stdio": "yes" });
  assert.match(text, /\nclient: ts-sdk-probe-test\n/);
  console.log("stdio: ok");
}

async function streamable() {
  const dir = mkdtempSync(join(tmpdir(), "probe-ts-"));
  const [probe, url] = await httpProbe(dir, "streamable");
  try {
    const c = client();
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await c.connect(transport);
    await exercise(c);
    await transport.terminateSession();
    await c.close();
    const text = await observation(dir);
    expect(text, {
      ...common,
      "transports.streamableHttp": "yes",
      "transports.protocolVersionHeader": "yes",
      "transports.sessions": "yes",
    });
    console.log("streamable http: ok");
  } finally {
    probe.kill("SIGTERM");
  }
}

async function sse(probeMode) {
  const dir = mkdtempSync(join(tmpdir(), "probe-ts-"));
  const [probe, url] = await httpProbe(dir, probeMode);
  try {
    let c = client();
    if (probeMode === "sse") {
      await c.connect(new SSEClientTransport(new URL(url)));
    } else {
      // The fallback the SDK's README teaches: Streamable HTTP first, SSE when refused.
      try {
        await c.connect(new StreamableHTTPClientTransport(new URL(url)));
        throw new Error("the legacy-only probe accepted Streamable HTTP");
      } catch (error) {
        if (String(error).includes("accepted")) throw error;
        c = client();
        await c.connect(new SSEClientTransport(new URL(url)));
      }
    }
    await exercise(c);
    await c.close();
    const text = await observation(dir);
    const expected = { ...common, "transports.sse": "yes" };
    if (probeMode !== "sse") expected["transports.streamableHttp"] = "yes";
    expect(text, expected);
    console.log(`${probeMode}: ok`);
  } finally {
    probe.kill("SIGTERM");
  }
}

/** A client process killed while connected: the probe still writes the session. */
async function killed() {
  const dir = mkdtempSync(join(tmpdir(), "probe-ts-"));
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, fieldnotes, "hang", dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve) => child.stdout.on("data", (d) => String(d).includes("connected") && resolve()));
  child.kill("SIGKILL");
  const text = await observation(dir);
  expect(text, { "core.initialization": "yes", "transports.stdio": "yes" });
  console.log("killed client: ok");
}

async function hang(dir) {
  const c = client();
  await c.connect(new StdioClientTransport({ command: fieldnotes, args: ["probe", "stdio", "--out", dir, "--quiet-timeout", "1"] }));
  console.log("connected");
  await sleep(60_000);
}

if (mode === "hang") {
  await hang(process.argv[4]);
} else {
  await stdio();
  await streamable();
  await sse("sse");
  await sse("legacy-only-404");
  await sse("legacy-only-405");
  await killed();
}
