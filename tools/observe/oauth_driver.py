#!/usr/bin/env python3
"""Take a shipped client through the whole OAuth flow against `fieldnotes probe http --auth
oauth` (protected resource and authorization server on loopback), with `fieldnotes probe
browser` as its browser ($BROWSER and `xdg-open` on PATH), and record the observation.

    oauth_driver.py CLIENT --fieldnotes BIN --prefix DIR --out DIR
                    [--registration both|dcr|cimd] [--discovery all] [--runs N]
                    [--step-up] [--connect | --refresh SECONDS] [--settle-ms MS]

CLIENT is one of TRIGGERS: how its sign-in is started:
- claude-code: `claude mcp add --transport http probe URL`, then `claude mcp login probe`
  under a pseudo-terminal (it refuses without one; `claude -p` never signs in).
- codex: `~/.codex/config.toml` with `mcp_oauth_credentials_store = "file"` and the server's
  `url`, then `codex mcp login probe`.
- gemini-cli: `~/.gemini/settings.json` `{"mcpServers": {"probe": {"httpUrl": URL}}}`, the
  folder trusted, then its TUI in tmux: `/mcp auth probe`, Enter on the consent prompt.
- qwen-code: `~/.qwen/settings.json` as Gemini CLI's, then its TUI in tmux: `/mcp`, the
  server, Authenticate (its `/mcp auth` only points to that dialog).
- opencode: `./opencode.json` `{"mcp": {"probe": {"type": "remote", "url": URL}}}` in the
  working folder, then `opencode mcp auth probe` under a pseudo-terminal.
- mcp-inspector: its CLI (`--cli --transport http --server-url URL --method tools/list`) with
  `MCP_AUTO_OPEN_ENABLED=true`: without a terminal it signs in only when allowed to open the
  browser itself.
- mcp-remote: as the proxy people run, `stdio_driver.py mcp-remote URL`; it signs in by
  itself on the 401.
- amp: `amp mcp add probe URL`, then `amp mcp doctor` under a pseudo-terminal with DISPLAY
  set (without them it asks for the callback URL to be pasted instead).
- copilot-cli: `copilot mcp add --transport http probe URL`, then its TUI in tmux: it signs
  in as it starts; Enter trusts the folder.
- fast-agent: `fast-agent go --url URL` (its `auth mcp login` needs an OS keyring); it prints
  the authorization link, which the driver opens with `probe browser` as a person clicks it.
- hermes-agent: `~/.hermes/config.yaml` with the server's `url` and `auth: oauth`, then
  `hermes mcp login probe` under a pseudo-terminal, with DISPLAY set (without one it takes
  the machine for headless and only prints the URL).

The browser returns at once and follows the URL in the background, as `xdg-open` hands a
URL to a running browser: a client that waits for its browser command before it starts its
callback listener (Hermes Agent) would otherwise never be answered.

Each run has a scratch HOME and working folder, a fresh probe (the site's client names, the
package version installed as `--package`), and ends by stopping the probe (SIGINT: it
writes the flow) and killing what the client left (by process id, found by its HOME).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import observe  # noqa: E402

# A link to the probe's authorization endpoint, as a client prints it (up to a space or a
# control character: a terminal hyperlink wraps the URL in escape sequences).
AUTHORIZE_LINK = re.compile(r"http://127\.0\.0\.1:\d+/auth/authorize\?[^\s\x00-\x1f\x7f]+")

BROWSER = """#!/bin/sh
{fieldnotes} probe browser "$1" >>{log} 2>&1 &
"""


def shown(done: subprocess.CompletedProcess) -> None:
    """The end of what the client printed (exit status, last lines), for the operator."""
    text = (done.stdout or b"").decode(errors="replace") + (done.stderr or b"").decode(
        errors="replace")
    print(f"  exit {done.returncode}:", text[-1500:], flush=True)


def in_pty(argv: list, work: Path, env: dict, seconds: int = 90) -> None:
    """Runs `argv` under a pseudo-terminal (`script`), for clients that refuse to sign in
    without one, and shows how it ended."""
    command = shlex.join(argv)
    shown(subprocess.run(["timeout", str(seconds), "script", "-qec", command, "/dev/null"],
                         cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True))


def claude(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    subprocess.run([bin_, "mcp", "add", "--transport", "http", "probe", url], cwd=work,
                   env=env, capture_output=True, timeout=60)
    in_pty([bin_, "mcp", "login", "probe"], work, env)


def codex(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    conf = home / ".codex"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "config.toml").write_text(
        'mcp_oauth_credentials_store = "file"\n\n[mcp_servers.probe]\n'
        f'url = "{url}"\n')
    shown(subprocess.run(["timeout", "90", bin_, "mcp", "login", "probe"], cwd=work, env=env,
                         stdin=subprocess.DEVNULL, capture_output=True))


def _tui(bin_: str, work: Path, env: dict, tmux: str, keys: list) -> None:
    """The client's TUI in tmux, with `keys` typed: (seconds to wait first, tmux keys)."""
    envs = [f"{k}={v}" for k, v in env.items()]
    subprocess.run(["tmux", "new-session", "-d", "-s", tmux, "-x", "200", "-y", "50",
                    "env", "-i", *envs, bin_], cwd=work, check=True)
    for wait, k in keys:
        time.sleep(wait)
        if k:
            subprocess.run(["tmux", "send-keys", "-t", tmux, *k], check=False)
    screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", tmux], capture_output=True)
    shown(screen)
    subprocess.run(["tmux", "kill-session", "-t", tmux], check=False)


