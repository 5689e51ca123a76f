// What a reader meets first on each kind of page, measured the same way by the browser tests
// (firstscreen.test.js) and by `measure.js --pages`: where the first row of the answer is, how
// long the page is, how much the layout shifts while it loads, and what axe finds.

import { axeSource } from "./support.js";

/** The two screens every page is measured at. */
export const SCREENS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
};

/**
 * One page of each kind, and the selector of the first row of its answer: the matrix's first
 * row of cells, a client's or capability's first support row, a note's summary, an
 * observation's first result, the newest spec revision's first client row, the clients page's
 * first client (under its filters).
 */
export const PAGES = {
  home: { route: "/", answer: "table.matrix tbody tr[data-capability] td.cell" },
  client: { route: "/clients/cline", answer: "table.support tbody tr:not(.band)" },
  capability: {
    route: "/capabilities/transports.streamableHttp",
    answer: "table.support tbody tr:not(.band)",
  },
  note: {
    route: "/research/cline-defaults-a-url-server-to-sse",
    answer: ".page-head .summary, article .body > p",
  },
  observation: {
    route: "/observations/claude-code-2-1-332-streamable-http-20261206-092630",
    answer: "table.observed tbody tr, .observed-results > li",
  },
  revision: { route: "/spec/2026-07-28", answer: "table.speakers tbody tr, .new-in > li" },
  clients: { route: "/clients", answer: ".cards > li.card" },
};

/** Starts counting layout shifts (CLS, as Chromium reports them) before any script runs. */
export async function watchShifts(page) {
  await page.addInitScript(() => {
    window.__cls = 0;
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.__cls += entry.value;
        window.__shifts.push({
          value: entry.value,
          nodes: (entry.sources || []).map((s) => s.node && (s.node.id || s.node.className || s.node.nodeName)),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The page's layout shift so far, after the page has settled. */
export async function layoutShift(page) {
  await page.waitForTimeout(600);
  return page.evaluate(() => ({ cls: window.__cls, shifts: window.__shifts }));
}

/** The top of the first visible element matching `selector`, in page pixels (null if none). */
export async function answerTop(page, selector) {
  return page.evaluate((selector) => {
    for (const el of document.querySelectorAll(selector)) {
      const box = el.getBoundingClientRect();
      if (box.height > 0 && box.width > 0) return Math.round(box.top + window.scrollY);
    }
    return null;
  }, selector);
}

/** The height of the whole page, in pixels. */
export async function pageHeight(page) {
  return page.evaluate(() => document.documentElement.scrollHeight);
}

/** The bottom of the site header: where the first phone screen of content begins. */
export async function headerBottom(page) {
  return page.evaluate(() => Math.round(document.querySelector(".site-header").getBoundingClientRect().bottom));
}

/** axe-core's violations with its default rules, as `rule (impact): n nodes`. */
export async function axeViolations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => {
    const found = await window.axe.run(document, { resultTypes: ["violations"] });
    return found.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return result;
}

/** How many stylesheets the page loads (linked, not printed-only). */
export async function stylesheets(page) {
  return page.evaluate(
    () => Array.from(document.querySelectorAll('link[rel="stylesheet"]')).filter((l) => l.media !== "print").length
  );
}
