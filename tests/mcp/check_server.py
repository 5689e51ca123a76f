"""Drives `fieldnotes mcp` with the official MCP Python SDK (`pip install mcp`), a client this
project did not write: over stdio and over Streamable HTTP it initializes, lists and calls
every tool, lists and reads resources and templates, lists and gets the prompts, and asserts
on what comes back. Over stdio it also edits a note and waits for
`notifications/resources/list_changed`; over HTTP it checks that a foreign `Origin` gets 403.

Usage: python3 check_server.py FIELDNOTES_BINARY SITE_ROOT
(tests/mcp/run_sdk_checks.sh, run by .ci/run, runs it on the example site at the repository
root.)
"""

import asyncio
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

TODAY = "2026-12-06"
TOOLS = {"support", "search", "note", "clients", "capabilities", "compare", "lint"}
PROMPTS = {"verify-claim", "research-cell"}


def copy_site(root: Path, into: Path) -> Path:
    """A copy of the site to edit (site.yaml and the folders a site reads)."""
    site = into / "site"
    site.mkdir()
    shutil.copy2(root / "site.yaml", site / "site.yaml")
    for folder in ["content", "templates", "themes", "static"]:
        if (root / folder).is_dir():
            shutil.copytree(root / folder, site / folder)
    return site


def data(result):
    """A tool's structured output, after checking the call succeeded."""
    assert not result.is_error, f"tool error: {text(result)}"
    assert result.structured_content is not None, "no structured content"
    # The text content carries the same JSON, for clients that read only text.
    assert json.loads(text(result)) == result.structured_content
    return result.structured_content


def text(result) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def refused(result, *words: str) -> str:
    """A tool error whose message holds `words` (the did-you-mean suggestion)."""
    assert result.is_error, f"expected a tool error, got {result.structured_content}"
    message = text(result)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


