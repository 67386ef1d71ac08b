"""End to end in a real terminal (tmux): ``study quiz --plain`` as a learner at a keyboard uses it.

Issue 14 §1.2: an exam submitted with nothing answered leaves no attempts and no due reviews (checked with
``study stats --json``). §1.3: a timed quiz left idle at the prompt of a real terminal is submitted by its clock,
with no key pressed. The quiz is put in the store with a few seconds left and resumed, so the test waits
seconds, not the shortest time ``--minutes`` allows.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest

from test_plain_quiz import BANK
from test_tmux import STUDY, TMUX, Tmux

pytestmark = [pytest.mark.slow, pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
              pytest.mark.skipif(STUDY is None, reason="the study command is not installed")]


@pytest.fixture
def setup(tmp_path: Path):
    bank = tmp_path / "questions"
    bank.mkdir()
    (bank / "e2e.yaml").write_text(BANK, encoding="utf-8")
    db = tmp_path / "progress.db"
    env = dict(os.environ, TERM="xterm-256color", STUDY_DB=str(db), NO_COLOR="1")
    tmux = Tmux(env)
    yield bank, db, env, tmux
    tmux.kill()


def stats(db: Path, env: dict[str, str]) -> dict:
    out = subprocess.run([STUDY, "--db", str(db), "stats", "--json"], env=env, text=True, capture_output=True,
                         check=True)
    return json.loads(out.stdout)


def test_an_empty_exam_in_a_terminal_leaves_no_attempts_and_no_due_reviews(setup) -> None:
    bank, db, env, tmux = setup
    tmux.start(f"{STUDY} --db {db} quiz --plain --mode exam --count 3 --seed 4 --questions {bank}; "
               "echo STUDY-EXITED-$?; sleep 30", cols=100, rows=60)
    tmux.wait_for("Question 1 of 3", timeout=60)
    tmux.keys(":submit", "Enter")
    tmux.wait_for("STUDY-EXITED-0", timeout=30)
    screen = tmux.screen()
    assert "Score: 0/3 (0%), below the 70% target" in screen
    figures = stats(db, env)
    assert figures["attempts"] == 0 and figures["due_today"] == 0
    assert sum(n for _day, n in figures["forecast"]) == 0
    assert [e["report"]["total"] for e in figures["exam_history"]] == [3]


def test_an_idle_timed_quiz_in_a_terminal_is_submitted_by_its_clock(setup) -> None:
    from study.bank import load_bank
    from study.progress import open_store
    from study.quiz import build_practice

    bank, db, env, tmux = setup
    started = dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=60 - 4)  # a 1-minute quiz, 4 s left
    with open_store(db) as store:
        build_practice(load_bank(questions=[bank]), seed=1, count=2, minutes=1, timed_like_exam=True, now=started,
                       store=store)
    tmux.start(f"{STUDY} --db {db} quiz --plain --mode quiz --resume --questions {bank}; "
               "echo STUDY-EXITED-$?; sleep 30", cols=100, rows=60)
    tmux.wait_for("Question 1 of 2", timeout=60)
    # No key is pressed from here on.
    tmux.wait_for("STUDY-EXITED-0", timeout=60)
    screen = tmux.screen()
    assert "Time is up: the quiz was submitted." in screen
    assert screen.count("submitted") == 1  # one line says it, not the prompt and then the report again
    assert "Time ran out: graded as it stood" in screen
    assert stats(db, env)["attempts"] == 0  # nothing was answered, so nothing was recorded
