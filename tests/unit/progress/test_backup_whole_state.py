"""A backup carries the whole learner state: every table of the schema travels or is named, with its reason,
in one list of exclusions; a restore brings back suspensions, burials and regrade history, and
``--replace`` leaves nothing of the newer state behind."""

from __future__ import annotations

import copy
import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from study.progress import Attempt, open_store
from study.progress.backup_format import IN_BACKUP, NOT_IN_BACKUP, ImportFormatError
from study.progress.control import bury, held_back as held_now, suspend, suspended_ids, unsuspend
from study.progress.migrations import migrate

T0 = dt.datetime(2026, 12, 1, 9, tzinfo=dt.timezone.utc)


def schema_tables() -> set[str]:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn, 0)
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_every_table_of_the_schema_travels_or_is_excluded_with_a_reason() -> None:
    assert set(IN_BACKUP) | set(NOT_IN_BACKUP) == schema_tables()
    assert not set(IN_BACKUP) & set(NOT_IN_BACKUP)
    assert all(reason.strip() for reason in NOT_IN_BACKUP.values())


def test_the_export_holds_a_list_for_every_table_it_carries(tmp_path: Path) -> None:
    with open_store(tmp_path / "p.db") as store:
        data = store.export_data()
    assert set(IN_BACKUP) - {"settings"} <= {k for k, v in data.items() if isinstance(v, list)}
    assert list(data)[-1] == "reports"  # analyze reads them from the end of the file


def regraded_store(path: Path) -> dict:
    """A store with a suspended and a buried question and one regraded answer; returns its backup."""
    with open_store(path, fuzz=False) as store:
        store.record_attempt(Attempt("q1", "h1", {}, "B", False, 10.0, "practice", at=T0))
        store.record_attempt(Attempt("q2", "h2", {}, "A", True, 10.0, "practice", at=T0))
        suspend(store, "q1", T0)
        bury(store, "q2", T0)
        uid = store._query("SELECT uid FROM attempts WHERE item_id = 'q1'")[0][0]
        with store._tx() as conn:
            conn.execute("UPDATE attempts SET correct = 1 WHERE uid = ?", (uid,))
            conn.execute("INSERT INTO attempt_regrades(attempt_uid, item_id, old_correct, new_correct, content_hash,"
                         " at) VALUES (?, 'q1', 0, 1, 'h1b', ?)", (uid, "2026-12-02T09:00:00.000000+00:00"))
        return store.export_data()


def held_back(path: Path) -> dict[str, bool]:
    """Each item held back at T0, and whether it is suspended (else buried)."""
    with open_store(path) as store:
        suspended = suspended_ids(store)
        return {item: item in suspended for item in held_now(store, T0)}


def regrade_rows(path: Path) -> int:
    return sqlite3.connect(path).execute("SELECT count(*) FROM attempt_regrades").fetchone()[0]


def test_a_restored_backup_brings_back_suspensions_burials_and_regrades(tmp_path: Path) -> None:
    backup = regraded_store(tmp_path / "old.db")
    fresh = tmp_path / "new.db"
    with open_store(fresh) as store:
        store.import_data(backup)
        store.import_data(backup)  # a second merge adds nothing, regrade history included
    assert held_back(fresh) == {"q1": True, "q2": False}
    assert regrade_rows(fresh) == 1


def test_replace_with_an_older_backup_leaves_nothing_of_the_newer_state(tmp_path: Path) -> None:
    older = regraded_store(tmp_path / "p.db")
    with open_store(tmp_path / "p.db") as store:
        unsuspend(store, "q1", T0 + dt.timedelta(hours=1))
        suspend(store, "q9", T0 + dt.timedelta(hours=1))
        store.import_data(older, replace=True)
    assert held_back(tmp_path / "p.db") == {"q1": True, "q2": False}
    assert regrade_rows(tmp_path / "p.db") == 1


def test_a_merge_keeps_the_newer_decision_on_each_item(tmp_path: Path) -> None:
    older = regraded_store(tmp_path / "p.db")
    with open_store(tmp_path / "p.db") as store:
        unsuspend(store, "q1", T0 + dt.timedelta(hours=1))
        store.import_data(older)  # the backup's suspension is older than the local unsuspend
    assert "q1" not in held_back(tmp_path / "p.db")


def test_one_uid_with_two_grades_in_a_backup_is_refused(tmp_path: Path) -> None:
    backup = regraded_store(tmp_path / "old.db")
    twin = copy.deepcopy(backup["attempts"][0])
    twin["correct"] = not twin["correct"]
    backup["attempts"].append(twin)
    with open_store(tmp_path / "new.db") as store:
        with pytest.raises(ImportFormatError, match="different grade"):
            store.import_data(backup)
        assert store._query("SELECT count(*) FROM attempts")[0][0] == 0
    same = regraded_store(tmp_path / "again.db")
    same["attempts"].append(copy.deepcopy(same["attempts"][0]))  # the very same row twice is harmless
    with open_store(tmp_path / "newer.db") as store:
        assert store.import_data(same)["attempts"] == 2


def test_a_merge_keeps_the_newer_local_session_and_every_local_setting(tmp_path: Path) -> None:
    with open_store(tmp_path / "laptop.db") as laptop:
        laptop.set_setting("daily_goal", 10)
        laptop.set_setting("exam_date", "2027-03-01")
        laptop.save_session("s1", "exam", '{"v": "old"}')
        backup = laptop.export_data()
    backup["sessions"][0]["updated_at"] = "2026-01-01T00:00:00.000000+00:00"
    with open_store(tmp_path / "p.db") as store:
        store.set_setting("daily_goal", 30)
        store.save_session("s1", "exam", '{"v": "newer"}')
        store.import_data(backup)
        assert store.get_setting("daily_goal") == 30  # a backup never overwrites a local setting
        assert store.get_setting("exam_date") == "2027-03-01"  # one unset here is taken from it
        state = store._query("SELECT state_json FROM sessions WHERE id = 's1'")[0][0]
    assert state == '{"v": "newer"}'
