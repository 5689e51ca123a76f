// The built example site in headless Chromium: the matrix and its filters, search, pinned
// sources, a crawl of every page and anchor, console errors, requests that leave the site,
// axe-core, and screenshots at 1280 and 360 px (written under target/browser-screenshots/).
//
// Run: `cargo run -- build --out target/site && node --test tests/browser/`
// (with `npm ci` in tests/browser first). SITE_DIR names another built site.

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import {
  axeSource,
  builtRoutes,
  contentIds,
  ensureBuilt,
  frontMatter,
  launch,
  serve,
  shotsDir,
  watchedPage,
} from "./support.js";

const HERMES = "hermes-defaults-a-url-server-to-streamable-http";

/** The pages axe checks and the screenshots show: the home page, a note, a client, a capability. */
const KEY_PAGES = {
  home: "/",
  note: `/research/${HERMES}`,
  client: "/clients/cline",
  capability: "/capabilities/transports.streamableHttp",
};

let server;
let browser;

before(async () => {
  ensureBuilt();
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh page at `route`, with its problems recorded. */
async function open(route, options = {}) {
  const context = await browser.newContext(options);
  const { page, problems } = await watchedPage(context, server.origin);
  const response = await page.goto(server.origin + route, { waitUntil: "load" });
  return { page, problems, response, close: () => context.close() };
}

describe("the matrix", () => {
  test("has one cell per capability and client, and says unknown plainly", async () => {
    const { page, close } = await open("/");
    const capabilities = contentIds("capabilities");
    const clients = contentIds("clients");
    // Clients known only from vendors' self-reports are on the clients page, not the matrix.
    const shown = await page.locator("table.matrix thead th[data-client]").count();
    assert.ok(shown >= 13 && shown <= clients.length, `${shown} of ${clients.length} clients shown`);
    assert.equal(await page.locator("table.matrix td.cell").count(), capabilities.length * shown);
    const unknown = page.locator("table.matrix td.cell-unknown a").first();
    assert.equal(await unknown.textContent(), "?");
    // Unknown, and why, in the words of site.yaml's unknownReasons.
    assert.match(
      await unknown.getAttribute("title"),
      /: unknown, (no one has checked yet|not researched yet|docs silent|closed source, docs silent|source inconclusive|observation inconclusive|not observable here)$/i,
    );
    await close();
  });

  test("filters hide what they should", async () => {
    const { page, problems, close } = await open("/");
    await page.locator("#filters-box > summary").click();
    const rows = page.locator("table.matrix tbody tr[data-capability]");
    const visibleRows = () => rows.filter({ visible: true });
    const transports = contentIds("capabilities").filter((id) =>
      /^group:\s*transports\s*$/m.test(frontMatter(`content/capabilities/${id}.md`))
    );
    assert.ok(transports.length > 0);

    await page.selectOption("#filter-group", "transports");
    assert.equal(await visibleRows().count(), transports.length);
    const shown = await visibleRows().evaluateAll((trs) => trs.map((tr) => tr.dataset.capability).sort());
    assert.deepEqual(shown, transports);
    assert.match(await page.locator("#matrix-count").textContent(), new RegExp(`Showing ${transports.length} of`));
    assert.match(page.url(), /group=transports/);

    await page.locator(".filter-clients summary").click();
    await page.locator('input[name="client"][value="cline"]').uncheck();
    assert.equal(await page.locator('table.matrix [data-client="cline"]').filter({ visible: true }).count(), 0);
    assert.ok((await page.locator('table.matrix [data-client="hermes-agent"]').filter({ visible: true }).count()) > 0);

    await page.getByRole("button", { name: "Show all" }).click();
    await page.waitForFunction(() => !document.querySelector('td[data-client="cline"]').hidden);
    assert.equal(await visibleRows().count(), contentIds("capabilities").length);

    // Only "no": a row stays when one of its cells says no.
    for (const status of ["yes", "partial", "unknown"]) {
      await page.locator(`input[name="status"][value="${status}"]`).uncheck();
    }
    const withNo = await rows.evaluateAll(
      (trs) => trs.filter((tr) => tr.querySelector('td[data-status="no"]')).length
    );
    assert.ok(withNo > 0);
    assert.equal(await visibleRows().count(), withNo);
    assert.deepEqual(problems, []);
    await close();
  });

  test("the evidence filter keeps the cells checked the way it asks, in the address", async () => {
    const { page, problems, close } = await open("/");
    await page.locator("#filters-box > summary").click();
    const rows = page.locator("table.matrix tbody tr[data-capability]");
    const visibleRows = () => rows.filter({ visible: true });
    // Only cells read in source at a commit: a row stays when one of its cells was.
    for (const method of ["observed", "docs", "reported", "none"]) {
      const input = page.locator(`input[name="evidence"][value="${method}"]`);
      if (await input.count()) await input.uncheck();
    }
    const fromSource = await rows.evaluateAll(
      (trs) => trs.filter((tr) => tr.querySelector('td[data-evidence="source"]')).length
    );
    assert.ok(fromSource > 0);
    assert.equal(await visibleRows().count(), fromSource);
    assert.equal(await page.locator('td[data-evidence="none"]:not(.dim)').count(), 0);
    assert.match(page.url(), /evidence=source/);
    // The panel says how its cell was checked.
    await page.locator('tr[data-capability="transports.sse"] td[data-client="cline"] a').click();
    await page.locator("#cell-panel .checked").waitFor();
    assert.match(await page.locator("#cell-panel .checked").textContent(), /Checked: read in source at commit/);
    assert.deepEqual(problems, []);
    await close();
  });

  test("a cell opens its evidence: notes, sources, last verified", async () => {
    const { page, problems, close } = await open("/");
    const cell = page.locator('tr[data-capability="transports.sse"] td[data-client="cline"] a');
    await cell.click();
    const panel = page.locator("#cell-panel");
    await panel.locator(".panel-evidence").waitFor({ state: "visible" });
    assert.match(await panel.textContent(), /Last verified/);
    assert.ok((await panel.locator('a[href*="github.com/cline/cline/blob/"]').count()) > 0);
    assert.ok((await panel.locator('a[href="/research/cline-defaults-a-url-server-to-sse"]').count()) > 0);
    assert.ok(page.url().endsWith("#cell-cline--transports.sse"));
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "hidden" });
    assert.deepEqual(problems, []);
    await close();
  });

  test("a malformed #cell- address or link opens nothing and throws nothing", async () => {
    // Not percent-decodable; a bare %; an id no CSS selector could hold; a panel's id gone wrong.
    const hashes = ["#cell-%E0%A4%A", "#cell-%", '#cell-a"]>x', "#cell-cline--transports.sse%"];
    for (const hash of hashes) {
      const { page, problems, close } = await open("/" + hash);
      assert.equal(await page.locator(".cell-panel.open").count(), 0, hash);
      await page.evaluate((href) => {
        const link = document.createElement("a");
        link.href = href;
        link.textContent = "malformed";
        document.querySelector("main").append(link);
        link.click();
      }, hash);
      assert.equal(await page.locator(".cell-panel.open").count(), 0, hash);
      assert.deepEqual(problems, [], hash);
      await close();
    }
  });

  test("the revision selector shows each capability's state at that revision", async () => {
    const { page, problems, close } = await open("/");
    await page.locator("#filters-box > summary").click();
    const revisions = await page.locator("#filter-revision option").evaluateAll((os) => os.map((o) => o.value));
    assert.ok(revisions.length >= 2);
    const [current, previous] = revisions;
    assert.equal(await page.locator("#filter-revision").inputValue(), current);
    // At the newest revision a removed capability sits in the removed band, tagged.
    const removed = await page.locator("tbody[data-removed-band] tr[data-capability]").evaluateAll((trs) =>
      trs.map((tr) => [tr.dataset.capability, tr.dataset.removed])
    );
    assert.ok(removed.length > 0, "the bundled site has capabilities the newest revision removed");
    for (const [, at] of removed) assert.equal(at, current);
    const [id] = removed[0];
    const row = page.locator(`tr[data-capability="${id}"]`);
    assert.ok(await row.locator(".tag-removed").isVisible());
    // At the revision before, it is back in its group, untagged; what that revision did not
    // have yet is hidden.
    await page.selectOption("#filter-revision", previous);
    const group = await row.getAttribute("data-group");
    assert.equal(await row.evaluate((tr) => tr.parentElement.dataset.group), group);
    assert.ok(!(await row.locator(".tag-removed").isVisible()));
    const introduced = page.locator(`tbody tr[data-capability]:not([data-revisions~="${previous}"]):not([data-removed])`);
    assert.ok((await introduced.count()) > 0);
    assert.equal(await introduced.filter({ visible: true }).count(), 0);
    assert.match(page.url(), new RegExp(`revision=${previous}`));
    await page.selectOption("#filter-revision", current);
    assert.equal(await row.evaluate((tr) => tr.parentElement.hasAttribute("data-removed-band")), true);
    assert.ok(!page.url().includes("revision="));
    assert.deepEqual(problems, []);
    await close();
  });

  test("a spec revision shows what each client supports of it", async () => {
    const { page, close } = await open("/spec/2025-11-25");
    const cells = await page.locator("table.matrix td.cell").count();
    // The clients with research behind them, as on the home page; the rest are named after it.
    const columns = await page.locator("table.matrix thead th[data-client]").count();
    assert.ok(columns > 0 && columns <= contentIds("clients").length);
    assert.ok(cells > 0 && cells % columns === 0);
    await close();
  });
});

