// fieldnotes serve: reloads the page after each rebuild, and shows what broke the last one.
// Served at /__fieldnotes/client.js, only by `fieldnotes serve`. Every text from the server
// goes in through textContent, never as HTML.
(() => {
  "use strict";
  const base = "/__fieldnotes/";
  let overlay = null;

  function line(tag, text, style) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (style) element.style.cssText = style;
    return element;
  }

  function show(status) {
    if (overlay) {
      overlay.remove();
      overlay = null;
    }
    if (!status || status.ok) return;
    overlay = document.createElement("section");
    overlay.id = "fieldnotes-serve-overlay";
    overlay.setAttribute("role", "alert");
    overlay.style.cssText =
      "position:fixed;left:0;right:0;bottom:0;max-height:60vh;overflow:auto;" +
      "z-index:2147483647;background:#1b1b1f;color:#f2f2f2;padding:1em 1.5em;" +
      "font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;" +
      "border-top:4px solid #e5484d;box-shadow:0 -4px 16px rgba(0,0,0,.3)";
    const close = line("button", "×", "float:right;font:inherit;font-size:18px;" +
      "background:none;color:inherit;border:0;cursor:pointer");
    close.setAttribute("aria-label", "Hide");
    close.addEventListener("click", () => show(null));
    overlay.append(close, line("strong", String(status.message || "The build failed")));
    const list = document.createElement("ul");
    list.style.cssText = "margin:.5em 0 0;padding-left:1.2em";
    for (const problem of status.errors || []) {
      const where = problem.file
        ? `${problem.file}${problem.line ? `:${problem.line}:${problem.column}` : ""}: `
        : "";
      const code = problem.code ? `${problem.code} ` : "";
      const item = line("li", `${where}${code}${problem.message}`);
      if (problem.help) item.append(line("div", problem.help, "opacity:.75"));
      list.append(item);
    }
    overlay.append(list);
    document.body.append(overlay);
  }

  async function check() {
    try {
      const response = await fetch(base + "status", { cache: "no-store" });
      show(await response.json());
    } catch (_) {
      // The server is restarting; the event stream reconnects by itself.
    }
  }

  const events = new EventSource(base + "events");
  events.addEventListener("reload", () => location.reload());
  events.addEventListener("status", check);
  check();
})();
