"""End to end: the installed ``study`` command in a real terminal (tmux), driven with send-keys.

Takes a short practice quiz, quits, and checks with ``study stats --json`` that the attempts were recorded.
Skips when tmux is missing (CI installs it). A private tmux server (``-L``) keeps it away from the user's own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

TMUX = shutil.which("tmux")
STUDY = shutil.which("study", path=str(Path(sys.executable).parent)) or shutil.which("study")


class Tmux:
    def __init__(self, env: dict[str, str]) -> None:
        self.socket = f"study-e2e-{uuid.uuid4().hex[:8]}"
        self.session = "study"
        self.env = env

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([TMUX, "-L", self.socket, *args], env=self.env, text=True, capture_output=True,
                              check=check)

    def start(self, command: str, cols: int = 100, rows: int = 30) -> None:
        self.run("new-session", "-d", "-s", self.session, "-x", str(cols), "-y", str(rows), command)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.session, *keys)

    def screen(self) -> str:
        out = self.run("capture-pane", "-p", "-t", self.session, check=False)
        return out.stdout

    def alive(self) -> bool:
        return self.run("has-session", "-t", self.session, check=False).returncode == 0

    def wait_for(self, *needles: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            for needle in needles:
                if needle in text:
                    return needle
            time.sleep(0.1)
        raise AssertionError(f"none of {needles!r} appeared; the screen was:\n{text}")

    def kill(self) -> None:
        self.run("kill-server", check=False)


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
@pytest.mark.skipif(STUDY is None, reason="the study command is not installed")
def test_practice_in_a_real_terminal_records_attempts(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    env = dict(os.environ)
    env.update(TERM="xterm-256color", XDG_CACHE_HOME=str(tmp_path / "cache"), STUDY_DB=str(db),
               TEXTUAL_ANIMATIONS="none")
    env.pop("NO_COLOR", None)
    env.pop("STUDY_TUI_BENCH", None)
    tmux = Tmux(env)
    # After the app exits, leave a marker so the test can tell a clean exit from a crash.
    tmux.start(f"{STUDY} --db {db}; echo STUDY-EXITED-$?; sleep 30")
    answered = 0
    try:
        tmux.wait_for("Readiness", timeout=60)
        tmux.keys("p")
        tmux.wait_for("Which questions")
        tmux.keys("s")
        tmux.wait_for("practice ·")
        for _ in range(3):
            screen = tmux.screen()
            if "type the number" in screen:
                # A bare number is read in the question's unit: any numeric question takes it as an answer
                # (a unit of another kind, "140 GB" for a cost, is refused and asked again, by design).
                tmux.keys("140", "Enter")
            elif "[ ] A)" in screen:  # check boxes: a choose-two, and the app wants both picks
                tmux.keys("1")
                tmux.keys("2")
                tmux.keys("Enter")
            else:
                tmux.keys("1")
                tmux.keys("Enter")
            tmux.wait_for("enter: next question")  # the status line once the feedback is shown
            answered += 1
            tmux.keys("Enter")
            tmux.wait_for(f"{answered + 1}/10")
        # Leaving a set early shows its summary (issue 37 §6); esc there goes Home.
        tmux.keys("Escape")
        tmux.wait_for("esc Done")
        tmux.keys("Escape")
        tmux.wait_for("Readiness")
        tmux.keys("q")
        tmux.wait_for("STUDY-EXITED-0", timeout=20)
    finally:
        tmux.kill()
    out = subprocess.run([STUDY, "--db", str(db), "stats", "--json"], env=env, text=True, capture_output=True,
                         check=True)
    stats = json.loads(out.stdout)
    assert stats["attempts"] == answered == 3
