"""The core and the command-line tools never import Textual: each is imported in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE = [
    "study.calc",
    "study.bank",
    "study.bank.lint",
    "study.quiz",
    "study.quiz.plain",
    "study.progress",
    "study.progress.stats",
    "study.progress.readiness",
    "study.progress.transfer",
    "study.progress.reports",
    "study.quiz.retake",
    "study.cli",
    # Instructor tools and exports run without the app too.
    "study.interop.gift",
    "study.interop.anki",
    "study.interop.xapi",
    "study.analysis",
    "study.authoring.preview",
    "study.authoring.new",
    "study.bank.stats",
    # The operations labs' core: renderers, shell, lint, plain mode and the --run cache.
    "study.lab.shell",
    "study.lab.lint",
    "study.lab.plain",
    "study.lab.quick",
    "study.lab.exhibit",
]


@pytest.mark.parametrize("module", CORE)
def test_core_module_does_not_import_textual(module: str) -> None:
    code = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
