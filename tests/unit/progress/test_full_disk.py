"""A full disk costs only what was being saved: a one-line error, the quiz goes on, nothing stored is lost.

Two ways to fill the disk: SQLite's own ``max_page_count`` (a real SQLITE_FULL from the library), and a
connection whose writes fail as SQLite reports ENOSPC, at the statement or at the commit (where a WAL write
on a full disk fails), once a given number of writes have gone through.
"""

from __future__ import annotations

import datetime as dt
import errno
import io
import json
import sqlite3
from pathlib import Path

import pytest

from study.cli import main
from study.progress import Attempt, StoreError, open_store
from study.quiz import build_exam, build_practice
from study.quiz.plain import run_plain

from .conftest import NOW

_WRITES = ("INSERT", "UPDATE", "DELETE")


class FullDisk:
    """Wraps a store's connection: after ``room`` write transactions, every write fails with SQLITE_FULL,
    at the first write statement or at the COMMIT (``where``)."""

    def __init__(self, conn: sqlite3.Connection, where: str = "statement", room: int = 0) -> None:
        self._conn, self.where, self.room = conn, where, room
        self.wrote = False

    def execute(self, sql: str, *args):
        verb = sql.lstrip().split(None, 1)[0].upper()
        commit = verb == "COMMIT" and self.wrote  # a read transaction's commit writes nothing
        if self.room <= 0 and (verb in _WRITES if self.where == "statement" else commit):
            exc = sqlite3.OperationalError("database or disk is full")
            exc.sqlite_errorcode = 13  # SQLITE_FULL
            raise exc
        self.wrote = verb in _WRITES or (self.wrote and verb not in ("COMMIT", "ROLLBACK"))
        if commit:
            self.room -= 1
        return self._conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def _snapshot(store) -> dict:
    data = store.export_data()
    data.pop("exported_at")
    return data


@pytest.fixture
def kept(tmp_path):
    """A store with history worth keeping."""
    path = tmp_path / "p.db"
    with open_store(path, fuzz=False) as s:
        for k in range(20):
            s.record_attempt(Attempt(f"old{k % 4}", "h", {}, "A", k % 2 == 0, 30.0, "quiz", None,
                                     NOW - dt.timedelta(days=k)))
        s.review_card("t1/intro", "h", 3, 5.0, NOW)
        s.set_setting("daily_goal", 30)
    return path


def test_a_real_sqlite_full_is_one_line_and_loses_nothing(kept):
    with open_store(kept, fuzz=False) as s:
        before = _snapshot(s)
        pages = s._query("PRAGMA page_count")[0][0]
        s._query(f"PRAGMA max_page_count = {pages}")
        big = Attempt("new", "h", {}, "x" * 200_000, True, 10.0, "quiz", None, NOW)  # needs new pages
        with pytest.raises(StoreError, match="disk is full") as info:
            s.record_attempt(big)
        assert "\n" not in str(info.value)
        assert _snapshot(s) == before
        # room again: the same handle writes
        s._query(f"PRAGMA max_page_count = {pages * 100}")
        s.record_attempt(big)
        assert len(s.history()) == 21
    with open_store(kept) as s:
        assert s.notice is None and len(s.history()) == 21


@pytest.mark.parametrize("where", ["statement", "commit"])
def test_every_kind_of_write_on_a_full_disk_is_a_store_error_and_changes_nothing(kept, where):
    with open_store(kept, fuzz=False) as s:
        before = _snapshot(s)
        s._conn = FullDisk(s._conn, where)
        for write in (lambda: s.record_attempt(Attempt("n", "h", {}, "A", True, 5.0, "quiz", None, NOW)),
                      lambda: s.review_card("t1/intro", "h", 2, 5.0, NOW),
                      lambda: s.save_session("x", "exam", "{}"),
                      lambda: s.set_setting("daily_goal", 5),
                      lambda: s.reset(),
                      lambda: s.import_data(before)):
            with pytest.raises(StoreError, match="disk is full"):
                write()
            assert not s._conn.in_transaction
        s._conn = s._conn._conn
        assert _snapshot(s) == before


