// A site the size of a real one (generate.js: 40 clients × 30 capabilities, ~180 researched
// cells, 400 notes authored with restated front matter), built by the fieldnotes binary and
// read in headless Chromium as a reader would, at 1280 and 390 px, light and dark.
//
// Run: `node --test tests/browser/scale.test.js` (with `npm ci` in tests/browser first; the
// debug binary, built when missing, or FIELDNOTES_BIN).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { generate } from "./generate.js";
import { build, launch, serve, watchedPage } from "./support.js";

const WIDTHS = [1280, 390];
const SCHEMES = ["light", "dark"];

let work;
let made;
let server;
let browser;

before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "fieldnotes-scale-"));
  made = generate(path.join(work, "site"));
  build(path.join(work, "site"), path.join(work, "out"));
  server = await serve(path.join(work, "out"));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh page at `route`, its problems recorded. `options`: a browser context's. */
async function open(route, options = {}) {
  const { clock, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  const { page, problems } = await watchedPage(context, server.origin);
  if (clock) await page.clock.setFixedTime(new Date(clock));
  await page.goto(server.origin + route, { waitUntil: "load" });
  return { page, problems, close: () => context.close() };
}

/** A note the generator wrote, by position. */
const note = (n) => made.notes[n];

describe("dates", () => {
  test("ages and staleness are worked out on the day the page is read", async () => {
    const route = `/research/${note(0).id}`;
    const { page, problems, close } = await open(route, { clock: "2030-01-01T12:00:00" });
    const time = page.locator("p.verified time");
    const date = await time.getAttribute("datetime");
    assert.match(date, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(await time.textContent(), date);
    assert.match(await page.locator("p.verified .age").textContent(), /\(\d+ (months|years) ago\)/);
    assert.equal(await page.locator("p.verified .badge").textContent(), "Stale");
    await close();

    // Read on the day it was verified: today, and fresh.
    const fresh = await open(route, { clock: `${date}T09:00:00` });
    assert.equal(await fresh.page.locator("p.verified .age").textContent(), "(today)");
    assert.equal(await fresh.page.locator("p.verified .badge").textContent(), "Fresh");
    assert.deepEqual([...problems, ...fresh.problems], []);
    await fresh.close();
  });

  test("without JavaScript a date is the date alone", async () => {
    const { page, close } = await open(`/research/${note(0).id}`, { javaScriptEnabled: false });
    const text = await page.locator("p.verified").textContent();
    assert.match(text, /^Last verified \d{4}-\d{2}-\d{2}$/);
    assert.equal(await page.locator(".age, .badge").count(), 0);
    await close();
  });
});

describe("a note page", () => {
  test("says each fact once: the body's restated title, metadata line, Sources and Related notes are left out", async () => {
    // Note 0 has three sections of its own besides Sources and Related notes (a contents box).
    const n = note(0);
    const { page, problems, close } = await open(`/research/${n.id}`);
    const text = await page.locator("main").innerText();
    const count = (needle) => text.split(needle).length - 1;
    assert.equal(await page.locator("h1").count(), 1);
    assert.equal(count("Kind:"), 0, "the body's metadata line");
    assert.equal(await page.locator("main h2", { hasText: /^Sources/ }).count(), 1);
    assert.equal(await page.locator("main h2", { hasText: /^Related notes/ }).count(), 1);
    // Related notes by title, not by id.
    const related = page.locator("section:has(#related) a.card-title");
    assert.ok((await related.count()) > 0);
    for (const title of await related.allTextContents()) assert.doesNotMatch(title, /^[a-z0-9-]+$/);
    // Contents: each section once, the body's restated ones not twice.
    const toc = await page.locator("nav.toc a").allTextContents();
    assert.deepEqual(toc.filter((t) => t === "Sources" || t === "Related notes"), ["Sources", "Related notes"]);
    assert.equal(new Set(toc).size, toc.length, toc.join(", "));
    // Links to the body's dropped headings still land.
    for (const anchor of ["sources", "related-notes"]) {
      assert.equal(await page.locator(`[id="${anchor}"]`).count(), 1, anchor);
    }
    assert.deepEqual(problems, []);
    await close();
  });

  test("the Markdown rendition says each fact once too", async () => {
    const n = note(1);
    const md = await (await fetch(`${server.origin}/research/${n.id}.md`)).text();
    for (const once of ["\n## Sources", "\n## Related notes", "Kind:", `# ${n.title}`]) {
      assert.equal(md.split(once).length - 1, 1, `${once} in\n${md}`);
    }
    assert.match(md, /## Related notes\n\n- \[[^\]]* \(\d+\)\]\(\/research\//, "related notes by title");
  });

  test("an underscore in a link stays visible above its underline", async () => {
    const { page, close } = await open(`/research/${note(0).id}`);
    const offset = await page.evaluate(() => {
      const a = document.querySelector(".body a");
      return parseFloat(getComputedStyle(a).textUnderlineOffset) / parseFloat(getComputedStyle(a).fontSize);
    });
    assert.ok(offset >= 0.25, `underline offset ${offset}em`);
    await close();
  });
});
