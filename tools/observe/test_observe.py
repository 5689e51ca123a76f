"""Tests of observe.py's version handling (run by .ci/run: `python3 -m unittest` here).

A registry's version string is text from outside (issue 40, class 1): it must never become
code, a downgrade must never be proposed as an update, and a pyenv shim on PATH must not stop
the tooling.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import observe  # noqa: E402
import versions  # noqa: E402
import writers  # noqa: E402


class Versions(unittest.TestCase):
    def test_real_versions_pass_and_code_does_not(self):
        for good in ("1.5.47", "2.1.332", "0.0.1790142911-g7618fb", "1.0.0-rc.1+b.5"):
            self.assertTrue(versions.valid("npm", good), good)
        for good in ("0.10.48", "1!2.0", "1.0a1", "1.0.post2", "2.0rc1+local.1"):
            self.assertTrue(versions.valid("pypi", good), good)
        for bad in ('1.0.0"; import os; os.system("id"); "', "1.0.0\n", "v1.0.0 ",
                    "$(id)", "1.0.0'"):
            self.assertFalse(versions.valid("npm", bad), bad)
            self.assertFalse(versions.valid("pypi", bad), bad)
        self.assertFalse(versions.valid("npm", "1.0"), "SemVer has three parts")

    def test_only_newer_versions_are_proposed(self):
        self.assertTrue(versions.newer("npm", "2.1.333", "2.1.332"))
        self.assertFalse(versions.newer("npm", "2.1.9", "2.1.10"))
        self.assertFalse(versions.newer("npm", "1.0.0-rc.1", "1.0.0"))
        self.assertTrue(versions.newer("pypi", "0.10.49", "0.10.48"))
        self.assertFalse(versions.newer("pypi", "0.9.12", "0.10.48"), "a downgrade")
        self.assertFalse(versions.newer("pypi", "1.0rc1", "1.0"))
        self.assertTrue(versions.newer("pypi", "1.0.post1", "1.0"))


class Pins(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.pins = Path(self.dir.name) / "pins.json"
        self.pins.write_text(json.dumps({"codex": "0.171.0"}))
        self.patch = mock.patch.object(versions, "PINS", self.pins)
        self.patch.start()

    def tearDown(self):
        self.patch.stop()
        self.dir.cleanup()

    def test_a_hostile_version_is_refused_and_nothing_is_written(self):
        source = (HERE / "observe.py").read_text()
        with self.assertRaises(SystemExit):
            versions.save_pin("codex", "npm", '1.0.0"; import os; os.system("touch pwned")')
        self.assertEqual(json.loads(self.pins.read_text()), {"codex": "0.171.0"})
        self.assertEqual((HERE / "observe.py").read_text(), source)

    def test_a_pin_is_written_as_data(self):
        versions.save_pin("codex", "npm", "0.172.0")
        self.assertEqual(json.loads(self.pins.read_text())["codex"], "0.172.0")
        self.assertEqual(observe.BY_ID["codex"].version, "0.172.0")

    def test_observe_py_holds_no_version(self):
        source = (HERE / "observe.py").read_text()
        real = json.loads((HERE / "pins.json").read_text())
        for client, pinned in real.items():
            self.assertNotIn(f'"{pinned}"', source, client)


class Shims(unittest.TestCase):
    def test_a_broken_pyenv_shim_is_skipped(self):
        with tempfile.TemporaryDirectory() as bin_dir:
            shim = Path(bin_dir) / "python3.14"
            shim.write_text("#!/bin/sh\necho 'pyenv: python3.14: command not found' >&2\n"
                            "exit 127\n")
            shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
            path = bin_dir + os.pathsep + os.environ.get("PATH", "")
            with mock.patch.dict(os.environ, {"PATH": path, "OBSERVE_PYTHON": ""}):
                try:
                    chosen = observe.python_for_pypi()
                except SystemExit:
                    return  # no Python ≥ 3.12 here at all: the shim was not taken either
            self.assertNotEqual(Path(chosen), shim)
            out = subprocess.run([chosen, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                                 capture_output=True, text=True)
            self.assertEqual(out.stdout.strip(), "True")


class Writers(unittest.TestCase):
    def test_hermes_config_values_stay_values(self):
        """A path or URL with quotes, colons or a line break cannot add YAML keys: each value
        is one JSON (so YAML) scalar on its own line."""
        hostile = 'http://127.0.0.1:1/mcp"\n    auth: oauth # x'
        argv = ["/tmp/a b/fieldnotes", "probe", "stdio", "--command", 'say "hi": now']
        for transport in ("stdio", "http", "sse"):
            server = writers.Server(argv=argv, url=hostile)
            [config] = writers.hermes(transport, server, None)
            self.assertEqual(config.path, "~/.hermes/config.yaml")
            lines = config.text.splitlines()
            self.assertEqual(lines[:2], ["mcp_servers:", "  probe:"])
            entry = dict(line.strip().split(": ", 1) for line in lines[2:])
            if transport == "stdio":
                self.assertEqual(json.loads(entry["command"]), argv[0])
                self.assertEqual(json.loads(entry["args"]), argv[1:])
            else:
                self.assertEqual(json.loads(entry["url"]), hostile)
                self.assertEqual(entry.get("transport"), "sse" if transport == "sse" else None)
            self.assertNotIn("auth", entry)


if __name__ == "__main__":
    unittest.main()
