"""Helpers for the browser tests: a `study serve` subprocess, a headless chromium tab of it.

The browser is Debian's chromium driven by Playwright's driver (no browser download); the tests skip, saying
so, only where chromium is absent (.ci/run installs it). The page's terminal output is read from the
websocket frames the browser receives, with the escape sequences stripped, as bench/startup.py reads a pty."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)), None)
# The flags of the project's browser probe: nothing phones home, nothing from the last run is reused.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_S = 60.0  # a hang guard for a loaded 2-core machine, not a speed assertion
ANSI = re.compile(rb"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")


def study_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("STUDY_DB", None)  # the store comes from --db, so the test proves --db reaches every tab's app
    env.pop("STUDY_TUI_BENCH", None)
    env.pop("NO_COLOR", None)
    env.update(XDG_CACHE_HOME=str(tmp / "cache"), XDG_DATA_HOME=str(tmp / "data"),
               XDG_CONFIG_HOME=str(tmp / "config"), TEXTUAL_ANIMATIONS="none")
    return env


@dataclass
class Served:
    proc: subprocess.Popen[str]
    url: str
    db: Path
    env: dict[str, str]

    @property
    def base(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]

    def stats(self) -> dict[str, Any]:
        out = subprocess.run([sys.executable, "-m", "study", "--db", str(self.db), "stats", "--json"],
                             env=self.env, text=True, capture_output=True, check=True, timeout=WAIT_S)
        return json.loads(out.stdout)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(WAIT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def start_server(tmp: Path, *extra: str) -> Served:
    db = tmp / "progress.db"
    env = study_env(tmp)
    proc = subprocess.Popen([sys.executable, "-m", "study", "--db", str(db), "serve", "--port", "0", *extra],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], WAIT_S)
    line = proc.stdout.readline().strip() if ready else ""
    if not line.startswith("http://"):
        proc.kill()
        raise AssertionError(f"study serve printed no URL: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return Served(proc, line, db, env)


class Tab:
    """A page of the served app, with every request it made and the app's output as text."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.requests: list[str] = []
        self.sockets: list[str] = []
        self.frames: list[bytes] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._on_socket)

    def _on_socket(self, socket: Any) -> None:
        self.sockets.append(socket.url)
        socket.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, bytes) else str(payload).encode()))

    def mark(self) -> int:
        return len(self.frames)

    def text_since(self, mark: int = 0) -> str:
        return ANSI.sub(b"", b"".join(self.frames[mark:])).decode("utf-8", "replace")

    def wait_for(self, *needles: str, since: int = 0, timeout: float = WAIT_S) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text_since(since)
            for needle in needles:
                if needle in text:
                    return needle
            self.page.wait_for_timeout(50)  # lets Playwright deliver the frames that arrived meanwhile
        raise AssertionError(f"none of {needles!r} arrived; the last output was:\n{self.text_since(since)[-2000:]}")

    def press(self, *keys: str) -> int:
        mark = self.mark()
        for key in keys:
            self.page.keyboard.press(key)
        return mark

    def close(self) -> None:
        self.page.close()
