from __future__ import annotations

import json

import pytest

from study.cli import main
from study.progress import Attempt, open_store

from .conftest import NOW


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "p.db"
    with open_store(path) as s:
        s.record_attempt(Attempt("x-question", "h", {"n": 2}, "B", True, 12.0, "quiz", None, NOW))
        s.set_setting("daily_goal", 25)
    return path


def test_stats_json(db, capsys):
    assert main(["--db", str(db), "stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["attempts"] == 1 and data["settings"]["daily_goal"] == 25
    assert 0 < data["readiness"]["expected"] < 1 and {d["id"] for d in data["domains"]} == {"1", "2", "3"}


def test_stats_sets_exam_date(db, capsys):
    assert main(["--db", str(db), "stats", "--exam-date", "2030-05-01"]) == 0
    out = capsys.readouterr().out
    assert "Exam readiness on 2030-05-01" in out and "By domain" in out
    assert main(["--db", str(db), "stats", "--exam-date", "May 1"]) == 2


def test_export_then_import_into_another_store(db, tmp_path, capsys):
    backup = tmp_path / "backup.json"
    assert main(["--db", str(db), "export", "--format", "json", str(backup)]) == 0
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "import", str(backup)]) == 0
    assert main(["--db", str(other), "import", str(backup)]) == 0
    out = capsys.readouterr().out
    assert "merged: 1 answer," in out and "merged: 0 answers" in out
    with open_store(other) as s:
        (a,) = s.history()
        assert (a.item_id, a.params, a.given) == ("x-question", {"n": 2}, "B")


def test_export_to_stdout(db, capsys):
    assert main(["--db", str(db), "export"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "study-progress"


def test_import_refuses_junk(db, tmp_path, capsys):
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}')
    assert main(["--db", str(db), "import", str(junk)]) == 1
    assert "not a study progress export" in capsys.readouterr().err
    assert main(["--db", str(db), "import", str(tmp_path / "missing.json")]) == 1


def test_reset_backs_up_first_and_backup_restores(db, tmp_path, capsys):
    assert main(["--db", str(db), "reset", "--yes"]) == 0
    # Counted as a sentence is ("1 answer", "0 card reviews"), not "1 answers".
    assert capsys.readouterr().out.startswith("erased 1 answer, 0 card reviews and ")
    (backup,) = tmp_path.glob("p-backup-*.json")
    with open_store(db) as s:
        assert s.history() == [] and s.get_setting("daily_goal") == 25
    assert main(["--db", str(db), "import", "--replace", str(backup)]) == 0
    with open_store(db) as s:
        assert len(s.history()) == 1


def test_reset_needs_confirmation(db, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    assert main(["--db", str(db), "reset"]) == 2
    with open_store(db) as s:
        assert len(s.history()) == 1


def test_newer_store_is_a_one_line_error(tmp_path, capsys):
    import sqlite3

    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert main(["--db", str(path), "stats"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("study: error:") and "newer version" in err and "\n" not in err


def test_export_and_import_say_their_counts_as_sentences_and_escape_the_file_name(db, tmp_path, capsys):
    """'exported 1 answers, 0 card reviews, 1 sessions' read wrongly, and a file name with an ESC in it was
    written raw to the terminal."""
    backup = tmp_path / "b\x1b[2Jx.json"
    assert main(["--db", str(db), "export", str(backup)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("exported 1 answer, 0 card reviews, 0 sessions to ")
    assert "\x1b" not in err and "b\\x1b[2Jx.json" in err
    assert main(["--db", str(tmp_path / "other.db"), "import", str(backup)]) == 0
    out = capsys.readouterr().out
    # The settings: the backup's one, and the learner id every export now carries (issue 36.3).
    assert out.startswith("merged: 1 answer, 0 card reviews, 0 sessions, 2 settings added; 1 schedule rebuilt")
