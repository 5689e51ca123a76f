#!/usr/bin/env python3
"""A minimal stdio MCP client for observing a proxy (mcp-remote): runs `CMD ARGS...`, speaks
newline-delimited JSON-RPC on its standard input and output, and does what a plain host does:
initialize, notifications/initialized, tools/list (every page its nextCursor names, so a proxy
is seen passing a later page on), a tools/call of the first tool, then waits a
few seconds (answering every request the proxy forwards with `-32601`, so what the server sees
of roots, sampling and elicitation is the proxy's own doing, not this driver's), and closes.

    stdio_driver.py CMD [ARGS...]
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

WAIT = 8.0  # seconds to stay after the tool call, for the server's requests


def main() -> int:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    answers: dict[int, dict] = {}
    ready = threading.Condition()

    def send(message: dict) -> None:
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()

    def read() -> None:
        for line in proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "method" in message and "id" in message:
                send({"jsonrpc": "2.0", "id": message["id"],
                      "error": {"code": -32601, "message": "Method not found"}})
            elif "id" in message and isinstance(message["id"], int):
                with ready:
                    answers[message["id"]] = message
                    ready.notify_all()

    threading.Thread(target=read, daemon=True).start()

    def call(n: int, method: str, params: dict, wait: float = 30.0) -> dict | None:
        send({"jsonrpc": "2.0", "id": n, "method": method, "params": params})
        with ready:
            ready.wait_for(lambda: n in answers, timeout=wait)
            return answers.get(n)

    init = call(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "observe-stdio-driver",
                                                 "version": "1.0.0"}})
    if init is None or "result" not in init:
        proc.terminate()
        return 1
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed, cursor, n = [], None, 2
    for n in range(2, 12):  # at most ten pages
        page = (call(n, "tools/list", {"cursor": cursor} if cursor else {}) or {}).get("result")
        listed += (page or {}).get("tools") or []
        cursor = (page or {}).get("nextCursor")
        if not cursor:
            break
    if listed:
        call(n + 1, "tools/call", {"name": listed[0].get("name"), "arguments": {"text": "hi"}})
    time.sleep(WAIT)
    proc.stdin.close()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
