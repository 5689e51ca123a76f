/* fieldnotes default theme: search (press /), matrix filters and cell details.
   Every page works without it; it only adds to what the HTML already holds.
   Search uses Pagefind (MIT, https://pagefind.app), whose library the build writes
   under /pagefind/ and which this script imports on first use. */
"use strict";

(function () {
  document.documentElement.classList.add("js");
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  /* ---------- Search ---------- */

  function setUpSearch() {
    const box = $("#site-search");
    if (!box) return;
    const input = $("#search-input", box);
    const results = $("#search-results", box);
    const status = $("#search-status", box);
    const list = $("#search-list", box);
    box.hidden = false;
    let pagefind = null;
    let loading = null;
    let latest = "";

    function load() {
      if (!loading) {
        loading = import(box.dataset.index).then(async (module) => {
          await module.options({ excerptLength: 24 });
          module.init();
          pagefind = module;
          return module;
        });
      }
      return loading;
    }

    function close() {
      results.hidden = true;
    }

    /* An excerpt is text with <mark> around matches: build it as nodes, never as HTML. */
    function excerpt(text) {
      const p = document.createElement("p");
      p.className = "search-excerpt";
      text.split(/(<mark>|<\/mark>)/).reduce((marked, part) => {
        if (part === "<mark>") return true;
        if (part === "</mark>") return false;
        if (part) {
          const node = document.createTextNode(decode(part));
          if (marked) {
            const mark = document.createElement("mark");
            mark.appendChild(node);
            p.appendChild(mark);
          } else {
            p.appendChild(node);
          }
        }
        return marked;
      }, false);
      return p;
    }

    const decoder = document.createElement("textarea");
    function decode(text) {
      decoder.innerHTML = text;
      return decoder.value;
    }

    async function run(query) {
      latest = query;
      if (!query.trim()) {
        close();
        return;
      }
      results.hidden = false;
      if (!pagefind) status.textContent = "Loading the search index…";
      const module = await load();
      const search = await module.debouncedSearch(query, {}, 120);
      if (search === null || query !== latest) return;
      const shown = await Promise.all(search.results.slice(0, 8).map((r) => r.data()));
      if (query !== latest) return;
      list.replaceChildren(
        ...shown.map((data) => {
          const li = document.createElement("li");
          const a = document.createElement("a");
          a.href = data.url;
          const kind = document.createElement("span");
          kind.className = "search-kind";
          kind.textContent = data.meta.kind || "";
          const title = document.createElement("span");
          title.className = "search-title";
          title.textContent = data.meta.title || data.url;
          a.append(title, kind);
          li.append(a, excerpt(data.excerpt || ""));
          return li;
        })
      );
      const count = search.results.length;
      status.textContent =
        count === 0
          ? `No results for “${query}”.`
          : `${count} result${count === 1 ? "" : "s"}${count > shown.length ? `, the first ${shown.length} shown` : ""}.`;
    }

    input.addEventListener("focus", () => {
      load().catch(() => {});
      if (input.value.trim()) results.hidden = false;
    });
    input.addEventListener("input", () => {
      run(input.value).catch((error) => {
        status.textContent = "Search is unavailable: " + error.message;
      });
    });
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
      } else if (event.key === "Enter" && document.activeElement === input && links.length) {
        event.preventDefault();
        links[0].click();
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

  /* ---------- Matrix filters ---------- */

  function setUpFilters() {
    const form = $("#matrix-filters");
    const table = $("table.matrix");
    if (!form || !table) return;
    form.hidden = false;
    const count = $("#matrix-count", form);
    const revisionLink = $("#revision-link", form);
    const rows = $$("tbody tr[data-capability]", table);
    const clientCount = $$("thead th[data-client]", table).length;

    function state() {
      const data = new FormData(form);
      return {
        group: data.get("group") || "",
        revision: data.get("revision") || "",
        statuses: new Set(data.getAll("status")),
        clients: new Set(data.getAll("client")),
      };
    }

    function apply() {
      const s = state();
      for (const cell of $$("[data-client]", table)) {
        cell.hidden = !s.clients.has(cell.dataset.client);
      }
      let shownRows = 0;
      for (const row of rows) {
        const group = row.parentElement.dataset.group;
        const revisions = row.dataset.revisions.split(" ");
        let match = false;
        for (const cell of $$("td[data-status]", row)) {
          const wanted = s.statuses.has(cell.dataset.status);
          cell.classList.toggle("dim", !wanted);
          if (wanted && !cell.hidden) match = true;
        }
        row.hidden =
          (s.group !== "" && group !== s.group) ||
          (s.revision !== "" && !revisions.includes(s.revision)) ||
          !match;
        if (!row.hidden) shownRows += 1;
      }
      for (const body of $$("tbody[data-group]", table)) {
        body.hidden = $$("tr[data-capability]", body).every((row) => row.hidden);
      }
      count.textContent = `Showing ${shownRows} of ${rows.length} capabilities and ${s.clients.size} of ${clientCount} clients.`;
      const option = $("#filter-revision", form).selectedOptions[0];
      revisionLink.hidden = !s.revision;
      if (s.revision && option) {
        const link = $("a", revisionLink);
        link.href = option.dataset.url + "#support";
        link.textContent = `What each client supports of ${s.revision}`;
      }
      remember(s);
    }

    /* The filters live in the query string, so a filtered matrix can be shared. */
    function remember(s) {
      const params = new URLSearchParams();
      if (s.group) params.set("group", s.group);
      if (s.revision) params.set("revision", s.revision);
      if (s.statuses.size < 4) params.set("status", Array.from(s.statuses).join(","));
      if (s.clients.size < clientCount) params.set("clients", Array.from(s.clients).join(","));
      const query = params.toString();
      const url = location.pathname + (query ? "?" + query : "") + location.hash;
      history.replaceState(history.state, "", url);
    }

    function restore() {
      const params = new URLSearchParams(location.search);
      const set = (name, value) => {
        const field = form.elements.namedItem(name);
        if (field && value !== null) field.value = value;
      };
      set("group", params.get("group"));
      set("revision", params.get("revision"));
      for (const [name, key] of [["status", "status"], ["client", "clients"]]) {
        const value = params.get(key);
        if (value === null) continue;
        const wanted = new Set(value.split(","));
        for (const box of $$(`input[name="${name}"]`, form)) box.checked = wanted.has(box.value);
      }
    }

    form.addEventListener("change", apply);
    form.addEventListener("reset", () => setTimeout(apply, 0));
    form.addEventListener("submit", (event) => event.preventDefault());
    restore();
    apply();
  }

  /* ---------- Cell details ---------- */

  /* A cell's panel works without script (it is the target of the cell's #link); the
     script keeps the page from jumping, moves focus into the panel and back. */
  function setUpPanels() {
    const panels = $$(".cell-panel");
    if (!panels.length) return;
    let opener = null;

    function show(panel, from) {
      for (const p of panels) p.classList.toggle("open", p === panel);
      document.body.classList.toggle("panel-open", !!panel);
      if (panel) {
        opener = from || null;
        panel.focus({ preventScroll: true });
      } else if (opener) {
        opener.focus({ preventScroll: true });
        opener = null;
      }
    }

    document.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest("a") : null;
      if (!link) return;
      if (link.classList.contains("panel-close")) {
        event.preventDefault();
        history.replaceState(history.state, "", location.pathname + location.search);
        show(null);
        return;
      }
      const url = new URL(link.href, location.href);
      if (url.pathname !== location.pathname || !url.hash.startsWith("#cell-")) return;
      const panel = document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (!panel) return;
      event.preventDefault();
      history.replaceState(history.state, "", location.pathname + location.search + url.hash);
      show(panel, link);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && document.querySelector(".cell-panel.open")) {
        history.replaceState(history.state, "", location.pathname + location.search);
        show(null);
      }
    });
    if (location.hash.startsWith("#cell-")) {
      const panel = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (panel) show(panel);
    }
  }

  setUpSearch();
  setUpFilters();
  setUpPanels();
})();
