"""Config writers for observe.py: for one client, a transport and a server, the files to write
and the commands to run before the trigger.

Each writer returns a list of actions: File (a path under `~/` for the scratch HOME, else in
the working folder; the text may hold {home} and {work}), Run (a setup command; {bin} is the
client's binary) and Args (words added to the end of the trigger's command line). A writer
never runs anything itself, so observe.py can both do and describe what it returns.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field

NAME = "probe"  # the server's name in every client's configuration


@dataclass
class Server:
    argv: list[str] = field(default_factory=list)  # a stdio server's command line
    url: str = ""  # or an HTTP server's URL


@dataclass
class File:
    path: str
    text: str


@dataclass
class Run:
    argv: list[str]


@dataclass
class Args:
    argv: list[str]


def js(value) -> str:
    return json.dumps(value, indent=2) + "\n"


def unsupported(client: str, transport: str):
    raise SystemExit(f"{client} has no configuration for transport {transport}")


def stdio_entry(server: Server) -> dict:
    return {"command": server.argv[0], "args": server.argv[1:]}


# ------------------------------------------------------------------ Claude Code

def claude_code(transport, server, trigger):
    if transport == "stdio":
        return [Run(["{bin}", "mcp", "add", NAME, "--"] + server.argv)]
    if transport in ("http", "sse"):
        return [Run(["{bin}", "mcp", "add", "--transport", transport, NAME, server.url])]
    # `claude mcp add NAME URL` would take the URL as a command; a JSON entry is the bare URL.
    return [File(".mcp.json", js({"mcpServers": {NAME: {"url": server.url}}}))]


# ------------------------------------------------------------------ Gemini CLI, Qwen Code

def _gemini_entry(transport, server):
    if transport == "stdio":
        return stdio_entry(server)
    if transport == "http":
        return {"httpUrl": server.url}
    if transport == "sse":
        return {"url": server.url, "type": "sse"}
    return {"url": server.url}


def gemini(transport, server, trigger):
    return [
        File("~/.gemini/settings.json", js({"mcpServers": {NAME: _gemini_entry(transport, server)}})),
        File("~/.gemini/trustedFolders.json", js({"{work}": "TRUST_FOLDER"})),
    ]


def qwen(transport, server, trigger):
    settings = {"mcpServers": {NAME: _gemini_entry(transport, server)},
                "security": {"auth": {"selectedType": "openai"}}}
    return [
        File("~/.qwen/settings.json", js(settings)),
        File("~/.qwen/trustedFolders.json", js({"{work}": "TRUST_FOLDER"})),
    ]


# ------------------------------------------------------------------ Codex

def _toml(value) -> str:
    return json.dumps(value)  # a JSON string or array of strings is valid TOML


def codex(transport, server, trigger):
    lines = [f"[mcp_servers.{NAME}]"]
    if transport == "stdio":
        lines += [f"command = {_toml(server.argv[0])}", f"args = {_toml(server.argv[1:])}"]
    elif transport in ("http", "url"):
        lines += [f"url = {_toml(server.url)}"]  # a url is always Streamable HTTP
    else:
        unsupported("codex", transport)
    return [File("~/.codex/config.toml", "\n".join(lines) + "\n")]


# ------------------------------------------------------------------ Copilot CLI

def copilot(transport, server, trigger):
    if transport == "stdio":
        return [Run(["{bin}", "mcp", "add", NAME, "--"] + server.argv)]
    if transport in ("http", "sse"):
        return [Run(["{bin}", "mcp", "add", "--transport", transport, NAME, server.url])]
    entry = {"url": server.url}
    return [File("~/.copilot/mcp-config.json", js({"mcpServers": {NAME: entry}}))]


# ------------------------------------------------------------------ Continue CLI

def continue_cli(transport, server, trigger):
    if transport == "stdio":
        entry = {"name": NAME, "command": server.argv[0], "args": server.argv[1:]}
    else:
        entry = {"name": NAME, "url": server.url}
        if transport == "http":
            entry["type"] = "streamable-http"
        elif transport == "sse":
            entry["type"] = "sse"
    config = {
        "name": "observe", "version": "0.0.1", "schema": "v1",
        "models": [{"name": "fake", "provider": "openai", "model": "gpt-4o", "apiKey": "x",
                    "roles": ["chat"]}],
        "mcpServers": [entry],
    }
    return [File("continue.yaml", js(config))]  # JSON is YAML


# ------------------------------------------------------------------ opencode

def opencode(transport, server, trigger):
    if transport == "stdio":
        entry = {"type": "local", "command": server.argv}
    else:
        entry = {"type": "remote", "url": server.url}  # no transport setting: HTTP, then SSE
    return [File("opencode.json", js({"$schema": "https://opencode.ai/config.json",
                                      "mcp": {NAME: entry}}))]


# ------------------------------------------------------------------ Cline CLI

def cline_cli(transport, server, trigger):
    if transport == "stdio":
        return [Run(["{bin}", "mcp", "add", "--yes", NAME, "--"] + server.argv)]
    if transport in ("http", "sse"):
        kind = "streamableHttp" if transport == "http" else "sse"
        return [Run(["{bin}", "mcp", "add", "--yes", "--transport", kind, NAME, server.url])]
    settings = {"mcpServers": {NAME: {"url": server.url}}}
    return [File("~/.cline/data/settings/cline_mcp_settings.json", js(settings))]


# ------------------------------------------------------------------ MCP Inspector CLI

def inspector(transport, server, trigger):
    tail = ["--method", "tools/list"]
    if transport == "stdio":
        return [Args(server.argv + tail)]
    if transport in ("http", "sse"):
        return [Args(["--transport", transport, "--server-url", server.url] + tail)]
    return [Args([server.url] + tail)]


# ------------------------------------------------------------------ mcp-remote

def mcp_remote(transport, server, trigger):
    kinds = {"http": ["--transport", "http-only"], "sse": ["--transport", "sse-only"]}
    if transport == "stdio":
        unsupported("mcp-remote", transport)
    return [Args([server.url] + kinds.get(transport, []))]


# ------------------------------------------------------------------ mcp-cli

def mcp_cli(transport, server, trigger):
    if transport == "stdio":
        # A command line after mcp-cli loses its --options to mcp-cli's own parser.
        config = {"mcpServers": {NAME: stdio_entry(server)}}
        return [File("mcp-cli.json", js(config)), Args(["--config", "{work}/mcp-cli.json"])]
    if transport == "http":
        return [Args(["--url", server.url])]
    if transport == "sse":
        return [Args(["--sse", server.url])]
    unsupported("mcp-cli", transport)


# ------------------------------------------------------------------ fast-agent

def fast_agent(transport, server, trigger):
    if transport == "stdio":
        return [Args(["--stdio", shlex.join(server.argv)])]
    return [Args(["--url", server.url])]


# ------------------------------------------------------------------ Amp

def amp(transport, server, trigger):
    if transport == "stdio":
        return [Run(["{bin}", "mcp", "add", NAME, "--"] + server.argv)]
    if transport == "url":
        return [Run(["{bin}", "mcp", "add", NAME, server.url])]  # transport auto-detected
    unsupported("amp", transport)


# ------------------------------------------------------------------ Goose

def goose(transport, server, trigger):
    # Extensions given on the command line (no config file); `--no-profile` keeps the user's
    # own extensions out. A URL is Streamable HTTP only: goose has no SSE extension flag.
    if transport == "stdio":
        # The extension's command line is split at spaces, quotes and all: a script holds it.
        script = "#!/bin/sh\nexec " + shlex.join(server.argv) + "\n"
        return [File("probe.sh", script), Args(["--with-extension", f"{NAME}:sh {{work}}/probe.sh"])]
    if transport in ("http", "url"):
        return [Args(["--with-streamable-http-extension", server.url])]
    unsupported("goose", transport)


# ------------------------------------------------------------------ Hermes Agent

def hermes(transport, server, trigger):
    # ~/.hermes/config.yaml; JSON is YAML, so each value is written as JSON.
    if transport == "stdio":
        entry = (f"    command: {json.dumps(server.argv[0])}\n"
                 f"    args: {json.dumps(server.argv[1:])}\n")
    elif transport in ("http", "sse"):
        entry = f"    url: {json.dumps(server.url)}\n"
        entry += "    transport: sse\n" if transport == "sse" else ""
    else:
        unsupported("hermes-agent", transport)
    return [File("~/.hermes/config.yaml", f"mcp_servers:\n  {NAME}:\n{entry}")]