async def exercise(session: ClientSession, site: Path) -> None:
    init = await session.initialize()
    assert init.server_info.name == "fieldnotes", init.server_info
    assert init.capabilities.tools is not None
    assert init.capabilities.prompts is not None
    assert init.capabilities.resources is not None
    assert init.capabilities.resources.list_changed

    # Tools: every one listed, with a JSON Schema input and an output schema.
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS, set(tools)
    for tool in tools.values():
        assert tool.input_schema.get("type") == "object", tool.name
        assert tool.output_schema and tool.output_schema.get("type") == "object", tool.name
        assert tool.description, tool.name
    assert "client" in tools["support"].input_schema["properties"]
    assert tools["search"].input_schema["required"] == ["query"]

    # support: one cell, by title and alias, with pinned sources and its age.
    answer = data(
        await session.call_tool("support", {"client": "Cline", "capability": "transport.sse"})
    )
    assert answer["today"] == TODAY
    [cell] = answer["cells"]
    assert cell["client"] == "cline" and cell["capability"] == "transports.sse", cell
    assert cell["status"] in {"yes", "partial", "no", "unknown"}
    assert cell["research"], "the note about Cline and SSE is cited"
    note = next(n for n in cell["research"] if n["id"] == "cline-defaults-a-url-server-to-sse")
    pinned = [s for s in note["sources"] if s["commit"]]
    assert pinned and pinned[0]["ranges"], note["sources"]
    assert re.fullmatch(r"[0-9a-f]{7,40}", pinned[0]["commit"])
    assert "#L" in pinned[0]["ranges"][0]["href"]
    verified = datetime.date.fromisoformat(note["lastVerified"])
    assert note["ageDays"] == (datetime.date.fromisoformat(TODAY) - verified).days
    if cell["lastVerified"]:
        verified = datetime.date.fromisoformat(cell["lastVerified"])
        assert cell["ageDays"] == (datetime.date.fromisoformat(TODAY) - verified).days

    # support: a whole row and a whole column.
    capabilities = data(await session.call_tool("capabilities", {}))["capabilities"]
    clients = data(await session.call_tool("clients", {}))["clients"]
    row = data(await session.call_tool("support", {"client": "zed"}))["cells"]
    assert len(row) == len(capabilities) and {c["client"] for c in row} == {"zed"}
    column = data(await session.call_tool("support", {"capability": "elicitation.form"}))
    assert len(column["cells"]) == len(clients)

    # Bad input: tool errors that read like lint and suggest the closest id.
    refused(await session.call_tool("support", {"client": "clinee"}), "client", "`cline`")
    refused(
        await session.call_tool("support", {"client": "cline", "capability": "transports.sset"}),
        "capability",
        "`transports.sse`",
    )
    refused(await session.call_tool("support", {}), "client", "capability")

    # search: the site's own index, absolute URLs.
    found = data(await session.call_tool("search", {"query": "streamable http", "limit": 3}))
    assert 0 < len(found["results"]) <= 3 and found["total"] >= len(found["results"])
    for hit in found["results"]:
        assert hit["url"].startswith("https://"), hit
        assert hit["markdownUrl"].endswith(".md"), hit
    assert not data(await session.call_tool("search", {"query": "zzzqqqxxx"}))["results"]
    refused(await session.call_tool("search", {"query": "?"}), "query")

    # note: front matter as data, body and file as Markdown.
    answer = data(await session.call_tool("note", {"id": "cline-defaults-a-url-server-to-sse"}))
    assert answer["frontMatter"]["id"] == "cline-defaults-a-url-server-to-sse"
    assert answer["frontMatter"]["sources"][0]["commit"]
    written = (site / "content/research/cline-defaults-a-url-server-to-sse.md").read_text()
    assert answer["markdown"] == written
    assert answer["body"].strip() and answer["body"] in written
    refused(
        await session.call_tool("note", {"id": "cline-defaults-a-url-server-to-ss"}),
        "note",
        "`cline-defaults-a-url-server-to-sse`",
    )

    # clients and capabilities.
    assert "cline" in {c["id"] for c in clients}
    assert all(c["url"].startswith("https://") for c in clients)
    transports = data(await session.call_tool("capabilities", {"group": "transports"}))
    assert transports["capabilities"]
    assert {c["group"] for c in transports["capabilities"]} == {"transports"}
    refused(await session.call_tool("capabilities", {"group": "transport"}), "`transports`")

    # compare: every capability for both, and the count of differences.
    compared = data(await session.call_tool("compare", {"a": "cline", "b": "Zed"}))
    assert compared["a"]["id"] == "cline" and compared["b"]["id"] == "zed"
    assert len(compared["rows"]) == len(capabilities)
    assert compared["differences"] == sum(r["differs"] for r in compared["rows"])
    only = data(
        await session.call_tool("compare", {"a": "cline", "b": "zed", "only_differences": True})
    )
    assert len(only["rows"]) == compared["differences"]
    refused(await session.call_tool("compare", {"a": "cline", "b": "zedd"}), "`zed`")

    # lint: a note as it is has no errors; a broken draft has findings at their lines.
    clean = data(await session.call_tool("lint", {"text": written}))
    assert clean["file"] == "content/research/cline-defaults-a-url-server-to-sse.md"
    assert clean["replaces"] and clean["errors"] == 0, clean
    draft = written.replace(
        "related:\n", "related:\n  - no-such-note\n", 1
    ).replace("id: cline-defaults-a-url-server-to-sse", "id: a-new-draft", 1)
    broken = data(
        await session.call_tool("lint", {"text": draft, "path": "content/research/a-new-draft.md"})
    )
    assert not broken["replaces"] and broken["errors"] >= 1, broken
    codes = {f["code"] for f in broken["findings"]}
    assert all(re.fullmatch(r"FN\d{3}", c) for c in codes), codes
    assert any("no-such-note" in f["message"] for f in broken["findings"]), broken
    refused(await session.call_tool("lint", {"text": "no front matter"}), "id")
    refused(await session.call_tool("lint", {"text": written, "path": "../site.yaml"}), "path")

    # Resources: every page's .md, readable; a template per kind.
    resources = (await session.list_resources()).resources
    pages = sum(
        len(list((site / "content" / d).glob("*.md")))
        for d in ["research", "clients", "capabilities", "guides"]
    )
    assert len(resources) == pages, (len(resources), pages)
    by_uri = {str(r.uri): r for r in resources}
    uri = "https://canimcp.io/research/cline-defaults-a-url-server-to-sse.md"
    assert by_uri[uri].mime_type == "text/markdown"
    [contents] = (await session.read_resource(uri)).contents
    assert contents.mime_type == "text/markdown"
    assert answer["frontMatter"]["title"] in contents.text, contents.text[:200]
    canonical = (await session.read_resource(uri.removesuffix(".md"))).contents[0]
    assert canonical.text == contents.text
    for uri in ["https://canimcp.io/clients/cline.md", "https://canimcp.io/guides/streamable-http-vs-sse.md"]:
        assert (await session.read_resource(uri)).contents[0].text.strip()
    templates = (await session.list_resource_templates()).resource_templates
    assert {t.uri_template for t in templates} == {
        f"https://canimcp.io/{d}/{{id}}.md" for d in ["research", "clients", "capabilities", "guides", "observations"]
    }
    try:
        await session.read_resource("https://canimcp.io/research/no-such-note.md")
        raise AssertionError("reading a page that does not exist succeeded")
    except Exception as error:  # the SDK raises its MCP error
        assert "no page" in str(error), error

    # Prompts.
    prompts = {p.name: p for p in (await session.list_prompts()).prompts}
    assert set(prompts) == PROMPTS
    verify = await session.get_prompt("verify-claim", {"note": "cline-defaults-a-url-server-to-sse"})
    steps = verify.messages[0].content.text
    assert pinned[0]["commit"] in steps and "lastVerified" in steps, steps
    research = await session.get_prompt("research-cell", {"client": "cline", "capability": "elicitation.url"})
    skeleton = research.messages[0].content.text
    assert "id: cline-elicitation-url" in skeleton and "status: draft" in skeleton, skeleton
    assert f"lastVerified: {TODAY}" in skeleton and "  - cline\n" in skeleton
    try:
        await session.get_prompt("verify-claim", {"note": "no-such-notee"})
        raise AssertionError("a prompt for an unknown note succeeded")
    except Exception as error:
        assert "no note" in str(error), error


