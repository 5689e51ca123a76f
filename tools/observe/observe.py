#!/usr/bin/env python3
"""Drive a shipped MCP client's real MCP client at a server, with no model, and record how.

Each client in CLIENTS says which package and exact version it is, which binary runs it, how
its configuration is written for a server (`writer`), what makes its real MCP client connect
(`trigger`) and which transports it offers. Every run gets a scratch HOME and working folder
under --scratch, a minimal environment with fake keys (`x`), a `timeout`, and ends by killing
whatever the client left running (found by its scratch HOME, killed by process id).

    observe.py list                                  the table, one client a line
    observe.py install NAME|all [--version V]        npm/pip install into --prefix
    observe.py outdated                              pinned version against the registry's:
                                                     a newer one is proposed, never an older
    observe.py pin NAME VERSION                      set the pin in pins.json (checked)
    observe.py run NAME --transport T (--stdio CMD | --url URL)
                                                     drive the client at any server once
    observe.py probe NAME|all --fieldnotes BIN --out DIR [--protocol current|2026-07-28|both]
                                                     every transport the client offers, each
                                                     against `fieldnotes probe`, observations
                                                     written into DIR naming the package
                                                     version installed (`--package`)

Past the handshake: call.sh drives Claude Code, Codex, Gemini CLI, goose, opencode and Qwen Code,
installed here, at `fieldnotes probe model` (a scripted model on loopback) so each calls the
probe's tool; the exact commands are in it.

Versions live in pins.json (data, never code) and are checked as SemVer (npm) or PEP 440
(PyPI) wherever they come from: the table, the command line, a registry, an installed
package.

Transports: `stdio`; `http` (configured as Streamable HTTP), `sse` (configured as legacy
HTTP+SSE), `url` (a bare URL: the client picks; probed against the legacy-only modes).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import versions  # noqa: E402  (pins.json, SemVer and PEP 440)
import writers  # noqa: E402  (the config writers, one per client family)
from writers import Args, File, Run, Server  # noqa: E402

FAKE_KEY = "x"
SCRIPT = Path(__file__).resolve()


@dataclass
class Trigger:
    """What makes the client's real MCP client connect: argv (with {home}, {work} and
    {key} placeholders), extra environment, how long to let it run, and whether it needs a
    terminal (run under tmux)."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    timeout: int = 60
    tty: bool = False
    keys: tuple[tuple[float, str], ...] = ()  # (seconds after start, tmux key) for a tty
    hold_stdin: bool = False  # keep standard input open (a client that stops at its end)


@dataclass
class Client:
    id: str
    registry: str  # npm | pypi
    package: str
    binary: str
    writer: str  # a function in writers.py
    trigger: Trigger
    transports: tuple[str, ...]
    # Whether the client speaks 2026-07-28 (it is observed in both protocol modes).
    speaks_2026: bool = False
    # The package extra its MCP client needs (pip's `NAME[EXTRA]`), installed with it.
    extra: str = ""

    @property
    def version(self) -> str:
        """The pinned version, from pins.json, checked."""
        pinned = versions.load_pins().get(self.id)
        if pinned is None:
            sys.exit(f"pins.json has no version for {self.id}: observe.py pin {self.id} VERSION")
        return versions.check(self.registry, pinned, f"pins.json {self.id}")


