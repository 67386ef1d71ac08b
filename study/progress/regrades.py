"""Applying a regrade to the store: the attempts' marks and ratings change, every change is kept with the
grade it replaced (``attempt_regrades``), the schedule of each question touched is replayed from its
whole history, so the next review date follows the corrected outcomes, and the stored report of each session
that asked the question (an exam, a timed quiz) is scored again, so its score, its verdict and the readiness
measured on exams follow too. The report keeps what it said before each regrade (``regrades``): the xAPI
export voids the verdict it sent then and sends the new one under a new statement id.

A dry run does all of it inside the same write transaction and rolls it back, so it shows the due dates and
scores the real run then writes, not the ones before the regrade."""

from __future__ import annotations

import copy
import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from study.progress.migrations import rebuild_aggregates
from study.progress.schedule import rating_for
from study.progress.store import ItemState, utc_iso


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


@dataclass(frozen=True)
class Verdict:
    correct: int
    total: int
    passed: bool | None  # None: a report that states no verdict

    def to_dict(self) -> dict[str, Any]:
        return {"correct": self.correct, "total": self.total, "passed": self.passed}


@dataclass(frozen=True)
class SessionRescore:
    """A finished session's report scored again: what it said, and what it says now."""

    session_id: str
    mode: str
    was: Verdict
    now: Verdict


@dataclass(frozen=True)
class RegradeOutcome:
    applied: tuple[RegradeChange, ...] = ()
    due: dict[str, ItemState | None] = field(default_factory=dict)  # each question touched, after the replay
    sessions: tuple[SessionRescore, ...] = ()
    written: bool = False  # False for a dry run: everything above was rolled back


class _DryRun(Exception):
    """Raised inside the write transaction of a dry run, so everything it did is rolled back."""


def apply_regrades(store: Any, changes: Sequence[RegradeChange], at: dt.datetime) -> list[RegradeChange]:
    """The changes :func:`regrade_store` wrote."""
    return list(regrade_store(store, changes, at).applied)


def regrade_store(store: Any, changes: Sequence[RegradeChange], at: dt.datetime, *,
                  dry_run: bool = False) -> RegradeOutcome:
    """Every change in one write transaction (``BEGIN IMMEDIATE``): a crash leaves the store as it was. What
    was applied is returned: the plan was made before the transaction, so a row another `study regrade`
    already set to the new grade while this one planned is skipped here, where no other writer can come
    between the read and the write; two regrades at once wrote every history row twice.

    The due dates and rescored sessions are read inside the transaction, after the replay; with ``dry_run``
    the transaction is then rolled back, so a dry run shows exactly what the real run sets (as long as the
    store replays without fuzz: ``study regrade`` opens it so)."""
    if not changes:
        return RegradeOutcome()
    stamp = utc_iso(at)
    outcome = RegradeOutcome()
    try:
        with store._tx() as conn:
            applied: list[RegradeChange] = []
            by_session: dict[str, list[tuple[str, bool, bool]]] = {}
            for c in changes:
                row = conn.execute("SELECT correct, rating, session_id FROM attempts WHERE uid = ?",
                                   (c.attempt_uid,)).fetchone()
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
                if row[2]:
                    by_session.setdefault(str(row[2]), []).append((c.item_id, bool(row[0]), c.new_correct))
            if not applied:
                return RegradeOutcome()
            rebuild_aggregates(conn)
            touched = sorted({c.item_id for c in applied})
            for item_id in touched:
                conn.execute("DELETE FROM items WHERE item_id = ?", (item_id,))
                store._replay(conn, item_id)
            sessions = _rescore_sessions(conn, by_session, stamp)
            # Read on this connection inside the transaction: the replayed state, written or not.
            outcome = RegradeOutcome(tuple(applied), {q: store.item_state(q) for q in touched}, tuple(sessions),
                                     written=not dry_run)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return outcome


def _rescore_sessions(conn: Any, by_session: Mapping[str, list[tuple[str, bool, bool]]],
                      stamp: str) -> list[SessionRescore]:
    out: list[SessionRescore] = []
    for sid in sorted(by_session):
        row = conn.execute("SELECT kind, report_json FROM sessions WHERE id = ? AND report_json IS NOT NULL",
                           (sid,)).fetchone()
        if row is None:
            continue  # a practice set never submitted, or a session the store no longer has: no report to mend
        try:
            report = json.loads(row[1])
        except ValueError:
            continue  # damaged on disk: the backup leaves it out too; nothing to score again
        new = rescore_report(report, by_session[sid], stamp) if isinstance(report, dict) else None
        if new is None:
            continue
        conn.execute("UPDATE sessions SET report_json = ? WHERE id = ?", (json.dumps(new, ensure_ascii=False), sid))
        out.append(SessionRescore(sid, str(row[0] or new.get("mode") or ""), _verdict(report), _verdict(new)))
    return out


