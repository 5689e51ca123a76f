/* fieldnotes default theme: the home page's two questions of the support matrix, "which
   clients support…" and "compare clients…" (ask.html), and copying to the clipboard. Loaded
   before matrix.js, which calls them; without it the matrix and its filters work as before. */
"use strict";

window.fieldnotesAsk = (function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  /* ---------- Ask: which clients support all of these; compare these clients ---------- */

  /* Two pickers above the matrix. "Which clients support…": pick capabilities, and the
     matrix narrows to their rows and to the clients that support every one of them (yes, or
     partly: at least one partial, none no or unknown), the answer in words above it.
     "Compare clients…": pick clients, and the matrix narrows to their columns, side by side,
     optionally to the rows where they differ. Both live in the address
     (`/?need=transports.sse,authorization.oauth&compare=cline,zed`), so an answer can be
     shared; client and capability pages send readers here the same way (their forms repeat
     `need=` and `compare=`, which is read too). */
  function setUpAsk(narrow, refilter, likeAMenu) {
    const section = $("#ask");
    const form = $("#ask-form");
    const table = $("table.matrix");
    const answer = $("#answer");
    if (!section || !form || !table || !answer) return;
    section.hidden = false;
    const differBox = $("#differ-box");
    const heads = $$("thead th[data-client]", table);
    const names = new Map(heads.map((th) => [th.dataset.client, $("a.client-name", th)]));
    const rowsById = new Map($$("tbody tr[data-capability]", table).map((tr) => [tr.dataset.capability, tr]));
    /* A picker's boxes, out of their `<template>` (ask.html) the first time they are needed:
       when it opens (on the click on its summary, before it shows) or the address picks. */
    const pickers = $$("details.picker", form);
    const fill = (picker) => {
      const template = $(".picker-list > template", picker);
      if (template) template.replaceWith(template.content);
    };
    for (const picker of pickers) {
      $("summary", picker).addEventListener("click", () => fill(picker));
    }
    const boxes = (name) => $$(`input[name="${name}"]`, form);
    const picked = (name) => boxes(name).filter((b) => b.checked).map((b) => b.value);
    const titleOf = (id) => $("th[scope=row] a", rowsById.get(id)).textContent;
    const nameOf = (id) => names.get(id).title;

    /* What the address asks for: `need=a,b` or `need=a&need=b` (as a GET form sends). */
    function read() {
      const params = new URLSearchParams(location.search);
      form.elements.namedItem("differ").checked = params.get("differ") === "1";
      if (!params.has("need") && !params.has("compare")) return;
      pickers.forEach(fill);
      const list = (key) => params.getAll(key).flatMap((v) => v.split(",")).filter(Boolean);
      const need = new Set(list("need").filter((id) => rowsById.has(id)));
      const compare = new Set(list("compare").filter((id) => names.has(id)));
      for (const box of boxes("need")) box.checked = need.has(box.value);
      for (const box of boxes("compare")) box.checked = compare.has(box.value);
    }

    function write(need, compare, differ) {
      const params = new URLSearchParams(location.search);
      for (const key of ["need", "compare", "differ"]) params.delete(key);
      if (need.length) params.set("need", need.join(","));
      if (compare.length) params.set("compare", compare.join(","));
      if (differ && compare.length) params.set("differ", "1");
      const query = params.toString().replace(/%2C/g, ",");
      const url = location.pathname + (query ? "?" + query : "") + location.hash;
      /* Not on a load that asks nothing: replacing the address costs milliseconds. */
      if (url !== location.pathname + location.search + location.hash) history.replaceState(history.state, "", url);
    }

    /* Each client's answer for the capabilities `need`: "yes" (all yes), "partial" (all yes
       or partial), else null; with the capabilities that are only partial. */
    function verdicts(need) {
      const result = new Map();
      for (const [client] of names) {
        let verdict = "yes";
        const partly = [];
        for (const id of need) {
          const cell = $(`td[data-client="${CSS.escape(client)}"]`, rowsById.get(id));
          const status = cell ? cell.dataset.status : "unknown";
          if (status === "partial") {
            verdict = verdict && "partial";
            partly.push(id);
          } else if (status !== "yes") verdict = null;
        }
        if (verdict) result.set(client, { verdict, partly });
      }
      return result;
    }

    const link = (client) => {
      const a = document.createElement("a");
      a.href = names.get(client).href;
      a.textContent = nameOf(client);
      return a;
    };
    const list = (items, render) => {
      const span = document.createElement("span");
      items.forEach((item, i) => {
        if (i) span.append(i === items.length - 1 ? " and " : ", ");
        span.append(render(item));
      });
      return span;
    };
    const chip = (name, id, label) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "chip";
      button.dataset.remove = name;
      button.value = id;
      button.textContent = label + " ×";
      button.setAttribute("aria-label", `Remove ${label}`);
      return button;
    };

    function render(need, compare, found) {
      answer.replaceChildren();
      answer.hidden = !need.length && !compare.length;
      if (answer.hidden) return;
      if (need.length) {
        const p = document.createElement("p");
        p.className = "answer-need";
        const yes = [...found].filter(([, v]) => v.verdict === "yes").map(([c]) => c);
        const partly = [...found].filter(([, v]) => v.verdict === "partial").map(([c]) => c);
        const what = list(need, (id) => titleOf(id));
        if (!found.size) {
          p.append("No client is known to support ", what, ". ");
        } else {
          const strong = document.createElement("strong");
          strong.textContent = `${found.size} of ${names.size} clients`;
          p.append(strong, need.length > 1 ? " support all of " : " support ", what);
          if (yes.length) p.append(": ", list(yes, link));
          if (partly.length) {
            p.append(yes.length ? "; partly: " : ", partly: ");
            p.append(
              list(partly, (c) => {
                const span = document.createElement("span");
                span.className = "answer-partial";
                span.append(link(c), ` (partial: ${found.get(c).partly.map(titleOf).join(", ")})`);
                return span;
              })
            );
          }
          p.append(". ");
        }
        const rest = document.createElement("span");
        rest.className = "muted";
        rest.textContent = "The others say no or have not been checked for one of them.";
        p.append(rest);
        answer.append(p);
      }
      if (compare.length) {
        const p = document.createElement("p");
        p.className = "answer-compare";
        p.append("Comparing ", list(compare, link), " side by side.");
        answer.append(p);
      }
      const tools = document.createElement("p");
      tools.className = "answer-tools";
      for (const id of need) tools.append(chip("need", id, titleOf(id)), " ");
      for (const id of compare) tools.append(chip("compare", id, nameOf(id)), " ");
      const copy = document.createElement("button");
      copy.type = "button";
      copy.className = "button button-small";
      copy.dataset.copyLink = "";
      copy.textContent = "Copy link to this answer";
      const done = document.createElement("span");
      done.className = "copy-status";
      done.setAttribute("role", "status");
      tools.append(copy, " ", done);
      answer.append(tools);
    }

    /* `first`: the run on load, which leaves the matrix as the HTML has it when nothing is
       picked (a pass over every cell is a long task on a slow phone). */
    function run(first = false) {
      const need = picked("need");
      const compare = picked("compare");
      const differ = form.elements.namedItem("differ").checked;
      const found = need.length ? verdicts(need) : new Map();
      let clients = null;
      if (compare.length) clients = new Set(compare);
      if (need.length) {
        const supporters = new Set(found.keys());
        clients = clients ? new Set([...clients].filter((c) => supporters.has(c))) : supporters;
      }
      narrow.clients = clients;
      narrow.rows = need.length ? new Set(need) : null;
      narrow.differ = differ && compare.length > 1;
      if (differBox) differBox.hidden = compare.length < 2;
      for (const [name, n] of [["need", need.length], ["compare", compare.length]]) {
        $(`[data-count="${name}"]`, form).textContent = n ? `(${n})` : "";
      }
      render(need, compare, found);
      write(need, compare, differ);
      if (!first || need.length || compare.length) refilter();
    }

    form.addEventListener("change", (event) => {
      if (event.target.matches('input[type="checkbox"]')) run();
    });
    form.addEventListener("submit", (event) => event.preventDefault());
    form.addEventListener("input", (event) => {
      const kind = event.target.dataset.find;
      if (!kind) return;
      const query = event.target.value.trim().toLowerCase();
      for (const label of $$(`#pick-${kind} .picker-list label`)) {
        label.hidden = query !== "" && !label.dataset.name.includes(query);
      }
    });
    form.addEventListener("click", (event) => {
      const clear = event.target instanceof Element ? event.target.closest("[data-clear]") : null;
      if (!clear) return;
      for (const box of boxes(clear.dataset.clear)) box.checked = false;
      run();
    });
    answer.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const remove = target && target.closest("[data-remove]");
      if (remove) {
        const box = boxes(remove.dataset.remove).find((b) => b.value === remove.value);
        if (box) box.checked = false;
        run();
        return;
      }
      if (target && target.closest("[data-copy-link]")) {
        copyText(location.href, $(".copy-status", answer));
      }
    });
    /* A picker closes on a click elsewhere and on Escape, like a menu; one is open at a time,
       its search box focused. */
    for (const picker of pickers) {
      likeAMenu(picker);
      picker.addEventListener("toggle", () => {
        if (!picker.open) return;
        fill(picker);
        for (const other of pickers) if (other !== picker) other.open = false;
        $("input[type=search]", picker)?.focus();
      });
    }
    read();
    run(true);
  }

  /* Copies `text`, saying so in `status`. */
  function copyText(text, status) {
    const said = (message) => {
      if (status) status.textContent = message;
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        () => said("Copied."),
        () => said("Select the text and copy it.")
      );
    } else {
      said("Select the text and copy it.");
    }
  }

  return { setUpAsk, copyText };
})();
