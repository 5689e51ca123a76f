"""Drives `fieldnotes probe` with the official MCP Python SDK (`pip install mcp`), a client
this project did not write, over stdio, Streamable HTTP and legacy SSE, then kills a client
mid-session, then sends garbage over HTTP; after each, it reads the observation the probe
wrote and checks its results against what this client is known to do.

Usage: python3 python_client.py FIELDNOTES_BINARY   (run from .ci/run)
"""

import asyncio
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from mcp import ClientSession, types
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

FIELDNOTES = sys.argv[1]


async def roots(context):
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp", name="tmp")])


async def sampling(context, params):
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="hello"), model="none"
    )


async def elicitation(context, params):
    return types.ElicitResult(action="decline")


def callbacks(changed: asyncio.Event):
    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    return dict(
        list_roots_callback=roots,
        sampling_callback=sampling,
        elicitation_callback=elicitation,
        message_handler=on_message,
    )


async def every_page(list_page, key: str) -> list:
    """Every page of a list (the probe gives two): the items under `key`."""
    items, cursor = [], None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await list_page(params=params)
        items += getattr(page, key)
        cursor = page.next_cursor
        if not cursor:
            return items


async def exercise(session: ClientSession, changed: asyncio.Event) -> None:
    await session.initialize()
    tools = await every_page(session.list_tools, "tools")
    assert tools[0].name == "probe_echo", tools
    result = await session.call_tool("probe_echo", {"text": "hi"})
    # The text and structuredContent carry different marks, so a model-side transcript shows
    # which of the two a client passed its model, and both the session's own mark (whose
    # result it was).
    mark = re.fullmatch(r"fieldnotes-text-content: hi \((fieldnotes-session-\d+-\d+)\)", result.content[0].text)
    assert mark, result
    assert result.structured_content == {
        "echo": "hi",
        "part": "fieldnotes-structured-content",
        "session": mark.group(1),
    }, result
    await every_page(session.list_resources, "resources")
    await every_page(session.list_prompts, "prompts")
    # A client that heeds list_changed lists again; then time for the probe's requests.
    try:
        await asyncio.wait_for(changed.wait(), 1.5)
        await session.list_tools()
    except asyncio.TimeoutError:
        pass
    await asyncio.sleep(1.5)


def observation(folder: Path, timeout: float = 15) -> str:
    """The one observation in `folder`, waiting for it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        written = sorted(folder.glob("*.md"))
        assert len(written) <= 1, written
        if written:
            return written[0].read_text()
        time.sleep(0.1)
    raise AssertionError(f"no observation in {folder}")


def status(text: str, capability: str):
    match = re.search(r"\n  " + re.escape(capability) + r":\n    status: '?(\w+)'?", text)
    return match.group(1) if match else None


def expect(text: str, **expected: str) -> None:
    for key, want in expected.items():
        capability = key.replace("__", ".")
        got = status(text, capability)
        assert got == want, f"{capability}: {got!r}, expected {want!r}\n{text}"


COMMON = dict(
    core__initialization="yes",
    tools__list="yes",
    tools__call="yes",
    resources__list="yes",
    prompts__list="yes",
    roots__list="yes",
    sampling__createMessage="yes",
    elicitation__form="yes",
)


def http_probe(folder: Path, mode: str):
    probe = subprocess.Popen(
        [FIELDNOTES, "probe", "http", "--port", "0", "--out", str(folder), "--quiet-timeout", "1", "--mode", mode],
        stdout=subprocess.PIPE,
        text=True,
    )
    url = probe.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    return probe, url


async def over_stdio(folder: Path) -> None:
    changed = asyncio.Event()
    params = StdioServerParameters(
        command=FIELDNOTES, args=["probe", "stdio", "--out", str(folder), "--quiet-timeout", "1"]
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, **callbacks(changed)) as session:
            await exercise(session, changed)
    text = observation(folder)
    expect(text, **COMMON, transports__stdio="yes")
    print("stdio: ok")


async def over_streamable_http(folder: Path) -> None:
    probe, url = http_probe(folder, "streamable")
    try:
        changed = asyncio.Event()
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write, **callbacks(changed)) as session:
                await exercise(session, changed)
        text = observation(folder)
        expect(
            text,
            **COMMON,
            transports__streamableHttp="yes",
            transports__protocolVersionHeader="yes",
            transports__sessions="yes",
        )
        print("streamable http: ok")
    finally:
        probe.send_signal(signal.SIGTERM)
        probe.wait(10)


async def over_sse(folder: Path) -> None:
    probe, url = http_probe(folder, "sse")
    try:
        changed = asyncio.Event()
        async with sse_client(url) as (read, write):
            async with ClientSession(read, write, **callbacks(changed)) as session:
                await exercise(session, changed)
        text = observation(folder)
        expect(text, **COMMON, transports__sse="yes")
        print("sse: ok")
    finally:
        probe.send_signal(signal.SIGTERM)
        probe.wait(10)


HANG = """
import asyncio, sys
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
async def main():
    params = StdioServerParameters(command=sys.argv[1], args=["probe", "stdio", "--out", sys.argv[2], "--quiet-timeout", "1"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            print("connected", flush=True)
            await asyncio.sleep(60)
asyncio.run(main())
"""


def killed_mid_session(folder: Path) -> None:
    client = subprocess.Popen([sys.executable, "-c", HANG, FIELDNOTES, str(folder)], stdout=subprocess.PIPE, text=True)
    assert client.stdout.readline().strip() == "connected"
    client.kill()
    client.wait(10)
    text = observation(folder)
    expect(text, core__initialization="yes", transports__stdio="yes")
    print("killed client: ok")


def garbage_over_http(folder: Path) -> None:
    probe, url = http_probe(folder, "streamable")
    try:
        def post(body: bytes):
            request = urllib.request.Request(
                url, data=body, method="POST",
                headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status
            except urllib.error.HTTPError as error:
                return error.code

        # Without a session a current probe refuses all of it, as a 2025-11-25 server does.
        assert post(b"this is not json") == 400
        assert post(b"[" * (2 << 20)) == 413
        assert post(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}') == 400
        foreign = urllib.request.Request(url, data=b"{}", method="POST", headers={"Origin": "https://evil.example"})
        try:
            urllib.request.urlopen(foreign, timeout=10)
            raise AssertionError("a foreign Origin was let in")
        except urllib.error.HTTPError as error:
            assert error.code == 403, error.code
    finally:
        probe.send_signal(signal.SIGTERM)
        probe.wait(10)
    # Each connection's refused requests are an observation of their own that claims nothing.
    written = sorted(folder.glob("*.md"))
    assert 1 <= len(written) <= 3, written
    for md in written:
        text = md.read_text()
        assert "\noutcome: no-session\n" in text, text
        assert "results: {}" in text, text
    print("garbage over http: ok")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name in ["stdio", "http", "sse", "killed", "garbage"]:
            (tmp / name).mkdir()
        await over_stdio(tmp / "stdio")
        await over_streamable_http(tmp / "http")
        await over_sse(tmp / "sse")
        killed_mid_session(tmp / "killed")
        garbage_over_http(tmp / "garbage")


if __name__ == "__main__":
    asyncio.run(main())
