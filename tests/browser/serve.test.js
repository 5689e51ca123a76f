// `fieldnotes serve` in headless Chromium: an open page reloads itself after a save and shows
// the new text; a save that breaks the site shows the error in an overlay while the last good
// page stays; fixing it takes the overlay away. Runs the debug binary `cargo test` built (or
// FIELDNOTES_BIN) on a copy of the example site.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { binary, launch, root, watchedPage } from "./support.js";

const NOTE = "content/research/hermes-defaults-a-url-server-to-streamable-http.md";
const ROUTE = "/research/hermes-defaults-a-url-server-to-streamable-http";

let site;
let server;
let origin;
let browser;

/** Starts `fieldnotes serve --port 0` on `dir`; resolves with the URL it prints. */
function startServer(dir) {
  const child = spawn(binary(), ["--root", dir, "serve", "--port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let printed = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${printed}`)), 60_000);
    child.stderr.on("data", (chunk) => {
      printed += chunk;
      const url = /serving (http:\/\/\S+?)\/? /.exec(printed);
      if (url) {
        clearTimeout(timer);
        resolve({ child, origin: url[1].replace(/\/$/, "") });
      }
    });
    child.on("exit", (code) => reject(new Error(`serve exited (${code}):\n${printed}`)));
  });
}

before(async () => {
  site = mkdtempSync(path.join(os.tmpdir(), "fieldnotes-serve-"));
  cpSync(path.join(root, "site.yaml"), path.join(site, "site.yaml"));
  cpSync(path.join(root, "content"), path.join(site, "content"), { recursive: true });
  ({ child: server, origin } = await startServer(site));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (site) rmSync(site, { recursive: true, force: true });
});

describe("fieldnotes serve", () => {
  test("reloads an open page after a save, and shows a broken save in an overlay", async () => {
    const context = await browser.newContext();
    const { page, problems } = await watchedPage(context, origin);
    await page.goto(origin + ROUTE, { waitUntil: "load" });
    const heading = page.locator("main h1").first();
    const original = readFileSync(path.join(site, NOTE), "utf8");
    const title = /^title:\s*(.+)$/m.exec(original)[1].trim();
    assert.equal((await heading.textContent()).trim(), title);
    // Give the page's event stream a moment to connect before the first save.
    await page.waitForFunction(
      () => performance.getEntriesByType("resource").some((r) => r.name.includes("/__fieldnotes/status")),
      null,
      { timeout: 10_000 }
    );
    await page.waitForTimeout(500);

    const renamed = "Hermes, renamed while the page was open";
    writeFileSync(path.join(site, NOTE), original.replace(/^title:.*$/m, `title: ${renamed}`));
    await page.waitForFunction(
      (text) => document.querySelector("main h1")?.textContent.trim() === text,
      renamed,
      { timeout: 20_000 }
    );

    // Without its closing `---` the front matter cannot be read: the build fails.
    const broken = original.replace(/^title:.*$/m, `title: ${renamed}`).replace(/\n---\n/, "\n\n");
    writeFileSync(path.join(site, NOTE), broken);
    const overlay = page.locator("#fieldnotes-serve-overlay");
    await overlay.waitFor({ state: "visible", timeout: 20_000 });
    assert.match(await overlay.textContent(), /hermes-defaults-a-url-server-to-streamable-http\.md:\d+:\d+/);
    assert.equal((await heading.textContent()).trim(), renamed, "the last good page stays");

    writeFileSync(path.join(site, NOTE), original);
    await page.waitForFunction(
      (text) => document.querySelector("main h1")?.textContent.trim() === text,
      title,
      { timeout: 20_000 }
    );
    await overlay.waitFor({ state: "detached", timeout: 20_000 });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
