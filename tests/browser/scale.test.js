// A site the size of a real one (generate.js: 40 clients × 30 capabilities, ~180 researched
// cells, 400 notes authored with restated front matter), built by the fieldnotes binary and
// read in headless Chromium as a reader would, at 1280 and 390 px, light and dark.
//
// Run: `node --test tests/browser/scale.test.js` (with `npm ci` in tests/browser first; the
// debug binary, built when missing, or FIELDNOTES_BIN).

import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { generate } from "./generate.js";
import { axeSource, build, launch, serve, shotsDir, watchedPage } from "./support.js";

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

describe("the matrix at 40 clients × 30 capabilities", () => {
  test("all 40 client columns fit 1280 px; the phone scrolls the matrix in its own box", async () => {
    for (const width of WIDTHS) {
      const { page, close } = await open("/", { viewport: { width, height: 900 } });
      const box = await page.locator(".matrix-scroll").evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
      }));
      if (width === 1280) assert.ok(box.scroll <= box.client, `${box.scroll} > ${box.client}`);
      else assert.ok(box.scroll > box.client, "the phone scrolls the matrix sideways");
      assert.equal(await page.locator("thead th.client").count(), made.clients.length);
      await close();
    }
  });

  test("unknown cells are quiet but marked, known cells coloured whole", async () => {
    const { page, close } = await open("/");
    const unknown = page.locator("td.cell-unknown");
    const known = page.locator("td.cell-yes");
    assert.ok((await unknown.count()) > 800, "most cells are unknown, as in real data");
    // No pill: a quiet "?", so a blank column never reads as a rendering gap.
    // Quiet: its mark stands out less from its cell than a known cell's does (faded by colour).
    const contrastOf = (tds) =>
      tds.map((td) => {
        const rgb = (css) => {
          const n = (css.match(/[\d.]+/g) || []).map(Number);
          return css.startsWith("color(") ? n.slice(0, 3).map((v) => v * 255) : n.slice(0, 3);
        };
        const lum = ([r, g, b]) =>
          [r, g, b].map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
        const [a, b] = [lum(rgb(getComputedStyle(td.querySelector(".mark")).color)), lum(rgb(getComputedStyle(td).backgroundColor))];
        return [td.textContent.trim(), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
      });
    const marks = await unknown.evaluateAll(contrastOf);
    const knownMarks = await known.evaluateAll(contrastOf);
    assert.deepEqual([...new Set(marks.map(([text]) => text))], ["?"], "an unknown cell shows a ?");
    const loudest = Math.max(...marks.map(([, c]) => c));
    assert.ok(loudest < Math.min(...knownMarks.map(([, c]) => c)), `quieter than a known cell's mark (${loudest.toFixed(2)}:1)`);
    assert.equal(await page.locator("table.matrix .status").count(), 0);
    const background = (loc) => loc.first().evaluate((td) => getComputedStyle(td).backgroundColor);
    assert.notEqual(await background(known), await background(unknown));
    assert.match(await known.first().innerText(), /✓/);
    await close();
  });

  test("client names are compact, whole on hover and focus, with a coverage bar", async () => {
    const { page, close } = await open("/");
    const long = made.clients.find((c) => c.title.length > 30);
    const head = page.locator(`thead th[data-client="${long.id}"]`);
    const height = await head.evaluate((th) => th.getBoundingClientRect().height);
    assert.ok(height < 200, `header ${height}px tall`);
    const name = head.locator("a.client-name");
    assert.equal(await name.getAttribute("title"), long.title);
    const tip = head.locator(".client-tip");
    assert.equal(await tip.isVisible(), false);
    await name.focus();
    assert.equal(await tip.isVisible(), true);
    assert.equal(await tip.textContent(), long.title);
    await page.mouse.move(0, 0);
    assert.equal(await page.locator(".coverage").count(), made.clients.length);
    await close();
  });

  test("group labels and the capability column stay in view when the matrix scrolls sideways", async () => {
    const { page, close } = await open("/", { viewport: { width: 390, height: 800 } });
    const scroller = page.locator(".matrix-scroll");
    await scroller.evaluate((el) => el.scrollTo(el.scrollWidth, 0));
    const left = await scroller.evaluate((el) => el.getBoundingClientRect().left);
    for (const selector of [".band-label", "tbody th[scope=row]"]) {
      const x = await page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().left);
      assert.ok(x >= left && x < left + 40, `${selector} at ${x}, the box at ${left}`);
    }
    // And the header stays at the top when it scrolls down.
    await scroller.evaluate((el) => el.scrollTo(0, 600));
    const top = await scroller.evaluate((el) => el.getBoundingClientRect().top);
    const head = await page.locator("thead th.client").first().evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(Math.abs(head - top) < 3, `header at ${head}, box at ${top}`);
    await close();
  });

  test("tallies follow the filters; a capability filter; an empty state", async () => {
    const { page, problems, close } = await open("/");
    await page.locator("#filters-box > summary").click();
    /** Per client: the yes cells shown, and what the totals row says. */
    const tallies = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll("tfoot tr.totals-yes td[data-client]"), (td) => {
          const client = td.dataset.client;
          const shown = Array.from(document.querySelectorAll(`tbody tr:not([hidden]) td.cell-yes[data-client="${client}"]`))
            .filter((cell) => !cell.closest("tbody").hidden).length;
          return [client, Number(td.textContent), shown];
        })
      );
    const before = await tallies();
    await page.selectOption("#filter-group", "tools");
    const after = await tallies();
    for (const [client, said, shown] of after) assert.equal(said, shown, client);
    assert.notDeepEqual(after, before);
    const coverage = await page.locator("thead th.client .coverage-label").first().textContent();
    assert.match(coverage, /of 5 researched/);

    await page.selectOption("#filter-group", "");
    await page.fill("#filter-capability", "sse");
    const rows = page.locator("tbody tr[data-capability]").filter({ visible: true });
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.capability)), ["transports.sse"]);
    assert.match(page.url(), /q=sse/);

    await page.fill("#filter-capability", "no such capability");
    await page.locator("#matrix-empty").waitFor({ state: "visible" });
    await page.locator("#matrix-empty button").click();
    assert.equal(await rows.count(), made.capabilities.length);
    assert.equal(await page.locator("#matrix-empty").isVisible(), false);
    assert.deepEqual(problems, []);
    await close();
  });

  test("the client filter: a list over the page, a search box, all and none", async () => {
    for (const width of WIDTHS) {
      const { page, problems, close } = await open("/", { viewport: { width, height: 900 } });
      await page.locator("#filters-box > summary").click();
      // Where the other filters sit in the form, which opening the list must not change.
      const layout = () =>
        page.locator("#matrix-filters").evaluate((form) => {
          const top = form.getBoundingClientRect().top;
          const shown = Array.from(form.children).filter((e) => !e.hidden);
          return [form.offsetHeight, ...shown.map((e) => e.getBoundingClientRect().top - top)];
        });
      const before = await layout();
      await page.locator("#filter-clients summary").click();
      assert.deepEqual(await layout(), before, "nothing moves");
      const labels = page.locator("#filter-clients fieldset label");
      // One name per line: no two labels overlap.
      const boxes = await labels.evaluateAll((ls) => ls.map((l) => l.getBoundingClientRect()).map((r) => [r.top, r.bottom]));
      for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i][0] >= boxes[i - 1][1] - 1, `labels ${i - 1} and ${i} overlap`);
      await page.fill("#client-search", "desktop");
      const shown = labels.filter({ visible: true });
      const names = await shown.allTextContents();
      assert.ok(names.length >= 2 && names.every((n) => /desktop/i.test(n)), names.join(", "));
      await page.getByRole("button", { name: "None", exact: true }).click();
      assert.match(await page.locator("#matrix-count").textContent(), new RegExp(`and ${made.clients.length - names.length} of`));
      await page.fill("#client-search", "");
      await page.getByRole("button", { name: "None", exact: true }).click();
      assert.equal(await page.locator("#matrix-empty").isVisible(), true, "no client: the empty state");
      await page.getByRole("button", { name: "All", exact: true }).click();
      assert.match(await page.locator("#matrix-count").textContent(), new RegExp(`and ${made.clients.length} of`));
      await page.keyboard.press("Escape");
      assert.equal(await page.locator("#filter-clients .clients-popover").isVisible(), false);
      assert.deepEqual(problems, []);
      await close();
    }
  });

  test("every cell opens its panel: unknown ones too; marked, over a backdrop, following the address", async () => {
    const { page, problems, close } = await open("/");
    const cell = page.locator("td.cell-unknown").nth(5);
    const client = await cell.getAttribute("data-client");
    const capability = await cell.evaluate((td) => td.parentElement.dataset.capability);
    await cell.locator("a").click();
    const panel = page.locator("#cell-panel");
    await panel.waitFor({ state: "visible" });
    assert.equal(new URL(page.url()).pathname, "/", "it did not navigate away");
    assert.ok(page.url().endsWith(`#cell-${client}--${capability}`));
    const title = made.clients.find((c) => c.id === client).title;
    assert.match(await panel.textContent(), new RegExp(title.replace(/[()]/g, "\\$&")));
    assert.equal(await cell.evaluate((td) => td.classList.contains("selected")), true);
    // A click outside (on the backdrop) closes it.
    await page.mouse.click(5, 300);
    await panel.waitFor({ state: "hidden" });
    assert.equal(await page.locator("td.selected").count(), 0);

    // The address leads: a new #cell- hash opens that cell's panel instead.
    const known = page.locator("td.cell-yes").first();
    const id = await known.evaluate((td) => `cell-${td.dataset.client}--${td.parentElement.dataset.capability}`);
    await page.evaluate((hash) => (location.hash = hash), "#" + id);
    await panel.locator(".panel-evidence").waitFor({ state: "visible" });
    assert.equal(await page.locator(".cell-panel.open").count(), 1);
    assert.equal(await known.evaluate((td) => td.classList.contains("selected")), true);
    await page.evaluate(() => (location.hash = "#matrix"));
    await panel.waitFor({ state: "hidden" });
    assert.deepEqual(problems, []);
    await close();
  });
});