async def over_stdio(binary: str, site: Path) -> None:
    changed = asyncio.Event()

    async def on_message(message) -> None:
        if getattr(message, "method", None) == "notifications/resources/list_changed":
            changed.set()

    params = StdioServerParameters(
        command=binary, args=["mcp", "--root", str(site), "--today", TODAY]
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await exercise(session, site)
            # A new note: the list changes, and the note is readable at once after.
            note = site / "content/research/cline-defaults-a-url-server-to-sse.md"
            added = site / "content/research/a-note-added-while-serving.md"
            added.write_text(
                note.read_text().replace(
                    "id: cline-defaults-a-url-server-to-sse", "id: a-note-added-while-serving"
                )
            )
            await asyncio.wait_for(changed.wait(), timeout=30)
            uris = {str(r.uri) for r in (await session.list_resources()).resources}
            assert "https://canimcp.io/research/a-note-added-while-serving.md" in uris


async def over_http(binary: str, site: Path) -> None:
    server = subprocess.Popen(
        [binary, "mcp", "--http", "--port", "0", "--root", str(site), "--today", TODAY],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
        assert match, f"no URL in {line!r}"
        url = match.group(1)
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as session:
                await exercise(session, site)
        check_origins(url)
    finally:
        server.terminate()
        server.wait(timeout=10)


def check_origins(url: str) -> None:
    """A page on another site may not reach the server; one served from this machine may; a
    request for another host name (DNS rebinding) is refused too."""
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "origin-check", "version": "1"},
            },
        }
    ).encode()

    def status(origin: str | None, host: str | None = None) -> int:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if origin:
            headers["Origin"] = origin
        if host:
            headers["Host"] = host
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    for foreign in ["https://evil.example", "http://localhost.evil.example:8080", "null"]:
        assert status(foreign) == 403, foreign
    for local in [None, "http://localhost:5173", "http://127.0.0.1:8080"]:
        assert status(local) == 200, local
    # A name that resolves to this machine only through DNS rebinding.
    assert status(None, host="rebound.evil.example") == 403


async def main() -> None:
    binary, root = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        site = copy_site(root, Path(tmp))
        await over_http(binary, site)
        print("streamable http: ok")
        await over_stdio(binary, site)
        print("stdio: ok")


if __name__ == "__main__":
    asyncio.run(main())
