/* fieldnotes default theme: search (press /), the search page, ages of dates, heading links
   (the matrix's filters and cell panels are in matrix.js).
   Every page works without it; it only adds to what the HTML already holds.
   Search reads the index the build writes under /search/ (see src/render/search.rs):
   meta.json, then one terms file per query word and one docs file per page of results. */
"use strict";

(function () {
  /* base.html marks the page `js` before its first paint; a theme's own base may not. */
  document.documentElement.classList.add("js");
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  /* ---------- Search ---------- */

  /* The same split as the build's: lowercased runs of letters and digits, 2 to 40 long. */
  function terms(text) {
    return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).filter((w) => {
      const n = Array.from(w).length;
      return n >= 2 && n <= 40;
    });
  }

  /* The terms file a word's terms live in: its first two characters, or their code points. */
  function shardOf(word) {
    const head = Array.from(word).slice(0, 2);
    if (head.every((c) => /^[a-z0-9]$/.test(c))) return head.join("");
    return "u" + head.map((c) => c.codePointAt(0).toString(16)).join("");
  }

  /* A search index: fetches each file once, on first need. */
  function searchIndex(metaUrl) {
    const base = metaUrl.replace(/meta\.json$/, "");
    const files = new Map();
    const fetchJson = (path) => {
      if (!files.has(path)) {
        files.set(
          path,
          fetch(base + path).then((r) => {
            if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
            return r.json();
          })
        );
      }
      return files.get(path);
    };
    const meta = fetchJson("meta.json");

    /* Pages holding every word (each word matches the terms it begins), best first. */
    async function search(query) {
      const words = [...new Set(terms(query))];
      if (!words.length) return [];
      const { shards } = await meta;
      const known = new Set(shards);
      let scores = null;
      for (const word of words) {
        const shard = shardOf(word);
        const table = known.has(shard) ? await fetchJson(`terms/${shard}.json`) : {};
        const found = new Map();
        for (const [term, postings] of Object.entries(table)) {
          if (!term.startsWith(word)) continue;
          const exact = term === word ? 2 : 1;
          for (let i = 0; i < postings.length; i += 2) {
            const page = postings[i];
            found.set(page, (found.get(page) || 0) + postings[i + 1] * exact);
          }
        }
        if (scores === null) scores = found;
        else {
          for (const [page, score] of scores) {
            if (found.has(page)) scores.set(page, score + found.get(page));
            else scores.delete(page);
          }
        }
      }
      return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([page]) => page);
    }

    /* A page's record: { url, title, kind, summary }. */
    async function page(n) {
      const { chunk } = await meta;
      const docs = await fetchJson(`docs/${Math.floor(n / chunk)}.json`);
      const [url, title, kind, summary] = docs[n % chunk];
      return { url, title, kind, summary };
    }

    return { ready: meta, search, page };
  }

  /* The site's search index, loaded on first use and shared by the box and the search page. */
  let sharedIndex = null;
  function loadIndex() {
    const box = $("#site-search");
    if (!sharedIndex) sharedIndex = searchIndex(box ? box.dataset.index : "search/meta.json");
    return sharedIndex.ready.then(() => sharedIndex);
  }

  /* A summary with each query word's matches marked: built as text nodes, never as HTML. */
  function excerpt(text, words) {
    const p = document.createElement("p");
    p.className = "search-excerpt";
    for (const part of text.split(/([\p{L}\p{N}]+)/u)) {
      const lower = part.toLowerCase();
      if (part && words.some((w) => lower.startsWith(w))) {
        const mark = document.createElement("mark");
        mark.textContent = part;
        p.appendChild(mark);
      } else if (part) {
        p.appendChild(document.createTextNode(part));
      }
    }
    return p;
  }

  /* One result: its title (a link), what kind of page it is, its excerpt. */
  function resultItem(data, words) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = data.url;
    const kind = document.createElement("span");
    kind.className = "search-kind";
    kind.textContent = data.kind || "";
    const title = document.createElement("span");
    title.className = "search-title";
    title.textContent = data.title || data.url;
    a.append(title, kind);
    li.append(a, excerpt(data.summary || "", words));
    return li;
  }

  /* The search page's address for `query` (and a page of results). */
  function searchPageUrl(base, query, page) {
    const url = new URL(base, location.href);
    url.search = "";
    url.searchParams.set("q", query);
    if (page > 1) url.searchParams.set("page", String(page));
    return url.href;
  }

  function setUpSearch() {
    const box = $("#site-search");
    if (!box) return;
    const input = $("#search-input", box);
    const results = $("#search-results", box);
    const status = $("#search-status", box);
    const list = $("#search-list", box);
    const more = $("#search-more", box);
    box.hidden = false;
    let index = null;
    let latest = "";

    function load() {
      return loadIndex().then((loaded) => (index = loaded));
    }

    function close() {
      results.hidden = true;
    }

    let timer = null;
    function schedule(query) {
      latest = query;
      clearTimeout(timer);
      if (!query.trim()) {
        close();
        return;
      }
      results.hidden = false;
      timer = setTimeout(() => {
        run(query).catch((error) => {
          status.textContent = "Search is unavailable: " + error.message;
        });
      }, 80);
    }

    async function run(query) {
      if (!index) status.textContent = "Loading the search index…";
      const loaded = await load();
      const pages = await loaded.search(query);
      if (query !== latest) return;
      const shown = await Promise.all(pages.slice(0, 8).map((n) => loaded.page(n)));
      if (query !== latest) return;
      const words = terms(query);
      // A reader who moved into the list while results were still coming keeps their place:
      // the same result if it is still listed, else the first one.
      const focused = list.contains(document.activeElement)
        ? document.activeElement.getAttribute("href")
        : null;
      list.replaceChildren(...shown.map((data) => resultItem(data, words)));
      if (focused !== null) {
        const links = $$("a", list);
        (links.find((a) => a.getAttribute("href") === focused) || links[0] || input).focus();
      }
      const count = pages.length;
      status.textContent =
        count === 0
          ? `No results for “${query}”.`
          : `${count} result${count === 1 ? "" : "s"}${count > shown.length ? `, the first ${shown.length} shown` : ""}.`;
      more.hidden = count <= shown.length;
      const link = $("a", more);
      link.href = searchPageUrl(box.dataset.page, query, 1);
      link.textContent = `See all ${count} results`;
    }

    input.addEventListener("focus", () => {
      load().catch(() => {});
      if (input.value.trim()) results.hidden = false;
    });
    input.addEventListener("input", () => schedule(input.value));
    /* The arrows move through the results, Escape closes them; Enter in the box submits the
       form, to the search page with every result of the query. */
    box.addEventListener("keydown", (event) => {
      const links = $$("a", list);
      const at = links.indexOf(document.activeElement);
      if (event.key === "ArrowDown" && links.length) {
        event.preventDefault();
        links[Math.min(at + 1, links.length - 1)].focus();
      } else if (event.key === "ArrowUp" && links.length) {
        event.preventDefault();
        if (at <= 0) input.focus();
        else links[at - 1].focus();
      } else if (event.key === "Escape") {
        close();
        input.focus();
      }
    });
    document.addEventListener("click", (event) => {
      if (!box.contains(event.target)) close();
    });
    document.addEventListener("keydown", (event) => {
      const target = event.target;
      const typing =
        target instanceof HTMLElement &&
        (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        input.focus();
        input.select();
      }
    });
  }

  /* ---------- The search page ---------- */

  const RESULTS_PER_PAGE = 20;

  /* The search page lists every result of `?q=`, RESULTS_PER_PAGE at a time (`&page=`). On
     the 404 page the same form searches for the words of the address that was not found. */
  async function setUpSearchPage() {
    const form = $("#search-page");
    if (!form) return;
    const input = $("#search-page-input", form);
    const status = $("#search-page-status");
    const list = $("#search-page-results");
    const pager = $("#search-pager");
    const params = new URLSearchParams(location.search);
    let query = params.get("q") || "";
    const fromPath = form.hasAttribute("data-from-path");
    if (!query && fromPath) {
      let path = location.pathname;
      try {
        path = decodeURIComponent(path);
      } catch {}
      const sections = new Set(["research", "clients", "capabilities", "guides", "spec"]);
      query = terms(path.replace(/\.(html|md)$/, ""))
        .filter((w) => !sections.has(w))
        .join(" ");
    }
    input.value = query;
    const wanted = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
    if (!terms(query).length) return;
    status.textContent = "Searching…";
    try {
      const index = await loadIndex();
      let pages = await index.search(query);
      // A mistyped or renamed address: fewer of its words may still find the page.
      while (fromPath && !params.get("q") && !pages.length && terms(query).length > 1) {
        query = terms(query).slice(0, -1).join(" ");
        pages = await index.search(query);
      }
      input.value = query;
      const words = terms(query);
      const count = pages.length;
      const last = Math.max(1, Math.ceil(count / RESULTS_PER_PAGE));
      const page = Math.min(wanted, last);
      const from = (page - 1) * RESULTS_PER_PAGE;
      const shown = await Promise.all(pages.slice(from, from + RESULTS_PER_PAGE).map((n) => index.page(n)));
      list.start = from + 1;
      list.replaceChildren(...shown.map((data) => resultItem(data, words)));
      status.textContent =
        count === 0
          ? `No results for “${query}”.`
          : `${count} result${count === 1 ? "" : "s"} for “${query}”` +
            (last > 1 ? `, ${from + 1}–${from + shown.length} shown.` : ".");
      pager.replaceChildren();
      pager.hidden = last <= 1;
      const link = (n, text, rel) => {
        const a = document.createElement("a");
        a.href = searchPageUrl(form.action, query, n);
        a.textContent = text;
        if (rel) a.rel = rel;
        if (n === page) a.setAttribute("aria-current", "page");
        return a;
      };
      if (page > 1) pager.append(link(page - 1, "Previous", "prev"));
      for (let n = 1; n <= last; n++) pager.append(link(n, String(n)));
      if (page < last) pager.append(link(page + 1, "Next", "next"));
    } catch (error) {
      status.textContent = "Search is unavailable: " + error.message;
    }
  }

  /* ---------- Folded detail ---------- */

  /* A link to something inside a folded `<details>` (a table's reference to its evidence,
     a result's to its transcript line) opens the fold, so the target is shown. */
  function openTarget() {
    let target = null;
    try {
      target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    } catch {}
    let opened = false;
    for (let fold = target && target.closest("details"); fold; fold = fold.parentElement.closest("details")) {
      if (!fold.open) fold.open = opened = true;
    }
    if (opened) target.scrollIntoView();
  }

  /* ---------- Ages and staleness ---------- */

  /* Days from a `YYYY-MM-DD` date to the reader's today (negative: in the future). */
  function daysSince(date, today) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date || "");
    if (!m) return null;
    return Math.round((today - Date.UTC(+m[1], +m[2] - 1, +m[3])) / 86400000);
  }

  function ageText(days) {
    if (days === 0) return "today";
    if (days === 1) return "yesterday";
    if (days < 0) return days === -1 ? "tomorrow" : `in ${-days} days`;
    if (days < 60) return `${days} days ago`;
    const months = Math.round(days / 30.44);
    if (months < 24) return `${months} months ago`;
    return `${Math.floor(days / 365.25)} years ago`;
  }

  /* A page holds dates as written (`<time datetime data-age>`); how long ago each was, and
     whether a "last verified" date is fresh, aging or stale, is worked out here, on the day
     the page is read: a static page is read for months after it is built. */
  function setUpAges() {
    const times = $$("time[data-age]");
    if (!times.length) return;
    const aging = Number(document.body.dataset.agingDays);
    const stale = Number(document.body.dataset.staleDays);
    const now = new Date();
    const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
    for (const time of times) {
      const days = daysSince(time.getAttribute("datetime"), today);
      if (days === null || time.nextElementSibling?.classList.contains("age")) continue;
      const age = document.createElement("span");
      age.className = "age";
      age.textContent = `(${ageText(days)})`;
      age.title = days === 1 ? "1 day ago" : `${days} days ago`;
      time.after(" ", age);
      const mode = time.dataset.freshness;
      if (!mode || !(stale >= 0)) continue;
      const [value, label, title] =
        days > stale
          ? ["stale", "Stale", `Verified more than ${stale} days ago: it may no longer hold`]
          : days > aging
            ? ["aging", "Aging", `Verified more than ${aging} days ago`]
            : ["fresh", "Fresh", `Verified in the last ${aging} days`];
      if (value === "fresh" && mode !== "always") continue;
      const badge = document.createElement("span");
      badge.className = `badge badge-${value}`;
      badge.title = title;
      badge.textContent = label;
      age.after(" ", badge);
    }
  }

  /* ---------- Heading links ---------- */

  /* A heading's `#` copies the section's address as well as going to it. */
  function setUpHeadingLinks() {
    document.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest("a.anchor") : null;
      if (!link || !navigator.clipboard) return;
      const url = new URL(link.getAttribute("href"), location.href).href;
      navigator.clipboard.writeText(url).then(
        () => {
          link.dataset.copied = "";
          setTimeout(() => delete link.dataset.copied, 2000);
        },
        () => {}
      );
    });
  }

  /* ---------- Client filters ---------- */

  /* What the client filters of the home matrix (matrix.js) and of the clients page share:
     the address keys of their checkbox sets, and the evidence-strength preset. */
  const STRONG = ["observed", "source"];

  /* Checks, for each [field name, address key] of `keys` the address sets, the boxes it
     lists (`?platforms=cli,web`) and unchecks the rest. */
  function restoreSets(form, keys) {
    const params = new URLSearchParams(location.search);
    for (const [name, key] of keys) {
      const value = params.get(key);
      if (value === null) continue;
      const wanted = new Set(value.split(","));
      for (const box of $$(`input[name="${name}"]`, form)) box.checked = wanted.has(box.value);
    }
  }

  /* The "observed or code only" preset kept in step with the "Checked by" boxes of `form`:
     choosing it checks observed and source alone, "any" checks every box (before the form's
     own change listener runs: the preset's listener is on the target); returns the function
     that selects the preset the boxes match, or none. */
  function strength(form) {
    const boxes = $$('input[name="evidence"]', form);
    const presets = $$('input[name="strength"]', form);
    for (const preset of presets) {
      preset.addEventListener("change", () => {
        for (const box of boxes) box.checked = preset.value === "any" || STRONG.includes(box.value);
      });
    }
    return () => {
      const on = boxes.filter((b) => b.checked).map((b) => b.value);
      const strong = on.length === STRONG.length && STRONG.every((v) => on.includes(v));
      const value = on.length === boxes.length ? "any" : strong ? "strong" : "";
      for (const preset of presets) preset.checked = preset.value === value;
    };
  }

  window.fieldnotesFilters = { restoreSets, strength };

  /* The clients page: its cards filtered by how their cells were checked (a card stays when
     one of its cells was checked a way still ticked) and by platform, kept in the address under
     the matrix's keys, so `?evidence=observed,source&platforms=cli` means the same on both. */
  function setUpListFilters() {
    const form = $("#list-filters");
    if (!form) return;
    const cards = $$(".card[data-evidence]");
    const count = $("#list-count", form);
    const keys = [["evidence", "evidence"], ["platform", "platforms"]];
    const sync = strength(form);
    restoreSets(form, keys);
    function apply() {
      const data = new FormData(form);
      const evidence = new Set(data.getAll("evidence"));
      const platforms = new Set(data.getAll("platform"));
      const anyPlatform = $$('input[name="platform"]', form).length === 0;
      let shown = 0;
      for (const card of cards) {
        const on =
          card.dataset.evidence.split(" ").some((m) => evidence.has(m)) &&
          (anyPlatform || (card.dataset.platforms || "none").split(" ").some((p) => platforms.has(p)));
        card.hidden = !on;
        if (on) shown += 1;
      }
      count.textContent = `Showing ${shown} of ${cards.length} ${count.dataset.noun || "clients"}.`;
      sync();
      const params = new URLSearchParams(location.search);
      for (const [name, key] of keys) {
        const boxes = $$(`input[name="${name}"]`, form);
        const on = boxes.filter((b) => b.checked).map((b) => b.value);
        if (on.length < boxes.length) params.set(key, on.join(","));
        else params.delete(key);
      }
      const query = params.toString();
      history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }
    form.addEventListener("change", apply);
    form.addEventListener("submit", (event) => event.preventDefault());
    apply();
  }

  setUpListFilters();
  setUpAges();
  /* Content a script adds later (a matrix cell's evidence, loaded on demand) gets its ages too. */
  document.addEventListener("fieldnotes:added", setUpAges);
  setUpHeadingLinks();
  openTarget();
  window.addEventListener("hashchange", openTarget);
  setUpSearch();
  setUpSearchPage();
})();