describe("client and capability pages", () => {
  /** The client with the most researched cells, and one with few. */
  const deep = () => made.clients[0];

  test("one aligned table of researched cells, the rest folded into one line", async () => {
    for (const route of [`/clients/${deep().id}`, `/capabilities/${made.capabilities[0].id}`]) {
      const { page, problems, close } = await open(route, { viewport: { width: 1280, height: 900 } });
      assert.equal(await page.locator("table.support").count(), 1, route);
      const statuses = await page.locator("table.support td[data-label=Status] .status").allTextContents();
      assert.ok(statuses.length > 0, route);
      assert.ok(statuses.every((s) => !/unknown/.test(s)), "no unknown row in the table");
      const lefts = await page.locator("table.support td[data-label=Notes]").evaluateAll((tds) =>
        tds.map((td) => Math.round(td.getBoundingClientRect().left))
      );
      assert.equal(new Set(lefts).size, 1, `the Notes column lines up: ${lefts}`);
      const folded = page.locator("p.unresearched");
      assert.match(await folded.textContent(), /^Not researched yet \(\d+\):/);
      assert.deepEqual(problems, []);
      await close();
    }
  });

  test("an unknown matrix cell's link lands on its capability in the folded line", async () => {
    const { page, close } = await open("/", { javaScriptEnabled: false });
    const href = await page.locator("td.cell-unknown a").first().getAttribute("href");
    await page.goto(server.origin + href);
    const anchor = decodeURIComponent(new URL(page.url()).hash.slice(1));
    assert.equal(await page.locator(`p.unresearched a[id="${anchor}"]`).count(), 1, anchor);
    await close();
  });

  test("on a phone each row is a card with its evidence in view", async () => {
    const { page, close } = await open(`/clients/${deep().id}`, { viewport: { width: 390, height: 800 } });
    const evidence = page.locator("table.support td[data-label=Evidence]").first();
    await evidence.scrollIntoViewIfNeeded();
    const box = await evidence.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `evidence at ${box.x}..${box.x + box.width}`);
    assert.ok(await evidence.locator("a").first().isVisible());
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    await close();
  });
});

