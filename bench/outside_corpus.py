#!/usr/bin/env python3
"""An outside generator of fieldnotes sites, written from issue 33's description alone.

It shares no code, word list or seed with `examples/gen_corpus` on purpose: its job is to
make content the project's own generator did not think of, so that a benchmark on it shows
what the project's generator misses. What the issue says of the corpus it was given:

  10,000 notes of 3-6 KB (mean 4.6 KB); 1-3 sources, clients, capabilities and related ids
  each; one fenced block of unique code per note in JSON, Python, shell or TypeScript;
  25 clients, 40 capabilities.

Everything else (prose, client support maps, sizes of titles and summaries) is written the
way the bundled site (`content/`) writes it, by hand, not copied.

    bench/outside_corpus.py OUT [--notes N] [--seed S]

Python 3.8+, standard library only.
"""

import argparse
import os
import random
import string

CLIENT_NAMES = [
    "Aster", "Birch", "Cobalt", "Delta Desk", "Ember", "Fjord", "Garnet", "Harbor",
    "Iris", "Juniper", "Kestrel", "Lumen", "Marlin", "Nimbus", "Onyx", "Pylon",
    "Quartz", "Rook", "Sable", "Tundra", "Umber", "Vesper", "Wren", "Xylo", "Yarrow",
]
GROUPS = ["core", "transports", "tools", "resources", "prompts", "sampling", "roots",
          "elicitation", "logging", "authorization"]
FEATURES = ["list", "call", "subscribe", "listChanged", "templates", "cancel", "progress",
            "pagination", "metadata", "structured", "annotations", "headers"]
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
KINDS = ["idiosyncrasy", "default-behaviour", "compliance", "bug"]
VOCAB = ("the client reads config entry server once startup never again which means edits "
         "need restart tool list cached first page only cursor ignored result truncated "
         "silently approval prompt shown every call unless annotation says read only "
         "transport falls back after error retries three times backoff doubles header "
         "dropped wrapper forwards body but not session id stream closes early when "
         "notification arrives before response handler registered elicitation form "
         "answered with accept decline schema validated locally sampling request refused "
         "roots sent as file uris progress token echoed cancellation honoured late").split()


def slugify(text):
    keep = string.ascii_lowercase + string.digits
    out = []
    for ch in text.lower():
        if ch in keep:
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


