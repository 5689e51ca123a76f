// A generated site the size of a real one: 40 clients × 30 capabilities, about 180 researched
// cells (most cells unknown, as in real data), several hundred notes authored the way people
// write them (the body restating the title, a metadata line, `## Sources`, `## Related notes`).
// Deterministic: the same options write the same files.
//
//   node tests/browser/generate.js DIR [--clients 40] [--capabilities 30] [--notes 400]

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A small deterministic generator (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    below: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const GROUPS = [
  ["transports", "Transports"],
  ["tools", "Tools"],
  ["resources", "Resources"],
  ["prompts", "Prompts"],
  ["sampling", "Sampling"],
  ["elicitation", "Elicitation"],
  ["roots", "Roots"],
  ["authorization", "Authorization"],
];
const FEATURES = {
  transports: ["stdio", "streamableHttp", "sse", "sessions", "protocolVersionHeader"],
  tools: ["list", "call", "listChanged", "structuredOutput", "annotations"],
  resources: ["list", "read", "templates", "subscribe", "listChanged"],
  prompts: ["list", "get", "arguments", "listChanged"],
  sampling: ["createMessage", "tools", "includeContext"],
  elicitation: ["form", "url"],
  roots: ["list", "listChanged"],
  authorization: ["oauth", "protectedResourceMetadata", "resourceIndicators", "clientIdMetadata"],
};
/** Client names of the lengths real ones have: short, long, with parentheses. */
const NAMES = [
  "Aster", "Bramble Code", "Cobalt Desktop", "Driftwood CLI", "Ember Studio (Agent mode)",
  "Fathom", "Glasswing IDE Assistant", "Harbor", "Ironbark Terminal Agent", "Juniper Chat",
  "Kestrel", "Lumen Workbench for Visual Editors", "Marlin", "Nimbus Cloud Console",
  "Obsidian Relay", "Pinecone Notebook (Labs)", "Quartz", "Riverstone Agent SDK",
  "Saffron Desktop", "Tidewater", "Umber Code Review Bot", "Vantage", "Willow Assistant",
  "Xylem Editor", "Yarrow", "Zinnia Mobile", "Alder Pair Programmer", "Basalt",
  "Cinder Shell", "Dune Research Assistant (beta)", "Egret", "Fjord Voice Agent", "Garnet",
  "Heron Browser Extension", "Indigo", "Jasper Workflow Runner", "Kelp", "Larch",
  "Mistral-like Local Runner", "Nettle", "Osprey", "Pumice",
];
const WORDS = [
  "transport", "session", "server", "header", "fallback", "config", "schema", "timeout",
  "retry", "endpoint", "token", "message", "initialize", "notification", "handshake",
  "reconnect", "capability", "default", "option", "stream",
];
const KINDS = ["idiosyncrasy", "default-behaviour", "compliance"];

const kebab = (s) =>
  s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** The site's vocabulary: clients, capabilities (in group order), revisions. */
export function vocabulary({ clients = 40, capabilities = 30 } = {}) {
  const caps = [];
  for (let round = 0; caps.length < capabilities; round++) {
    let added = false;
    for (const [group] of GROUPS) {
      const name = FEATURES[group][round];
      if (name && caps.length < capabilities) {
        caps.push({ id: `${group}.${name}`, group, name });
        added = true;
      }
    }
    if (!added) break;
  }
  const order = new Map(GROUPS.map(([g], i) => [g, i]));
  caps.sort((a, b) => order.get(a.group) - order.get(b.group));
  const names = NAMES.slice(0, clients);
  const ids = names.map(kebab);
  return {
    clients: names.map((title, i) => ({ id: ids[i], title })),
    capabilities: caps,
  };
}

function day(r, from = "2025-06-01", span = 540) {
  const d = new Date(from + "T00:00:00Z");
  d.setUTCDate(d.getUTCDate() + r.below(span));
  return d.toISOString().slice(0, 10);
}

const hex = (r, n) => Array.from({ length: n }, () => "0123456789abcdef"[r.below(16)]).join("");

/** Writes the site into `dir` (emptied first). Returns what it wrote, for tests. */
export function generate(dir, { clients = 40, capabilities = 30, notes = 400, seed = 7 } = {}) {
  const r = rng(seed);
  const vocab = vocabulary({ clients, capabilities });
  rmSync(dir, { recursive: true, force: true });
  for (const section of ["research", "clients", "capabilities"]) {
    mkdirSync(path.join(dir, "content", section), { recursive: true });
  }
  writeFileSync(path.join(dir, "site.yaml"), siteYaml(vocab));

  for (const [i, cap] of vocab.capabilities.entries()) {
    const introduced = REVISIONS[Math.min(3, i % 5 === 4 ? 3 : i % 3)];
    const title = `${cap.name.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase())} (${cap.group})`;
    writeFileSync(
      path.join(dir, "content/capabilities", `${cap.id}.md`),
      `---\nid: ${cap.id}\ntitle: ${title}\ngroup: ${cap.group}\nspecUrl: https://spec.example.org/${cap.id}\nintroduced: ${introduced}\n---\n\nWhat \`${cap.id}\` means, for the generated site.\n`
    );
  }

  // Notes first, so support cells can cite them.
  const written = [];
  for (let n = 0; n < notes; n++) {
    const client = vocab.clients[r.below(vocab.clients.length)];
    const other = vocab.clients[r.below(vocab.clients.length)];
    const cap = vocab.capabilities[r.below(vocab.capabilities.length)];
    const w1 = r.pick(WORDS);
    const w2 = r.pick(WORDS);
    const title =
      n % 17 === 0
        ? `${client.title} keeps the ${w1} ${w2} across reconnects, unlike most clients read so far (${n})`
        : `${client.title} handles the ${w1} ${w2} its own way (${n})`;
    const id = `${kebab(client.title)}-${w1}-${w2}-${n}`;
    written.push({ id, title, client, other, cap });
  }
  for (const [n, note] of written.entries()) {
    const related = [n + 1, n + 3, n - 2]
      .filter((k) => k >= 0 && k < written.length && k !== n)
      .map((k) => written[k].id);
    writeFileSync(path.join(dir, "content/research", `${note.id}.md`), noteFile(r, n, note, related));
  }

  const byClient = new Map(vocab.clients.map((c) => [c.id, []]));
  for (const note of written) byClient.get(note.client.id).push(note);
  let researched = 0;
  for (const [i, client] of vocab.clients.entries()) {
    // A few clients researched deeply, most lightly: about 180 cells in all.
    const depth = i < 4 ? 0.55 : i < 12 ? 0.2 : 0.06;
    const cells = vocab.capabilities.filter(() => r.chance(depth));
    researched += cells.length;
    writeFileSync(
      path.join(dir, "content/clients", `${client.id}.md`),
      clientFile(r, client, cells, byClient.get(client.id))
    );
  }
  return { ...vocab, notes: written, researched };
}

function siteYaml(vocab) {
  let s =
    "title: Generated MCP matrix\nbaseUrl: https://generated.example.org\n" +
    "description: A generated site the size of a real one, for browser tests.\n" +
    "repository: https://github.com/example/generated\ntheme: default\nspecVersions:\n";
  const titles = ["First public revision", "Streamable HTTP and OAuth 2.1", "Elicitation", "Tasks"];
  for (const [i, rev] of REVISIONS.entries()) {
    s += `  - id: ${rev}\n    date: ${rev}\n    title: ${titles[i]}\n    url: https://spec.example.org/${rev}\n`;
  }
  s += "capabilityGroups:\n";
  const used = new Set(vocab.capabilities.map((c) => c.group));
  for (const [id, title] of GROUPS) if (used.has(id)) s += `  - id: ${id}\n    title: ${title}\n`;
  s += "kinds:\n";
  for (const k of KINDS) s += `  - id: ${k}\n    title: ${k[0].toUpperCase()}${k.slice(1).replace("-", " ")}\n`;
  s += "lint:\n  staleAfterDays: 180\n  rules:\n    FN304: off\n    FN504: off\n";
  return s;
}

function noteFile(r, n, note, related) {
  const { id, title, client, other, cap } = note;
  const kind = KINDS[n % KINDS.length];
  const status = n % 23 === 5 ? "draft" : "current";
  const verified = day(r);
  const clients = client.id === other.id ? [client] : [client, other];
  const revisions = [REVISIONS[1 + (n % 3)]];
  const commit = hex(r, 40);
  const file = `src/mcp/${r.pick(WORDS)}_${r.pick(WORDS)}.ts`;
  const from = 10 + r.below(400);
  const sources = [
    { url: `https://github.com/example/${client.id}`, title: `${file}, the _run_${r.pick(WORDS)} branch`, commit, path: `${file}:${from}-${from + 30}`, date: verified },
  ];
  if (n % 3 === 0) {
    sources.push({ url: `https://github.com/example/${client.id}`, title: `${file}, where the default is set`, commit, path: `${file}:${from + 40}-${from + 52},${from + 60}-${from + 64}`, date: verified });
  }
  let s = `---\nid: ${id}\ntitle: ${title}\nkind: ${kind}\n`;
  s += `summary: When a config names no \`transport\`, ${client.title} picks its \`${cap.id}\` default by itself; the \`_run_http\` path decides, and a reconnect keeps it.\n`;
  s += `capabilities:\n  - ${cap.id}\nclients:\n${clients.map((c) => `  - ${c.id}\n`).join("")}`;
  s += `specVersions:\n${revisions.map((v) => `  - ${v}\n`).join("")}sources:\n`;
  for (const src of sources) {
    s += `  - url: ${src.url}\n    title: "${src.title}"\n    commit: ${src.commit}\n    path: ${src.path}\n    date: ${src.date}\n`;
  }
  s += `status: ${status}\nlastVerified: ${verified}\nrelated:\n${related.map((x) => `  - ${x}\n`).join("")}`;
  s += `canonical: https://generated.example.org/research/${id}\nlast-updated: ${verified}\n---\n\n`;
  // The body, as authors write it: the title again, a metadata line, prose, Sources, Related.
  s += `# ${title}\n\n`;
  s += `Kind: ${kind} · Status: ${status} · Last verified: ${verified} · Clients: ${clients.map((c) => `[${c.id}](/clients/${c.id}.md)`).join(", ")} · Revisions: ${revisions.map((v) => `\`${v}\``).join(", ")}\n\n`;
  for (let p = 0; p < 3 + (n % 4); p++) {
    const words = Array.from({ length: 40 + r.below(40) }, () => r.pick(WORDS)).join(" ");
    s += `The \`${r.pick(WORDS)}_${r.pick(WORDS)}\` code path ${words}; see [${cap.id}](/capabilities/${cap.id}.md).\n\n`;
  }
  if (n % 5 === 0) {
    s += "## How it was checked\n\nRead at the pinned commit.\n\n## What changes\n\nNothing yet.\n\n### Details\n\n```ts\nif (config.type === undefined) return sse(url);\n```\n\n";
  }
  s += "## Sources\n\n";
  for (const src of sources) {
    s += `- [${src.title}](${src.url}), commit \`${src.commit}\`, \`${src.path}\`, ${src.date}\n`;
  }
  if (related.length) {
    s += "\n## Related notes\n\n";
    for (const x of related) s += `- [${x}](/research/${x}.md)\n`;
  }
  return s;
}

