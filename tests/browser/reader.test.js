// The reader's answers (issue #31), on the bundled site and on a generated 40-client site, at
// 1280 and 390 px, light and dark: which clients support every capability picked, clients side
// by side, the order that leads with what is known, unknown cells that say so, how each cell
// was checked, its badge, a light home page, one tab stop with arrow keys, the whole matrix
// printed, and every route styled with or without a closing slash. What the pages say is
// checked against api/matrix.json, not against the pages themselves.
//
// Run: `node --test tests/browser/reader.test.js` (with `npm ci` in tests/browser first;
// SITE_DIR names the built bundled site, else target/site, built when missing).

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { generate } from "./generate.js";
import { build, ensureBuilt, launch, root, serve, siteDir, watchedPage } from "./support.js";

/** What an unknown cell's tooltip may give as its reason: the titles of site.yaml's
 * `unknownReasons`, or "no one has checked" where a cell names none. */
const UNKNOWN_WHY = (() => {
  const yaml = readFileSync(path.join(root, "site.yaml"), "utf8");
  const block = (yaml.split(/^unknownReasons:\n/m)[1] ?? "").split(/^\S/m)[0];
  const titles = [...block.matchAll(/^\s+title: (.+)$/gm)].map((m) => m[1].trim());
  assert.ok(titles.length > 0, "site.yaml names its unknownReasons");
  const escaped = titles.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`unknown, (no one has checked|${escaped.join("|")})`, "i");
})();

const VIEWS = [
  { width: 1280, colorScheme: "light" },
  { width: 1280, colorScheme: "dark" },
  { width: 390, colorScheme: "light" },
  { width: 390, colorScheme: "dark" },
];
const view = (v) => `${v.width} px, ${v.colorScheme}`;

let work;
let browser;
/** name → { dir, server, api, pick: the capabilities and clients the tests ask about }. */
const sites = {};

before(async () => {
  ensureBuilt();
  work = mkdtempSync(path.join(os.tmpdir(), "fieldnotes-reader-"));
  generate(path.join(work, "site"));
  build(path.join(work, "site"), path.join(work, "out"));
  for (const [name, dir] of [["bundled", siteDir], ["generated", path.join(work, "out")]]) {
    const api = JSON.parse(readFileSync(path.join(dir, "api/matrix.json"), "utf8"));
    sites[name] = { dir, api, server: await serve(dir) };
  }
  sites.bundled.pick = {
    need: ["transports.streamableHttp", "authorization.oauth"],
    compare: ["cline", "zed"],
  };
  const clients = sites.generated.api.clients.map((c) => c.id);
  sites.generated.pick = {
    need: ["transports.streamableHttp", "authorization.oauth"],
    compare: [clients[0], clients[5]],
  };
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const site of Object.values(sites)) await site.server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh page of `site` at `route`; its problems recorded. */
async function open(site, route, { width = 1280, colorScheme = "light", ...options } = {}) {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    colorScheme,
    ...options,
  });
  const { page, problems } = await watchedPage(context, site.server.origin);
  await page.goto(site.server.origin + route, { waitUntil: "load" });
  return { page, problems, context, close: () => context.close() };
}

/** The capabilities the matrix shows as rows at the newest revision (not removed by then). */
function currentCapabilities(api) {
  const newest = api.specVersions.at(-1)?.id ?? "";
  return api.capabilities.filter((c) => !c.removed || c.removed > newest);
}

const status = (api, client, capability) => api.support[client]?.[capability]?.status ?? "unknown";

/** The client ids of the matrix's columns that show, in order. */
const shownColumns = (page) =>
  page.$$eval("table.matrix thead th[data-client]", (ths) =>
    ths.filter((th) => !th.hidden && th.getClientRects().length).map((th) => th.dataset.client)
  );

/** The capability ids of the matrix's rows that show. */
const shownRows = (page) =>
  page.$$eval("table.matrix tbody tr[data-capability]", (trs) =>
    trs.filter((tr) => tr.getClientRects().length).map((tr) => tr.dataset.capability)
  );

