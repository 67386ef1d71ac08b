"""Applying a regrade to the store: the attempts' marks and ratings change, every change is kept with the
grade it replaced (``attempt_regrades``), and the schedule of each question touched is replayed from its
whole history, so the next review date follows the corrected outcomes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

from study.progress.migrations import rebuild_aggregates
from study.progress.schedule import rating_for
from study.progress.store import utc_iso


@dataclass(frozen=True)
class RegradeChange:
    attempt_uid: str
    item_id: str
    at: dt.datetime  # when the attempt was answered
    seconds: float
    old_correct: bool
    new_correct: bool
    content_hash: str  # the current question's hash, the version the new grade comes from


@dataclass(frozen=True)
class RegradeRecord:
    attempt_uid: str
    item_id: str
    old_correct: bool
    new_correct: bool
    content_hash: str
    at: dt.datetime  # when the regrade was applied


def apply_regrades(store: Any, changes: Sequence[RegradeChange], at: dt.datetime) -> list[RegradeChange]:
    """Every change in one write transaction (``BEGIN IMMEDIATE``): a crash leaves the store as it was. The
    changes applied are returned: the plan was made before the transaction, so a row another `study regrade`
    already set to the new grade while this one planned is skipped here, where no other writer can come
    between the read and the write; two regrades at once wrote every history row twice."""
    if not changes:
        return []
    stamp = utc_iso(at)
    applied: list[RegradeChange] = []
    with store._tx() as conn:
        for c in changes:
            row = conn.execute("SELECT correct, rating FROM attempts WHERE uid = ?", (c.attempt_uid,)).fetchone()
            if row is None or bool(row[0]) == c.new_correct:
                continue
            new_rating = int(rating_for(c.new_correct, c.seconds))
            conn.execute(
                "INSERT INTO attempt_regrades(attempt_uid, item_id, old_correct, new_correct, old_rating,"
                " new_rating, content_hash, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (c.attempt_uid, c.item_id, int(row[0]), int(c.new_correct), row[1], new_rating, c.content_hash,
                 stamp),
            )
            conn.execute("UPDATE attempts SET correct = ?, rating = ? WHERE uid = ?",
                         (int(c.new_correct), new_rating, c.attempt_uid))
            applied.append(c)
        if not applied:
            return []
        rebuild_aggregates(conn)
        for item_id in sorted({c.item_id for c in applied}):
            conn.execute("DELETE FROM items WHERE item_id = ?", (item_id,))
            store._replay(conn, item_id)
    return applied


def regrade_history(store: Any, attempt_uid: str | None = None) -> list[RegradeRecord]:
    """The grades changed by regrades, oldest first (one attempt's with ``attempt_uid``)."""
    sql = "SELECT attempt_uid, item_id, old_correct, new_correct, content_hash, at FROM attempt_regrades"
    args: tuple[str, ...] = ()
    if attempt_uid is not None:
        sql += " WHERE attempt_uid = ?"
        args = (attempt_uid,)
    rows = store._query(sql + " ORDER BY at, id", args)
    return [RegradeRecord(u, i, bool(o), bool(n), h, _when(a)) for u, i, o, n, h, a in rows]


def _when(text: str) -> dt.datetime:
    from study.progress.store import parse_iso
    from study.progress.store_open import StoreError

    when = parse_iso(text)
    if when is None:  # the column is NOT NULL; a None here would reach .isoformat() in `study regrade`
        raise StoreError("a regrade record has no time")
    return when
