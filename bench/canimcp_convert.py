#!/usr/bin/env python3
"""Converts the canimcp.dev data set (github.com/blues/canimcp: `data/features.yaml` and
`data/clients/*.yaml`) into a fieldnotes site, as a user moving to fieldnotes would: each
feature becomes a capability, each category a capability group, each client a client page
whose `support` map keeps every cell's status, notes, source and date.

    bench/canimcp_convert.py CANIMCP_CHECKOUT OUT [--grow N]

`--grow N` also writes N research notes made from the cells that have notes (one note per
cell with a note, repeated with new ids until N), for a site of the data set's shape at the
size of a large knowledge base. Needs Python 3.8+ and PyYAML.

What does not map one to one, and what this does instead:
- canimcp's cells cite a documentation page or the apify/mcp-client-capabilities repository
  without a commit; fieldnotes wants GitHub sources pinned (FN404 unpinned-source), so the
  converted `site.yaml` turns that rule off, as a migration would until pins are added.
- capability ids become `group.camelCase` (FN101), in cells too;
- client ids with dots or underscores (`com.raycast.macos`) become kebab case
  (`com-raycast-macos`), as fieldnotes ids are (FN101); the original stays a clientInfo name.
"""

import argparse
import os
import sys

import yaml


def q(value):
    """A YAML scalar, quoted when plain style would misread it."""
    return yaml.safe_dump(value, default_flow_style=True, width=10**6).strip().removesuffix("\n...").strip()


def capability_id(feature, category):
    """canimcp's feature id as fieldnotes writes capability ids: `group.name`, name in camel
    case (`auth.client_id_metadata` → `auth.clientIdMetadata`; `initialization` →
    `core.initialization`)."""
    group, _, name = feature.rpartition(".")
    head, *rest = name.split("_")
    return f"{group or category}.{head}{''.join(w[:1].upper() + w[1:] for w in rest)}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("checkout")
    ap.add_argument("out")
    ap.add_argument("--grow", type=int, default=0)
    a = ap.parse_args()
    with open(os.path.join(a.checkout, "data", "features.yaml")) as f:
        features = yaml.load(f, Loader=yaml.BaseLoader)
    clients_dir = os.path.join(a.checkout, "data", "clients")
    clients = []
    for name in sorted(os.listdir(clients_dir)):
        if name.endswith(".yaml"):
            with open(os.path.join(clients_dir, name)) as f:
                clients.append(yaml.load(f, Loader=yaml.BaseLoader))
    for d in ["research", "clients", "capabilities"]:
        os.makedirs(os.path.join(a.out, "content", d), exist_ok=True)

    revisions = {str(features["spec_version"])}
    for c in clients:
        if c.get("protocolVersion"):
            revisions.add(str(c["protocolVersion"]))
    site = ["title: Can I MCP? (canimcp.dev data)", "baseUrl: https://canimcp.example.org",
            "description: The canimcp.dev data set, converted.", "specVersions:"]
    for r in sorted(revisions):
        site += [f"  - id: {r}", f"    date: {r}"]
    site.append("capabilityGroups:")
    for cat in features["categories"]:
        site += [f"  - id: {q(cat['id'])}", f"    title: {q(cat['title'])}"]
    site += ["kinds:", "  - id: support-note", "    title: Support note",
             "lint:", "  rules:", "    unpinned-source: off"]
    with open(os.path.join(a.out, "site.yaml"), "w") as f:
        f.write("\n".join(site) + "\n")

    known = {}
    for cat in features["categories"]:
        for feat in cat["features"]:
            new = capability_id(feat["id"], cat["id"])
            known[feat["id"]] = new
            feat["id"] = new
            lines = ["---", f"id: {q(feat['id'])}", f"title: {q(feat['title'])}",
                     f"group: {q(cat['id'])}"]
            url = feat.get("spec_url") or cat.get("spec_url")
            if url:
                lines.append(f"specUrl: {q(url)}")
            lines += ["---", "", f"{feat['title']} ({cat['title']}).", ""]
            with open(os.path.join(a.out, "content", "capabilities", f"{feat['id']}.md"), "w") as f:
                f.write("\n".join(lines))

    cells_with_notes = []
    for c in clients:
        c["id"] = c["id"].replace(".", "-").replace("_", "-").lower()
        lines = ["---", f"id: {q(c['id'])}", f"title: {q(c['title'])}"]
        if c.get("vendor"):
            lines.append(f"vendor: {q(c['vendor'])}")
        if c.get("url"):
            lines.append(f"homepage: {q(c['url'])}")
        if c.get("clientInfo_name"):
            lines += ["clientInfoNames:", f"  - {q(c['clientInfo_name'])}"]
        if c.get("platforms"):
            lines.append("platforms:")
            lines += [f"  - {q(p)}" for p in c["platforms"]]
        support = c.get("support") or {}
        if support:
            lines.append("support:")
        for cap, cell in support.items():
            if cap not in known:
                print(f"warning: {c['id']}: unknown feature {cap}", file=sys.stderr)
            cap = known.get(cap, cap)
            lines += [f"  {q(cap)}:", f"    status: {cell['status']}"]
            if cell.get("notes"):
                lines.append(f"    notes: {q(cell['notes'])}")
                cells_with_notes.append((c, cap, cell))
            if cell.get("source"):
                lines += ["    sources:", f"      - url: {q(cell['source'])}"]
            if cell.get("last_verified"):
                lines.append(f"    lastVerified: {cell['last_verified']}")
        lines += ["---", "", f"{c['title']}, from the canimcp.dev data set.", ""]
        with open(os.path.join(a.out, "content", "clients", f"{c['id']}.md"), "w") as f:
            f.write("\n".join(lines))

    for n in range(a.grow if cells_with_notes else 0):
        c, cap, cell = cells_with_notes[n % len(cells_with_notes)]
        nid = f"{c['id']}-{cap.replace('.', '-').lower()}-{n}"
        title = f"{c['title']}: {cap} ({n})"
        verified = str(cell.get("last_verified") or "2026-01-01")
        lines = ["---", f"id: {nid}", f"title: {q(title)}",
                 "kind: support-note", f"summary: {q(cell['notes'])}",
                 "capabilities:", f"  - {q(cap)}", "clients:", f"  - {q(c['id'])}",
                 "specVersions:", f"  - {c.get('protocolVersion') or features['spec_version']}",
                 f"status: current", f"lastVerified: {verified}"]
        if cell.get("source"):
            lines += ["sources:", f"  - url: {q(cell['source'])}", f"    title: {q(cap + ' in ' + c['title'])}"]
        lines += ["---", "", f"# {title}", "", cell["notes"], "",
                  f"Status: **{cell['status']}**, see [{c['title']}](/clients/{c['id']}.md) "
                  f"and [the capability](/capabilities/{cap}.md).", ""]
        with open(os.path.join(a.out, "content", "research", f"{nid}.md"), "w") as f:
            f.write("\n".join(lines))
    print(f"wrote {len(clients)} clients, {len(known)} capabilities, "
          f"{a.grow if cells_with_notes else 0} notes to {a.out}")


if __name__ == "__main__":
    main()