# The table. One client a row; `transports` lists only what the client's configuration can
# express (a client whose URL entry has no transport setting offers `url` alone, or `http`
# when the bare URL means Streamable HTTP).
CLIENTS: list[Client] = [
    Client("claude-code", "npm", "@anthropic-ai/claude-code", "claude",
           "claude_code", Trigger(["{bin}", "-p", "hi"], {"ANTHROPIC_API_KEY": FAKE_KEY}, 40),
           ("stdio", "http", "sse", "url"), speaks_2026=True),
    Client("gemini-cli", "npm", "@google/gemini-cli", "gemini",
           "gemini", Trigger(["{bin}", "-p", "hi"], {"GEMINI_API_KEY": FAKE_KEY}, 30),
           ("stdio", "http", "sse", "url")),
    Client("codex", "npm", "@openai/codex", "codex",
           "codex", Trigger(["{bin}", "exec", "--skip-git-repo-check", "hi"],
                            {"OPENAI_API_KEY": FAKE_KEY}, 20),
           ("stdio", "http", "url")),
    Client("copilot-cli", "npm", "@github/copilot", "copilot",
           "copilot", Trigger(["{bin}"], {}, 25, tty=True),
           ("stdio", "http", "sse", "url"), speaks_2026=True),
    Client("continue-cli", "npm", "@continuedev/cli", "cn",
           "continue_cli", Trigger(["{bin}", "--config", "{work}/continue.yaml", "-p", "hi"],
                                   {}, 45),
           ("stdio", "http", "sse", "url")),
    Client("opencode", "npm", "opencode-ai", "opencode",
           "opencode", Trigger(["{bin}", "run", "hi"], {"OPENAI_API_KEY": FAKE_KEY}, 25),
           ("stdio", "url")),
    Client("qwen-code", "npm", "@qwen-code/qwen-code", "qwen",
           "qwen", Trigger(["{bin}", "-p", "hi"], {"OPENAI_API_KEY": FAKE_KEY}, 30),
           ("stdio", "http", "sse", "url")),
    Client("cline-cli", "npm", "cline", "cline",
           "cline_cli", Trigger(["{bin}", "-P", "openai", "-k", "{key}", "-m", "gpt-4o",
                                 "say hello"], {}, 30),
           ("stdio", "http", "sse", "url")),
    Client("mcp-inspector", "npm", "@modelcontextprotocol/inspector",
           "mcp-inspector", "inspector", Trigger(["{bin}", "--cli"], {}, 15),
           ("stdio", "http", "sse", "url")),
    # The proxy people run: a stdio client (stdio_driver.py) → mcp-remote → the server.
    Client("mcp-remote", "npm", "mcp-remote", "mcp-remote",
           "mcp_remote", Trigger(["python3", "{driver}", "{bin}"], {}, 20),
           ("http", "sse", "url")),
    Client("mcp-cli", "npm", "@wong2/mcp-cli", "mcp-cli",
           "mcp_cli", Trigger(["{bin}"], {}, 15, tty=True, keys=((4, "Enter"),)),
           ("stdio", "http", "sse")),
    Client("amp", "npm", "@sourcegraph/amp", "amp",
           "amp", Trigger(["{bin}", "mcp", "doctor"], {"AMP_API_KEY": FAKE_KEY}, 25),
           ("stdio", "url")),
    # Goose's CLI, as its npm binary package ships it (the release's own build).
    Client("goose", "npm", "@aaif/goose-binary-linux-x64", "goose-binary-linux-x64",
           "goose", Trigger(["{bin}", "run", "--no-session", "--no-profile", "-t", "hi"],
                            {"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-4o",
                             "OPENAI_API_KEY": FAKE_KEY}, 30),
           ("stdio", "http", "url"), speaks_2026=True),
    Client("fast-agent", "pypi", "fast-agent-mcp", "fast-agent",
           "fast_agent", Trigger(["{bin}", "go", "--model", "passthrough", "--message", "hi"],
                                 {}, 45),
           ("stdio", "url"), speaks_2026=True),
    # Hermes Agent's MCP client comes with its `mcp` extra; `hermes mcp test` connects once.
    Client("hermes-agent", "pypi", "hermes-agent", "hermes",
           "hermes", Trigger(["{bin}", "mcp", "test", "probe"], {}, 40),
           ("stdio", "http", "sse"), extra="mcp"),
]

BY_ID = {c.id: c for c in CLIENTS}


# ---------------------------------------------------------------- installing and versions

def install_dir(prefix: Path, c: Client) -> Path:
    return prefix / c.id


def binary_path(prefix: Path, c: Client) -> Path:
    base = install_dir(prefix, c)
    if c.registry == "npm":
        return base / "node_modules" / ".bin" / c.binary
    return base / "venv" / "bin" / c.binary


