"""A learner's reports of problems with questions (a wrong key, an unclear stem, outdated facts, free text).

Kept in the store's ``reports`` table (schema 6) so the learner can list them (``study reports``, the app), and
carried in the JSON backup so that ``study analyze`` shows them to instructors beside each question's figures.
A report names the question's content hash at the time, so an instructor can tell whether it was about the
current wording. Each has a ``uid``: merging the same backup twice adds nothing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:  # pragma: no cover
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
    store: "Store",
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


def list_reports(store: "Store", item_id: str | None = None) -> list[ProblemReport]:
    """Reports, newest first; optionally for one question."""
    sql = f"SELECT {_COLS} FROM reports"
    args: tuple = ()
    if item_id is not None:
        sql += " WHERE item_id = ?"
        args = (item_id,)
    return [ProblemReport(*row) for row in store._query(sql + " ORDER BY at DESC, id DESC", args)]


def export_reports(conn: Any) -> list[dict[str, Any]]:
    """Every report as JSON-ready dicts, oldest first (read inside the backup's transaction)."""
    return [dict(zip(_COLS.split(", "), row)) for row in conn.execute(f"SELECT {_COLS} FROM reports ORDER BY at, id")]


def validate_reports(items: Any) -> str | None:
    """Why a backup's ``reports`` list cannot be imported, or None when it can."""
    if not isinstance(items, list):
        return '"reports" must be a list'
    for n, r in enumerate(items):
        if not isinstance(r, Mapping):
            return f"report {n}: must be an object"
        missing = [k for k in ("uid", "item_id", "kind", "at") if not isinstance(r.get(k), str) or not r.get(k)]
        if missing:
            return f"report {n}: missing {', '.join(missing)}"
        if r["kind"] not in KINDS:
            return f"report {n}: kind {r['kind']!r} is not one of {', '.join(KINDS)}"
    return None


def import_reports(conn: Any, items: Iterable[Mapping[str, Any]]) -> int:
    """Add the reports not already kept (by uid); returns how many were added."""
    added = 0
    for r in items:
        report = ProblemReport(str(r["uid"]), str(r["item_id"]), str(r.get("content_hash") or ""), str(r["kind"]),
                               str(r.get("text") or "")[:MAX_TEXT], str(r.get("context") or ""),
                               r.get("session_id"), str(r["at"]))
        added += _insert(conn, report)
    return added


def _insert(conn: Any, r: ProblemReport) -> int:
    cur = conn.execute(
        f"INSERT OR IGNORE INTO reports({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (r.uid, r.item_id, r.content_hash, r.kind, r.text, r.context, r.session_id, r.at),
    )
    return cur.rowcount
