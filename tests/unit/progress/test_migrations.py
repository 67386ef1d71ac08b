from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from study.progress import Rating, StoreError, open_store
from study.progress.migrations import SCHEMA_VERSION

DATA = Path(__file__).parent / "data"


def make_v1(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript((DATA / "v1.sql").read_text())
    conn.close()
    return path


def test_v1_store_migrates_and_keeps_everything(tmp_path):
    path = make_v1(tmp_path / "progress.db")
    with open_store(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        hist = s.history()
        assert len(hist) == 4
        by_at = {a.at.isoformat(): a for a in hist}
        slow = by_at["2026-11-19T09:05:00+00:00"]
        assert slow.params == {"gpus": 8} and slow.seconds == 95.5
        ratings = dict(s._query("SELECT at, rating FROM attempts"))
        assert ratings["2026-11-19T09:05:00.000000+00:00"] == Rating.Hard  # right but slower than 72 s
        assert ratings["2026-11-20T10:02:00.000000+00:00"] == Rating.Again
        assert ratings["2026-11-19T09:01:00.000000+00:00"] == Rating.Good
        assert all(a.picked == () for a in hist)  # v1 never knew the picked texts; nothing is invented
        uids = [a.uid for a in hist]
        assert all(uids) and len(set(uids)) == 4
        # in-progress exam still resumes, settings and FSRS state survive
        sid, state, deadline = s.active_session("exam")
        assert sid == "exam-1" and '"index": 3' in state and deadline.hour == 11
        assert s.get_setting("exam_date") == "2027-01-15" and s.get_setting("daily_goal") == 30
        assert s.item_state("a1").card.stability == 1.5
        assert s.history(item_id="gone")[0].content_hash == "h-old"
        # the v2 tables work on a migrated store
        s.review_card("t/x", "h", Rating.Good, 3)
        assert len(s.reviews()) == 1


def test_migration_is_deterministic(tmp_path):
    """Two copies of one v1 store get the same uids, so merging their exports adds no duplicates."""
    uids = []
    for name in ("a.db", "b.db"):
        with open_store(make_v1(tmp_path / name)) as s:
            uids.append(sorted(a.uid for a in s.history()))
    assert uids[0] == uids[1]


def test_reopening_a_current_store_does_not_migrate_again(tmp_path):
    path = make_v1(tmp_path / "p.db")
    open_store(path).close()
    with open_store(path) as s:
        assert len(s.history()) == 4


def test_newer_schema_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "p.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future (x)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer version"):
        open_store(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["p.db"]


def test_foreign_sqlite_database_is_refused_not_moved(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="did not create"):
        open_store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_failed_migration_rolls_back(tmp_path, monkeypatch):
    from study.progress import migrations

    path = make_v1(tmp_path / "p.db")
    shutil.copy(path, tmp_path / "orig.db")

    def boom(conn):
        raise sqlite3.OperationalError("disk I/O error (simulated)")

    monkeypatch.setattr(migrations, "MIGRATIONS", [migrations.MIGRATIONS[0], [*migrations.MIGRATIONS[1][:2], boom]])
    with pytest.raises(StoreError, match="could not upgrade .* left unchanged"):
        open_store(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    original = sqlite3.connect(tmp_path / "orig.db")
    assert conn.execute("SELECT * FROM attempts ORDER BY id").fetchall() == \
        original.execute("SELECT * FROM attempts ORDER BY id").fetchall() != []
    original.close()
    cols = [r[1] for r in conn.execute("PRAGMA table_info(attempts)")]
    assert "uid" not in cols
    conn.close()


def test_v1_history_is_in_the_running_totals(tmp_path):
    with open_store(make_v1(tmp_path / "p.db")) as s:
        totals = dict((i, (n, c)) for i, n, c in s._query("SELECT item_id, attempts, correct FROM item_totals"))
        assert totals == {"a1": (2, 1), "b2": (1, 1), "gone": (1, 1)}
        hours = dict((h, a) for h, a in s._query("SELECT hour, answers FROM activity"))
        assert hours == {"2026-11-19T09": 2, "2026-11-20T10": 1, "2026-11-18T08": 1}
        last = s.summaries()["a1"]
        assert last.last_correct is False and last.last_at.isoformat() == "2026-11-20T10:02:00+00:00"
