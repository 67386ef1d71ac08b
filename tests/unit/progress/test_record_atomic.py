"""``record_attempt`` is one transaction: a failure at any of its writes stores nothing, and the running totals
(``item_totals``, ``activity``) always agree with ``attempts`` (issue 19, the two tests the suite lacked).

A mutation run showed that moving the aggregate updates out of the transaction, or committing after the
attempt row, passed every test before these: the first fails each write in turn (not the first statement,
not the COMMIT, which the full-disk tests cover), the second kills a writer at random points.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from study.progress import Attempt, StoreError, open_store

from .conftest import NOW
from .test_backup_validation import rows
from .test_durability import WRITER


class _Counting:
    """The store's connection, passed through, counting each ``execute`` and failing the ``fail_at``-th."""

    def __init__(self, conn: sqlite3.Connection, fail_at: int | None = None) -> None:
        self._conn, self.fail_at, self.statements = conn, fail_at, []

    def execute(self, sql: str, *args):
        self.statements.append(sql.split()[0].upper() + " " + " ".join(sql.split()[1:4]))
        if len(self.statements) == self.fail_at:
            # An ordinary write failure (a constraint, a busy lock): not damage, so no file is moved aside.
            raise sqlite3.OperationalError("injected failure at this write")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


def _attempt(k: int) -> Attempt:
    return Attempt(f"q{k % 2}", "h", {"k": k}, "A", k % 2 == 0, 20.0, "quiz", f"s{k}", NOW)


def _statements_of_one_record(tmp_path: Path) -> list[str]:
    with open_store(tmp_path / "count.db", fuzz=False) as s:
        s.record_attempt(_attempt(0))
        counting = _Counting(s._conn)
        s._conn = counting  # type: ignore[assignment]
        s.record_attempt(_attempt(1))
        s._conn = counting._conn
    return counting.statements


def test_the_transaction_has_writes_after_the_first_to_fail(tmp_path):
    statements = _statements_of_one_record(tmp_path)
    assert statements[0].startswith("BEGIN") and statements[-1].startswith("COMMIT")
    later = [s for s in statements[2:-1] if s.split()[0] in ("INSERT", "UPDATE", "DELETE")]
    assert any("item_totals" in s for s in later) and any("activity" in s for s in later)


@pytest.fixture(scope="module")
def later_writes(tmp_path_factory) -> list[int]:
    """Positions (1-based) of the statements after the first one inside the transaction, up to the COMMIT."""
    statements = _statements_of_one_record(tmp_path_factory.mktemp("count"))
    return list(range(3, len(statements)))


def test_a_failure_at_any_later_write_stores_nothing_at_all(tmp_path, later_writes):
    assert len(later_writes) >= 4
    path = tmp_path / "p.db"
    with open_store(path, fuzz=False) as s:
        s.record_attempt(_attempt(0))
        real = s._conn
        for position in later_writes:
            before = rows(path)
            failing = _Counting(real, fail_at=position)
            s._conn = failing  # type: ignore[assignment]
            with pytest.raises(StoreError):
                s.record_attempt(_attempt(1))
            s._conn = real
            # the write at ``position`` failed, and the only statement after it is the rollback
            assert [st.split()[0] for st in failing.statements[position:]] == ["ROLLBACK"], failing.statements
            assert not real.in_transaction
            assert rows(path) == before, f"a failure at {failing.statements[position - 1]!r} kept a write"
        s.record_attempt(_attempt(1))  # and the store still records afterwards
        assert s._query("SELECT count(*) FROM attempts") == [(2,)]


def _aggregates_agree(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        totals = dict((i, (a, c)) for i, a, c in conn.execute("SELECT item_id, attempts, correct FROM item_totals"))
        derived = dict((i, (a, c)) for i, a, c in conn.execute(
            "SELECT item_id, count(*), sum(correct) FROM attempts GROUP BY item_id"))
        assert totals == derived
        activity = dict(conn.execute("SELECT hour, answers FROM activity WHERE answers > 0"))
        per_hour = dict(conn.execute("SELECT substr(at, 1, 13), count(*) FROM attempts GROUP BY 1"))
        assert activity == per_hour
        return conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.slow
def test_totals_agree_with_attempts_after_kills_at_random_points(tmp_path):
    path = tmp_path / "progress.db"
    rng = random.Random(19)  # the same kill points on every run
    count = 0
    for _round in range(6):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"r{_round}", "-1"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
            proc.stdin.write("go\n")
            proc.stdin.flush()
            wanted, acknowledged = rng.randint(1, 25), 0
            while acknowledged < wanted:
                acknowledged = int(proc.stdout.readline())
            time.sleep(rng.random() * 0.01)  # land anywhere in the next transaction, or between two
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        now = _aggregates_agree(path)
        assert now >= count + 2 * acknowledged
        count = now


# -- an import that meets a table constraint fails whole --------------------------------------------------

from study.progress import transfer  # noqa: E402
from study.progress.transfer import ImportFormatError  # noqa: E402

from .test_backup_validation import backup, held  # noqa: E402,F401  (fixtures)

# Values the backup checks refuse; injected after them, as a check that missed one would let them through.
SLIPPED = {
    "attempts": {"seconds": -5.0},
    "reviews": {"rating": 9},
    "reports": {"kind": "rant"},
    "items": {"kind": "topic"},
}


# A merge rebuilds items from the history rather than read the backup's cards: items only with replace.
CASES = [(t, r) for t in SLIPPED for r in (False, True) if t != "items" or r]


@pytest.mark.parametrize("table, replace", CASES, ids=[f"{t}-{'replace' if r else 'merge'}" for t, r in CASES])
def test_a_row_that_slips_past_the_checks_fails_the_whole_import(backup, held, monkeypatch, table, replace):  # noqa: F811
    checked = transfer.parse_backup

    def slipping(data, read_session=None):
        parsed = checked(data, read_session)
        rows_of = list(getattr(parsed, table))
        rows_of[-1] = rows_of[-1].model_copy(update=SLIPPED[table])  # the last row: all the others went in first
        return parsed.model_copy(update={table: rows_of})

    monkeypatch.setattr(transfer, "parse_backup", slipping)
    before = rows(held)
    with open_store(held, fuzz=False) as s:
        with pytest.raises((StoreError, ImportFormatError)) as info:
            s.import_data(backup, replace=replace)
        assert "constraint" in str(info.value).lower() and "\n" not in str(info.value)
        assert s._conn.in_transaction is False
    assert rows(held) == before
