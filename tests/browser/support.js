// Helpers for the browser tests: the built site, a static server for it, headless Chromium.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root: the bundled example site. */
export const root = path.resolve(here, "../..");

/** The built site: `SITE_DIR`, else `target/site` (built now when it is missing). */
export const siteDir = process.env.SITE_DIR
  ? path.resolve(process.env.SITE_DIR)
  : path.join(root, "target/site");

/** Where screenshots go. */
export const shotsDir = path.join(root, "target/browser-screenshots");

/** Where cargo puts what it builds: CARGO_TARGET_DIR, else `target/`. */
const targetDir = process.env.CARGO_TARGET_DIR
  ? path.resolve(process.env.CARGO_TARGET_DIR)
  : path.join(root, "target");

/** The fieldnotes binary: FIELDNOTES_BIN, else the debug build (built now when missing). */
export function binary() {
  if (process.env.FIELDNOTES_BIN) return process.env.FIELDNOTES_BIN;
  const built = path.join(targetDir, "debug/fieldnotes");
  if (!existsSync(built)) {
    const result = spawnSync("cargo", ["build", "--quiet"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error("cargo build failed");
  }
  return built;
}

/** Builds the site in `dir` into `out` with the fieldnotes binary; throws when it fails. */
export function build(dir, out, ...args) {
  const built = spawnSync(binary(), ["build", "--root", dir, "--out", out, "--quiet", ...args], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`building ${dir} failed:\n${built.stdout}${built.stderr}`);
}

export function ensureBuilt() {
  if (existsSync(path.join(siteDir, "index.html"))) return;
  const built = spawnSync("cargo", ["run", "--quiet", "--", "build", "--out", siteDir], {
    cwd: root,
    stdio: "inherit",
  });
  if (built.status !== 0) throw new Error(`building the site into ${siteDir} failed`);
}

const types = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
};

/** The types a static host sends compressed (the deploy guide asks for it: GitHub Pages,
    Netlify, Cloudflare Pages and Vercel do it by themselves, nginx with `gzip on`). */
const compressible = new Set([".html", ".css", ".js", ".json", ".xml", ".txt", ".md", ".svg"]);

/** The file a request path names in `dir`, the way static hosts resolve extensionless routes
    (`plain`: only as a plain static server does, a folder's `index.html` and nothing else). */
function resolve(dir, urlPath, plain = false, slash = false) {
  let clean;
  try {
    clean = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  if (clean.includes("\0")) return null;
  const candidates = clean.endsWith("/")
    ? slash && clean !== "/"
      ? [clean + "index.html", clean.slice(0, -1) + ".html"]
      : [clean + "index.html"]
    : plain
      ? [clean]
      : [clean, clean + ".html"];
  for (const candidate of candidates) {
    const file = path.join(dir, path.normalize(candidate));
    if (!file.startsWith(dir + path.sep)) return null;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

/** Serves a built site (`dir`, else the example's) on 127.0.0.1 at an ephemeral port;
    resolves to its origin. Text goes gzipped to a client that accepts it, as hosts send it.
    `plain`: as a plain static server (nginx's defaults) would, with no extensionless routes:
    a folder's `index.html`, and `/x` redirected to `/x/` when `x` is a folder. `slash`: as
    hosts that serve a page's file at its address with a closing `/` as well (`/clients/x/`
    answered with `clients/x.html`, as `fieldnotes serve` and some hosts do). */
export async function serve(dir = siteDir, { plain = false, slash = false } = {}) {
  const server = createServer((request, response) => {
    const url = new URL(request.url, "http://x");
    if (plain && !url.pathname.endsWith("/")) {
      const folder = path.join(dir, path.normalize(decodeURIComponent(url.pathname)));
      if (folder.startsWith(dir + path.sep) && existsSync(folder) && statSync(folder).isDirectory()) {
        response.writeHead(301, { location: url.pathname + "/" + url.search });
        response.end();
        return;
      }
    }
    const file = resolve(dir, url.pathname, plain, slash);
    const status = file ? 200 : 404;
    const body = file ? file : path.join(dir, "404.html");
    const headers = { "content-type": types[path.extname(body)] || "application/octet-stream", vary: "accept-encoding" };
    let bytes = readFileSync(body);
    if (compressible.has(path.extname(body)) && /\bgzip\b/.test(request.headers["accept-encoding"] || "")) {
      bytes = gzipSync(bytes);
      headers["content-encoding"] = "gzip";
    }
    response.writeHead(status, headers);
    response.end(bytes);
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(done)) };
}

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: chromiumArgs,
  });
}

/**
 * A page that records what must not happen: console errors, uncaught exceptions, requests
 * that leave the site (they are aborted) and failed requests.
 */
export async function watchedPage(context, origin) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    const failure = request.failure();
    if (!request.url().startsWith(origin) || failure?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${request.url()} (${failure?.errorText})`);
  });
  await page.route(
    (url) => url.origin !== origin,
    (route) => {
      problems.push(`request left the site: ${route.request().url()}`);
      return route.abort();
    }
  );
  return { page, problems };
}

/** axe-core's source, to inject into pages. */
export const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The front matter of a content file, as `key: value` lines (enough for flat fields). */
export function frontMatter(relative) {
  const text = readFileSync(path.join(root, relative), "utf8");
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  return match ? match[1] : "";
}

/** The ids of a content section, from its file names. */
export function contentIds(section) {
  return readdirSync(path.join(root, "content", section))
    .filter((name) => name.endsWith(".md"))
    .map((name) => name.slice(0, -3))
    .sort();
}

/** Every HTML page of the built site, as a route (`/research/x`, `/` for the home page). */
export function builtRoutes() {
  const routes = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".html") && entry.name !== "404.html") {
        const route = "/" + path.relative(siteDir, full).split(path.sep).join("/").slice(0, -5);
        routes.push(route === "/index" ? "/" : route);
      }
    }
  };
  walk(siteDir);
  return routes.sort();
}