/** Opens a picker and ticks the boxes of `values`, finding each by typing in its search box. */
async function pick(page, which, values) {
  const picker = page.locator(`#pick-${which}`);
  await picker.locator("summary").click();
  for (const value of values) {
    const box = picker.locator(`input[value="${value}"]`);
    const name = await box.evaluate((b) => b.closest("label").textContent.trim());
    await picker.locator("input[type=search]").fill(name.split(" ")[0].toLowerCase());
    await box.check();
  }
  await picker.locator("summary").click();
}

for (const name of ["bundled", "generated"]) {
  describe(`the ${name} site`, () => {
    test("the home page is light: ≤ 400 KB of HTML (< 1 MB at 40 clients), evidence loaded on demand", () => {
      const site = sites[name];
      const bytes = statSync(path.join(site.dir, "index.html")).size;
      const clients = site.api.clients.length;
      if (name === "bundled") {
        // The home matrix shows the clients with research behind them (the ones known only
        // from vendors' self-reports are on the clients page): the budget of the generated
        // site, 1 MB at 40 clients, per column shown.
        const html = readFileSync(path.join(site.dir, "index.html"), "utf8");
        const shown = new Set([...html.matchAll(/data-client="([^"]+)"/g)].map((m) => m[1])).size;
        assert.ok(clients >= 13 && shown >= 13 && shown < clients, `${shown} of ${clients} clients`);
        assert.ok(bytes <= shown * 25 * 1024, `home page is ${bytes} bytes at ${shown} clients`);
      } else {
        assert.equal(clients, 40);
        assert.ok(bytes < 1024 * 1024, `home page is ${bytes} bytes at 40 clients`);
      }
      const html = readFileSync(path.join(site.dir, "index.html"), "utf8");
      const panels = html.match(/class="cell-panel"/g) || [];
      assert.ok(panels.length <= 1, `${panels.length} cell panels written into the home page`);
    });

    test("which clients support all of the capabilities picked: yes, or partly, in a shareable URL", async () => {
      const site = sites[name];
      const { need } = site.pick;
      const expected = site.api.clients
        .map((c) => c.id)
        .filter((c) => need.every((cap) => ["yes", "partial"].includes(status(site.api, c, cap))));
      const partly = expected.filter((c) => need.some((cap) => status(site.api, c, cap) === "partial"));
      for (const v of VIEWS) {
        const { page, problems, close } = await open(site, "/", v);
        await pick(page, "need", need);
        assert.deepEqual(new Set(await shownColumns(page)), new Set(expected), view(v));
        assert.deepEqual(new Set(await shownRows(page)), new Set(need), view(v));
        const answer = page.locator("#answer");
        await answer.waitFor({ state: "visible" });
        const text = await answer.textContent();
        // Of the clients the matrix shows (those known only from self-reports are not in it).
        const columns = await page.locator("table.matrix thead th[data-client]").count();
        const says = expected.length ? `${expected.length} of ${columns} clients` : "No client is known to support";
        assert.match(text, new RegExp(says), `${view(v)}: ${text}`);
        const marked = await answer.locator(".answer-partial a").evaluateAll((as) => as.map((a) => a.textContent));
        const title = (id) => site.api.clients.find((c) => c.id === id).title;
        assert.deepEqual(new Set(marked), new Set(partly.map(title)), `${view(v)}: partial marked as such`);
        const url = new URL(page.url());
        assert.deepEqual(url.searchParams.get("need").split(",").sort(), [...need].sort());
        // The URL, opened afresh, gives the same answer.
        const shared = await open(site, url.pathname + url.search, v);
        assert.equal(await shared.page.locator("#answer").textContent(), text, `${view(v)}: shared URL`);
        assert.deepEqual(new Set(await shownColumns(shared.page)), new Set(expected));
        assert.deepEqual([...problems, ...shared.problems], []);
        await shared.close();
        await close();
      }
    });

    test("compare any clients side by side: from the home page, a client page and a capability page", async () => {
      const site = sites[name];
      const [a, b] = site.pick.compare;
      const differ = (cap) => status(site.api, a, cap) !== status(site.api, b, cap);
      for (const v of VIEWS) {
        const { page, problems, close } = await open(site, "/", v);
        await pick(page, "compare", [a, b]);
        assert.deepEqual(new Set(await shownColumns(page)), new Set([a, b]), view(v));
        assert.deepEqual(new URL(page.url()).searchParams.get("compare").split(",").sort(), [a, b].sort());
        await page.locator("#differ-box input").check();
        const rows = await shownRows(page);
        // Every row the matrix has (the removed band's too), where the two differ.
        const expected = site.api.capabilities.map((c) => c.id).filter(differ);
        assert.deepEqual(new Set(rows), new Set(expected), `${view(v)}: only where they differ`);
        await close();

        // From a client page: compare it with another.
        const client = await open(site, `/clients/${a}`, v);
        await client.page.locator("#ask-compare").selectOption(b);
        await Promise.all([client.page.waitForURL(/compare=/), client.page.getByRole("button", { name: "Compare" }).click()]);
        await client.page.locator("#answer").waitFor({ state: "visible" });
        assert.deepEqual(new Set(await shownColumns(client.page)), new Set([a, b]), `${view(v)}: from ${a}'s page`);
        // From a capability page: which clients support it and another; and a comparison.
        const [first, second] = site.pick.need;
        const capability = await open(site, `/capabilities/${first}`, v);
        await capability.page.locator("#ask-need").selectOption(second);
        await Promise.all([capability.page.waitForURL(/need=/), capability.page.getByRole("button", { name: "Find clients" }).click()]);
        await capability.page.locator("#answer").waitFor({ state: "visible" });
        assert.deepEqual(new Set(await shownRows(capability.page)), new Set([first, second]));
        await capability.page.goBack();
        await capability.page.locator("#ask-compare-first").selectOption(a);
        await capability.page.locator("#ask-compare").selectOption(b);
        await Promise.all([capability.page.waitForURL(/compare=/), capability.page.getByRole("button", { name: "Compare" }).click()]);
        await capability.page.locator("#answer").waitFor({ state: "visible" });
        assert.deepEqual(new Set(await shownColumns(capability.page)), new Set([a, b]));
        assert.deepEqual([...problems, ...client.problems, ...capability.problems], []);
        await client.close();
        await capability.close();
      }
    });

    test("the most researched clients and groups come first; coverage bars carry their number and a legend", async () => {
      const site = sites[name];
      const rows = currentCapabilities(site.api);
      const known = (client) => rows.filter((c) => status(site.api, client, c.id) !== "unknown").length;
      for (const v of VIEWS) {
        const { page, close } = await open(site, "/", v);
        const columns = await shownColumns(page);
        const counts = columns.map(known);
        // Research first (cells resting on more than a vendor's self-report), then all known.
        const researched = (client) =>
          rows.filter((c) => status(site.api, client, c.id) !== "unknown" && site.api.support[client][c.id].evidence.method !== "reported").length;
        const keys = columns.map((c) => [researched(c), known(c)]);
        const sorted = [...keys].sort((x, y) => y[0] - x[0] || y[1] - x[1]);
        assert.deepEqual(keys, sorted, `${view(v)}: columns by researched cells`);
        const numbers = await page.$$eval("thead th[data-client] .coverage-count", (els) =>
          els.map((el) => (el.getClientRects().length ? Number(el.textContent) : null))
        );
        assert.deepEqual(numbers, counts, `${view(v)}: the number under each bar`);
        // The first group is one with the most researched cells.
        const group = await page.locator("table.matrix tbody[data-group]:not([hidden])").first().getAttribute("data-group");
        const byGroup = (g) =>
          rows.filter((c) => c.group === g).reduce((n, c) => n + columns.filter((cl) => status(site.api, cl, c.id) !== "unknown").length, 0);
        const best = Math.max(...site.api.groups.map((g) => byGroup(g.id)));
        assert.equal(byGroup(group), best, `${view(v)}: ${group} first`);
        assert.ok(await page.locator(".legend-coverage").isVisible(), "the coverage bars have a legend");
        await close();
      }
    });

    test("an unknown cell shows a mark and a tooltip saying no one has checked", async () => {
      const site = sites[name];
      for (const v of VIEWS) {
        const { page, close } = await open(site, "/", v);
        const unknown = await page.$$eval("table.matrix td.cell[data-status=unknown] a", (as) =>
          as.map((a) => {
            const mark = a.querySelector(".mark");
            const style = getComputedStyle(mark);
            return { text: mark.textContent.trim(), opacity: Number(style.opacity), title: a.title };
          })
        );
        assert.ok(unknown.length > 0);
        for (const cell of unknown) {
          assert.equal(cell.text, "?", view(v));
          assert.ok(cell.opacity >= 0.4, `${view(v)}: the mark is visible (${cell.opacity})`);
          // Why it is unknown: site.yaml's unknownReasons (or "no one has checked yet").
          assert.match(cell.title, UNKNOWN_WHY);
        }
        await close();
      }
    });

    test("each cell says how it was checked, as api/matrix.json does: a mark, the panel and a filter", async () => {
      const site = sites[name];
      const letter = { source: "S", docs: "D", observed: "O", reported: "R", none: "" };
      for (const v of VIEWS) {
        const { page, problems, close } = await open(site, "/", v);
        const cells = await page.$$eval("table.matrix tbody tr[data-capability] td.cell", (tds) =>
          tds.map((td) => ({
            client: td.dataset.client,
            capability: td.parentElement.dataset.capability,
            evidence: td.dataset.evidence,
            status: td.dataset.status,
            // The letter, without its (empty) text alternative: `"S" / ""`.
            mark: (/^"([^"]*)"/.exec(getComputedStyle(td.querySelector("a"), "::after").content) || ["", ""])[1],
          }))
        );
        for (const cell of cells) {
          const method = site.api.support[cell.client][cell.capability].evidence.method;
          assert.equal(cell.evidence, method, `${cell.client} ${cell.capability}`);
          if (cell.status !== "unknown") assert.equal(cell.mark, letter[method], `${view(v)}: ${cell.client} ${cell.capability}`);
        }
        // The panel says it in words.
        const known = cells.find((c) => c.status !== "unknown" && c.evidence !== "none");
        await page.locator(`tr[data-capability="${known.capability}"] td[data-client="${known.client}"] a`).click();
        await page.locator("#cell-panel .checked").waitFor({ state: "visible" });
        assert.match(await page.locator("#cell-panel .checked").textContent(), /^Checked: /);
        await page.keyboard.press("Escape");
        // The filter keeps only the cells checked that way.
        const box = page.locator("#filters-box");
        await box.locator(":scope > summary").click();
        for (const m of ["source", "docs", "reported", "none"]) {
          const input = page.locator(`input[name=evidence][value=${m}]`);
          if (await input.count()) await input.uncheck();
        }
        const kept = await page.$$eval("table.matrix td.cell:not(.dim)", (tds) =>
          tds.filter((td) => td.getClientRects().length).map((td) => td.dataset.evidence)
        );
        assert.ok(kept.every((e) => e === "observed"), `${view(v)}: ${[...new Set(kept)]}`);
        assert.deepEqual(problems, []);
        await close();
      }
    });

    test("a cell's panel loads its evidence on demand and offers its badge to copy", async () => {
      const site = sites[name];
      const base = site.api.url.replace(/\/$/, "");
      for (const v of VIEWS) {
        const { page, problems, context, close } = await open(site, "/", v);
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.server.origin });
        const cell = page.locator("table.matrix td.cell:not(.cell-unknown)").first();
        const client = await cell.getAttribute("data-client");
        const capability = await cell.evaluate((td) => td.parentElement.dataset.capability);
        const fetched = page.waitForRequest((r) => new URL(r.url()).pathname === `/clients/${client}`);
        await cell.locator("a").click();
        await fetched;
        const panel = page.locator("#cell-panel");
        await panel.locator(".panel-evidence").waitFor({ state: "visible" });
        assert.equal(new URL(page.url()).hash, `#cell-${client}--${capability}`);
        const title = site.api.clients.find((c) => c.id === client).title;
        const capTitle = site.api.capabilities.find((c) => c.id === capability).title;
        const cellStatus = status(site.api, client, capability);
        const code = await panel.locator("textarea.shield-code").inputValue();
        assert.equal(
          code,
          `[![${title} ${capTitle}: ${cellStatus}](${base}/badges/${client}/${capability}.svg)](${base}/clients/${client}#support-${capability})`
        );
        assert.equal(await panel.locator('[data-slot="client-badge"]').getAttribute("href"), `${base}/badges/${client}.svg`);
        // The badge tooling is behind one summary, folded.
        assert.equal(await panel.getByRole("button", { name: "Copy" }).isVisible(), false);
        await panel.locator(".shield-snippet > summary").click();
        await panel.getByRole("button", { name: "Copy" }).click();
        await panel.locator(".copy-status").filter({ hasText: "Copied." }).waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
        await page.keyboard.press("Escape");
        assert.equal(await panel.isVisible(), false);
        assert.equal(await page.evaluate(() => document.activeElement.closest("td")?.dataset.client), client, "focus back on the cell");
        assert.deepEqual(problems, []);
        await close();
      }
    });

    test("the matrix is one tab stop; the arrow keys move between the cells shown", async () => {
      const site = sites[name];
      for (const v of VIEWS) {
        const { page, close } = await open(site, "/", v);
        const stops = () =>
          page.evaluate(() => {
            const region = document.querySelector(".matrix-scroll");
            return Array.from(region.querySelectorAll("a, button, input, [tabindex]"))
              .concat(region.tabIndex >= 0 ? [region] : [])
              .filter((el) => el.tabIndex >= 0 && el.getClientRects().length).length;
          });
        assert.equal(await page.locator("table.matrix").getAttribute("role"), "grid");
        // The scroll box is no stop of its own; the links leave the tab order when focus first
        // enters (not on load, which would touch every cell).
        assert.equal(await page.locator(".matrix-scroll").getAttribute("tabindex"), null);
        // Tab into the matrix from the element before it.
        await page.locator("#matrix-count").evaluate((el) => {
          el.tabIndex = -1;
          el.focus();
        });
        await page.keyboard.press("Tab");
        assert.equal(await page.evaluate(() => document.activeElement.closest("th")?.dataset.client), await page.locator("table.matrix thead th[data-client]").first().getAttribute("data-client"), "Tab lands on the first client");
        assert.equal(await stops(), 1, `${view(v)}: ${await stops()} tab stops in the matrix`);
        const at = () =>
          page.evaluate(() => {
            const cell = document.activeElement.closest("td, th");
            const row = cell.parentElement;
            return { row: row.dataset.capability || row.parentElement.tagName, column: row.cells ? Array.prototype.indexOf.call(row.cells, cell) : -1 };
          });
        const start = await at();
        assert.ok(start.row, "focus is in the matrix");
        const rows = await shownRows(page);
        await page.keyboard.press("ArrowRight");
        assert.deepEqual(await at(), { ...start, column: start.column + 1 });
        await page.keyboard.press("ArrowDown");
        const down = await at();
        assert.equal(down.row, rows[rows.indexOf(start.row) + 1]);
        await page.keyboard.press("End");
        assert.equal((await at()).column, (await shownColumns(page)).length);
        await page.keyboard.press("Home");
        assert.equal((await at()).column, 0);
        // Hidden columns are skipped: compare two clients, and the right arrow goes from one to the other.
        await pick(page, "compare", site.pick.compare);
        await page.locator("table.matrix tbody tr[data-capability]:not([hidden]) th[scope=row] a").first().focus();
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        const columns = await shownColumns(page);
        assert.deepEqual(new Set(columns), new Set(site.pick.compare));
        assert.equal(await page.evaluate(() => document.activeElement.closest("td").dataset.client), columns[1]);
        await page.keyboard.press("Tab");
        assert.equal(await page.evaluate(() => !!document.activeElement.closest(".matrix-scroll")), false, "Tab leaves the matrix");
        assert.equal(await stops(), 1, "still one stop, with the filters' hidden cells shown again");
        // Back in with Shift+Tab: at the cell last visited, and Shift+Tab leaves again.
        await page.keyboard.press("Shift+Tab");
        assert.equal(await page.evaluate(() => document.activeElement.closest("td")?.dataset.client), columns[1]);
        await page.keyboard.press("Shift+Tab");
        assert.equal(await page.evaluate(() => !!document.activeElement.closest(".matrix-scroll")), false, "Shift+Tab leaves the matrix");
        await close();
      }
    });

    test("printing prints the whole matrix: every row and every column", async () => {
      const site = sites[name];
      for (const colorScheme of ["light", "dark"]) {
        // A4 landscape's printable width at 96 dpi, less the margins.
        const { page, close } = await open(site, "/", { width: 1047, colorScheme });
        await page.emulateMedia({ media: "print", colorScheme });
        const cut = await page.evaluate(() => {
          const box = document.querySelector(".matrix-scroll");
          const edge = box.getBoundingClientRect();
          const rows = [...box.querySelectorAll("tbody tr[data-capability]")].filter((r) => !r.hidden);
          const outside = rows.filter((r) => r.getBoundingClientRect().bottom > edge.bottom + 1).length;
          return { rows: rows.length, outside, wide: box.scrollWidth - box.clientWidth, page: document.documentElement.scrollWidth - innerWidth };
        });
        assert.equal(cut.outside, 0, `${colorScheme}: ${cut.outside} of ${cut.rows} rows cut off`);
        assert.ok(cut.wide <= 0 && cut.page <= 0, `${colorScheme}: columns cut off (${cut.wide}, ${cut.page} px)`);
        const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
        const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length;
        assert.ok(pages >= 1 && pages <= 12, `${pages} pages`);
        await close();
      }
    });

    test("without JavaScript the matrix reads as a plain table, each cell leading to its evidence", async () => {
      const site = sites[name];
      const { page, close } = await open(site, "/", { javaScriptEnabled: false, width: 390 });
      assert.ok(await page.locator("table.matrix").isVisible());
      const marks = await page.$$eval("td.cell-unknown .mark", (ms) => ms.map((m) => m.textContent));
      assert.ok(marks.length && marks.every((m) => m === "?"), "unknown cells show their mark");
      const link = page.locator("table.matrix td.cell:not(.cell-unknown) a").first();
      const href = await link.getAttribute("href");
      await link.click();
      await page.waitForURL((u) => u.pathname !== "/");
      const anchor = decodeURIComponent(new URL(href, site.server.origin).hash.slice(1));
      const row = page.locator(`[id="${anchor}"]`);
      assert.ok(await row.isVisible(), `${href} lands on the cell's evidence`);
      assert.match(await row.textContent(), /yes|partial|no/);
      await close();
    });
  });
}

