#!/usr/bin/env python3
"""mcp_wire.py: stand between an MCP client and a stdio server and log the raw wire.

    mcp_wire.py LOG [--refuse-discover] -- SERVER ARGS...

Every line the client writes and the server answers is appended to LOG as JSON,
{"t": seconds, "dir": "client"|"server", "line": ...}, untouched and in order, so what a
client negotiated can be read off the wire rather than off either side's own account. With
--refuse-discover the proxy itself answers `server/discover` with -32601 (as a server of
2025-11-25 does) and does not pass it on: a dual-era client must then fall back to an
initialize handshake. Used to drive shipped clients against `fieldnotes mcp`.
"""
import json
import subprocess
import sys
import threading
import time


def main(argv):
    if "--" not in argv or argv.index("--") < 1:
        sys.stderr.write(__doc__)
        return 2
    split = argv.index("--")
    options, server = argv[:split], argv[split + 1:]
    log_path = options[0]
    refuse = "--refuse-discover" in options[1:]
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")
    start = time.time()

    def record(direction, line):
        with lock:
            log.write(json.dumps({"t": round(time.time() - start, 4), "dir": direction,
                                  "line": line}) + "\n")
            log.flush()

    child = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out_lock = threading.Lock()

    def to_client(data):
        with out_lock:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()

    def pump_server():
        for raw in child.stdout:
            record("server", raw.decode("utf-8", "replace").rstrip("\n"))
            to_client(raw)

    reader = threading.Thread(target=pump_server, daemon=True)
    reader.start()
    for raw in sys.stdin.buffer:
        text = raw.decode("utf-8", "replace").rstrip("\n")
        record("client", text)
        if refuse:
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if isinstance(message, dict) and message.get("method") == "server/discover":
                answer = {"jsonrpc": "2.0", "id": message.get("id"),
                          "error": {"code": -32601, "message": "Method not found"}}
                line = json.dumps(answer)
                record("proxy", line)
                to_client((line + "\n").encode())
                continue
        try:
            child.stdin.write(raw)
            child.stdin.flush()
        except BrokenPipeError:
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    reader.join(timeout=5)
    child.wait(timeout=10)
    return child.returncode or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
