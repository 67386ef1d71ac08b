"""End to end in a real terminal (tmux): ``study lab ID --plain`` as a learner at a keyboard works a lab.

The learner runs a command, reads the answer off the simulated output, answers a task, and the attempt is
in the progress store with mode ``lab`` (checked with ``study stats --json`` and the store itself).
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from pathlib import Path

import pytest

from test_tmux import STUDY, TMUX, Tmux

pytestmark = [pytest.mark.slow, pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
              pytest.mark.skipif(STUDY is None, reason="the study command is not installed")]


def test_a_lab_in_a_terminal_runs_commands_grades_and_records(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    env = dict(os.environ, TERM="xterm-256color", STUDY_DB=str(db), NO_COLOR="1",
               STUDY_LAB_CACHE=str(tmp_path / "cache"))
    tmux = Tmux(env)
    try:
        tmux.start(f"{STUDY} --db {db} lab power-cap --plain --seed 11; echo STUDY-EXITED-$?; sleep 30",
                   cols=100, rows=60)
        tmux.wait_for("lab$", timeout=60)
        tmux.keys("nvidia-smi --query-gpu=index,power.limit --format=csv,noheader", "Enter")
        # The output arrives line by line: wait for all eight rows, not only the first " W".
        deadline = time.monotonic() + 30
        rows: list[tuple[str, str]] = []
        while len(rows) < 8 and time.monotonic() < deadline:
            time.sleep(0.1)
            rows = re.findall(r"^(\d), (\d+)\.00 W$", tmux.screen(), re.M)
        capped = [int(w) for _i, w in rows if int(w) != 700]
        assert len(rows) == 8 and len(capped) == 1  # one GPU's limit was lowered in this case
        tmux.keys(f"answer 2 {capped[0]} W", "Enter")
        tmux.wait_for("Correct", timeout=30)
        tmux.keys("quit", "Enter")
        tmux.wait_for("STUDY-EXITED-0", timeout=30)
        assert "Lab finished: 1 of 2 tasks right." in tmux.screen()
    finally:
        tmux.kill()
    got = sqlite3.connect(db).execute("SELECT item_id, mode, correct FROM attempts").fetchall()
    assert got == [("lab.power-cap.cap-watts", "lab", 1)]
