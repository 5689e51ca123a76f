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
