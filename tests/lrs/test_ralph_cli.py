"""The `ralph` command the README uses, from the `[test]` extra (it failed with "No module named
'click_option_group'" before the extra asked for Ralph's cli dependencies)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RALPH = Path(sys.executable).with_name("ralph")


@pytest.fixture(autouse=True)
def _installed():
    if not RALPH.exists():
        pytest.skip("ralph is not installed in this venv (pip install -e '.[test]' brings it)")


def test_ralph_help_runs():
    out = subprocess.run([str(RALPH), "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "auth" in out.stdout and "runserver" in out.stdout


def test_the_readmes_ralph_auth_line_writes_the_teacher(tmp_path):
    auth = tmp_path / "auth.json"
    env = dict(os.environ, RALPH_RUNSERVER_BACKEND="fs", RALPH_AUTH_FILE=str(auth), RALPH_APP_DIR=str(tmp_path / "app"))
    argv = [str(RALPH), "auth", "-u", "teacher", "-p", "choose-a-password", "-s", "all",
            "-M", "mailto:teacher@example.com", "-w"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (user,) = json.loads(auth.read_text())
    assert user["username"] == "teacher" and user["agent"]["mbox"] == "mailto:teacher@example.com"
    assert user["hash"].startswith("$2")
