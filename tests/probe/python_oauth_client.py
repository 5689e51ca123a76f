"""Drives `fieldnotes probe http --auth oauth` with the official MCP Python SDK's OAuth client
(`mcp.client.auth.OAuthClientProvider`, `pip install mcp`), a client this project did not
write: once registering by dynamic client registration, once with a Client ID Metadata
Document URL. Its redirect handler plays the browser (the probe's /authorize approves at once
and redirects; the code is read from that redirect). Then it checks the observation the probe
wrote: the authorization rules' results, and that no token or code reached the transcript.

Usage: python3 python_oauth_client.py FIELDNOTES_BINARY   (run from .ci/run)
"""

import asyncio
import http.client
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import httpx2
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

FIELDNOTES = sys.argv[1]
METADATA_URL = "https://client.example/oauth/metadata.json"


class Memory(TokenStorage):
    def __init__(self):
        self.tokens, self.client = None, None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


async def sign_in(url: str, metadata_url: str | None) -> tuple[list[str], list[str]]:
    """Signs in and lists tools; returns the tool names and every secret seen."""
    redirected: dict[str, str] = {}

    async def redirect(authorize_url: str) -> None:
        # The browser: GET the authorization URL, read the redirect to the callback.
        parts = urllib.parse.urlsplit(authorize_url)
        assert parts.hostname == "127.0.0.1", authorize_url
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        conn.request("GET", parts.path + "?" + parts.query)
        answer = conn.getresponse()
        assert answer.status == 302, answer.status
        query = urllib.parse.urlsplit(answer.getheader("location")).query
        redirected.update(urllib.parse.parse_qsl(query))

    async def callback() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=redirected["code"], state=redirected.get("state"),
                                       iss=redirected.get("iss"))

    storage = Memory()
    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="python-sdk-oauth-check",
            redirect_uris=["http://localhost:3030/callback"],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=redirect,
        callback_handler=callback,
        client_metadata_url=metadata_url,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=30) as client:
        async with streamable_http_client(url, http_client=client) as (read, write, *_):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
    secrets = [redirected["code"], storage.tokens.access_token]
    if storage.tokens.refresh_token:
        secrets.append(storage.tokens.refresh_token)
    return [t.name for t in tools.tools], secrets


def front_matter(md: Path) -> str:
    return md.read_text().split("---")[1]


def status_of(front: str, capability: str) -> str | None:
    m = re.search(rf"^  {re.escape(capability)}:\n    status: (\w+)", front, re.M)
    return m.group(1) if m else None


def run(registration: str, metadata_url: str | None, expect: dict[str, str]) -> None:
    out = Path(tempfile.mkdtemp())
    probe = subprocess.Popen(
        [FIELDNOTES, "probe", "http", "--port", "0", "--auth", "oauth", "--registration",
         registration, "--out", str(out), "--quiet-timeout", "1", "--command",
         "python_oauth_client.py"],
        stdout=subprocess.PIPE, text=True)
    try:
        url = probe.stdout.readline().strip()
        tools, secrets = asyncio.run(sign_in(url, metadata_url))
        assert tools, "no tools listed after signing in"
        time.sleep(1.5)
    finally:
        probe.send_signal(signal.SIGTERM)
        probe.wait(timeout=20)
    mds = sorted(out.glob("*.md"))
    sessions = [md for md in mds if "outcome: session" in md.read_text()]
    assert len(sessions) == 1, [md.name for md in mds]
    front = front_matter(sessions[0])
    for capability, want in expect.items():
        got = status_of(front, capability)
        assert got == want, f"{registration}: {capability} is {got}, not {want}\n{front}"
    transcript = sessions[0].with_suffix(".jsonl").read_text()
    for line in transcript.splitlines():
        json.loads(line)
    for secret in secrets:
        assert secret not in transcript and secret not in front, "a secret was recorded"
    print(f"python_oauth_client: --registration {registration}: "
          + ", ".join(f"{c}={status_of(front, c)}" for c in expect))


common = {
    "authorization.oauth": "yes",
    "authorization.protectedResourceMetadata": "yes",
    "authorization.pkce": "yes",
    "authorization.resourceIndicators": "yes",
    "core.initialization": "yes",
}
run("dcr", None, {**common, "authorization.dynamicClientRegistration": "yes"})
run("both", METADATA_URL, {**common, "authorization.clientIdMetadata": "yes"})
print("python_oauth_client: ok")
