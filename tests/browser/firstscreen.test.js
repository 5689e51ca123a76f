// The answer on the first screen, and nothing moving while a page loads (issue 46): for one
// page of each kind (firstscreen.js), at 1280×800 and 390×844, where the first answer row is,
// how long the page is, its layout shift, its stylesheets and axe's default rules; then what
// makes the pages short (each piece of evidence and each transcript line printed once, long
// detail folded) and the header search.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  PAGES,
  SCREENS,
  answerTop,
  axeViolations,
  headerBottom,
  layoutShift,
  pageHeight,
  stylesheets,
  watchShifts,
} from "./firstscreen.js";
import { ensureBuilt, launch, serve, watchedPage } from "./support.js";

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

/** `route` at `screen`, layout shifts counted from the start. */
async function open(route, screen = "desktop", options = {}) {
  const context = await browser.newContext({ ...SCREENS[screen], ...options });
  const { page, problems } = await watchedPage(context, server.origin);
  if (options.javaScriptEnabled !== false) await watchShifts(page);
  await page.goto(server.origin + route, { waitUntil: "load" });
  return { page, problems, close: () => context.close() };
}

/** Where the first answer row must start at most, per page kind and screen (desktop: the
    issue's bounds; phone: inside the first screen, the whole row visible). */
const ANSWER_BY = {
  desktop: { home: 600, client: 450, capability: 450 },
  phone: { home: 844 - 40, client: 844 - 40, capability: 844 - 40 },
};

for (const [screen, options] of Object.entries(SCREENS)) {
  describe(`every kind of page at ${options.viewport.width}×${options.viewport.height}`, () => {
    for (const [kind, { route, answer }] of Object.entries(PAGES)) {
      test(`${kind}: no layout shift, one stylesheet, no axe violation, the answer where it belongs`, async () => {
        const { page, problems, close } = await open(route, screen);
        const { cls, shifts } = await layoutShift(page);
        assert.ok(cls <= 0.02, `CLS ${cls}: ${JSON.stringify(shifts)}`);
        assert.equal(await stylesheets(page), 1);
        const top = await answerTop(page, answer);
        assert.notEqual(top, null, `${answer} on ${route}`);
        const bound = ANSWER_BY[screen][kind];
        if (bound) assert.ok(top <= bound, `${kind}: first answer row at y=${top}, above ${bound} wanted`);
        assert.ok(top > (await headerBottom(page)), "the answer is below the header, not under it");
        assert.deepEqual(await axeViolations(page), []);
        assert.deepEqual(problems, []);
        await close();
      });
    }
  });
}

