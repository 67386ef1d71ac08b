"""End to end, the installed ``study`` in tmux: Enter on questions never picked records nothing (issue 14, 1.1),
whether the choice list has focus or Tab moved it; ``study stats --json`` then shows no attempt."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.test_tmux import STUDY, TMUX, Tmux

pytestmark = pytest.mark.slow


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
@pytest.mark.skipif(STUDY is None, reason="the study command is not installed")
def test_enter_without_a_pick_records_no_attempt(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    env = dict(os.environ)
    env.update(TERM="xterm-256color", XDG_CACHE_HOME=str(tmp_path / "cache"), STUDY_DB=str(db),
               TEXTUAL_ANIMATIONS="none")
    env.pop("NO_COLOR", None)
    env.pop("STUDY_TUI_BENCH", None)
    tmux = Tmux(env)
    tmux.start(f"{STUDY} --db {db} quiz --count 5; echo STUDY-EXITED-$?; sleep 30", cols=80, rows=24)
    try:
        tmux.wait_for("Which questions", timeout=60)
        tmux.keys("s")
        tmux.wait_for("practice ·")
        screen = tmux.screen()
        if "type the number" not in screen:  # a number box has its own rule: an empty entry is refused
            tmux.keys("Enter")
            tmux.wait_for("Nothing picked")
            tmux.keys("Tab", "Enter", "BTab", "Enter")
            time.sleep(0.5)
            assert "0/0 right" in tmux.screen()
        tmux.keys("Escape")
        tmux.wait_for("Readiness")
        tmux.keys("q")
        tmux.wait_for("STUDY-EXITED-0", timeout=20)
    finally:
        tmux.kill()
    out = subprocess.run([STUDY, "--db", str(db), "stats", "--json"], env=env, text=True, capture_output=True,
                         check=True)
    assert json.loads(out.stdout)["attempts"] == 0
