/* fieldnotes default theme: the support matrix's filters and cell panels (home and spec
   revision pages, after site.js). Every page works without it; it only adds to what the HTML
   already holds. */
"use strict";

(function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  /* ---------- Matrix filters ---------- */

  /* Filters by capability text, group, status and client, kept in the address
     (`/?q=sse&clients=cline,zed`) so a filtered matrix can be shared. The coverage bars and
     totals count what the filters show. The revision selector shows each capability's state
     at that revision (the newest, selected in the HTML, by default): rows not yet introduced
     hide, deprecated ones are tagged, removed ones move to the removed band, which the totals
     leave out. */
  function setUpFilters() {
    const form = $("#matrix-filters");
    const table = $("table.matrix");
    if (!form || !table) return;
    form.hidden = false;
    const count = $("#matrix-count", form);
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

    function state() {
      const data = new FormData(form);
      return {
        q: String(data.get("q") || "").trim().toLowerCase(),
        group: data.get("group") || "",
        revision: data.get("revision") || "",
        statuses: new Set(data.getAll("status")),
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
      for (const cell of $$("[data-client]", table)) {
        cell.hidden = !s.clients.has(cell.dataset.client);
      }
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
          const wanted = s.statuses.has(cell.dataset.status);
          cell.classList.toggle("dim", !wanted);
          if (wanted && !cell.hidden) match = true;
        }
        row.hidden =
          (s.group !== "" && group !== s.group) ||
          state === "future" ||
          !words.every((w) => search.includes(w)) ||
          !match;
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
      if (empty) empty.hidden = shownRows > 0 && s.clients.size > 0;
      count.textContent = `Showing ${shownRows} of ${rows.length} capabilities and ${s.clients.size} of ${clientCount} clients.`;
      if (clientsCount) clientsCount.textContent = `${s.clients.size} of ${clientCount}`;
      const option = revisionSelect ? revisionSelect.selectedOptions[0] : null;
      revisionLink.hidden = !s.revision;
      if (s.revision && option) {
        const link = $("a", revisionLink);
        link.href = option.dataset.url + "#support";
        link.textContent = `What each client supports of ${s.revision}`;
      }
      remember(s);
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
      set("q", params.get("q"));
      set("group", params.get("group"));
      set("revision", params.get("revision"));
      for (const [name, key] of [["status", "status"], ["client", "clients"]]) {
        const value = params.get(key);
        if (value === null) continue;
        const wanted = new Set(value.split(","));
        for (const box of $$(`input[name="${name}"]`, form)) box.checked = wanted.has(box.value);
      }
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
    if (clients) {
      document.addEventListener("click", (event) => {
        if (clients.open && !clients.contains(event.target)) clients.open = false;
      });
      clients.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && clients.open) {
          event.stopPropagation();
          clients.open = false;
          $("summary", clients).focus();
        }
      });
    }
    restore();
    apply();
  }

  /* ---------- Cell details ---------- */

  /* A cell's panel works without script (it is the target of the cell's #link); the script
     opens it over a backdrop without moving the page, marks the cell, follows the address
     (a changed #cell- hash opens that cell), closes on Escape, on Close and on a click
     outside, and gives focus back to the cell. A cell nobody has researched opens the one
     "unknown" panel, filled in from the cell. */
  function setUpPanels() {
    const panels = $$(".cell-panel");
    if (!panels.length) return;
    const table = $("table.matrix");
    const backdrop = $("#panel-backdrop");
    const unknown = $("#cell-unknown");
    let opener = null;
    let selected = null;

    /* Every cell of the matrix by its panel id, `cell-<client>--<capability>`. */
    const cells = new Map();
    if (table) {
      for (const row of $$("tbody tr[data-capability]", table)) {
        for (const td of $$("td[data-client]", row)) {
          cells.set(`cell-${td.dataset.client}--${row.dataset.capability}`, td);
        }
      }
    }

    /* The panel a `#cell-…` hash names, with the id, or null. The hash comes from the address
       bar or a link anyone may write: one that does not decode, or names anything but a cell,
       opens nothing and throws nothing (getElementById takes any id; querySelector would
       not). */
    function target(hash) {
      if (!hash.startsWith("#cell-")) return null;
      let id;
      try {
        id = decodeURIComponent(hash.slice(1));
      } catch {
        return null;
      }
      const panel = document.getElementById(id);
      if (panel && panel !== unknown && panel.classList.contains("cell-panel")) return { panel, id };
      if (unknown && cells.has(id) && cells.get(id).dataset.status === "unknown") {
        return { panel: unknown, id };
      }
      return null;
    }

    /* The unknown panel, filled in from cell `id`'s column and row (as text, never HTML). */
    function fill(id) {
      const cell = cells.get(id);
      const column = Array.prototype.indexOf.call(cell.parentElement.children, cell);
      const head = table.tHead.rows[0].cells[column];
      const client = $("a.client-name", head);
      const capability = $("th[scope=row] a", cell.parentElement);
      const slots = (name) => $$(`[data-slot="${name}"]`, unknown);
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
      for (const a of slots("evidence")) a.href = $("a", cell).href;
    }

    function show(found, from) {
      const panel = found ? found.panel : null;
      if (panel === unknown && found) fill(found.id);
      for (const p of panels) p.classList.toggle("open", p === panel);
      if (backdrop) backdrop.hidden = !panel;
      document.body.classList.toggle("panel-open", !!panel);
      if (selected) {
        selected.classList.remove("selected");
        $("a", selected)?.removeAttribute("aria-current");
      }
      selected = found ? cells.get(found.id) || null : null;
      if (selected) {
        selected.classList.add("selected");
        $("a", selected)?.setAttribute("aria-current", "true");
      }
      if (panel) {
        opener = from || (selected && $("a", selected)) || opener;
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
      if (element && backdrop && element === backdrop) {
        close();
        return;
      }
      const link = element ? element.closest("a") : null;
      if (!link) return;
      if (link.classList.contains("panel-close")) {
        event.preventDefault();
        close();
        return;
      }
      /* A matrix cell opens its panel, whatever its link says (an unknown cell's leads to the
         client's page when there is no script). */
      const cell = link.closest("td.cell");
      if (cell && table && table.contains(cell)) {
        const id = `cell-${cell.dataset.client}--${cell.parentElement.dataset.capability}`;
        const found = target("#" + id);
        if (found) {
          event.preventDefault();
          address("#" + id);
          show(found, link);
          return;
        }
      }
      let url;
      try {
        url = new URL(link.href, location.href);
      } catch {
        return;
      }
      if (url.pathname !== location.pathname) return;
      const found = target(url.hash);
      if (!found) return;
      event.preventDefault();
      address(url.hash);
      show(found, link);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && document.querySelector(".cell-panel.open")) close();
    });
    /* The address leads: a hash typed, pasted or reached by Back opens (or closes) its panel. */
    const follow = () => show(target(location.hash));
    window.addEventListener("hashchange", follow);
    window.addEventListener("popstate", follow);
    follow();
  }

  setUpFilters();
  setUpPanels();
})();