def python_for_pypi() -> str:
    """A Python ≥ 3.12 that runs: a name on PATH can be a pyenv shim for a version that is not
    the selected one, which exits with an error, so each candidate is asked its version; the
    versions pyenv has installed are tried by their own paths too."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    installed = sorted((str(p) for p in pyenv.glob("3.*/bin/python3")), reverse=True)
    for name in (os.environ.get("OBSERVE_PYTHON"), "python3.14", "python3.13", "python3.12",
                 *installed, "python3"):
        path = name and shutil.which(name)
        if not path:
            continue
        try:
            out = subprocess.run([path, "-c", "import sys; print(*sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        parts = out.stdout.split()
        if out.returncode == 0 and len(parts) == 2 and all(p.isdigit() for p in parts) \
                and (int(parts[0]), int(parts[1])) >= (3, 12):
            return path
    sys.exit("fast-agent needs Python 3.12 or newer: set OBSERVE_PYTHON to one")


def install(prefix: Path, c: Client, version: str) -> None:
    versions.check(c.registry, version, f"install {c.id}")
    base = install_dir(prefix, c)
    base.mkdir(parents=True, exist_ok=True)
    if c.registry == "npm":
        cmd = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(base),
               f"{c.package}@{version}"]
    else:
        venv = base / "venv"
        if not venv.exists():
            subprocess.run([python_for_pypi(), "-m", "venv", str(venv)], check=True)
        extra = f"[{c.extra}]" if c.extra else ""
        cmd = [str(venv / "bin" / "pip"), "install", "-q", f"{c.package}{extra}=={version}"]
    print("+", shlex.join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)


def latest(c: Client) -> str | None:
    """The registry's newest version, checked; None when it names none or a bad one. PyPI is
    asked by the Python the client runs on: an older Python's pip lists only the releases
    that Python can install, which would propose a downgrade."""
    if c.registry == "npm":
        out = subprocess.run(["npm", "view", c.package, "version"], capture_output=True,
                             text=True, timeout=60)
        found = out.stdout.strip()
    else:
        out = subprocess.run([python_for_pypi(), "-m", "pip", "index", "versions", c.package],
                             capture_output=True, text=True, timeout=60)
        m = re.search(r"\(([^)]+)\)", out.stdout)
        found = m.group(1) if m else ""
    return found if versions.valid(c.registry, found) else None


def installed_version(prefix: Path, c: Client) -> str | None:
    """The version installed under --prefix (what actually runs), checked."""
    base = install_dir(prefix, c)
    if c.registry == "npm":
        manifest = base / "node_modules" / c.package / "package.json"
        try:
            found = json.loads(manifest.read_text()).get("version", "")
        except (OSError, ValueError):
            return None
    else:
        python = base / "venv" / "bin" / "python"
        out = subprocess.run([str(python), "-c",
                              "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))",
                              c.package], capture_output=True, text=True, timeout=60)
        found = out.stdout.strip()
    return found if versions.valid(c.registry, found) else None


def package_flag(prefix: Path, c: Client) -> list[str]:
    """`--package REGISTRY:NAME@VERSION` for the probe, from the installed package."""
    found = installed_version(prefix, c)
    if not found:
        sys.exit(f"{c.id}: no valid installed version under {install_dir(prefix, c)}")
    return ["--package", f"{c.registry}:{c.package}@{found}"]


# ---------------------------------------------------------------- one run

@dataclass
class Scratch:
    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def work(self) -> Path:
        return self.root / "work"

    def fresh(self) -> "Scratch":
        if self.root.exists():
            shutil.rmtree(self.root)
        self.home.mkdir(parents=True)
        self.work.mkdir(parents=True)
        return self


def environment(scratch: Scratch, bindir: Path, extra: dict[str, str]) -> dict[str, str]:
    """Only what a client needs to start: no variable of the caller's reaches it."""
    node = shutil.which("node")
    path = [str(bindir)] + ([str(Path(node).parent)] if node else []) + ["/usr/bin", "/bin"]
    env = {
        "PATH": ":".join(dict.fromkeys(path)),
        "HOME": str(scratch.home),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "NO_UPDATE_NOTIFIER": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CI": "",
    }
    env.pop("CI")
    env.update(extra)
    return env


def fill(word: str, ctx: dict[str, str]) -> str:
    for k, v in ctx.items():
        word = word.replace("{" + k + "}", v)
    return word


