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
from typing import Any
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
        self.messages: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._on_socket)

    def _on_socket(self, socket: Any) -> None:
        self.sockets.append(socket.url)
        # Binary frames are the app's terminal output; text frames are textual-serve's JSON (pong, open_url).
        socket.on("framereceived", lambda payload: self.frames.append(payload) if isinstance(payload, bytes)
                  else self.messages.append(str(payload)))

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


CSI = re.compile(r"\x1b\[([0-9;?<>=!]*)([ -/]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def screen_of(stream: str, cols: int, rows: int) -> list[str]:
    """The screen the app's output leaves, for the little Textual writes: absolute cursor moves (CUP) and
    text; other sequences (colours, modes) do not move the cursor. Enough to find where a word is drawn."""
    import unicodedata

    grid = [[" "] * cols for _ in range(rows)]
    row = col = 0
    pos = 0
    for match in CSI.finditer(stream + "\x1b[0m"):
        for ch in stream[pos:match.start()]:
            if ch in "\r\n":
                col = 0 if ch == "\r" else col
                row += ch == "\n"
                continue
            if 0 <= row < rows and 0 <= col < cols:
                grid[row][col] = ch
            col += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        pos = match.end()
        if match.group(3) == "H" and not match.group(2):
            parts = (match.group(1) or "1;1").split(";")
            row, col = int(parts[0] or 1) - 1, int(parts[1] if len(parts) > 1 and parts[1] else 1) - 1
    return ["".join(line) for line in grid]


def click_text(tab: Tab, text: str) -> None:
    """Click the first place the app drew ``text``, as a person would point at it."""
    query = dict(p.split("=") for p in tab.sockets[-1].split("?", 1)[1].split("&"))
    cols, rows = int(query["width"]), int(query["height"])
    screen = screen_of(b"".join(tab.frames).decode("utf-8", "replace"), cols, rows)
    row = next((i for i, line in enumerate(screen) if text in line), None)
    if row is None:
        raise AssertionError(f"{text!r} is not on the screen:\n" + "\n".join(screen))
    col = screen[row].index(text) + min(3, len(text) - 1)
    box = tab.page.locator(".xterm-screen").bounding_box()
    assert box is not None
    tab.page.mouse.click(box["x"] + (col + 0.5) * box["width"] / cols, box["y"] + (row + 0.5) * box["height"] / rows)
