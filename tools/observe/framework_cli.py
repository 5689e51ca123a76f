"""framework_cli.py: the command line the Python-framework drivers share (beeai_driver.py,
mcp_agent_driver.py, mcp_use_driver.py): the transport, the server's command or URL, the
scripted model's URL, the steps to take and how long to stay connected after the last one."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Awaitable, Callable


def run(
    main: Callable[[argparse.Namespace], Awaitable[int | None]],
    doc: str,
    transports: list[str],
    steps: str,
    linger: float,
    more: Callable[[argparse.ArgumentParser], None] | None = None,
) -> None:
    """Parse the command line (`more` adds a driver's own options) and run `main` with it."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("transport", choices=transports)
    p.add_argument("target", nargs="+", help="the server's command and arguments, or its URL")
    p.add_argument("--model-url", default=None)
    p.add_argument("--steps", default=steps)
    p.add_argument("--linger", type=float, default=linger,
                   help="seconds to stay connected after the last step")
    if more:
        more(p)
    sys.exit(asyncio.run(main(p.parse_args())))