def describe(c: Client, actions: list, trigger: Trigger, server: Server) -> str:
    """How the client was driven, with no machine path: the configuration written (home as
    `~`, the working folder as `.`), the setup commands, and the trigger."""
    ctx = {"home": "~", "work": ".", "bin": c.binary, "key": FAKE_KEY,
           "driver": "stdio_driver.py"}
    parts, tail = [], []
    for a in actions:
        if isinstance(a, Args):
            tail += a.argv
        elif isinstance(a, File):
            body = fill(a.text, ctx)
            try:
                body = json.dumps(json.loads(body), separators=(",", ":"))
            except ValueError:
                body = " ".join(body.split())
            where = a.path if a.path.startswith("~") else "./" + a.path
            parts.append(f"{fill(where, ctx)}: {body}")
        else:
            parts.append(shlex.join(fill(w, ctx) for w in a.argv))
    env = " ".join(f"{k}={v}" for k, v in sorted(trigger.env.items()))
    run = shlex.join(fill(w, ctx) for w in trigger.argv + tail)
    run = (env + " " + run).strip()
    if trigger.tty:
        keys = ", ".join(f"{k} after {at:g} s" for at, k in trigger.keys)
        run += f" (in a terminal{'; keys: ' + keys if keys else ''})"
    if trigger.hold_stdin:
        run += " (standard input held open)"
    parts.append(f"{run} (timeout {trigger.timeout} s)")
    return "; ".join(parts)


def leftovers(home: Path) -> list[int]:
    """Processes whose HOME is this run's scratch HOME (daemons a client left behind)."""
    mine = f"HOME={home}".encode()
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if mine in (proc / "environ").read_bytes().split(b"\0"):
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def kill_leftovers(home: Path) -> list[int]:
    pids = leftovers(home)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    time.sleep(3)  # a stdio probe among them writes its observation on SIGTERM
    for pid in leftovers(home):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return pids


def run_client(c: Client, transport: str, server: Server, display: Server, prefix: Path,
               scratch: Scratch, timeout: int | None = None) -> dict:
    """Write the client's configuration for `server`, run its trigger, clean up."""
    binary = binary_path(prefix, c)
    if not binary.exists():
        sys.exit(f"{c.id}: {binary} is missing: run `observe.py install {c.id}` first")
    write = getattr(writers, c.writer)
    trigger = Trigger(list(c.trigger.argv), dict(c.trigger.env), timeout or c.trigger.timeout,
                      c.trigger.tty, c.trigger.keys, c.trigger.hold_stdin)
    how = describe(c, write(transport, display, trigger), trigger, display)
    actions = write(transport, server, trigger)
    ctx = {"home": str(scratch.home), "work": str(scratch.work), "bin": str(binary),
           "key": FAKE_KEY, "driver": str(SCRIPT.parent / "stdio_driver.py")}
    env = environment(scratch, binary.parent, {k: fill(v, ctx) for k, v in trigger.env.items()})
    log = scratch.root / "client.log"
    with log.open("w") as out:
        tail = []
        for a in actions:
            if isinstance(a, Args):
                tail += a.argv
            elif isinstance(a, File):
                path = Path(fill(a.path, ctx).replace("~", str(scratch.home), 1)
                            if a.path.startswith("~") else scratch.work / fill(a.path, ctx))
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(fill(a.text, ctx))
            else:
                argv = [fill(w, ctx) for w in a.argv]
                subprocess.run(argv, cwd=scratch.work, env=env, stdout=out,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=60)
        argv = [fill(w, ctx) for w in trigger.argv + tail]
        started = time.monotonic()
        code = drive(argv, env, scratch, trigger, out)
        took = round(time.monotonic() - started, 1)
    killed = kill_leftovers(scratch.home)
    tail = log.read_text(errors="replace").strip().splitlines()[-8:]
    return {"client": c.id, "version": c.version, "transport": transport, "command": how,
            "exit": code, "seconds": took, "leftovers": len(killed), "log": tail}


