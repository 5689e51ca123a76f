// Measures one page of each kind (firstscreen.js's PAGES) at 1280×800 and 390×844: the y of
// the first answer row, the page's height, its layout shift (CLS), axe's violations with the
// default rules, the stylesheets it loads; with LIGHTHOUSE set to a Lighthouse CLI, its mobile
// performance score as well (the median of LIGHTHOUSE_RUNS runs, 1 unless set; every run's
// score in brackets). Prints a Markdown table. The pages are served gzipped (support.js's
// server, as the deploy guide asks of a host); uncompressed, the home page's 450 KB of HTML
// alone costs Lighthouse's slow 4G some two seconds.
//
//   node tests/browser/measure-pages.js SITE_DIR
//   LIGHTHOUSE=/path/to/node_modules/.bin/lighthouse LIGHTHOUSE_RUNS=3 node tests/browser/measure-pages.js SITE_DIR

import { spawn } from "node:child_process";
import path from "node:path";
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
import { launch, serve } from "./support.js";

const dir = process.argv[2] && path.resolve(process.argv[2]);
if (!dir) {
  console.error("usage: node measure-pages.js SITE_DIR");
  process.exit(2);
}

/** Lighthouse's mobile performance score (0–100) for `url`, or "–" when it cannot run. (Not
    spawnSync: the server answering Lighthouse runs in this process.) */
async function lighthouse(url) {
  if (!process.env.LIGHTHOUSE) return "–";
  const child = spawn(
    process.env.LIGHTHOUSE,
    [url, "--only-categories=performance", "--output=json", "--quiet", "--chrome-flags=--headless=new --no-sandbox"],
    { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM || "/usr/bin/chromium" } }
  );
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  await new Promise((done) => child.on("close", done));
  try {
    return Math.round(JSON.parse(out).categories.performance.score * 100);
  } catch {
    return "failed";
  }
}

/** The median of LIGHTHOUSE_RUNS Lighthouse scores for `url`, with each run's score. */
async function lighthouseMedian(url) {
  const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 1);
  const scores = [];
  for (let i = 0; i < runs; i += 1) scores.push(await lighthouse(url));
  if (runs === 1) return scores[0];
  const numbers = scores.filter((s) => typeof s === "number").sort((a, b) => a - b);
  const median = numbers.length ? numbers[Math.floor((numbers.length - 1) / 2)] : "failed";
  return `${median} [${scores.join(", ")}]`;
}

const server = await serve(dir);
const browser = await launch();
const rows = [];
try {
  for (const [name, { route, answer }] of Object.entries(PAGES)) {
    const row = { name };
    for (const [screen, options] of Object.entries(SCREENS)) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await watchShifts(page);
      await page.goto(server.origin + route, { waitUntil: "load" });
      const { cls } = await layoutShift(page);
      row[screen] = {
        y: await answerTop(page, answer),
        header: await headerBottom(page),
        height: await pageHeight(page),
        cls: Math.round(cls * 1000) / 1000,
        sheets: await stylesheets(page),
        axe: (await axeViolations(page)).map((v) => `${v.id} (${v.impact}) ×${v.nodes}`).join(", ") || "0",
      };
      await context.close();
    }
    row.lighthouse = await lighthouseMedian(server.origin + route);
    rows.push(row);
  }
} finally {
  await browser.close();
  await server.close();
}

console.log("| page | y first answer (1280 / 390, header ends at) | height (1280 / 390) | CLS (1280 / 390) | stylesheets | Lighthouse mobile | axe (1280 / 390) |");
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) {
  const d = r.desktop;
  const p = r.phone;
  console.log(
    `| ${r.name} | ${d.y} / ${p.y} (${p.header}) | ${d.height} / ${p.height} (${(p.height / 844).toFixed(1)} screens) | ${d.cls} / ${p.cls} | ${d.sheets} | ${r.lighthouse} | ${d.axe} / ${p.axe} |`
  );
}