class Corpus:
    def __init__(self, notes, seed):
        self.r = random.Random(seed)
        self.n = notes
        self.clients = [slugify(name) for name in CLIENT_NAMES]
        caps = []
        for g in GROUPS:
            for f in FEATURES:
                caps.append(f"{g}.{f}")
        self.r.shuffle(caps)
        self.capabilities = sorted(caps[:40])
        self.ids = []
        seen = set()
        for i in range(notes):
            words = self.r.sample(VOCAB, 4)
            base = f"{self.r.choice(self.clients)}-{'-'.join(words)}"
            nid = base if base not in seen else f"{base}-{i}"
            seen.add(nid)
            self.ids.append(nid)

    def sentence(self):
        words = [self.r.choice(VOCAB) for _ in range(self.r.randint(8, 22))]
        words[0] = words[0].capitalize()
        if self.r.random() < 0.3:
            k = self.r.randrange(1, len(words))  # not first: a YAML value may not open with `
            words[k] = f"`{words[k]}_{self.r.randint(0, 999)}`"
        return " ".join(words) + "."

    def paragraph(self, links):
        parts = [self.sentence() for _ in range(self.r.randint(2, 5))]
        if links:
            parts.insert(self.r.randrange(len(parts) + 1), self.r.choice(links))
        return " ".join(parts)

    # --- code: one unique block per note -------------------------------------------------
    def ident(self):
        return "".join(self.r.choice(string.ascii_lowercase) for _ in range(self.r.randint(4, 9)))

    def code(self, lang, i):
        r = self.r
        if lang == "json":
            entries = []
            for _ in range(r.randint(3, 7)):
                entries.append(f'    "{self.ident()}{i}": {{"command": "{self.ident()}", '
                               f'"args": ["--port", "{r.randint(1000, 65000)}"], '
                               f'"enabled": {str(r.random() < 0.5).lower()}}}')
            return '{\n  "mcpServers": {\n' + ",\n".join(entries) + "\n  }\n}\n"
        if lang == "python":
            fn, arg = self.ident(), self.ident()
            lines = [f"async def {fn}_{i}(session, {arg}: dict) -> list[str]:",
                     f'    """Reproduces note {i}."""', "    seen = []"]
            for _ in range(r.randint(3, 8)):
                lines.append(f"    result = await session.call_tool(\"{self.ident()}\", "
                             f"{{\"{self.ident()}\": {r.randint(0, 10**6)}}})")
                lines.append(f"    if result.isError:\n        raise RuntimeError(\"{self.ident()}\")")
                lines.append("    seen.append(result.content[0].text)")
            lines.append("    return seen")
            return "\n".join(lines) + "\n"
        if lang == "shell":
            lines = ["#!/bin/sh", "set -eu"]
            for _ in range(r.randint(3, 7)):
                v = self.ident().upper()
                lines.append(f'{v}="${{{v}:-{r.randint(1, 9999)}}}"')
                lines.append(f"npx -y @example/{self.ident()}-{i} --flag \"${v}\" | grep -c '{self.ident()}' || true")
            return "\n".join(lines) + "\n"
        # typescript
        iface = self.ident().capitalize()
        lines = [f"interface {iface}{i} {{"]
        for _ in range(r.randint(2, 5)):
            lines.append(f"  {self.ident()}: {r.choice(['string', 'number', 'boolean', 'string[]'])};")
        lines.append("}")
        lines.append(f"export async function {self.ident()}{i}(client: Client, opts: {iface}{i}): Promise<void> {{")
        for _ in range(r.randint(2, 6)):
            lines.append(f"  const {self.ident()} = await client.request({{ method: \"{r.choice(['tools/list', 'resources/read', 'prompts/get'])}\", "
                         f"params: {{ cursor: \"{self.ident()}{r.randint(0, 9999)}\" }} }}, {self.ident().capitalize()}Schema);")
        lines.append("}")
        return "\n".join(lines) + "\n"

    # --- files ---------------------------------------------------------------------------
    def note(self, i):
        r = self.r
        nid = self.ids[i]
        clients = r.sample(self.clients, r.randint(1, 3))
        caps = r.sample(self.capabilities, r.randint(1, 3))
        related = [self.ids[k] for k in r.sample(range(self.n), r.randint(1, 3)) if k != i]
        revs = sorted(r.sample(REVISIONS, r.randint(1, 2)))
        title = " ".join(nid.split("-")).capitalize()
        summary = " ".join(self.sentence() for _ in range(2))
        fm = [
            "---", f"id: {nid}", f"title: {title}", f"kind: {r.choice(KINDS)}",
            f"summary: {summary}", "capabilities:",
        ]
        fm += [f"  - {c}" for c in caps]
        fm.append("clients:")
        fm += [f"  - {c}" for c in clients]
        fm.append("specVersions:")
        fm += [f"  - {v}" for v in revs]
        fm.append("sources:")
        verified_month, verified_day = r.randint(6, 11), r.randint(1, 28)
        sources = []
        for _ in range(r.randint(1, 3)):
            repo = f"https://github.com/{r.choice(clients)}-dev/{r.choice(clients)}"
            path = f"src/{self.ident()}/{self.ident()}.ts"
            start = r.randint(1, 400)
            src = {
                "url": repo,
                "title": f"{path}, {self.ident()} handler",
                "commit": "".join(r.choice("0123456789abcdef") for _ in range(40)),
                "path": f"{path}:{start}-{start + r.randint(3, 60)}",
                # read on or before the day the note was last verified
                "date": f"2026-{r.randint(1, verified_month - 1):02d}-{r.randint(1, 28):02d}",
            }
            sources.append(src)
            fm += [f"  - url: {src['url']}", f"    title: {src['title']}",
                   f"    commit: {src['commit']}", f"    path: {src['path']}",
                   f"    date: {src['date']}"]
        verified = f"2026-{verified_month:02d}-{verified_day:02d}"
        fm += ["status: current", f"lastVerified: {verified}"]
        if related:
            fm.append("related:")
            fm += [f"  - {x}" for x in related]
        fm.append("---")

        links = [f"[{c}](/clients/{c}.md)" for c in clients]
        links += [f"[{c}](/capabilities/{c}.md)" for c in caps]
        links += [f"[this related note](/research/{x}.md)" for x in related]
        body = [f"# {title}", ""]
        target = int(r.triangular(2900, 5800, 4200))
        head = "\n".join(fm) + "\n\n"
        lang = r.choice(["json", "python", "shell", "typescript"])
        block = f"```{lang}\n{self.code(lang, i)}```"
        tail = ["## Sources", ""]
        tail += [f"- [{s['title']}]({s['url']}), commit `{s['commit']}`, `{s['path']}`" for s in sources]
        if related:
            tail += ["", "## Related notes", ""]
            tail += [f"- [{x}](/research/{x}.md)" for x in related]
        size = len(head) + len(block) + sum(len(t) + 1 for t in tail)
        placed = False
        heads = ["What happens", "Why it matters", "How to reproduce", "Workaround", "Details"]
        h = 0
        while size < target or not placed:
            if h < len(heads) and r.random() < 0.4:
                body += [f"## {heads[h]}", ""]
                h += 1
            p = self.paragraph(links)
            body += [p, ""]
            size += len(p) + 2
            if not placed and size > target * 0.45:
                body += [block, ""]
                placed = True
        return nid, head + "\n".join(body + tail) + "\n"

    def client(self, c, name):
        r = self.r
        lines = ["---", f"id: {c}", f"title: {name}", f"vendor: {name} Labs",
                 f"homepage: https://{c}.example.net", f"repository: https://github.com/{c}-dev/{c}",
                 "clientInfoNames:", f"  - {name}", "platforms:", f"  - {r.choice(['cli', 'vscode', 'desktop'])}",
                 "support:"]
        for cap in self.capabilities:
            if r.random() < 0.3:
                continue
            lines += [f"  {cap}:", f"    status: {r.choice(['yes', 'partial', 'no'])}",
                      f"    notes: {self.sentence()}", "    sources:",
                      f"      - url: https://github.com/{c}-dev/{c}",
                      f"        commit: {''.join(r.choice('0123456789abcdef') for _ in range(40))}",
                      f"        path: src/mcp/{self.ident()}.ts:{r.randint(1, 99)}-{r.randint(100, 300)}",
                      f"    lastVerified: 2026-{r.randint(6, 11):02d}-{r.randint(1, 28):02d}"]
        lines += ["---", "", f"{name} is a generated client.", ""]
        return "\n".join(lines)

    def capability(self, cap):
        group = cap.split(".")[0]
        return (f"---\nid: {cap}\ntitle: {cap.split('.')[1]}\ngroup: {group}\n"
                f"specUrl: https://spec.example.net/{cap}\nintroduced: {self.r.choice(REVISIONS)}\n---\n\n"
                f"The {cap} capability.\n")

    def site_yaml(self):
        s = ["title: Outside corpus", "baseUrl: https://outside.example.net",
             "description: A corpus from a generator outside fieldnotes.", "specVersions:"]
        for v in REVISIONS:
            s += [f"  - id: {v}", f"    date: {v}"]
        s.append("capabilityGroups:")
        for g in GROUPS:
            s += [f"  - id: {g}", f"    title: {g.capitalize()}"]
        s.append("kinds:")
        s += [f"  - id: {k}" for k in KINDS]
        return "\n".join(s) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=33)
    a = ap.parse_args()
    c = Corpus(a.notes, a.seed)
    for d in ["research", "clients", "capabilities"]:
        os.makedirs(os.path.join(a.out, "content", d), exist_ok=True)
    with open(os.path.join(a.out, "site.yaml"), "w") as f:
        f.write(c.site_yaml())
    for cid, name in zip(c.clients, CLIENT_NAMES):
        with open(os.path.join(a.out, "content", "clients", f"{cid}.md"), "w") as f:
            f.write(c.client(cid, name))
    for cap in c.capabilities:
        with open(os.path.join(a.out, "content", "capabilities", f"{cap}.md"), "w") as f:
            f.write(c.capability(cap))
    total = 0
    for i in range(a.notes):
        nid, text = c.note(i)
        total += len(text.encode())
        with open(os.path.join(a.out, "content", "research", f"{nid}.md"), "w") as f:
            f.write(text)
    print(f"wrote {a.notes} notes (mean {total / max(a.notes, 1) / 1024:.2f} KiB) to {a.out}")


if __name__ == "__main__":
    main()
