"""The authoring tools run in plain terminals and CI: they must not pull in Textual."""

from __future__ import annotations

import subprocess
import sys

MODULES = ["study.authoring.new", "study.authoring.preview", "study.authoring.skeleton", "study.authoring.stats_view",
           "study.bank.stats", "study.commands.new", "study.commands.preview", "study.commands.bank"]


def test_authoring_modules_do_not_import_textual() -> None:
    code = "import importlib, sys\n" + "".join(f"importlib.import_module({m!r})\n" for m in MODULES) + \
        "print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
