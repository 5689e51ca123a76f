"""Package versions for observe.py: checked (SemVer for npm, PEP 440 for PyPI), compared, and
kept in a data file (pins.json), never in code. A version from a registry is text from
outside: it is matched against the grammar before it is used anywhere, and only ever written
as a JSON string.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PINS = Path(__file__).resolve().parent / "pins.json"

# SemVer 2.0.0 (https://semver.org), anchored.
SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)

# PEP 440 public versions, in the spellings PyPI accepts (PEP 440, appendix B), anchored.
PEP440 = re.compile(
    r"^v?(?:(?P<epoch>\d+)!)?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>\d+)?)?"
    r"(?:-(?P<post_n1>\d+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>\d+)?)?"
    r"(?:[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>\d+)?)?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?$",
    re.IGNORECASE,
)

REGISTRIES = ("npm", "pypi")


def valid(registry: str, version: str) -> bool:
    """Whether `version` is a version `registry` publishes (and nothing else: no quote, no
    space, no shell or Python syntax can match)."""
    if not isinstance(version, str) or len(version) > 128:
        return False
    if registry == "npm":
        return SEMVER.fullmatch(version) is not None
    if registry == "pypi":
        return PEP440.fullmatch(version) is not None
    return False


def check(registry: str, version: str, where: str) -> str:
    """`version`, or SystemExit saying where the bad one came from."""
    if not valid(registry, version):
        kind = "SemVer" if registry == "npm" else "PEP 440"
        raise SystemExit(f"{where}: {version!r} is not a {kind} version; nothing was changed")
    return version


def _semver_key(version: str):
    m = SEMVER.fullmatch(version)
    major, minor, patch, pre = int(m[1]), int(m[2]), int(m[3]), m[4]
    # A release sorts after its pre-releases; pre-release parts compare numbers as numbers.
    parts = ()
    if pre is not None:
        parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))
    return (major, minor, patch, pre is None, parts)


def _pep440_key(version: str):
    m = PEP440.fullmatch(version)
    release = tuple(int(p) for p in m["release"].split("."))
    while release and release[-1] == 0:
        release = release[:-1]
    pre_rank = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
    pre = (pre_rank[m["pre_l"].lower()], int(m["pre_n"] or 0)) if m["pre_l"] else (9, 0)
    post_n = m["post_n1"] or m["post_n2"]
    post = int(post_n) if (post_n or m["post_l"]) else -1
    dev = int(m["dev_n"] or 0) if m["dev_l"] else float("inf")
    if m["dev_l"] and not m["pre_l"] and post < 0:
        pre = (-1, 0)  # 1.0.dev1 comes before 1.0a1
    return (int(m["epoch"] or 0), release, pre, post, dev)


def newer(registry: str, candidate: str, pinned: str) -> bool:
    """Whether `candidate` is a later release than `pinned` (both valid)."""
    key = _semver_key if registry == "npm" else _pep440_key
    return key(candidate) > key(pinned)


def load_pins() -> dict[str, str]:
    pins = json.loads(PINS.read_text())
    if not isinstance(pins, dict):
        raise SystemExit(f"{PINS.name}: not an object of client ids to versions")
    return pins


def save_pin(client: str, registry: str, version: str) -> None:
    """Writes one pin, checked, as JSON data."""
    check(registry, version, f"pin {client}")
    pins = load_pins()
    pins[client] = version
    PINS.write_text(json.dumps(pins, indent=2) + "\n")
