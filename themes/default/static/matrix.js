/* fieldnotes default theme: the support matrix's filters and cell panels (home and spec
   revision pages, after site.js, whose client-filter helpers it uses). Every page works without it; it only adds to what the HTML
   already holds. */
"use strict";

(function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  /* A `<details>` list that closes like a menu: on a click elsewhere, and on Escape (focus
     back on its summary). */
  function likeAMenu(details) {
    document.addEventListener("click", (event) => {
      if (details.open && !details.contains(event.target)) details.open = false;
    });
    details.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && details.open) {
        event.stopPropagation();
        details.open = false;
        $("summary", details).focus();
      }
    });
  }

  /* ---------- Matrix filters ---------- */

  /* Filters by capability text, group, spec revision, status, how each cell was checked
     (`evidence`: observed, source, docs, reported, none; "observed or code only" is the preset
     `observed,source`, which also hides the clients with no such cell), platform
     (`platforms`) and client, kept in the address
     (`/?q=sse&clients=cline,zed`) so a filtered matrix can be shared. The coverage bars and
     totals count what the filters show. The revision selector shows each capability's state
     at that revision (the newest, selected in the HTML, by default): rows not yet introduced
     hide, deprecated ones are tagged, removed ones move to the removed band, which the totals
     leave out. */
  function setUpFilters(narrow) {
    const form = $("#matrix-filters");
    const table = $("table.matrix");
    if (!form || !table) return null;
    form.hidden = false;
    /* The filters stay folded, so the matrix comes first, unless the address sets one. */
    const box = $("#filters-box");
    const filtered = /[?&](q|group|revision|status|evidence|platforms|clients)=/.test(location.search);
    if (box && filtered) box.open = true;
    const count = $("#matrix-count");
    const empty = $("#matrix-empty");
    const revisionLink = $("#revision-link", form);
    const rows = $$("tbody tr[data-capability]", table);
    const removedBand = $("tbody[data-removed-band]", table);
    const revisionSelect = $("#filter-revision", form);
    /* Revision ids, oldest first (the selector lists them newest first). */
    const order = revisionSelect ? $$("option", revisionSelect).map((o) => o.value).reverse() : [];
    const defaultRevision = order.length ? order[order.length - 1] : "";
    const bodies = new Map($$("tbody[data-group]", table).map((body) => [body.dataset.group, body]));
    const heads = $$("thead th[data-client]", table);
    const clientCount = heads.length;
    const clientSearch = $("#client-search", form);
    const clientsCount = $("#clients-count", form);
    const clientLabels = $$(".filter-clients fieldset label", form);
    const evidenceCount = $$('input[name="evidence"]', form).length;
    const platformCount = $$('input[name="platform"]', form).length;
    const platformsOf = new Map(heads.map((th) => [th.dataset.client, (th.dataset.platforms || "none").split(" ")]));
    const strength = window.fieldnotesFilters ? window.fieldnotesFilters.strength(form) : () => {};

    function state() {
      const data = new FormData(form);
      return {
        q: String(data.get("q") || "").trim().toLowerCase(),
        group: data.get("group") || "",
        revision: data.get("revision") || "",
        statuses: new Set(data.getAll("status")),
        evidence: new Set(data.getAll("evidence")),
        platforms: new Set(data.getAll("platform")),
        clients: new Set(data.getAll("client")),
      };
    }

    /* A row's state at revision `revision`: "future", "current", "deprecated" or "removed". */
    function stateAt(row, revision) {
      const rank = (id) => (id ? order.indexOf(id) : -1);
      const at = rank(revision);
      const reached = (id) => rank(id) >= 0 && rank(id) <= at;
      if (row.dataset.revisions.split(" ").includes(revision)) {
        return reached(row.dataset.deprecated) ? "deprecated" : "current";
      }
      return reached(row.dataset.removed) ? "removed" : "future";
    }

    /* Each row in the band its state at `revision` puts it in, its tags shown to match. */
    function place(revision) {
      const states = new Map();
      for (const row of rows) {
        const state = revision ? stateAt(row, revision) : "current";
        states.set(row, state);
        const home = state === "removed" && removedBand ? removedBand : bodies.get(row.dataset.group);
        if (home && row.parentElement !== home) home.append(row);
        const deprecated = $(".tag-deprecated", row);
        if (deprecated) deprecated.hidden = state !== "deprecated";
        const removed = $(".tag-removed", row);
        if (removed) removed.hidden = state !== "removed";
      }
      const at = removedBand && $("[data-removed-at]", removedBand);
      if (at) at.textContent = ` by ${revision}`;
      return states;
    }

    function apply() {
      const s = state();
      const words = s.q.split(/\s+/).filter(Boolean);
      const tallies = new Map(heads.map((th) => [th.dataset.client, { yes: 0, partial: 0, no: 0 }]));
      const wanted = (cell) =>
        s.statuses.has(cell.dataset.status) &&
        (evidenceCount === 0 || s.evidence.has(cell.dataset.evidence || "none"));
      /* With "Checked by" narrowed, a client none of whose cells it keeps goes too. */
      const kept = new Set();
      if (s.evidence.size < evidenceCount) {
        for (const cell of $$("td[data-status]", table)) {
          if (cell.dataset.status !== "unknown" && wanted(cell)) kept.add(cell.dataset.client);
        }
      }
      const onPlatform = (client) =>
        platformCount === 0 || (platformsOf.get(client) || ["none"]).some((p) => s.platforms.has(p));
      const shown = (client) =>
        s.clients.has(client) &&
        (!narrow.clients || narrow.clients.has(client)) &&
        onPlatform(client) &&
        (s.evidence.size === evidenceCount || kept.has(client));
      for (const cell of $$("[data-client]", table)) {
        cell.hidden = !shown(cell.dataset.client);
      }
      const shownClients = heads.filter((th) => !th.hidden).length;
      const states = place(s.revision);
      let shownRows = 0;
      let countedRows = 0;
      for (const row of rows) {
        const group = row.dataset.group;
        const state = states.get(row);
        const search = row.dataset.search || "";
        let match = false;
        const cells = $$("td[data-status]", row);
        for (const cell of cells) {
          const on = wanted(cell);
          cell.classList.toggle("dim", !on);
          if (on && !cell.hidden) match = true;
        }
        const visible = cells.filter((cell) => !cell.hidden).map((cell) => cell.dataset.status);
        row.hidden =
          (s.group !== "" && group !== s.group) ||
          state === "future" ||
          !words.every((w) => search.includes(w)) ||
          !match ||
          (narrow.rows !== null && !narrow.rows.has(row.dataset.capability)) ||
          (narrow.differ && visible.every((v) => v === visible[0]));
        if (row.hidden) continue;
        shownRows += 1;
        if (state === "removed") continue;
        countedRows += 1;
        for (const cell of cells) {
          const tally = tallies.get(cell.dataset.client);
          if (tally && !cell.classList.contains("dim") && cell.dataset.status in tally) {
            tally[cell.dataset.status] += 1;
          }
        }
      }
      for (const body of $$("tbody[data-group], tbody[data-removed-band]", table)) {
        body.hidden = $$("tr[data-capability]", body).every((row) => row.hidden);
      }
      for (const th of heads) {
        const t = tallies.get(th.dataset.client);
        const share = (n) => (countedRows ? ((n * 100) / countedRows).toFixed(1) : "0") + "%";
        for (const status of ["yes", "partial", "no"]) {
          $(`.coverage-${status}`, th).style.width = share(t[status]);
        }
        const label = `${t.yes + t.partial + t.no} of ${countedRows} researched: ${t.yes} yes, ${t.partial} partial, ${t.no} no`;
        $(".coverage", th).title = label;
        $(".coverage-label", th).textContent = label;
      }
      for (const td of $$("tfoot td[data-client]", table)) {
        td.textContent = String(tallies.get(td.dataset.client)[td.parentElement.dataset.status]);
      }
      if (empty) empty.hidden = shownRows > 0 && shownClients > 0;
      const { rows: rowNoun = "capabilities", columns: columnNoun = "clients" } = count.dataset;
      count.textContent = `Showing ${shownRows} of ${rows.length} ${rowNoun} and ${shownClients} of ${clientCount} ${columnNoun}.`;
      if (clientsCount) clientsCount.textContent = `${s.clients.size} of ${clientCount}`;
      const option = revisionSelect ? revisionSelect.selectedOptions[0] : null;
      revisionLink.hidden = !s.revision;
      if (s.revision && option) {
        const link = $("a", revisionLink);
        link.href = option.dataset.url + "#support";
        link.textContent = `What each client supports of ${s.revision}`;
      }
      strength();
      remember(s);
      table.dispatchEvent(new CustomEvent("matrix:shown"));
    }

    /* The client list narrowed to the names holding what is typed in its search box. */
    function findClients() {
      const query = clientSearch ? clientSearch.value.trim().toLowerCase() : "";
      for (const label of clientLabels) {
        label.hidden = query !== "" && !label.dataset.name.includes(query);
      }
    }

    function remember(s) {
      const params = new URLSearchParams();
      if (s.q) params.set("q", s.q);
      if (s.group) params.set("group", s.group);
      if (s.revision && s.revision !== defaultRevision) params.set("revision", s.revision);
      if (s.statuses.size < 4) params.set("status", Array.from(s.statuses).join(","));
      if (s.evidence.size < evidenceCount) params.set("evidence", Array.from(s.evidence).join(","));
      if (s.platforms.size < platformCount) params.set("platforms", Array.from(s.platforms).join(","));
      if (s.clients.size < clientCount) params.set("clients", Array.from(s.clients).join(","));
      for (const [key, value] of new URLSearchParams(location.search)) {
        if (["need", "compare", "differ"].includes(key)) params.append(key, value);
      }
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
      set("q", params.get("q"));
      set("group", params.get("group"));
      set("revision", params.get("revision"));
      const sets = [["status", "status"], ["evidence", "evidence"], ["platform", "platforms"], ["client", "clients"]];
      if (window.fieldnotesFilters) window.fieldnotesFilters.restoreSets(form, sets);
    }

    function reset() {
      form.reset();
      setTimeout(() => {
        findClients();
        apply();
      }, 0);
    }

    form.addEventListener("change", (event) => {
      if (event.target !== clientSearch) apply();
    });
    form.addEventListener("input", (event) => {
      if (event.target === clientSearch) findClients();
      else if (event.target.name === "q") apply();
    });
    form.addEventListener("reset", () =>
      setTimeout(() => {
        findClients();
        apply();
      }, 0)
    );
    form.addEventListener("submit", (event) => event.preventDefault());
    form.addEventListener("click", (event) => {
      const button = event.target instanceof Element ? event.target.closest("[data-clients]") : null;
      if (!button) return;
      const on = button.dataset.clients === "all";
      for (const label of clientLabels) {
        if (!label.hidden) $("input", label).checked = on;
      }
      apply();
    });
    if (empty) $("[data-reset]", empty)?.addEventListener("click", reset);
    /* The client list closes on a click elsewhere and on Escape, like a menu. */
    const clients = $("#filter-clients", form);
    if (clients) likeAMenu(clients);
    restore();
    /* The HTML is the matrix unfiltered: only an address that sets a filter needs a pass over
       every cell on load (a long task on a slow phone otherwise). */
    if (filtered) apply();
    return apply;
  }

  /* ---------- Cell details, loaded on demand ---------- */

  /* A cell links to its row on the client's page, which holds its evidence: that is the
     answer without the script. With it, a cell opens the one panel over a backdrop without
     leaving the page, filled from that row (each client's page is fetched once, when one of
     its cells is first opened: the home page does not carry every cell's evidence), with the
     Markdown of the cell's badge to copy. The address follows (`#cell-<client>--<capability>`,
     which opens the cell when typed, pasted or reached by Back); Escape, Close and a click
     outside close it and give focus back to the cell. A cell nobody has researched says so
     without loading anything. Where nothing can be fetched (a build opened from disk), the
     cell's link is followed. */
  function setUpPanels() {
    const panel = $("#cell-panel");
    const table = $("table.matrix");
    if (!panel || !table) return;
    const backdrop = $("#panel-backdrop");
    const slot = (name) => $(`[data-slot="${name}"]`, panel);
    const slots = (name) => $$(`[data-slot="${name}"]`, panel);
    const base = (panel.dataset.base || location.origin).replace(/\/$/, "");
    const pages = new Map();
    let opener = null;
    let selected = null;
    let opened = 0;

    /* Every cell of the matrix by its address, `cell-<client>--<capability>`: gathered when
       an address first names a cell, not on load. */
    let cells = null;
    function cellsByAddress() {
      if (cells) return cells;
      cells = new Map();
      for (const row of $$("tbody tr[data-capability]", table)) {
        for (const td of $$("td[data-client]", row)) {
          cells.set(`cell-${td.dataset.client}--${row.dataset.capability}`, td);
        }
      }
      return cells;
    }

    /* The cell a `#cell-…` hash names, or null: one that does not decode, or names no cell,
       opens nothing and throws nothing. */
    function target(hash) {
      if (!hash.startsWith("#cell-")) return null;
      try {
        return cellsByAddress().get(decodeURIComponent(hash.slice(1))) || null;
      } catch {
        return null;
      }
    }

    /* A client's page, parsed, fetched once. */
    function clientPage(url) {
      if (!pages.has(url)) {
        pages.set(
          url,
          fetch(url)
            .then((response) => {
              if (!response.ok) throw new Error(`${response.status}`);
              return response.text();
            })
            .then((html) => new DOMParser().parseFromString(html, "text/html"))
        );
        pages.get(url).catch(() => pages.delete(url));
      }
      return pages.get(url);
    }

    /* The panel's body from the cell's row on its client's page (`doc`): the status and how
       it was checked, the why, each piece of evidence the row cites (from the page's evidence
       list, with its own kind and date), and the day the cell was last verified, so labelled. */
    function fromRow(row, doc) {
      const body = document.createDocumentFragment();
      const copy = (from, className, tag = "div") => {
        const el = document.createElement(tag);
        el.className = className;
        el.append(...Array.from(from.childNodes, (n) => document.importNode(n, true)));
        body.append(el);
        return el;
      };
      const status = $('td[data-label="Status"]', row);
      if (status) copy(status, "panel-status", "p");
      const how = $('td[data-label="How"] .checked-text', row);
      if (how) {
        const p = document.createElement("p");
        p.className = `checked checked-${$('td[data-label="How"]', row).dataset.method}`;
        p.textContent = how.textContent;
        body.append(p);
      }
      const why = $('td[data-label="Notes"] .why > summary', row);
      if (why) copy(why, "panel-notes", "p");
      const refs = $$('td[data-label="Evidence"] a.ref', row);
      if (refs.length) {
        const list = document.createElement("ul");
        list.className = "panel-evidence";
        for (const ref of refs) {
          const item = doc.getElementById(ref.getAttribute("href").slice(1));
          if (!item) continue;
          const li = document.importNode(item, true);
          li.removeAttribute("id");
          $(".cited-by", li)?.remove();
          list.append(li);
        }
        body.append(list);
      }
      const verified = $('td[data-label="Verified"] time', row);
      if (verified) {
        const p = document.createElement("p");
        p.className = "meta";
        const time = document.importNode(verified, true);
        time.dataset.freshness = "always";
        p.append("Last verified (the cell as a whole) ", time);
        body.append(p);
      }
      return body;
    }

    function fill(cell) {
      const row = cell.parentElement;
      const column = Array.prototype.indexOf.call(row.children, cell);
      const client = $("a.client-name", table.tHead.rows[0].cells[column]);
      const capability = $("th[scope=row] a", row);
      const capabilityId = row.dataset.capability;
      const clientId = cell.dataset.client;
      const status = cell.dataset.status;
      const cellLink = $("a", cell);
      for (const a of slots("client")) {
        a.href = client.href;
        a.textContent = client.title;
      }
      for (const a of slots("capability")) {
        a.href = capability.href;
        a.textContent = capability.textContent;
      }
      for (const span of slots("client-name")) span.textContent = client.title;
      for (const span of slots("capability-name")) span.textContent = capability.textContent;
      slot("evidence").href = client.href + "#support";
      /* The badge: this cell's status as an image (served at `badges/<client>/<capability>.svg`),
         linked to the cell's evidence on the client's page. */
      const evidencePage = new URL(cellLink.getAttribute("href"), base + "/").href;
      const image = `${base}/badges/${clientId}/${capabilityId}.svg`;
      slot("shield-code").value = `[![${client.title} ${capability.textContent}: ${status}](${image})](${evidencePage})`;
      slot("client-badge").href = `${base}/badges/${clientId}.svg`;
      slot("copy-status").textContent = "";
      const unknown = status === "unknown";
      slot("unknown").hidden = !unknown;
      /* An unknown cell says why, when the data does (`data-reason` on the cell). */
      const reason = cell.dataset.reason || "";
      slot("reason").textContent = reason;
      slot("reason").hidden = !reason;
      slot("no-reason").hidden = !!reason;
      const body = slot("body");
      body.replaceChildren();
      if (unknown) return Promise.resolve(true);
      const loading = document.createElement("p");
      loading.className = "muted";
      loading.textContent = "Loading the evidence…";
      body.append(loading);
      const ticket = ++opened;
      const url = cellLink.href.split("#")[0];
      return clientPage(url).then(
        (doc) => {
          if (ticket !== opened) return true;
          const found = doc.getElementById(`support-${capabilityId}`);
          body.replaceChildren(found ? fromRow(found, doc) : "");
          document.dispatchEvent(new CustomEvent("fieldnotes:added"));
          return true;
        },
        () => false
      );
    }

    function show(cell, from) {
      panel.classList.toggle("open", !!cell);
      if (backdrop) backdrop.hidden = !cell;
      document.body.classList.toggle("panel-open", !!cell);
      if (selected) {
        selected.classList.remove("selected");
        $("a", selected)?.removeAttribute("aria-current");
      }
      selected = cell;
      if (cell) {
        cell.classList.add("selected");
        const link = $("a", cell);
        link?.setAttribute("aria-current", "true");
        opener = from || link || opener;
        fill(cell).then((ok) => {
          /* Nothing to fetch from (a build opened from disk): go to the row itself. */
          if (!ok && selected === cell && link) location.href = link.href;
        });
        panel.focus({ preventScroll: true });
      } else if (opener) {
        opener.focus({ preventScroll: true });
        opener = null;
      }
    }

    function address(hash) {
      history.replaceState(history.state, "", location.pathname + location.search + hash);
    }

    function close() {
      address("");
      show(null);
    }

    document.addEventListener("click", (event) => {
      const element = event.target instanceof Element ? event.target : null;
      if (!element) return;
      if (backdrop && element === backdrop) return close();
      const copy = element.closest("[data-copy]");
      if (copy && panel.contains(copy)) {
        const field = document.getElementById(copy.dataset.copy);
        field.select();
        if (window.fieldnotesAsk) window.fieldnotesAsk.copyText(field.value, slot("copy-status"));
        return;
      }
      const link = element.closest("a");
      if (!link) return;
      if (link.classList.contains("panel-close")) {
        event.preventDefault();
        return close();
      }
      const cell = link.closest("td.cell");
      if (cell && table.contains(cell) && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        event.preventDefault();
        address(`#cell-${cell.dataset.client}--${cell.parentElement.dataset.capability}`);
        show(cell, link);
      }
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && panel.classList.contains("open")) close();
    });
    /* The address leads: a hash typed, pasted or reached by Back opens (or closes) its panel. */
    const follow = () => {
      const cell = target(location.hash);
      if (cell !== selected) show(cell);
    };
    window.addEventListener("hashchange", follow);
    window.addEventListener("popstate", follow);
    follow();
  }

  /* ---------- Keyboard: the matrix as one grid ---------- */

  /* The matrix is one tab stop (the ARIA grid pattern, with a roving tabindex): Tab enters it
     at the cell last visited, the arrow keys move between the cells shown (the filters' hidden
     rows and columns skipped), Home and End go to a row's ends (with Ctrl, the grid's), Page Up
     and Page Down move ten rows, and Enter opens what the cell links to. The tab stops are
     taken from the links when focus first enters the matrix, not on load (a change to every
     cell, a long task on a slow phone): Tab reaches the same first link either way. */
  function setUpGrid(table) {
    const region = table.closest(".matrix-scroll");
    table.setAttribute("role", "grid");
    if (region) {
      const label = region.getAttribute("aria-labelledby");
      if (label) table.setAttribute("aria-labelledby", label);
      region.removeAttribute("tabindex");
    }
    const gone = (el) => el.hidden || el.closest("[hidden]") !== null;
    /* What takes focus in a cell: its link, else the cell itself. */
    const item = (cell) => {
      const a = $("a", cell);
      if (a) return a;
      if (!cell.hasAttribute("tabindex")) cell.tabIndex = -1;
      return cell;
    };
    const grid = () =>
      Array.from(table.rows)
        .filter((tr) => !gone(tr) && !tr.classList.contains("band"))
        .map((tr) => Array.from(tr.cells).filter((c) => !gone(c)).map(item));
    let current = null;
    /* Whether the links have been taken out of the tab order (on first focus). */
    let roving = false;
    function rove(to) {
      if (!roving) {
        /* Every cell, those the filters hide included: one shown later is no tab stop. */
        for (const tr of table.rows) {
          if (!tr.classList.contains("band")) for (const cell of tr.cells) item(cell).tabIndex = -1;
        }
        roving = true;
      } else if (current && current !== to) current.tabIndex = -1;
      current = to;
      if (to) to.tabIndex = 0;
    }
    function settle() {
      if (!roving) return;
      const rows = grid();
      const all = rows.flat();
      if (!current || !all.includes(current)) {
        const first = rows.find((r) => r.length > 1) || rows[0];
        rove(first ? first[1] || first[0] : null);
      }
    }
    table.addEventListener("focusin", (event) => {
      const rows = grid();
      if (rows.flat().includes(event.target)) rove(event.target);
    });
    table.addEventListener("keydown", (event) => {
      const rows = grid();
      let r = rows.findIndex((row) => row.includes(document.activeElement));
      if (r < 0) return;
      let c = rows[r].indexOf(document.activeElement);
      const last = rows.length - 1;
      switch (event.key) {
        case "ArrowRight": c += 1; break;
        case "ArrowLeft": c -= 1; break;
        case "ArrowDown": r += 1; break;
        case "ArrowUp": r -= 1; break;
        case "PageDown": r += 10; break;
        case "PageUp": r -= 10; break;
        case "Home": if (event.ctrlKey) r = 0; c = 0; break;
        case "End": if (event.ctrlKey) r = last; c = Infinity; break;
        default: return;
      }
      event.preventDefault();
      r = Math.max(0, Math.min(last, r));
      c = Math.max(0, Math.min(rows[r].length - 1, c));
      const to = rows[r][c];
      rove(to);
      to.focus();
    });
    table.addEventListener("matrix:shown", settle);
  }

  /* What the ask pickers (ask.js) narrow the matrix to, read by the filters: the clients (a
     set, or null for all), the capability rows (likewise) and whether only differing rows
     show. */
  const narrow = { clients: null, rows: null, differ: false };
  const ask = window.fieldnotesAsk;
  const table = $("table.matrix");
  if (table) setUpGrid(table);
  const refilter = setUpFilters(narrow);
  if (refilter && ask) ask.setUpAsk(narrow, refilter, likeAMenu);
  setUpPanels();
})();