describe("short pages", () => {
  test("the client page: ≤ 5,000 px at 1280, ≤ 12 phone screens", async () => {
    for (const [screen, most] of [["desktop", 5000], ["phone", 12 * 844]]) {
      const { page, close } = await open(PAGES.client.route, screen);
      const height = await pageHeight(page);
      assert.ok(height <= most, `${screen}: ${height} px`);
      await close();
    }
  });

  test("a client's evidence is printed once, each piece referenced from the rows that use it", async () => {
    const { page, close } = await open(PAGES.client.route);
    const list = await page.evaluate(() => {
      const items = Array.from(document.querySelectorAll(".evidence-list > li"));
      const refs = Array.from(document.querySelectorAll("table.support a.ref"));
      const keyOf = (li) => (li.querySelector("a") || li).getAttribute("href") + " " + li.querySelector(".source-meta")?.textContent;
      return {
        items: items.length,
        distinct: new Set(items.map(keyOf)).size,
        unresolved: refs.filter((a) => !document.getElementById(a.getAttribute("href").slice(1))).length,
        uncited: items.filter((li) => !refs.some((a) => a.getAttribute("href") === "#" + li.id)).length,
        inTable: document.querySelectorAll("table.support a[href*='github.com']").length,
      };
    });
    assert.ok(list.items > 10, `${list.items} pieces of evidence`);
    assert.equal(list.distinct, list.items, "no piece listed twice");
    assert.equal(list.unresolved, 0, "every reference lands on a piece");
    assert.equal(list.uncited, 0, "every piece is referenced");
    assert.equal(list.inTable, 0, "the table carries references, not the sources themselves");
    await close();
  });

  test("a reference opens the folded evidence list at its piece, with and without a script", async () => {
    const { page, close } = await open(PAGES.client.route);
    const ref = page.locator("table.support a.ref").first();
    const target = (await ref.getAttribute("href")).slice(1);
    assert.equal(await page.locator("#evidence-fold").evaluate((d) => d.open), false);
    await ref.click();
    await page.locator(`[id="${target}"]`).waitFor({ state: "visible" });
    assert.equal(await page.locator("#evidence-fold").evaluate((d) => d.open), true);
    await close();
    const plain = await open(`${PAGES.client.route}#${target}`, "desktop", { javaScriptEnabled: false });
    // Chromium opens a fold that holds the address's target by itself; a reader elsewhere
    // opens it by its summary.
    if (!(await plain.page.locator("#evidence-fold").evaluate((d) => d.open))) {
      await plain.page.locator("#evidence-fold > summary").click();
    }
    assert.ok(await plain.page.locator(`[id="${target}"]`).isVisible());
    await plain.close();
  });

  test("an observation: results point into the transcript lines, each printed once, none a scroll box", async () => {
    const { page, close } = await open(PAGES.observation.route);
    const facts = await page.evaluate(() => {
      const lines = Array.from(document.querySelectorAll(".transcript-line[id^='line-']"));
      const refs = Array.from(document.querySelectorAll("table.observed a.ref"));
      const scrolls = Array.from(document.querySelectorAll("pre")).filter((pre) => {
        const style = getComputedStyle(pre);
        return /(auto|scroll)/.test(style.overflowX + style.overflowY) && pre.tabIndex < 0;
      });
      return {
        lines: lines.length,
        distinct: new Set(lines.map((l) => l.id)).size,
        unresolved: refs.filter((a) => !document.getElementById(a.getAttribute("href").slice(1))).length,
        refs: refs.length,
        scrolls: scrolls.length,
      };
    });
    assert.ok(facts.lines > 0 && facts.refs >= facts.lines);
    assert.equal(facts.distinct, facts.lines);
    assert.equal(facts.unresolved, 0);
    assert.equal(facts.scrolls, 0, "a pre that scrolls must take focus");
    await close();
  });
});

