// The client filters of the home matrix and the clients page (issue 45, point 5): an evidence
// strength preset, "observed or code only" (the "Checked by" boxes observed and source alone),
// and a platform filter; both kept in the address under the same keys on both pages, worked
// from the keyboard, at 1280 and 390 px. What they keep is checked against api/matrix.json.
// (Layout shift and axe on the clients page: firstscreen.test.js.)
//
// Run: `SITE_DIR=<built bundled site> node --test tests/browser/filters.test.js`.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt, launch, serve, siteDir, watchedPage } from "./support.js";

const STRONG = ["observed", "source"];
let server;
let browser;
let api;
/** client id → its platforms, from api/clients.json. */
let platforms;

before(async () => {
  ensureBuilt();
  api = JSON.parse(readFileSync(path.join(siteDir, "api/matrix.json"), "utf8"));
  const clients = JSON.parse(readFileSync(path.join(siteDir, "api/clients.json"), "utf8")).clients;
  platforms = new Map(clients.map((c) => [c.id, c.platforms]));
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(route, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const { page, problems } = await watchedPage(context, server.origin);
  await page.goto(server.origin + route, { waitUntil: "load" });
  return { page, problems, close: () => context.close() };
}

/** Whether `client` has a known cell checked one of the `methods` ways. */
function checkedBy(client, methods) {
  return Object.values(api.support[client] || {}).some(
    (cell) => cell.status !== "unknown" && methods.includes(cell.evidence.method)
  );
}

const platformsOf = (client) => {
  const found = platforms.get(client) ?? [];
  return found.length ? found : ["none"];
};

const shownColumns = (page) =>
  page.$$eval("table.matrix thead th[data-client]", (ths) =>
    ths.filter((th) => th.getClientRects().length).map((th) => th.dataset.client)
  );

const shownCards = (page) =>
  page.$$eval(".cards > li.card", (lis) =>
    lis.filter((li) => li.getClientRects().length).map((li) => li.querySelector("a").getAttribute("href"))
  );

/** A client id from a card's link (`/clients/cline`). */
const idOf = (href) => href.replace(/\/$/, "").split("/").pop().replace(/\.html$/, "");

const checked = (page, name) =>
  page.$$eval(`input[name="${name}"]`, (boxes) => boxes.filter((b) => b.checked).map((b) => b.value));

/** Selects the "observed or code only" preset from the keyboard: focus on "any", then the
    arrow key, as a radio group is worked. */
async function strongByKeyboard(page) {
  await page.locator('input[name="strength"][value="any"]').focus();
  await page.keyboard.press("ArrowRight");
}

for (const width of [1280, 390]) {
  describe(`at ${width} px`, () => {
    test("home: 'observed or code only' keeps the cells and clients checked that way, in the address", async () => {
      const { page, problems, close } = await open("/", width);
      await page.locator("#filters-box > summary").click();
      const before = await shownColumns(page);
      await strongByKeyboard(page);
      assert.deepEqual((await checked(page, "evidence")).sort(), [...STRONG].sort());
      const kept = await page.$$eval("table.matrix td.cell:not(.dim)", (tds) =>
        tds.filter((td) => td.getClientRects().length).map((td) => td.dataset.evidence)
      );
      assert.ok(kept.length > 0 && kept.every((e) => STRONG.includes(e)), `${[...new Set(kept)]}`);
      const columns = await shownColumns(page);
      assert.deepEqual(columns, before.filter((c) => checkedBy(c, STRONG)));
      assert.ok(columns.length < before.length || before.every((c) => checkedBy(c, STRONG)));
      const url = new URL(page.url());
      assert.equal(url.searchParams.get("evidence"), "observed,source");
      // The address brings it back, the preset shown as chosen.
      const again = await open(url.pathname + url.search, width);
      assert.deepEqual(await shownColumns(again.page), columns);
      assert.equal(await again.page.locator('input[name="strength"][value="strong"]').isChecked(), true);
      await again.close();
      // Ticking one more box leaves the preset; "any" ticks them all again.
      await page.locator('input[name="evidence"][value="docs"]').check();
      assert.deepEqual(await checked(page, "strength"), []);
      await page.locator('input[name="strength"][value="any"]').check();
      const boxes = await page.locator('input[name="evidence"]').count();
      assert.equal((await checked(page, "evidence")).length, boxes);
      assert.deepEqual(await shownColumns(page), before);
      assert.deepEqual(problems, []);
      await close();
    });

    test("home: the platform filter keeps the clients of the platforms ticked", async () => {
      const { page, problems, close } = await open("/", width);
      await page.locator("#filters-box > summary").click();
      const before = await shownColumns(page);
      const offered = await page.$$eval('input[name="platform"]', (b) => b.map((x) => x.value));
      assert.ok(offered.includes("cli"), `${offered}`);
      for (const p of offered.filter((p) => p !== "cli")) {
        await page.locator(`input[name="platform"][value="${p}"]`).focus();
        await page.keyboard.press("Space");
      }
      const columns = await shownColumns(page);
      assert.ok(columns.length > 0);
      assert.deepEqual(columns, before.filter((c) => platformsOf(c).includes("cli")));
      assert.equal(new URL(page.url()).searchParams.get("platforms"), "cli");
      assert.deepEqual(problems, []);
      await close();
    });

    test("the clients page: the same filters over every client, the address shared with the matrix", async () => {
      const { page, problems, close } = await open("/clients", width);
      const all = (await shownCards(page)).map(idOf);
      assert.equal(all.length, api.clients.length);
      assert.match(await page.locator("#list-count").textContent(), new RegExp(`Showing ${all.length} of ${all.length}`));
      await strongByKeyboard(page);
      const strong = (await shownCards(page)).map(idOf);
      assert.ok(strong.length > 0 && strong.length < all.length, `${strong.length} of ${all.length}`);
      assert.deepEqual(strong, all.filter((c) => checkedBy(c, STRONG)));
      await page.locator('input[name="platform"][value="none"]').uncheck();
      const stated = (await shownCards(page)).map(idOf);
      assert.deepEqual(stated, strong.filter((c) => !platformsOf(c).includes("none")));
      const url = new URL(page.url());
      assert.equal(url.searchParams.get("evidence"), "observed,source");
      assert.ok(!url.searchParams.get("platforms").split(",").includes("none"));
      // The same address on the home page filters the matrix the same way.
      const home = await open(`/${url.search}`, width);
      const columns = await shownColumns(home.page);
      assert.ok(columns.every((c) => stated.includes(c)), `${columns}`);
      await home.close();
      assert.deepEqual(problems, []);
      await close();
    });
  });
}

test("without JavaScript the clients page lists every client and shows no filters", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(server.origin + "/clients", { waitUntil: "load" });
  assert.equal(await page.locator("#list-filters").isVisible(), false);
  assert.equal((await shownCards(page)).length, api.clients.length);
  await context.close();
});