describe("every kind of page, at 1280 and 390 px, light and dark", () => {
  const pages = () => ({
    home: "/",
    note: `/research/${note(0).id}`,
    client: `/clients/${made.clients[0].id}`,
    capability: `/capabilities/${made.capabilities[0].id}`,
    research: "/research",
    spec: "/spec/2025-06-18",
  });

  test("nothing is wider than the screen but the matrix's own box; no console error", async () => {
    mkdirSync(shotsDir, { recursive: true });
    for (const [name, route] of Object.entries(pages())) {
      for (const width of WIDTHS) {
        for (const colorScheme of SCHEMES) {
          const { page, problems, close } = await open(route, { viewport: { width, height: 900 }, colorScheme });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${route} at ${width} px (${colorScheme}) is ${overflow} px too wide`);
          if (name !== "research") {
            await page.screenshot({ path: path.join(shotsDir, `scale-${name}-${width}-${colorScheme}.png`), fullPage: name !== "client" });
          }
          assert.deepEqual(problems, [], `${route} ${width} ${colorScheme}`);
          await close();
        }
      }
    }
  });

  test("axe finds no serious or critical violation", async () => {
    for (const [name, route] of Object.entries(pages())) {
      for (const colorScheme of SCHEMES) {
        const { page, close } = await open(route, { colorScheme });
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run(document, { resultTypes: ["violations"] });
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
        });
        assert.deepEqual(violations, [], `${name} (${colorScheme}): ${violations.join("\n")}`);
        await close();
      }
    }
  });
});

describe("search", () => {
  test("the search box shows plain excerpts and leads to every result", async () => {
    const { page, problems, close } = await open("/");
    await page.fill("#search-input", "session");
    const more = page.locator("#search-more a");
    await more.waitFor({ state: "visible" });
    const excerpts = await page.locator("#search-list .search-excerpt").allTextContents();
    assert.ok(excerpts.length > 0);
    for (const text of excerpts) assert.doesNotMatch(text, /`|\]\(|\*\*/, text);
    const total = Number(/See all (\d+) results/.exec(await more.textContent())[1]);
    assert.ok(total > 20);
    await more.click();
    await page.waitForURL(/\/search\?q=session/);
    await page.locator("#search-page-results li").first().waitFor();
    assert.equal(await page.locator("#search-page-results li").count(), 20);
    assert.match(await page.locator("#search-page-status").textContent(), new RegExp(`^${total} results for “session”, 1–20 shown`));
    // Paged: the last page holds the rest.
    const pages = Math.ceil(total / 20);
    await page.locator("#search-pager a", { hasText: String(pages) }).click();
    await page.waitForURL(new RegExp(`page=${pages}`));
    await page.locator("#search-page-results li").first().waitFor();
    assert.equal(await page.locator("#search-page-results li").count(), total - (pages - 1) * 20);
    assert.equal(await page.locator("#search-page-results").getAttribute("start"), String((pages - 1) * 20 + 1));
    assert.deepEqual(problems, []);
    await close();
  });

  test("a missing page offers a search for the words of its address", async () => {
    const n = note(3);
    const { page, close } = await open(`/research/${n.id}-renamed`);
    const first = page.locator("#search-page-results li a").first();
    await first.waitFor();
    assert.ok((await page.locator("#search-page-input").inputValue()).length > 0);
    assert.equal(await first.getAttribute("href"), `/research/${n.id}`);
    await close();
  });
});

describe("viewing and deploying", () => {
  test("with urls: directory every link works on a plain static server", async () => {
    const site = path.join(work, "site-directory");
    generate(site, { notes: 60 });
    const config = path.join(site, "site.yaml");
    writeFileSync(config, readFileSync(config, "utf8") + "urls: directory\n");
    const out = path.join(work, "out-directory");
    build(site, out);
    assert.ok(existsSync(path.join(out, "research/index.html")));
    const plain = await serve(out, { plain: true });
    try {
      const context = await browser.newContext();
      const queue = ["/"];
      const seen = new Set(queue);
      const broken = [];
      while (queue.length) {
        const route = queue.shift();
        const response = await fetch(plain.origin + route);
        if (response.status !== 200) broken.push(`${route}: ${response.status}`);
        if (!route.endsWith("/") && !/\.(md|xml|json|txt|css|js|svg)$/.test(route)) broken.push(`${route}: a page linked without its /`);
        if (!(response.headers.get("content-type") || "").startsWith("text/html")) continue;
        const html = await response.text();
        for (const [, href] of html.matchAll(/href="([^"#]*)[^"]*"/g)) {
          const url = new URL(href, plain.origin + route);
          if (url.origin !== plain.origin || seen.has(url.pathname)) continue;
          seen.add(url.pathname);
          queue.push(url.pathname);
        }
      }
      assert.ok(seen.size > 100, `${seen.size} links`);
      assert.deepEqual(broken, []);
      // And a page looks as it should there: styled, its matrix scripted.
      const { page, problems } = await watchedPage(context, plain.origin);
      await page.goto(plain.origin + "/", { waitUntil: "load" });
      await page.locator("#ask").waitFor({ state: "visible", timeout: 10_000 });
      await page.locator("td.cell-yes a").first().click();
      await page.locator(".cell-panel.open").waitFor();
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await plain.close();
    }
  });

  test("a build opened from disk is styled", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const file of ["index.html", `research/${note(0).id}.html`, `clients/${made.clients[0].id}.html`]) {
      await page.goto("file://" + path.join(work, "out", file));
      const styled = await page.evaluate(() => getComputedStyle(document.querySelector(".site-header")).borderBottomStyle);
      assert.equal(styled, "solid", file);
    }
    await context.close();
  });
});

describe("small things", () => {
  test("a heading's # can be reached by keyboard and copies the section's address", async () => {
    const { page, problems, close } = await open(`/research/${note(0).id}`, {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const anchor = page.locator(".body h2 a.anchor").first();
    const href = await anchor.getAttribute("href");
    assert.equal(await anchor.getAttribute("aria-hidden"), null);
    await anchor.focus();
    assert.equal(await anchor.evaluate((a) => getComputedStyle(a).opacity), "1");
    await anchor.click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${server.origin}/research/${note(0).id}${href}`);
    assert.deepEqual(problems, []);
    await close();
  });

  test("every page has an icon, and no request for /favicon.ico", async () => {
    const { page, problems, close } = await open("/");
    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    const response = await fetch(new URL(icon, server.origin + "/").href);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type"), /svg/);
    assert.deepEqual(problems, []);
    await close();
  });
});