def drive(argv: list[str], env: dict, scratch: Scratch, trigger: Trigger, out) -> int | str:
    if not trigger.tty:
        try:
            stdin = subprocess.PIPE if trigger.hold_stdin else subprocess.DEVNULL
            proc = subprocess.Popen(argv, cwd=scratch.work, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=stdin,
                                    start_new_session=True)
            return proc.wait(timeout=trigger.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            return "timeout"
    # A terminal program: tmux on its own socket (its server starts with `env`), read the
    # screen at the end, then end that server.
    sock = f"observe-{os.getpid()}-{scratch.root.name}"
    tmux = ["tmux", "-L", sock]
    subprocess.run(tmux + ["new-session", "-d", "-x", "160", "-y", "48", "-c",
                           str(scratch.work), shlex.join(argv)], env=env, check=True)
    waited = 0.0
    for at, key in trigger.keys:
        time.sleep(max(0.0, at - waited))
        waited = max(waited, at)
        subprocess.run(tmux + ["send-keys", key], env=env, capture_output=True)
    time.sleep(max(0.0, trigger.timeout - waited))
    screen = subprocess.run(tmux + ["capture-pane", "-p"], env=env, capture_output=True,
                            text=True).stdout
    out.write(screen)
    out.flush()
    subprocess.run(tmux + ["kill-server"], env=env, capture_output=True)
    return "timeout"


# ---------------------------------------------------------------- against the probe

MODES = {"stdio": ["stdio"], "http": ["streamable"], "sse": ["sse"],
         "url": ["legacy-only-404", "legacy-only-405"]}


def site_copy(site: Path, scratch_root: Path) -> Path:
    """The site's settings and content under the scratch folder: the probe reads its clients'
    `clientInfoNames` from it to name the client, and no path outside the scratch folder
    reaches a client's configuration."""
    copy = scratch_root / "site"
    if copy.exists():
        shutil.rmtree(copy)
    copy.mkdir(parents=True)
    shutil.copy(site / "site.yaml", copy / "site.yaml")
    shutil.copytree(site / "content", copy / "content",
                    ignore=shutil.ignore_patterns("observations"))
    return copy


def start_probe(fieldnotes: str, site: Path, mode: str, out: Path, command: str, log: Path,
                extra: list[str]):
    argv = [fieldnotes, "--root", str(site), "probe", "http", "--port", "0", "--mode", mode,
            "--out", str(out), "--command", command] + extra
    handle = log.open("w")
    proc = subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        m = re.search(r"http://127\.0\.0\.1:\d+", log.read_text(errors="replace"))
        if m:
            return proc, m.group(0)
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    sys.exit(f"the probe did not print its URL:\n{log.read_text(errors='replace')}")


def stop_probe(proc) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def url_for(base: str, mode: str) -> str:
    return base + ("/sse" if mode == "sse" else "/mcp")


def protocols(c: Client, wanted: str) -> list[str]:
    """The probe's protocol modes to observe `c` in: 2026-07-28 only for clients that speak it."""
    if wanted == "both":
        return ["current", "2026-07-28"] if c.speaks_2026 else ["current"]
    if wanted == "2026-07-28" and not c.speaks_2026:
        return []
    return [wanted]


def probe(c: Client, fieldnotes: str, site: Path, out: Path, prefix: Path,
          scratch_root: Path, only: list[str] | None, wanted: str = "current",
          timeout: int | None = None) -> list[dict]:
    results = []
    package = package_flag(prefix, c)
    for protocol in protocols(c, wanted):
        flags = package + ["--protocol", protocol]
        for transport in c.transports:
            if only and transport not in only:
                continue
            for mode in MODES[transport]:
                scratch = Scratch(scratch_root / f"{c.id}-{transport}-{mode}-{protocol}").fresh()
                if transport == "stdio":
                    display = Server(argv=["fieldnotes", "probe", "stdio"])
                    how = describe(c, getattr(writers, c.writer)("stdio", display, c.trigger),
                                   c.trigger, display)
                    server = Server(argv=[fieldnotes, "--root", str(site), "probe", "stdio",
                                          "--out", str(out), "--command", how] + flags)
                    results.append(run_client(c, transport, server, display, prefix, scratch,
                                              timeout) | {"protocol": protocol})
                    continue
                placeholder = Server(url=url_for("http://127.0.0.1:PORT", mode))
                how = describe(c, getattr(writers, c.writer)(transport, placeholder, c.trigger),
                               c.trigger, placeholder) + f" (probe --mode {mode})"
                proc, base = start_probe(fieldnotes, site, mode, out, how,
                                         scratch.root / "probe.log", flags)
                try:
                    server = Server(url=url_for(base, mode))
                    results.append(run_client(c, transport, server, placeholder, prefix,
                                              scratch, timeout)
                                   | {"mode": mode, "protocol": protocol})
                finally:
                    stop_probe(proc)
    return results


# ---------------------------------------------------------------- command line

def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--prefix", type=Path, default=Path("/tmp/fieldnotes-observe/clients"),
                   help="where clients are installed, one folder each")
    p.add_argument("--scratch", type=Path, default=Path("/tmp/fieldnotes-observe/runs"),
                   help="scratch HOMEs and working folders, one per run")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    i = sub.add_parser("install")
    i.add_argument("name")
    i.add_argument("--version")
    sub.add_parser("outdated")
    pn = sub.add_parser("pin")
    pn.add_argument("name")
    pn.add_argument("version")
    r = sub.add_parser("run")
    r.add_argument("name")
    r.add_argument("--transport", required=True, choices=list(MODES))
    r.add_argument("--stdio", help="the server's command line (for --transport stdio)")
    r.add_argument("--url", help="the server's URL")
    r.add_argument("--timeout", type=int)
    pr = sub.add_parser("probe")
    pr.add_argument("name")
    pr.add_argument("--fieldnotes", required=True, help="the fieldnotes binary")
    pr.add_argument("--out", type=Path, required=True)
    pr.add_argument("--site", type=Path, default=SCRIPT.parents[2],
                    help="the site whose clients name what is seen [default: this repository]")
    pr.add_argument("--transport", action="append", choices=list(MODES))
    pr.add_argument("--jobs", type=int, default=1, help="clients observed at once")
    pr.add_argument("--timeout", type=int, help="seconds each run may take [default: the table's]")
    pr.add_argument("--protocol", choices=["current", "2026-07-28", "both"], default="both",
                    help="the probe's protocol modes (2026-07-28 only for clients that speak it)")
    a = p.parse_args()

    def pick(name: str) -> list[Client]:
        if name == "all":
            return CLIENTS
        if name not in BY_ID:
            sys.exit(f"no client {name!r}; one of: {', '.join(BY_ID)}")
        return [BY_ID[name]]

    if a.cmd == "list":
        for c in CLIENTS:
            print(json.dumps({"id": c.id, "registry": c.registry, "package": c.package,
                              "version": c.version, "binary": c.binary,
                              "transports": list(c.transports)}))
    elif a.cmd == "install":
        for c in pick(a.name):
            install(a.prefix, c, a.version or c.version)
    elif a.cmd == "outdated":
        for c in CLIENTS:
            now = latest(c)
            pinned = c.version
            print(json.dumps({"id": c.id, "pinned": pinned, "latest": now,
                              "newer": bool(now) and versions.newer(c.registry, now, pinned)}))
    elif a.cmd == "pin":
        for c in pick(a.name):
            versions.save_pin(c.id, c.registry, a.version)
    elif a.cmd == "run":
        (c,) = pick(a.name)
        if (a.transport == "stdio") != bool(a.stdio) or (a.transport != "stdio") != bool(a.url):
            sys.exit("--transport stdio takes --stdio CMD; the others take --url URL")
        server = Server(argv=shlex.split(a.stdio)) if a.stdio else Server(url=a.url)
        scratch = Scratch(a.scratch / f"{c.id}-{a.transport}").fresh()
        print(json.dumps(run_client(c, a.transport, server, server, a.prefix, scratch,
                                    a.timeout), indent=1))
    elif a.cmd == "probe":
        a.out.mkdir(parents=True, exist_ok=True)
        site = site_copy(a.site, a.scratch)
        binary = a.scratch / "bin" / "fieldnotes"  # under the scratch folder too
        binary.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(a.fieldnotes, binary)

        def one(c: Client) -> None:
            for result in probe(c, str(binary), site, a.out.resolve(), a.prefix, a.scratch,
                                a.transport, a.protocol, a.timeout):
                print(json.dumps(result), flush=True)

        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for done in [pool.submit(one, c) for c in pick(a.name)]:
                done.result()


if __name__ == "__main__":
    main()