describe("search", () => {
  test('"/" focuses search, and typing "streamable" finds the Hermes note', async () => {
    const { page, problems, close } = await open("/clients");
    const title = /^title:\s*(.+)$/m.exec(frontMatter(`content/research/${HERMES}.md`))[1].trim();
    await page.keyboard.press("/");
    assert.equal(await page.evaluate(() => document.activeElement.id), "search-input");
    await page.keyboard.type("streamable", { delay: 30 });
    const hit = page.locator("#search-list a", { hasText: title });
    await hit.waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(await hit.getAttribute("href"), `/research/${HERMES}`);
    assert.match(await page.locator("#search-status").textContent(), /result/);
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => document.activeElement.closest("#search-list") !== null), true);
    assert.deepEqual(problems, []);
    await close();
  });
});

describe("search results that change under the reader", () => {
  test("keep the keyboard focus in the list when they are listed anew", async () => {
    const { page, problems, close } = await open("/clients");
    await page.keyboard.press("/");
    await page.keyboard.type("streamable", { delay: 30 });
    await page.locator("#search-list a").first().waitFor({ state: "visible", timeout: 10_000 });
    await page.keyboard.press("ArrowDown");
    const inList = () => page.evaluate(() => document.activeElement.closest("#search-list") !== null);
    assert.equal(await inList(), true);
    // Results for a longer query arrive while the focus is on a result.
    await page.evaluate(() => {
      document.querySelector("#search-list").firstElementChild.dataset.old = "yes";
      const input = document.querySelector("#search-input");
      input.value = "streamable http";
      input.dispatchEvent(new Event("input"));
    });
    await page.waitForFunction(
      () => document.querySelector("#search-list").firstElementChild?.dataset.old !== "yes",
      null,
      { timeout: 10_000 },
    );
    assert.equal(await inList(), true);
    assert.deepEqual(problems, []);
    await close();
  });
});

