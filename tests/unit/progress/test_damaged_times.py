"""A timestamp damaged on disk (valid pages can still hold a flipped byte) leaves its row out of the history
instead of ending ``study stats`` or ``study regrade`` in a traceback; a session's other times stand in for
a damaged one."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

from study.cli import main
from study.progress import Attempt, Rating, open_store

from .conftest import NOW

LATER = NOW + dt.timedelta(minutes=5)


def damage(path: Path, sql: str) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def filled(tmp_path: Path) -> Path:
    path = tmp_path / "progress.db"
    with open_store(path, fuzz=False) as s:
        s.record_attempt(Attempt("q1", "h1", {}, "A", True, 10.0, "exam", "e1", NOW))
        s.record_attempt(Attempt("q2", "h2", {}, "B", False, 10.0, "exam", "e1", LATER))
        s.save_session("e1", "exam", "{}", deadline=LATER)
        s.finish_session("e1", json.dumps({"total": 2, "correct": 1}), at=LATER)
        s.save_session("e2", "exam", "{}")
        s.finish_session("e2", json.dumps({"total": 1, "correct": 1}), at=LATER)
        s.save_session("e3", "exam", '{"open": true}', deadline=LATER)
        s.review_card("c1", "hc", Rating.Good, 3.0, at=NOW)
        s.review_card("c2", "hc", Rating.Again, 3.0, at=LATER)
    return path


def test_rows_with_a_damaged_time_are_left_out_of_the_history(tmp_path: Path) -> None:
    path = filled(tmp_path)
    damage(path, "UPDATE attempts SET at = 'garbage' WHERE item_id = 'q1'")
    damage(path, "UPDATE reviews SET at = '2026-13-45' WHERE card_id = 'c2'")
    with open_store(path) as s:
        assert s.notice is None
        told: list[str] = []
        s.on_notice = told.append
        assert [(a.item_id, a.at) for a in s.history()] == [("q2", LATER)]
        assert [(r.card_id, r.at) for r in s.reviews()] == [("c1", NOW)]
        assert s.history(item_id="q1") == []
        s.history()  # read again: told once
        # Left out, not lost, and not in silence: the learner is told once per kind, and the rows stay.
        assert told == [f"1 answer in {path} has a time damaged on disk and is left out of your history "
                        "(the file keeps it as it is)",
                        f"1 card review in {path} has a time damaged on disk and is left out of your history "
                        "(the file keeps it as it is)"]
        assert s.notice == told[0]
    assert sqlite3.connect(path).execute("SELECT count(*) FROM attempts").fetchone() == (2,)


def test_a_sessions_other_times_stand_in_for_a_damaged_one(tmp_path: Path) -> None:
    path = filled(tmp_path)
    damage(path, "UPDATE sessions SET started_at = 'bad', deadline = 'bad' WHERE id = 'e1'")
    damage(path, "UPDATE sessions SET started_at = 'x', updated_at = 'y', finished_at = 'z' WHERE id = 'e2'")
    damage(path, "UPDATE sessions SET deadline = '\x01' WHERE id = 'e3'")
    with open_store(path) as s:
        e1 = s.session("e1")
        assert e1 is not None and e1.started_at == e1.updated_at == e1.finished_at == LATER
        assert e1.deadline is None and e1.report == {"total": 2, "correct": 1}
        assert s.session("e2") is None  # no time of its own left: it cannot be placed
        assert [e.id for e in s.exam_history()] == ["e1"]
        assert s.active_session("exam") == ("e3", '{"open": true}', None)


def test_stats_and_regrade_still_answer(tmp_path: Path, capsys) -> None:
    path = filled(tmp_path)
    damage(path, "UPDATE attempts SET at = 'garbage' WHERE item_id = 'q1'")
    damage(path, "UPDATE sessions SET started_at = 'bad' WHERE id = 'e1'")
    assert main(["--db", str(path), "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 2  # the totals are counted apart from the times
    assert main(["--db", str(path), "regrade"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_stats_says_in_one_line_that_an_exam_it_cannot_place_in_time_is_left_out(tmp_path: Path, capsys) -> None:
    path = filled(tmp_path)
    damage(path, "UPDATE sessions SET started_at = 'x', updated_at = 'y', finished_at = 'z' WHERE id = 'e2'")
    assert main(["--db", str(path), "stats", "--json"]) == 0
    out, err = capsys.readouterr()
    assert len(json.loads(out)["exam_history"]) == 1
    assert err == (f"study: 1 session in {path} has a time damaged on disk and is left out of your history "
                   "(the file keeps it as it is)\n")
