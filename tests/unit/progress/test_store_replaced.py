"""The store file deleted or replaced while study runs (issue 19, defect 12): SQLite would keep writing into
the unlinked file, the learner saw normal feedback, and after quit no store existed. Now the store notices
before it records, says so, and records into the store at its path."""

from __future__ import annotations

import os
import sqlite3

from study.progress import Attempt, Rating, open_store

from .conftest import NOW


def _attempt(k: int) -> Attempt:
    return Attempt(f"q{k}", "h", {}, "A", True, 20.0, "quiz", None, NOW)


def _count(path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
    finally:
        conn.close()


def test_a_deleted_store_is_recreated_at_its_path_and_the_answer_kept(tmp_path):
    path = tmp_path / "progress.db"
    heard = []
    with open_store(path, fuzz=False) as s:
        s.on_notice = heard.append
        s.record_attempt(_attempt(0))
        for side in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            side.unlink(missing_ok=True)
        s.record_attempt(_attempt(1))
        s.review_card("t/x", "h", Rating.Good, 5, NOW)
        assert s.notice and "was deleted" in s.notice and heard == [s.notice]
    assert path.exists() and _count(path) == 1  # the answer given after the deletion is there, after quit
    with open_store(path, fuzz=False) as again:
        assert [a.item_id for a in again.history()] == ["q1"] and again.notice is None


def test_a_replaced_store_is_followed_not_written_behind(tmp_path):
    path = tmp_path / "progress.db"
    with open_store(tmp_path / "other.db", fuzz=False) as other:
        other.record_attempt(_attempt(7))
    with open_store(path, fuzz=False) as s:
        s.record_attempt(_attempt(0))
        os.replace(tmp_path / "other.db", path)  # e.g. a copy restored over it by hand
        s.record_attempt(_attempt(1))
        assert "was replaced" in s.notice
    assert _count(path) == 2  # q7 from the file put there, and the new answer


def test_nothing_changes_while_the_file_stays(tmp_path):
    path = tmp_path / "progress.db"
    heard = []
    with open_store(path, fuzz=False) as s:
        s.on_notice = heard.append
        for k in range(3):
            s.record_attempt(_attempt(k))
        assert s.notice is None and heard == []
    assert _count(path) == 3