def _verdict(report: Mapping[str, Any]) -> Verdict:
    passed = report.get("passed")
    return Verdict(_int(report.get("correct")), _int(report.get("total")), passed if isinstance(passed, bool) else None)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _percent(correct: int, total: int) -> float:
    # As the quiz report rounds it (``Report.score``, ``Tally.percent``), so a rescored report reads the same.
    return round(100.0 * correct / total, 1) if total else 0.0


def rescore_report(report: Mapping[str, Any], changes: Iterable[tuple[str, bool, bool]],
                   stamp: str) -> dict[str, Any] | None:
    """``report`` (a quiz report's dict) with each ``(question id, old mark, new mark)`` applied to the row of
    that question answered with the old mark: its mark, the score, the verdict against the report's own target,
    the domain and objective tallies and the list of incorrect answers. None when no change applies (the
    question is not in this report, or was left blank there: a blank has no attempt to regrade). What the
    report said before is appended to its ``regrades`` list; ``report`` itself is not changed."""
    new = copy.deepcopy(dict(report))
    listed = new.get("questions")
    questions = [q for q in listed if isinstance(q, dict)] if isinstance(listed, list) else []
    used: set[int] = set()
    delta = 0
    for qid, old, now in changes:
        row = next((k for k, q in enumerate(questions) if k not in used and q.get("id") == qid
                    and q.get("answered", True) and bool(q.get("correct")) == old), None)
        if row is None or old == now:
            continue
        used.add(row)
        q = questions[row]
        q["correct"] = now
        mark = "right" if now else "wrong"
        q["message"] = (f"Regraded on {stamp[:10]} after the question's key was corrected: now {mark} "
                        f"(marked {'right' if old else 'wrong'} when answered).")
        step = 1 if now else -1
        delta += step
        for table, key in (("by_domain", q.get("domain")), ("by_objective", q.get("objective"))):
            tally = (new.get(table) or {}).get(key) if isinstance(new.get(table), dict) else None
            if isinstance(tally, dict) and isinstance(tally.get("correct"), int):
                tally["correct"] += step
                tally["percent"] = _percent(tally["correct"], _int(tally.get("total")))
    if not used:
        return None
    before = _verdict(report)
    correct, total = _int(new.get("correct")) + delta, _int(new.get("total"))
    new["correct"] = correct
    new["score"] = _percent(correct, total)
    target = new.get("target_percent")
    if isinstance(target, (int, float)) and not isinstance(target, bool):
        new["passed"] = new["score"] >= target
    new["incorrect"] = [q.get("id") for q in questions if q.get("answered", True) and not q.get("correct")]
    earlier = new.get("regrades")
    history: list[Any] = earlier if isinstance(earlier, list) else []
    new["regrades"] = [*history, {"at": stamp, "correct": before.correct, "score": report.get("score"),
                                  "passed": before.passed}]
    return new


def regrade_history(store: Any, attempt_uid: str | None = None) -> list[RegradeRecord]:
    """The grades changed by regrades, oldest first (one attempt's with ``attempt_uid``)."""
    sql = "SELECT attempt_uid, item_id, old_correct, new_correct, content_hash, at FROM attempt_regrades"
    args: tuple[str, ...] = ()
    if attempt_uid is not None:
        sql += " WHERE attempt_uid = ?"
        args = (attempt_uid,)
    rows = store._query(sql + " ORDER BY at, id", args)
    return [RegradeRecord(u, i, bool(o), bool(n), h, _when(a)) for u, i, o, n, h, a in rows]


def regrades_by_attempt(store: Any) -> dict[str, list[RegradeRecord]]:
    """Every attempt's regrades, oldest first, by attempt uid: what the xAPI export needs to void the statements
    of earlier grades and give the current one a new id."""
    out: dict[str, list[RegradeRecord]] = {}
    for r in regrade_history(store):
        out.setdefault(r.attempt_uid, []).append(r)
    return out


def _when(text: str) -> dt.datetime:
    from study.progress.store import parse_iso
    from study.progress.store_open import StoreError

    when = parse_iso(text)
    if when is None:  # the column is NOT NULL; a None here would reach .isoformat() in `study regrade`
        raise StoreError("a regrade record has no time")
    return when
