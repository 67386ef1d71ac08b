"""A learner's reports of problems with questions (a wrong key, an unclear stem, outdated facts, free text).

Kept in the store's ``reports`` table (schema 6) so the learner can list them (``study reports``, the app), and
carried in the JSON backup (``export_reports``; ``study import`` reads them back, merging by ``uid``) so that
``study analyze`` shows them to instructors beside each question's figures. A report names the question's
content hash at the time, so an instructor can tell whether it was about the current wording.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import sqlite3

    from study.progress.store import Store

KINDS = ("wrong-key", "unclear", "outdated", "other")
KIND_LABELS = {
    "wrong-key": "the marked answer is wrong",
    "unclear": "the question is unclear",
    "outdated": "the facts are outdated",
    "other": "something else",
}
MAX_TEXT = 2000
_COLS = "uid, item_id, content_hash, kind, text, context, session_id, at"


class ReportError(ValueError):
    """A report that cannot be kept (unknown kind, no question); the message is one line for the learner."""


@dataclass(frozen=True)
class ProblemReport:
    uid: str
    item_id: str
    content_hash: str
    kind: str
    text: str
    context: str  # where it was filed: practice, exam, review, results
    session_id: str | None
    at: str  # UTC ISO, as stored

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def add_report(
    store: Store,
    item_id: str,
    kind: str,
    text: str = "",
    *,
    content_hash: str = "",
    context: str = "",
    session_id: str | None = None,
    at: dt.datetime | None = None,
) -> ProblemReport:
    """Keep one report; raises :class:`ReportError` for an unknown kind, no question, or "other" with no words."""
    from study.progress.store import utc_iso

    kind = (kind or "").strip()
    if kind not in KINDS:
        raise ReportError(f"report kind {kind!r} is not one of {', '.join(KINDS)}")
    if not item_id:
        raise ReportError("a report needs the question it is about")
    text = (text or "").strip()[:MAX_TEXT]
    if kind == "other" and not text:
        raise ReportError("say what the problem is (kind 'other' needs a few words)")
    report = ProblemReport(uuid.uuid4().hex, item_id, content_hash or "", kind, text, context or "", session_id,
                           utc_iso(at or dt.datetime.now(dt.timezone.utc)))
    with store._tx() as conn:
        _insert(conn, report)
    return report


def list_reports(store: Store, item_id: str | None = None) -> list[ProblemReport]:
    """Reports, newest first; optionally for one question."""
    sql = f"SELECT {_COLS} FROM reports"
    args: tuple[str, ...] = ()
    if item_id is not None:
        sql += " WHERE item_id = ?"
        args = (item_id,)
    return [ProblemReport(*row) for row in store._query(sql + " ORDER BY at DESC, id DESC", args)]


def export_reports(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every report as JSON-ready dicts, oldest first (read inside the backup's transaction)."""
    return [dict(zip(_COLS.split(", "), row)) for row in conn.execute(f"SELECT {_COLS} FROM reports ORDER BY at, id")]


def _insert(conn: sqlite3.Connection, r: ProblemReport) -> int:
    cur = conn.execute(
        f"INSERT OR IGNORE INTO reports({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (r.uid, r.item_id, r.content_hash, r.kind, r.text, r.context, r.session_id, r.at),
    )
    return cur.rowcount
