"""While a process holds a connection to a store, nothing in it opens and closes the store's files outside
SQLite: closing any descriptor of the file drops every POSIX lock the process holds on it (study.held_files)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from study import held_files
from study.inputs import InputFileError, read_bounded
from study.interop.output import refusal, write_atomic
from study.progress import Attempt, open_store


def answer(tag: str) -> Attempt:
    return Attempt(tag, "h", {}, "A", True, 3.0, "practice")


@pytest.fixture
def raw_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path given to os.open from now on (SQLite's own opens are in C and not seen)."""
    seen: list[str] = []
    real = os.open

    def spy(path: object, *args: object, **kwargs: object) -> int:
        seen.append(os.fspath(path))  # type: ignore[arg-type]
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", spy)
    return seen


def test_a_second_open_in_the_process_never_opens_the_file_raw(tmp_path: Path, raw_opens: list[str]) -> None:
    db = tmp_path / "progress.db"
    with open_store(db) as first:
        first.record_attempt(answer("a"))
        raw_opens.clear()
        with open_store(db) as second:
            second.record_attempt(answer("b"))
        assert str(db) not in raw_opens
        assert held_files.held(db) and held_files.held(f"{db}-wal") and held_files.held(f"{db}-shm")
    assert not held_files.held(db)  # both closed: given back
    raw_opens.clear()
    with open_store(db):
        assert str(db) in raw_opens  # a first open in the process still checks the file's own bytes


def test_a_process_that_reopens_while_another_comes_and_goes_keeps_every_answer(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    other = f"from study.progress import Attempt, open_store\nwith open_store({str(db)!r}) as s: " \
            "s.record_attempt(Attempt('other', 'h', {}, 'A', True, 3.0, 'practice'))"
    with open_store(db) as store:
        store.record_attempt(answer("a0"))
        with open_store(db):
            pass
        subprocess.run([sys.executable, "-c", f"from study.progress import open_store\nopen_store({str(db)!r}).close()"],
                       check=True, timeout=120)
        subprocess.run([sys.executable, "-c", other], check=True, timeout=120)
        for k in range(1, 5):
            store.record_attempt(answer(f"a{k}"))
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 6


def test_the_store_in_use_is_refused_as_an_input_or_an_export_target(tmp_path: Path, raw_opens: list[str],
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "progress.db"
    with open_store(db) as store:
        store.record_attempt(answer("a"))
        raw_opens.clear()
        for name in (db, Path(f"{db}-wal")):
            with pytest.raises(InputFileError, match="progress store this study process has open"):
                read_bounded(name, 1 << 20)
            assert "in use" in (refusal(str(name), force=True, fmt="json") or "")
            assert write_atomic(name, "{}") is False
        assert "study: error: cannot write" in capsys.readouterr().err
        assert [p for p in raw_opens if p.startswith(str(db))] == []
        store.record_attempt(answer("b"))
    assert sqlite3.connect(db).execute("SELECT count(*) FROM attempts").fetchone()[0] == 2
    assert read_bounded(db, 1 << 20).startswith(b"SQLite format 3")  # closed: an ordinary file again


def test_a_link_to_the_store_is_the_store(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    link = tmp_path / "link.db"
    with open_store(db):
        link.symlink_to(db)
        assert held_files.held(link)
        assert not held_files.held(tmp_path / "elsewhere.json")
