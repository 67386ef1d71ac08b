"""Full JSON backup and restore/merge of a progress store (``study export`` / ``study import``).

Format (``"format": "study-progress"``, ``"version": 1``): ``attempts``, ``reviews``, ``sessions``,
``items`` (FSRS card JSON per item) and ``settings``, all timestamps UTC ISO strings. An attempt's ``picked``
lists the texts of the choices picked (empty for a typed number; absent in exports made before schema 5). Attempts and reviews
carry a ``uid``, which is what makes a merge free of duplicates: importing the same file twice adds nothing.

Merging replays every attempt and review of each touched item in time order through FSRS, so the merged
schedule is the one the combined history would have produced, not whichever copy was imported last.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any, Mapping

from study.progress.migrations import SCHEMA_VERSION, rebuild_aggregates
from study.progress.reports import export_reports
from study.progress.schedule import Rating

if TYPE_CHECKING:
    from study.progress.store import Store

FORMAT = "study-progress"
FORMAT_VERSION = 1

_ATTEMPT_KEYS = ("uid", "item_id", "content_hash", "params", "given", "correct", "seconds", "mode",
                 "session_id", "at", "rating", "picked")
_REVIEW_KEYS = ("uid", "card_id", "content_hash", "rating", "seconds", "at")
_SESSION_KEYS = ("id", "kind", "started_at", "updated_at", "deadline", "state_json", "finished_at",
                 "report_json")


class ImportFormatError(ValueError):
    """The file is not a progress export this version can read; the message says why."""


def export_data(store: "Store") -> dict[str, Any]:
    # One read transaction so the snapshot is consistent even while another process writes.
    with store._lock:
        conn = store._conn
        conn.execute("BEGIN")
        try:
            attempts = [
                dict(zip(_ATTEMPT_KEYS, r))
                for r in conn.execute(
                    "SELECT uid, item_id, content_hash, params_json, given, correct, seconds, mode,"
                    " session_id, at, rating, picked_json FROM attempts ORDER BY at, id"
                )
            ]
            reviews = [
                dict(zip(_REVIEW_KEYS, r))
                for r in conn.execute(
                    "SELECT uid, card_id, content_hash, rating, seconds, at FROM reviews ORDER BY at, id"
                )
            ]
            sessions = [
                dict(zip(_SESSION_KEYS, r))
                for r in conn.execute(f"SELECT {', '.join(_SESSION_KEYS)} FROM sessions ORDER BY started_at, id")
            ]
            items = [
                {"item_id": i, "kind": k, "content_hash": h, "card": json.loads(c), "due": d, "last_review": lr}
                for i, k, h, c, d, lr in conn.execute(
                    "SELECT item_id, kind, content_hash, card_json, due, last_review FROM items ORDER BY item_id"
                )
            ]
            settings = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM settings ORDER BY key")}
            # The learner's reports of problems with questions reach instructors here (``study analyze``).
            reports = export_reports(conn)
        finally:
            conn.execute("COMMIT")
    for a in attempts:
        a["params"] = json.loads(a["params"])
        a["correct"] = bool(a["correct"])
        a["picked"] = json.loads(a["picked"]) if a["picked"] else []
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "schema": SCHEMA_VERSION,
        "exported_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "attempts": attempts,
        "reviews": reviews,
        "sessions": sessions,
        "items": items,
        "settings": settings,
        "reports": reports,
    }


def _validate(data: Mapping[str, Any]) -> None:
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ImportFormatError("not a study progress export (missing \"format\": \"study-progress\")")
    version = data.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ImportFormatError(
            f"export format version {version!r} is newer than this study reads ({FORMAT_VERSION}); upgrade study"
        )
    for key in ("attempts", "reviews", "sessions", "items"):
        if not isinstance(data.get(key, []), list):
            raise ImportFormatError(f"\"{key}\" must be a list")
    if not isinstance(data.get("settings", {}), Mapping):
        raise ImportFormatError("\"settings\" must be an object")
    for n, a in enumerate(data.get("attempts", [])):
        missing = [k for k in _ATTEMPT_KEYS if k not in a and k not in ("session_id", "rating", "params", "picked")]
        picked = a.get("picked")
        if picked is not None and not (isinstance(picked, list) and all(isinstance(p, str) for p in picked)):
            raise ImportFormatError(f"attempt {n}: \"picked\" must be a list of choice texts")
        if missing:
            raise ImportFormatError(f"attempt {n}: missing {', '.join(missing)}")
    for n, r in enumerate(data.get("reviews", [])):
        missing = [k for k in _REVIEW_KEYS if k not in r]
        if missing:
            raise ImportFormatError(f"review {n}: missing {', '.join(missing)}")


def import_data(store: "Store", data: Mapping[str, Any], *, replace: bool = False) -> dict[str, int]:
    """Restore (``replace=True``: the store becomes exactly the export) or merge (keep local data, add what
    is new, settings only where unset locally). One transaction: a bad file changes nothing."""
    from study.progress.schedule import rating_for
    from study.progress.store import parse_iso, utc_iso

    _validate(data)
    added = {"attempts": 0, "reviews": 0, "sessions": 0, "items": 0, "settings": 0}
    with store._tx() as conn:
        if replace:
            for table in ("attempts", "reviews", "items", "sessions", "settings", "item_totals", "activity"):
                conn.execute(f"DELETE FROM {table}")
        for s in data.get("sessions", []):
            row = tuple(s.get(k) for k in _SESSION_KEYS)
            cur = conn.execute(
                f"INSERT INTO sessions({', '.join(_SESSION_KEYS)}) VALUES ({', '.join('?' * len(row))})"
                " ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at,"
                " deadline = excluded.deadline, state_json = excluded.state_json,"
                " finished_at = excluded.finished_at, report_json = excluded.report_json"
                " WHERE excluded.updated_at > sessions.updated_at",
                row,
            )
            added["sessions"] += cur.rowcount
        touched: set[str] = set()
        for a in data.get("attempts", []):
            at = utc_iso(parse_iso(a["at"]))  # type: ignore[arg-type]
            rating = a.get("rating") or int(rating_for(bool(a["correct"]), float(a["seconds"])))
            sid = a.get("session_id")
            if sid is not None:
                conn.execute(
                    "INSERT OR IGNORE INTO sessions(id, kind, started_at, updated_at) VALUES (?, ?, ?, ?)",
                    (sid, a["mode"], at, at),
                )
            cur = conn.execute(
                "INSERT OR IGNORE INTO attempts(uid, item_id, content_hash, params_json, given, correct, seconds,"
                " mode, session_id, at, rating, picked_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (a["uid"], a["item_id"], a["content_hash"], json.dumps(a.get("params") or {}, sort_keys=True),
                 str(a["given"]), int(bool(a["correct"])), float(a["seconds"]), a["mode"], sid, at, int(rating),
                 json.dumps(a["picked"], ensure_ascii=False) if a.get("picked") else None),
            )
            if cur.rowcount:
                added["attempts"] += 1
                touched.add(a["item_id"])
        for r in data.get("reviews", []):
            cur = conn.execute(
                "INSERT OR IGNORE INTO reviews(uid, card_id, content_hash, rating, seconds, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (r["uid"], r["card_id"], r["content_hash"], int(Rating(int(r["rating"]))), float(r["seconds"]),
                 utc_iso(parse_iso(r["at"]))),  # type: ignore[arg-type]
            )
            if cur.rowcount:
                added["reviews"] += 1
                touched.add(r["card_id"])
        if replace:
            for i in data.get("items", []):
                conn.execute(
                    "INSERT INTO items(item_id, kind, content_hash, card_json, due, last_review, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (i["item_id"], i["kind"], i["content_hash"], json.dumps(i["card"]), i["due"], i["last_review"],
                     utc_iso(dt.datetime.now(dt.timezone.utc))),
                )
                added["items"] += 1
        else:
            added["items"] = _replay(store, conn, touched)
        if replace or added["attempts"] or added["reviews"]:
            rebuild_aggregates(conn)
        settings = data.get("settings", {})
        for key, value in settings.items():
            cur = conn.execute(
                "INSERT OR IGNORE INTO settings(key, value) VALUES (?, ?)", (key, json.dumps(value))
            )
            added["settings"] += cur.rowcount
    return added


def _replay(store: "Store", conn, item_ids: set[str]) -> int:
    """Rebuild the FSRS state of each item from its full history, oldest event first."""
    for item_id in sorted(item_ids):
        store._replay(conn, item_id)
    return len(item_ids)
