#!/usr/bin/env python3
"""Extract the MCP project's shared client lists into content/lists/ and content/clients/.

Two lists in modelcontextprotocol/modelcontextprotocol say, in each vendor's own words, what
its client supports:

- docs/clients.mdx, the "Example Clients" page (removed by 2075a21d; read at its last
  version): one <McpClient name=… homepage=… supports="…"> block per client;
- docs/extensions/client-matrix.mdx, the extension support matrix: one table row per client,
  a <CHECK /> per extension it supports.

This script reads both at pinned commits from a local clone (git show, nothing else), writes
content/lists/<id>.yaml (which line of the list reports which feature for which client id),
and a content/clients/<id>.md for every listed client the site does not have yet (id, title,
homepage, repository; no prose is copied). Re-run it after a re-pin and review the diff.

    python3 tools/client_lists.py --repo /path/to/modelcontextprotocol.git [--site .]
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = "https://github.com/modelcontextprotocol/modelcontextprotocol"

# The list's name of a client → this site's id, where the name alone does not slug to it.
IDS = {
    "Claude Desktop App": "claude-desktop",
    "Claude Desktop": "claude-desktop",
    "Claude (web)": "claude-ai",
    "Claude.ai": "claude-ai",
    "VS Code GitHub Copilot": "vscode",
    "Windsurf Editor": "windsurf",
    "GitHub Copilot CLI": "copilot-cli",
    "Archestra.AI": "archestra",
    "Apigene MCP Client": "apigene",
    "ECA - Editor Code Assistant": "eca",
    "Klavis AI Slack/Discord/Web": "klavis-ai",
    "MCP Bundler for MacOS": "mcp-bundler",
    "mcpc MCP CLI client": "mcpc",
    "Mistral AI: Le Chat": "le-chat",
    "modelcontextchat.com": "modelcontextchat",
    "NVIDIA Agent Intelligence (AIQ) toolkit": "nvidia-aiq-toolkit",
    "TheiaAI/TheiaIDE": "theia-ai",
    "TypingMind App": "typingmind",
    # tryinspector.com, not the MCP project's own Inspector (mcp-inspector).
    "Inspector": "tryinspector",
}

# Platforms the list's name or address plainly tells; every other client is left without.
PLATFORMS = {
    "amazon-q-cli": ["cli"],
    "bob-shell": ["cli"],
    "mcpc": ["cli"],
    "claude-ai": ["web"],
    "jetbrains-junie": ["jetbrains"],
    "mcp-bundler": ["desktop"],
}

LISTS = [
    {
        "id": "mcp-clients",
        "title": "Example Clients (docs/clients.mdx)",
        "path": "docs/clients.mdx",
        "commit": "0dfb7b627031f94891a80241285a4ae5b8879609",
        "removedBy": "2075a21d039385fc90852b7e505060aa21bdaddd",
        "features": {
            "Resources": "resources.read",
            "Prompts": "prompts.get",
            "Tools": "tools.call",
            "Discovery": "tools.listChanged",
            "Instructions": "core.instructions",
            "Sampling": "sampling.createMessage",
            "Roots": "roots.list",
            "Elicitation": "elicitation.form",
            "CIMD": "authorization.clientIdMetadata",
            "DCR": "authorization.dynamicClientRegistration",
            "OAuth Client Credentials": "extensions.oauthClientCredentials",
            "Enterprise-Managed Authorization": "extensions.enterpriseManagedAuthorization",
            "Tasks": "tasks.toolCalls",
            "Apps": "extensions.apps",
        },
    },
    {
        "id": "mcp-extension-matrix",
        "title": "Extension Support Matrix (docs/extensions/client-matrix.mdx)",
        "path": "docs/extensions/client-matrix.mdx",
        "commit": "e1f93af48a6b5bd57df9922f5f1f62117541c7ac",
        "features": {
            "MCP Apps": "extensions.apps",
            "OAuth Client Credentials": "extensions.oauthClientCredentials",
            "Enterprise Auth": "extensions.enterpriseManagedAuthorization",
        },
    },
]


def slug(name):
    if name in IDS:
        return IDS[name]
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def show(repo, commit, path):
    out = subprocess.run(
        ["git", "-C", repo, "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.split("\n")


def attribute(value):
    value = value.strip()
    if not (value.startswith('"') and value.endswith('"')):
        sys.exit(f"unexpected attribute value {value!r}")
    return value[1:-1]


def example_clients(lines, features):
    """Each <McpClient> block: name, homepage, sourceCode, and its supports line."""
    clients = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "<McpClient":
            i += 1
            continue
        attrs, j = {}, i + 1
        while lines[j].strip() != ">":
            m = re.match(r"\s*(name|homepage|supports|sourceCode)=(.*)$", lines[j])
            if m:
                attrs[m.group(1)] = (attribute(m.group(2)), j + 1)
            j += 1
        supports, line = attrs.get("supports", ("", None))
        named = [s.strip() for s in supports.split(",") if s.strip()]
        for feature in named:
            base = feature.removesuffix(" (partial)")
            if base not in features:
                sys.exit(f"line {line}: unknown feature {feature!r}")
            if base not in lines[line - 1]:
                sys.exit(f"line {line} does not name {base!r}")
        clients.append(
            {
                "name": attrs["name"][0],
                "homepage": attrs.get("homepage", ("",))[0],
                "repository": attrs.get("sourceCode", ("",))[0],
                "line": line,
                "supports": named,
            }
        )
        i = j
    return clients


def extension_matrix(lines, features):
    """Each row of the table under `## Support matrix`: the client, and a <CHECK /> per column."""
    start = next(i for i, l in enumerate(lines) if l.strip() == "## Support matrix")
    header = None
    clients = []
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if not line.startswith("|"):
            if header:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [re.sub(r"^\[(.*?)\].*$", r"\1", c) for c in cells]
            for h in header[1:]:
                if h not in features:
                    sys.exit(f"line {i + 1}: unknown column {h!r}")
            continue
        if set(cells[0]) <= set("-: "):
            continue
        m = re.match(r"^\[(.*?)\]\((.*?)\)$", cells[0])
        if not m:
            sys.exit(f"line {i + 1}: unexpected client cell {cells[0]!r}")
        supports = [h for h, c in zip(header[1:], cells[1:]) if c == "<CHECK />"]
        clients.append(
            {"name": m.group(1), "homepage": m.group(2), "repository": "", "line": i + 1,
             "supports": supports}
        )
    return clients


def quote(text):
    """A YAML scalar: plain when safe, else double-quoted."""
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 ._/()-]*", text) and not text.endswith(" "):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_list(site, spec, clients):
    out = [
        f"# Written by tools/client_lists.py from {spec['path']} at {spec['commit'][:8]}; review "
        "the diff, do not edit by hand.",
        f"title: {quote(spec['title'])}",
        f"url: {REPOSITORY}",
        f"commit: {spec['commit']}",
        f"path: {spec['path']}",
    ]
    if "removedBy" in spec:
        out.append(f"removedBy: {spec['removedBy']}")
    out.append("features:")
    out += [f"  {quote(k)}: {v}" for k, v in spec["features"].items()]
    out.append("reports:")
    seen = set()
    for c in clients:
        cid = slug(c["name"])
        if cid in seen:
            sys.exit(f"two clients of {spec['path']} map to {cid}")
        seen.add(cid)
        supports = ", ".join(quote(s) for s in c["supports"])
        out.append(f"  {cid}: {{name: {quote(c['name'])}, line: {c['line']}, supports: [{supports}]}}")
    path = site / "content" / "lists" / f"{spec['id']}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return sum(len(c["supports"]) for c in clients)


def write_client(site, client):
    cid = slug(client["name"])
    path = site / "content" / "clients" / f"{cid}.md"
    if path.exists():
        return False
    homepage = client["homepage"]
    repository = client["repository"] or (homepage if homepage.startswith("https://github.com/") else "")
    out = ["---", f"id: {cid}", f"title: {quote(client['name'])}"]
    if homepage:
        out.append(f"homepage: {homepage}")
    if repository:
        out.append(f"repository: {repository}")
    if cid in PLATFORMS:
        out.append("platforms:")
        out += [f"  - {p}" for p in PLATFORMS[cid]]
    out += ["---", ""]
    path.write_text("\n".join(out))
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", required=True, help="a clone of modelcontextprotocol")
    parser.add_argument("--site", default=".", help="the site's root (default: .)")
    args = parser.parse_args()
    site = Path(args.site)
    readers = {"mcp-clients": example_clients, "mcp-extension-matrix": extension_matrix}
    for spec in LISTS:
        lines = show(args.repo, spec["commit"], spec["path"])
        clients = readers[spec["id"]](lines, spec["features"])
        claims = write_list(site, spec, clients)
        new = sum(write_client(site, c) for c in clients)
        print(f"{spec['path']}@{spec['commit'][:8]}: {len(clients)} clients, {claims} claims, "
              f"{new} new client files")


if __name__ == "__main__":
    main()
