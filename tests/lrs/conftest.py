"""A real learning record store (Ralph) on a free loopback port, started once per test module."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
USER, PASSWORD = "teacher", "s3cret-not-for-logs"


@dataclass
class Lrs:
    url: str  # the xAPI base, e.g. http://127.0.0.1:PORT/xAPI
    data: Path  # the JSON-lines file Ralph keeps the statements in
    process: subprocess.Popen

    def stored(self) -> list[dict]:
        path = self.data / "fs_lrs.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_ralph(root: Path) -> Lrs:
    """Start Ralph and wait until it answers; skips the test when Ralph is not installed."""
    pytest.importorskip("ralph", reason="Ralph LRS is not installed (pip install -e '.[test]' brings it)")
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    import bcrypt

    data = root / "statements"
    data.mkdir(parents=True, exist_ok=True)
    auth = root / "auth.json"
    auth.write_text(json.dumps([{
        "agent": {"mbox": "mailto:teacher@example.com"}, "scopes": ["all"], "username": USER,
        "hash": bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(4)).decode(), "target": None,
    }]), encoding="utf-8")
    port = free_port()
    env = dict(os.environ, RALPH_RUNSERVER_BACKEND="fs", RALPH_AUTH_FILE=str(auth), RALPH_APP_DIR=str(root / "app"),
               RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH=str(data), RALPH_SENTRY_DSN="")
    log = open(root / "ralph.log", "wb")
    process = subprocess.Popen([sys.executable, str(HERE / "ralph_server.py"), str(port)], env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    # Start-up imports FastAPI and pydantic models: seconds on a busy machine. This is a readiness wait for
    # a server, bounded so a broken install fails instead of hanging, not a speed assertion.
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            pytest.fail(f"Ralph exited at start-up:\n{(root / 'ralph.log').read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/__lbheartbeat__", timeout=2):
                break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("Ralph did not answer within 120 s")
            time.sleep(0.2)
    return Lrs(url=f"{url}/xAPI", data=data, process=process)


@pytest.fixture(scope="module")
def ralph(tmp_path_factory: pytest.TempPathFactory):
    lrs = start_ralph(tmp_path_factory.mktemp("ralph"))
    yield lrs
    lrs.process.terminate()
    try:
        lrs.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        lrs.process.kill()


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STUDY_LRS_USER", USER)
    monkeypatch.setenv("STUDY_LRS_PASSWORD", PASSWORD)
    monkeypatch.delenv("STUDY_LRS_TOKEN", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