describe("a note page", () => {
  test("links its sources at the pinned commits and line ranges", async () => {
    const { page, close } = await open(`/research/${HERMES}`);
    const front = frontMatter(`content/research/${HERMES}.md`);
    const sources = [...front.matchAll(/- url: (\S+)[\s\S]*?commit: (\S+)\s+path: (\S+)/g)];
    assert.ok(sources.length > 0);
    const section = page.locator("section:has(#sources), section:has(#pinned-sources)");
    for (const [, url, commit, spec] of sources) {
      const [file, ranges] = spec.split(":");
      for (const range of ranges.split(",")) {
        const [from, to] = range.split("-");
        const href = `${url}/blob/${commit}/${file}#L${from}${to ? `-L${to}` : ""}`;
        assert.equal(await section.locator(`a[href="${href}"]`).count(), 1, href);
      }
    }
    const commits = sources.map(([, , commit]) => commit);
    const blobs = await section.locator('a[href*="/blob/"]').evaluateAll((as) => as.map((a) => a.href));
    assert.ok(blobs.length > 0);
    for (const href of blobs) {
      assert.ok(commits.some((c) => href.includes(`/blob/${c}/`)), `${href} is not pinned to a source's commit`);
    }
    await close();
  });
});

describe("a crawl from the home page", () => {
  /** route → { status, ids, links, problems } for every page reached. */
  const pages = new Map();
  /** Files that are not pages (feeds, Markdown, data) → HTTP status. */
  const files = new Map();
  /** [from, route, anchor] of every same-site link with an anchor. */
  const anchors = [];

  before(async () => {
    const context = await browser.newContext();
    const queue = ["/"];
    const seen = new Set(queue);
    while (queue.length) {
      const route = queue.shift();
      const { page, problems } = await watchedPage(context, server.origin);
      const response = await page.goto(server.origin + route, { waitUntil: "load" });
      const found = await page.evaluate(() => ({
        ids: Array.from(document.querySelectorAll("[id], a[name]"), (e) => e.id || e.getAttribute("name")),
        links: Array.from(document.querySelectorAll("a[href], link[href]"), (a) => a.href),
      }));
      pages.set(route, { status: response.status(), ids: new Set(found.ids), problems });
      await page.close();
      for (const link of found.links) {
        const url = new URL(link);
        if (url.origin !== server.origin) continue;
        const target = url.pathname;
        if (url.hash) anchors.push([route, target, decodeURIComponent(url.hash.slice(1))]);
        if (/\.(md|xml|json|txt|css|js|png|svg|ico)$/.test(target)) {
          if (!files.has(target)) files.set(target, (await fetch(server.origin + target)).status);
        } else if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    await context.close();
  });

  test("reaches every page of the site", () => {
    const reached = [...pages.keys()].sort();
    assert.deepEqual(reached.filter((r) => !builtRoutes().includes(r)), [], "links to pages that do not exist");
    assert.deepEqual(builtRoutes().filter((r) => !pages.has(r)), [], "pages no link reaches");
    for (const [route, { status }] of pages) assert.equal(status, 200, route);
  });

  test("every internal link and #anchor resolves", () => {
    for (const [file, status] of files) assert.equal(status, 200, file);
    const missing = anchors.filter(([, route, anchor]) => {
      const target = pages.get(route);
      return target && !target.ids.has(anchor);
    });
    assert.deepEqual(missing, []);
  });

  test("no page logs a console error or requests anything from another site", () => {
    const problems = [...pages].flatMap(([route, page]) => page.problems.map((p) => `${route}: ${p}`));
    assert.deepEqual(problems, []);
  });
});

describe("accessibility and looks", () => {
  for (const [name, route] of Object.entries(KEY_PAGES)) {
    test(`axe finds no serious or critical violation on the ${name} page, light and dark`, async () => {
      for (const colorScheme of ["light", "dark"]) {
        const { page, close } = await open(route, { colorScheme });
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run(document, { resultTypes: ["violations"] });
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
        });
        assert.deepEqual(violations, [], `${colorScheme}: ${violations.join("\n")}`);
        await close();
      }
    });

    test(`the ${name} page fits 360 px and is screenshot at 1280 and 360 px`, async () => {
      mkdirSync(shotsDir, { recursive: true });
      for (const width of [1280, 360]) {
        const { page, problems, close } = await open(route, { viewport: { width, height: 900 } });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${route} is ${overflow}px wider than ${width}px`);
        await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
        assert.deepEqual(problems, []);
        await close();
      }
    });
  }
});
