// Measures a built site's home page as a reader meets it: HTML bytes, elements (as parsed, and
// once the scripts ran), the matrix's tab stops, printed pages; and screenshots the home page at
// 1280 and 390 px, light and dark.
//
//   node tests/browser/measure.js SITE_DIR [SHOTS_DIR]

import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { launch, serve } from "./support.js";

const [dir, shots] = process.argv.slice(2).map((p) => p && path.resolve(p));
if (!dir) {
  console.error("usage: node measure.js SITE_DIR [SHOTS_DIR]");
  process.exit(2);
}
const html = readFileSync(path.join(dir, "index.html"), "utf8");
const server = await serve(dir);
const browser = await launch();
const out = { bytes: statSync(path.join(dir, "index.html")).size };
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.setContent(html);
  out.elementsParsed = await page.evaluate(() => document.getElementsByTagName("*").length);
  await context.close();

  const scripted = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const home = await scripted.newPage();
  await home.goto(server.origin + "/", { waitUntil: "load" });
  out.elementsScripted = await home.evaluate(() => document.getElementsByTagName("*").length);
  // Tab stops inside the matrix: Tab from the element before it until focus leaves it
  // (bounded by the number of focusable elements on the page).
  out.matrixTabStops = await home.evaluate(() => {
    const region = document.querySelector(".matrix-scroll");
    const focusable = (el) =>
      el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0 && !el.closest("[hidden], [inert]");
    const all = Array.from(document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]"));
    return all.filter((el) => (region === el || region.contains(el)) && focusable(el)).length;
  });
  await home.emulateMedia({ media: "print" });
  const pdf = await home.pdf({ format: "A4", landscape: false, printBackground: true });
  out.printPages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length;
  if (shots) {
    mkdirSync(shots, { recursive: true });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(shots, "home-print.pdf"), pdf);
  }
  await scripted.close();

  if (shots) {
    for (const width of [1280, 390]) {
      for (const colorScheme of ["light", "dark"]) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await context.newPage();
        await page.goto(server.origin + "/", { waitUntil: "load" });
        await page.screenshot({ path: path.join(shots, `home-${width}-${colorScheme}.png`) });
        await page.screenshot({ path: path.join(shots, `home-${width}-${colorScheme}-full.png`), fullPage: true });
        await page.goto(server.origin + "/clients/cline/", { waitUntil: "load" });
        await page.screenshot({ path: path.join(shots, `cline-slash-${width}-${colorScheme}.png`) });
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(JSON.stringify(out));