@pytest.mark.parametrize("where", ["statement", "commit"])
def test_practice_on_a_full_disk_says_so_and_goes_on(kept, bank, where):
    clock_t = [NOW]

    def clock():
        clock_t[0] += dt.timedelta(seconds=5)
        return clock_t[0]

    with open_store(kept, fuzz=False) as s:
        before = _snapshot(s)
        session = build_practice(bank, seed=1, count=3, store=s, now=NOW, clock=clock)
        s._conn = FullDisk(s._conn, where, room=1)  # the first answer is saved, then the disk is full
        lines = [inst.expected for inst in session.instances]
        out = io.StringIO()
        report = run_plain(session, io.StringIO("\n".join(lines) + "\n"), out, clock)
        text = out.getvalue()
        assert report is not None and report.correct == 3  # every answer counted in the quiz
        assert text.count("Could not save that to your progress") >= 2 and "disk is full" in text
        assert text.count("Correct") >= 3  # feedback shown even for the answers not saved
        s._conn = s._conn._conn
        after = _snapshot(s)
    assert after["attempts"][: len(before["attempts"])] == before["attempts"]
    assert [a["item_id"] for a in after["attempts"][len(before["attempts"]):]] == [session.instances[0].qid]
    assert after["settings"] == before["settings"] and after["reviews"] == before["reviews"]


def test_exam_on_a_full_disk_keeps_its_last_saved_state_to_resume(kept, bank):
    clock_t = [NOW]

    def clock():
        clock_t[0] += dt.timedelta(seconds=5)
        return clock_t[0]

    with open_store(kept, fuzz=False) as s:
        before = _snapshot(s)
        session = build_exam(bank, seed=1, count=3, minutes=30, store=s, now=NOW, clock=clock)
        s._conn = FullDisk(s._conn, "commit", room=1)  # the first answer's save fits, nothing after it
        answers = [inst.expected for inst in session.instances]
        out = io.StringIO()
        report = run_plain(session, io.StringIO("\n".join(answers + [":submit"]) + "\n"), out, clock)
        assert report is not None and report.correct == 3
        assert "Could not save that to your progress" in out.getvalue()
        s._conn = s._conn._conn
        # Nothing of the exam was finished in the store, so it is offered again from its last saved state.
        sid, state, _deadline = s.active_session("exam")
        saved = json.loads(state)
        assert sid == session.id and saved["answers"][0] == answers[0] and saved["answers"][1] is None
        after = _snapshot(s)
    assert after["attempts"] == before["attempts"] and after["reviews"] == before["reviews"]


def test_reset_on_a_full_disk_removes_its_partial_backup_and_erases_nothing(kept, tmp_path, monkeypatch, capsys):
    real_dump = json.dump

    def dump_until_full(obj, fh, **kw):
        text = json.dumps(obj, **kw)
        fh.write(text[: len(text) // 2])
        fh.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(json, "dump", dump_until_full)
    assert main(["--db", str(kept), "reset", "--yes"]) == 1
    monkeypatch.setattr(json, "dump", real_dump)
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error: backup failed, nothing erased") and "No space left" in line
    assert list(tmp_path.glob("*backup*")) == []
    with open_store(kept) as s:
        assert len(s.history()) == 20 and s.get_setting("daily_goal") == 30


def test_reset_whose_erase_hits_a_full_disk_is_one_line_and_erases_nothing(kept, tmp_path, monkeypatch, capsys):
    import study.progress

    real_open = study.progress.open_store

    def full_after_open(path, **kw):
        store = real_open(path, **kw)
        store._conn = FullDisk(store._conn, "commit")
        return store

    monkeypatch.setattr(study.progress, "open_store", full_after_open)
    assert main(["--db", str(kept), "reset", "--yes"]) == 1
    monkeypatch.undo()
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error: nothing erased") and "disk is full" in line
    (backup,) = tmp_path.glob("p-backup-*.json")
    assert len(json.loads(backup.read_text())["attempts"]) == 20  # the backup that was written is whole
    with open_store(kept) as s:
        assert len(s.history()) == 20


def test_a_sqlite_copy_that_fills_the_disk_leaves_no_partial_file(kept, tmp_path, monkeypatch):
    with open_store(kept) as s:
        target = tmp_path / "copy.db"
        real_connect = sqlite3.connect

        def small_disk(path, *args, **kw):
            conn = real_connect(path, *args, **kw)
            if Path(path) == target:
                conn.execute("PRAGMA max_page_count = 2")  # the copy outgrows it at once
            return conn

        monkeypatch.setattr(sqlite3, "connect", small_disk)
        with pytest.raises(StoreError, match="full"):
            s.backup_to(target)
        monkeypatch.undo()
        assert not target.exists() and len(s.history()) == 20


def test_any_command_whose_store_write_fails_midway_says_one_line(kept, monkeypatch, capsys):
    import study.progress

    real_open = study.progress.open_store

    def full_after_open(path, **kw):
        store = real_open(path, **kw)
        store._conn = FullDisk(store._conn, "statement")
        return store

    monkeypatch.setattr(study.progress, "open_store", full_after_open)
    assert main(["--db", str(kept), "stats", "--exam-date", "2030-01-01"]) == 1
    monkeypatch.undo()
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error: progress store") and "disk is full" in line
    with open_store(kept) as s:
        assert s.get_setting("exam_date") is None and len(s.history()) == 20