describe("every route is styled with or without a closing slash", () => {
  const routes = ["/clients/cline", "/capabilities/transports.sse", "/research", "/clients"];
  /* The theme's stylesheet took: the body lost the browser's default margin. */
  const styled = (page) => page.evaluate(() => getComputedStyle(document.body).margin === "0px");

  for (const [host, options] of [
    ["a host that serves a page at its address with a slash added", { slash: true }],
    ["a plain static host (its 404 page for the slashed address)", {}],
  ]) {
    test(host, async () => {
      const server = await serve(siteDir, options);
      try {
        for (const v of VIEWS) {
          for (const route of routes) {
            const context = await browser.newContext({ viewport: { width: v.width, height: 900 }, colorScheme: v.colorScheme });
            const { page, problems } = await watchedPage(context, server.origin);
            await page.goto(server.origin + route + "/", { waitUntil: "load" });
            await page.waitForURL((u) => !u.pathname.endsWith("/"));
            await page.waitForLoadState("load");
            const plain = await page.evaluate(() => ({
              h1: document.querySelector("h1")?.textContent,
              sheets: [...document.styleSheets].filter((s) => {
                try {
                  return s.cssRules.length > 0;
                } catch {
                  return false;
                }
              }).length,
            }));
            assert.notEqual(plain.h1, "Page not found", `${view(v)}: ${route}/`);
            assert.ok(plain.sheets > 0 && (await styled(page)), `${view(v)}: ${route}/ is unstyled`);
            // The browser's preload scanner asks for the stylesheets at the slashed address
            // before the page's first script puts the address right (a plain host answers
            // with its 404 page first): those requests fail, and nothing else may.
            assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
            await context.close();
          }
        }
      } finally {
        await server.close();
      }
    });
  }
});