function clientFile(r, client, cells, notes) {
  let s = `---\nid: ${client.id}\ntitle: ${client.title}\nvendor: ${client.title.split(" ")[0]} Labs\n`;
  s += `homepage: https://${client.id}.example.org\nrepository: https://github.com/example/${client.id}\n`;
  s += `clientInfoNames:\n  - ${client.id}\nplatforms:\n  - cli\n`;
  if (cells.length) s += "support:\n";
  for (const cap of cells) {
    const status = r.pick(["yes", "yes", "yes", "partial", "no"]);
    s += `  ${cap.id}:\n    status: ${status}\n`;
    s += `    notes: The \`${cap.name}\` handler is registered at startup; a \`_private_flag\` turns it off.\n`;
    const note = notes.find((x) => x.cap.id === cap.id) || (r.chance(0.3) ? notes[0] : null);
    if (note) s += `    research:\n      - ${note.id}\n`;
    s += `    sources:\n      - url: https://github.com/example/${client.id}\n        title: src/mcp/client.ts, the ${cap.name} handler\n        commit: ${hex(r, 40)}\n        path: src/mcp/client.ts:${10 + r.below(300)}-${320 + r.below(100)}\n`;
    if (r.chance(0.2)) s += `    version: "1.${r.below(20)}.0"\n`;
    s += `    lastVerified: ${day(r)}\n`;
  }
  s += `---\n\n${client.title} is a generated client.\n`;
  return s;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const options = {};
  let dir = null;
  for (let i = 0; i < args.length; i++) {
    const flag = /^--(clients|capabilities|notes)$/.exec(args[i]);
    if (flag) options[flag[1]] = Number(args[++i]);
    else dir = args[i];
  }
  if (!dir) {
    console.error("usage: node generate.js DIR [--clients N] [--capabilities N] [--notes N]");
    process.exit(2);
  }
  const made = generate(path.resolve(dir), options);
  console.error(
    `wrote ${made.clients.length} clients, ${made.capabilities.length} capabilities, ` +
      `${made.notes.length} notes, ${made.researched} researched cells to ${dir}`
  );
}