def _tui_auth(bin_: str, conf: Path, settings: dict, work: Path, env: dict, tmux: str,
              keys: list) -> None:
    """Gemini CLI's settings and trusted folder (Qwen Code kept them), then its TUI."""
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "settings.json").write_text(json.dumps(settings))
    (conf / "trustedFolders.json").write_text(json.dumps({str(work): "TRUST_FOLDER"}))
    _tui(bin_, work, env, tmux, keys)


def gemini(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    settings = {"mcpServers": {"probe": {"httpUrl": url}},
                "security": {"auth": {"selectedType": "gemini-api-key"}}}
    # The first Enter may only take the completion; the next submits or answers the consent
    # prompt (Yes is preselected); a spare Enter on an empty prompt does nothing.
    keys = [(20, ["/mcp auth probe"]), (2, ["Enter"]), (3, ["Enter"]), (6, ["Enter"]),
            (20, [])]
    _tui_auth(bin_, home / ".gemini", settings, work, env, tmux, keys)


def qwen(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    settings = {"mcpServers": {"probe": {"httpUrl": url}},
                "security": {"auth": {"selectedType": "openai"}}}
    # `/mcp auth` only points to the dialog: open it, pick the server, then its third action,
    # Authenticate (Reconnect and Disable come first).
    keys = [(20, ["/mcp"]), (2, ["Enter"]), (4, ["Enter"]), (3, ["Down"]), (1, ["Down"]),
            (1, ["Enter"]), (20, [])]
    _tui_auth(bin_, home / ".qwen", settings, work, env, tmux, keys)


def opencode(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    (work / "opencode.json").write_text(json.dumps({
        "$schema": "https://opencode.ai/config.json",
        "mcp": {"probe": {"type": "remote", "url": url}},
    }))
    in_pty([bin_, "mcp", "auth", "probe"], work, env)


def mcp_remote(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    driver = Path(__file__).resolve().parent / "stdio_driver.py"
    shown(subprocess.run(["timeout", "90", sys.executable, str(driver), bin_, url], cwd=work,
                         env=env, stdin=subprocess.DEVNULL, capture_output=True))


def hermes(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    conf = home / ".hermes"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "config.yaml").write_text(f"mcp_servers:\n  probe:\n    url: {json.dumps(url)}\n"
                                      "    auth: oauth\n")
    in_pty([bin_, "mcp", "login", "probe"], work, {**env, "DISPLAY": ":0"})


def opened_from_output(argv: list, work: Path, env: dict, seconds: int) -> None:
    """Runs a client that prints its authorization link instead of opening a browser, and
    opens the first link to this probe's `/authorize` in the scripted browser ($BROWSER), as
    a person clicks it; the output is read unwrapped (COLUMNS set wide)."""
    client = subprocess.Popen(argv, cwd=work, env={**env, "COLUMNS": "4000"},
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    seen, opened = bytearray(), False
    deadline = time.monotonic() + seconds
    os.set_blocking(client.stdout.fileno(), False)
    while client.poll() is None and time.monotonic() < deadline:
        seen += client.stdout.read() or b""
        link = AUTHORIZE_LINK.search(seen.decode(errors="replace"))
        if link and not opened:
            opened = True
            subprocess.run([env["BROWSER"], link.group(0)], check=False)
        time.sleep(0.2)
    if client.poll() is None:
        client.kill()
    seen += client.stdout.read() or b""
    shown(subprocess.CompletedProcess(argv, client.wait(), bytes(seen), b""))


def fast_agent(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    # Its `auth mcp login` needs an OS keyring; a connection signs in with tokens held in
    # memory, and prints the link.
    argv = [bin_, "--no-update-check", "go", "--url", url, "--model", "passthrough",
            "--message", "hi"]
    opened_from_output(argv, work, env, 60)


def amp(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    subprocess.run([bin_, "mcp", "add", "probe", url], cwd=work, env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    # Without a terminal and a display it takes itself for headless: it prints the link and
    # waits for the callback URL to be pasted, leaving its own callback unused.
    in_pty([bin_, "mcp", "doctor"], work, {**env, "DISPLAY": ":0"}, 60)


def copilot(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    subprocess.run([bin_, "mcp", "add", "--transport", "http", "probe", url], cwd=work,
                   env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    # It signs in as it starts; Enter trusts the folder, so its MCP session goes on.
    _tui(bin_, work, {**env, "DISPLAY": ":0"}, tmux, [(25, ["Enter"]), (15, [])])


def inspector(bin_: str, url: str, home: Path, work: Path, env: dict, tmux: str) -> None:
    # Without a terminal its CLI signs in only when told it may open the browser itself.
    argv = [bin_, "--cli", "--transport", "http", "--server-url", url, "--method", "tools/list"]
    shown(subprocess.run(["timeout", "60", *argv], cwd=work,
                         env={**env, "MCP_AUTO_OPEN_ENABLED": "true"},
                         stdin=subprocess.DEVNULL, capture_output=True))


TRIGGERS = {"claude-code": claude, "mcp-inspector": inspector, "copilot-cli": copilot, "amp": amp, "fast-agent": fast_agent, "hermes-agent": hermes, "qwen-code": qwen, "codex": codex, "gemini-cli": gemini, "mcp-remote": mcp_remote,
            "opencode": opencode}

# With --refresh: what connects with the stored token once it expired (the real MCP client).
CONNECT = {
    "claude-code": (["mcp", "list"], {}),
    "codex": (["exec", "--skip-git-repo-check", "hi"], {"OPENAI_API_KEY": observe.FAKE_KEY}),
    "opencode": (["mcp", "list"], {}),
}

# How each run is described in its observation's `command` (no machine path).
DESCRIBED = {
    "amp": "amp mcp add probe URL; AMP_API_KEY=x amp mcp doctor (in a pseudo-terminal, "
           "DISPLAY=:0; BROWSER=fieldnotes probe browser) (timeout 60 s)",
    "claude-code": "claude mcp add --transport http probe URL; claude mcp login probe "
                   "(in a pseudo-terminal; BROWSER=fieldnotes probe browser) (timeout 90 s)",
    "codex": '~/.codex/config.toml: mcp_oauth_credentials_store = "file", '
             "[mcp_servers.probe] url = URL; codex mcp login probe "
             "(BROWSER=fieldnotes probe browser) (timeout 90 s)",
    "copilot-cli": "copilot mcp add --transport http probe URL; copilot (TUI in tmux, "
                   "DISPLAY=:0; BROWSER=fieldnotes probe browser), Enter after 25 s (trust the "
                   "folder), ended 15 s later",
    "gemini-cli": '~/.gemini/settings.json: {"mcpServers":{"probe":{"httpUrl":URL}},'
                  '"security":{"auth":{"selectedType":"gemini-api-key"}}}, GEMINI_API_KEY=x, '
                  "folder trusted; gemini (TUI in tmux): `/mcp auth probe` typed after 20 s, "
                  "Enter after 2, 5 and 11 s more (submit, Yes on the consent prompt) "
                  "(BROWSER=fieldnotes probe browser)",
    "qwen-code": '~/.qwen/settings.json: {"mcpServers":{"probe":{"httpUrl":URL}},'
                 '"security":{"auth":{"selectedType":"openai"}}}, OPENAI_API_KEY=x, '
                 "folder trusted; qwen (TUI in tmux): `/mcp` typed after 20 s, Enter, "
                 "Enter on the server, Down twice and Enter on Authenticate "
                 "(BROWSER=fieldnotes probe browser)",
    "opencode": './opencode.json: {"mcp":{"probe":{"type":"remote","url":URL}}}; '
                "opencode mcp auth probe (in a pseudo-terminal; BROWSER=fieldnotes probe browser) "
                "(timeout 90 s)",
    "fast-agent": "fast-agent --no-update-check go --url URL --model passthrough --message hi; "
                  "the authorization link it printed opened in the browser (fieldnotes probe "
                  "browser), as a person clicks it (timeout 60 s)",
    "hermes-agent": "~/.hermes/config.yaml: mcp_servers.probe {url: URL, auth: oauth}; "
                    "hermes mcp login probe (in a pseudo-terminal, DISPLAY=:0; "
                    "BROWSER=fieldnotes probe browser) (timeout 90 s)",
    "mcp-inspector": "MCP_AUTO_OPEN_ENABLED=true mcp-inspector --cli --transport http "
                     "--server-url URL --method tools/list (BROWSER=fieldnotes probe browser) "
                     "(timeout 60 s)",
    "mcp-remote": "stdio_driver.py mcp-remote URL (initialize, tools/list, tools/call; "
                  "BROWSER=fieldnotes probe browser) (timeout 90 s)",
}


def one_run(name: str, args, n: int) -> None:
    client = observe.BY_ID[name]
    prefix = Path(args.prefix)
    bin_ = str(observe.binary_path(prefix, client))
    version = observe.installed_version(prefix, client)
    if not version:
        sys.exit(f"{name}: not installed under {prefix} (observe.py install {name})")
    scratch = observe.Scratch(Path(tempfile.mkdtemp(prefix=f"oauth-{name}-"))).fresh()
    bindir = scratch.root / "bin"
    bindir.mkdir()
    log = scratch.root / "browser.log"
    for script in ("xdg-open", "browser"):
        (bindir / script).write_text(BROWSER.format(fieldnotes=shlex.quote(args.fieldnotes),
                                                    log=shlex.quote(str(log))))
        (bindir / script).chmod(0o755)
    env = observe.environment(scratch, bindir, {"BROWSER": str(bindir / "browser")})
    if name == "gemini-cli":
        env["GEMINI_API_KEY"] = observe.FAKE_KEY
    if name == "amp":
        env["AMP_API_KEY"] = observe.FAKE_KEY
    if name == "qwen-code":
        env["OPENAI_API_KEY"] = observe.FAKE_KEY
    trigger = TRIGGERS[name]
    then, lifetime = "", ""
    if args.refresh or args.connect:
        argv, extra = CONNECT[name]
        wait = f"after {args.refresh + 2} s (the token expired)" if args.refresh else "then"
        then = (f"; {wait}: "
                + " ".join(f"{k}={v}" for k, v in extra.items()) + (" " if extra else "")
                + shlex.join([client.binary, *argv]) + " (timeout 30 s)")
        lifetime = f" --token-lifetime {args.refresh}" if args.refresh else ""
    probe_cmd = [args.fieldnotes, "probe", "http", "--port", "0", "--auth", "oauth",
                 "--registration", args.registration, "--discovery", args.discovery,
                 "--token-lifetime", str(args.refresh or 3600),
                 "--settle-ms", str(args.settle_ms),
                 *(["--step-up"] if args.step_up else []),
                 "--out", str(Path(args.out).resolve()),
                 "--package", f"{client.registry}:{client.package}@{version}",
                 "--client", name,
                 "--command", f"{DESCRIBED[name]}{then}; probe: --auth oauth --registration "
                              f"{args.registration} --discovery {args.discovery}{lifetime}"
                              f"{' --step-up' if args.step_up else ''}"
                              f"{f' --settle-ms {args.settle_ms}' if args.settle_ms != 300 else ''}"]
    err = open(scratch.root / "probe.err", "w")
    probe = subprocess.Popen(probe_cmd, cwd=Path(args.site).resolve(), stdout=subprocess.PIPE, stderr=err, text=True)
    url = probe.stdout.readline().strip()
    print(f"run {n}: {name} {version} at {url}", flush=True)
    try:
        trigger(bin_, url, scratch.home, scratch.work, env, f"oauth-{name}-{n}")
        if args.refresh or args.connect:
            time.sleep(args.refresh + 2 if args.refresh else 0)
            argv, extra = CONNECT[name]
            shown(subprocess.run(["timeout", "30", bin_, *argv], cwd=scratch.work,
                                 env={**env, **extra}, stdin=subprocess.DEVNULL,
                                 capture_output=True))
        time.sleep(4)
    finally:
        observe.stop_probe(probe)  # SIGINT: the probe writes the flow
        err.close()
        observe.kill_leftovers(scratch.home)
    print((scratch.root / "probe.err").read_text(), flush=True)
    if log.exists():
        print(log.read_text(), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("client", choices=sorted(TRIGGERS))
    p.add_argument("--fieldnotes", required=True)
    p.add_argument("--prefix", required=True, help="where clients are installed (observe.py)")
    p.add_argument("--out", required=True)
    p.add_argument("--site", default=".", help="the site whose client names the probe uses")
    p.add_argument("--registration", default="both", choices=["both", "dcr", "cimd"])
    p.add_argument("--discovery", default="all")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--settle-ms", type=int, default=300,
                   help="the probe's --settle-ms: 0 asks its questions at once, for a client that "
                        "ends its session within the default 300 ms (amp mcp doctor)")
    p.add_argument("--step-up", action="store_true",
                   help="tokens without mcp:write get 403 insufficient_scope")
    p.add_argument("--connect", action="store_true",
                   help="after the login, connect with the token (claude-code, opencode: "
                        "CLIENT mcp list; codex: codex exec): the flow joins that session's observation")
    p.add_argument("--refresh", type=int, default=0, metavar="SECONDS",
                   help="tokens valid this long; after the login, connect again once expired "
                        "(claude-code, opencode: CLIENT mcp list; codex: codex exec)")
    args = p.parse_args()
    for n in range(1, args.runs + 1):
        one_run(args.client, args, n)


if __name__ == "__main__":
    main()