describe("what needs a script", () => {
  test("without one, the header search and the home page's questions are not shown", async () => {
    const { page, close } = await open("/", "desktop", { javaScriptEnabled: false });
    assert.equal(await page.locator("#site-search").isVisible(), false);
    assert.equal(await page.locator("#ask").isVisible(), false);
    assert.ok(await page.locator("table.matrix td.cell").first().isVisible());
    await close();
  });

  test("with one, Enter in the header search opens the results page", async () => {
    const { page, close } = await open("/research");
    await page.locator("#search-input").fill("streamable http");
    await page.locator("#search-input").press("Enter");
    await page.waitForURL(/\/search(\.html)?\?q=streamable\+http/);
    await page.locator("#search-page-results li").first().waitFor();
    await close();
  });

  test("search titles are plain text: a code span's backticks are not shown", async () => {
    const { page, close } = await open("/research");
    await page.locator("#search-input").fill("gemini bare url");
    const hit = page.locator("#search-list .search-title", { hasText: "Gemini CLI tries Streamable HTTP" });
    await hit.first().waitFor();
    assert.doesNotMatch(await hit.first().textContent(), /`/);
    await close();
  });
});

describe("the matrix's load stays light (issue 46: Lighthouse mobile ≥ 95 on the home page)", () => {
  test("a cell is at most a link and its mark; the page's elements stay under a bound", async () => {
    const { page, close } = await open(PAGES.home.route, "phone");
    const dom = await page.evaluate(() => {
      const cells = Array.from(document.querySelectorAll("table.matrix td.cell"));
      return {
        cells: cells.length,
        heaviest: Math.max(...cells.map((td) => td.getElementsByTagName("*").length)),
        elements: document.getElementsByTagName("*").length,
      };
    });
    assert.ok(dom.cells > 1000, `${dom.cells} cells`);
    assert.ok(dom.heaviest <= 2, `a cell holds ${dom.heaviest} elements`);
    // Today 3 per cell and some 1,100 others (head, pickers, filters, panel).
    assert.ok(dom.elements <= 3 * dom.cells + 1200, `${dom.elements} elements for ${dom.cells} cells`);
    await close();
  });

  test("the first paint waits for the whole matrix; no script touches every cell on load", async () => {
    const { page, close } = await open(PAGES.home.route, "phone");
    await page.waitForTimeout(300);
    const facts = await page.evaluate(() => {
      const expect = document.querySelector('link[rel="expect"][blocking="render"]');
      const target = expect && document.getElementById(expect.getAttribute("href").slice(1));
      const table = document.querySelector("table.matrix");
      return {
        after: !!target && !!(table.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING),
        touched: table.querySelectorAll("[tabindex]").length,
        grid: table.getAttribute("role"),
      };
    });
    assert.ok(facts.after, "rel=expect names an element after the matrix");
    assert.equal(facts.grid, "grid", "matrix.js ran");
    assert.equal(facts.touched, 0, "no cell given a tabindex before focus enters the matrix");
    await close();
  });

  test("the server sends the page gzipped, as the deploy guide asks of a host", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(server.origin + PAGES.home.route);
    assert.equal(response.headers()["content-encoding"], "gzip");
    await context.close();
  });

  test("a cell's link is named by its title (how it was checked is no name of its own)", async () => {
    const { page, close } = await open(PAGES.home.route);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("DOM.enable");
    await cdp.send("Accessibility.enable");
    for (const selector of ['td.cell[data-evidence="source"] a', 'td.cell[data-evidence="observed"] a', "td.cell-unknown a"]) {
      const link = page.locator(`table.matrix ${selector}`).first();
      const title = await link.getAttribute("title");
      const { node } = await cdp.send("DOM.describeNode", { objectId: (await cdp.send("Runtime.evaluate", { expression: `document.querySelector('table.matrix ${selector}')` })).result.objectId });
      const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { backendNodeId: node.backendNodeId, fetchRelatives: false });
      assert.equal(nodes[0].name?.value, title, selector);
      assert.ok(!nodes[0].description?.value, `${selector}: no description repeating the name`);
    }
    await close();
  });

  test("client columns share the width: the matrix fits 1280 and scrolls sideways on a phone", async () => {
    for (const [screen, fits] of [["desktop", true], ["phone", false]]) {
      const { page, close } = await open(PAGES.home.route, screen);
      const box = await page.evaluate(() => {
        const scroll = document.querySelector(".matrix-scroll");
        const widths = Array.from(document.querySelectorAll("table.matrix thead th.client"), (th) => th.getBoundingClientRect().width);
        const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
        return { over: scroll.scrollWidth - scroll.clientWidth, min: Math.min(...widths), max: Math.max(...widths), rem };
      });
      assert.ok(box.max - box.min < 1, `${screen}: columns ${box.min}–${box.max} px`);
      assert.ok(box.min >= 1.6 * box.rem - 0.5 && box.max <= 3.25 * box.rem + 0.5, `${screen}: column ${box.min} px`);
      assert.equal(box.over <= 0, fits, `${screen}: ${box.over} px past the box`);
      await close();
    }
  });

  test("a spec revision page lays its matrix out near the screen, and nothing moves when it does", async () => {
    for (const screen of Object.keys(SCREENS)) {
      const { page, close } = await open(PAGES.revision.route, screen);
      const measure = () =>
        page.evaluate(() => {
          const scroll = document.querySelector(".matrix-scroll");
          return {
            box: Math.round(scroll.getBoundingClientRect().height),
            notes: Math.round(document.getElementById("notes").getBoundingClientRect().top + scrollY),
            skipped: getComputedStyle(scroll).contentVisibility,
          };
        });
      const before = await measure();
      assert.equal(before.skipped, "auto");
      await page.locator(".matrix-scroll").scrollIntoViewIfNeeded();
      await page.locator("table.matrix tbody td.cell").first().waitFor({ state: "visible" });
      const after = await measure();
      assert.ok(Math.abs(after.box - before.box) <= 1, `${screen}: the matrix's box ${before.box} → ${after.box} px`);
      assert.ok(Math.abs(after.notes - before.notes) <= 1, `${screen}: the notes moved ${before.notes} → ${after.notes}`);
      await close();
    }
  });
});
