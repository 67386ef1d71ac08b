"""Full JSON backup and restore/merge of a progress store (``study export`` / ``study import``).

Format (``"format": "study-progress"``, ``"version": 1``): ``attempts``, ``reviews``, ``sessions``,
``items`` (FSRS card JSON per item) and ``settings``, all timestamps UTC ISO strings. An attempt's ``picked``
lists the texts of the choices picked (empty for a typed number; absent in exports made before schema 5);
its ``shown`` is the question as shown when answered (``study.quiz.shown``; null before schema 6). Attempts and reviews
carry a ``uid``, which is what makes a merge free of duplicates: importing the same file twice adds nothing.

Merging replays every attempt and review of each touched item in time order through FSRS, so the merged
schedule is the one the combined history would have produced, not whichever copy was imported last.

An import checks the whole file first against ``study.progress.backup_format`` (which also accepts the
optional ``reports`` rows and an attempt's ``shown_json``) and writes nothing unless every row passes.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

import fsrs

from study.progress.backup_format import (
    FORMAT,
    FORMAT_VERSION,
    ImportFormatError,
    SessionReader,
    leave_out_unrestorable,
    parse_backup,
    usable_settings,
)
from study.progress.migrations import SCHEMA_VERSION, rebuild_aggregates
from study.progress.reports import export_reports
from study.progress.store import stored_card, stored_json
from study.progress.store_open import StoreError

__all__ = ["FORMAT", "FORMAT_VERSION", "ImportFormatError", "export_data", "import_data"]

if TYPE_CHECKING:
    import sqlite3

    from study.progress.store import Store

_ATTEMPT_KEYS = ("uid", "item_id", "content_hash", "params", "given", "correct", "seconds", "mode",
                 "session_id", "at", "rating", "picked", "shown")
_REVIEW_KEYS = ("uid", "card_id", "content_hash", "rating", "seconds", "at")
_SESSION_KEYS = ("id", "kind", "started_at", "updated_at", "deadline", "state_json", "finished_at",
                 "report_json")
_CONTROL_KEYS = ("item_id", "suspended", "buried_until", "updated_at")
_REGRADE_KEYS = ("attempt_uid", "item_id", "old_correct", "new_correct", "old_rating", "new_rating",
                 "content_hash", "at")


def export_data(store: Store, read_session: SessionReader | None = None) -> dict[str, Any]:
    # One read transaction so the snapshot is consistent even while another process writes.
    with store._lock:
        conn = store._conn
        if conn is None:  # Store.export_data checks too, but this function is public and must not hit None.execute
            raise StoreError("the progress store is closed")
        conn.execute("BEGIN")
        try:
            attempts = [
                dict(zip(_ATTEMPT_KEYS, r))
                for r in conn.execute(
                    "SELECT uid, item_id, content_hash, params_json, given, correct, seconds, mode,"
                    " session_id, at, rating, picked_json, shown_json FROM attempts ORDER BY at, id"
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
                {"item_id": i, "kind": k, "content_hash": h, "card": _card_dict(c), "due": d, "last_review": lr}
                for i, k, h, c, d, lr in conn.execute(
                    "SELECT item_id, kind, content_hash, card_json, due, last_review FROM items ORDER BY item_id"
                )
            ]
            settings = {k: stored_json(v, None) for k, v in conn.execute("SELECT key, value FROM settings ORDER BY key")}
            # The learner's reports of problems with questions reach instructors here (``study analyze``).
            reports = export_reports(conn)
            control = [dict(zip(_CONTROL_KEYS, r)) for r in conn.execute(
                f"SELECT {', '.join(_CONTROL_KEYS)} FROM item_control ORDER BY item_id")]
            regrades = [dict(zip(_REGRADE_KEYS, r)) for r in conn.execute(
                f"SELECT {', '.join(_REGRADE_KEYS)} FROM attempt_regrades ORDER BY at, id")]
        finally:
            conn.execute("COMMIT")
    # Values damaged on disk are left out, so the backup always imports: a card is rebuilt from the history
    # (as a merge always does), a report or state that no longer parses is dropped, a bad setting skipped.
    items = [i for i in items if i["card"] is not None]
    for s in sessions:
        for key in ("state_json", "report_json"):
            if s[key] is not None and not isinstance(stored_json(s[key], None), dict):
                s[key] = None
    settings = usable_settings(settings)
    for c in control:
        c["suspended"] = bool(c["suspended"])
    for g in regrades:
        g["old_correct"], g["new_correct"] = bool(g["old_correct"]), bool(g["new_correct"])
    for a in attempts:
        a["params"] = stored_json(a["params"], {})
        a["correct"] = bool(a["correct"])
        a["picked"] = stored_json(a["picked"], []) if a["picked"] else []
        a["shown"] = stored_json(a["shown"], None) if a["shown"] else None
    data = {
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
        "item_control": control,
        "attempt_regrades": regrades,
    }
    # A row whose values were damaged on disk (an unreadable time) would make the whole backup impossible
    # to restore: it is left out, and the file says how many were.
    left_out = leave_out_unrestorable(data, read_session)
    if left_out:
        data["left_out_damaged"] = left_out
    # The reports go last: `study analyze` reads them from the end of a large export without parsing it all
    # (study.analysis.learner_reports), so a key after them hid every learner's report.
    data["reports"] = data.pop("reports")
    return data


def import_data(store: Store, data: Mapping[str, Any], *, replace: bool = False,
                read_session: SessionReader | None = None) -> dict[str, Any]:
    """Restore (``replace=True``: the store becomes exactly the export) or merge (keep local data, add what
    is new, settings only where unset locally). Counts per kind of row, and under ``ignored_settings`` the
    names of the backup's settings left alone (LRS settings and sync state never travel in a backup). The whole file is checked first (``backup_format``) and
    written in one transaction: a bad file changes nothing."""
    from study.progress.schedule import rating_for
    from study.progress.store import utc_iso

    backup = parse_backup(data, read_session)
    added = {"attempts": 0, "reviews": 0, "sessions": 0, "items": 0, "settings": 0, "reports": 0,
             "item_control": 0, "attempt_regrades": 0}
    with store._tx() as conn:
        if replace:
            # Every table of the schema, read from the schema as ``reset`` does: a list written by hand kept the
            # newer suspensions and regrade history through a restore of an older backup. A backup from before
            # reports existed says nothing about them: the learner's are kept.
            keep = set() if backup.reports is not None else {"reports"}
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                         " AND name NOT LIKE 'sqlite_%'").fetchall():
                if table not in keep:
                    conn.execute(f'DELETE FROM "{table}"')
        for s in backup.sessions:
            row = tuple(getattr(s, k) for k in _SESSION_KEYS)
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
        # ON CONFLICT(uid) DO NOTHING, not INSERT OR IGNORE: only a row already there is skipped; a row that
        # broke a constraint would fail the import rather than vanish (the check above should stop it first).
        for a in backup.attempts:
            rating = a.rating or int(rating_for(a.correct, a.seconds))
            if a.session_id is not None:
                conn.execute(
                    "INSERT INTO sessions(id, kind, started_at, updated_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT(id) DO NOTHING",
                    (a.session_id, a.mode, a.at, a.at),
                )
            cur = conn.execute(
                "INSERT INTO attempts(uid, item_id, content_hash, params_json, given, correct, seconds,"
                " mode, session_id, at, rating, picked_json, shown_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(uid) DO NOTHING",
                (a.uid, a.item_id, a.content_hash, json.dumps(a.params or {}, sort_keys=True), a.given,
                 int(a.correct), a.seconds, a.mode, a.session_id, a.at, rating,
                 json.dumps(a.picked, ensure_ascii=False) if a.picked else None, a.shown_json),
            )
            if cur.rowcount:
                added["attempts"] += 1
                touched.add(a.item_id)
        for r in backup.reviews:
            cur = conn.execute(
                "INSERT INTO reviews(uid, card_id, content_hash, rating, seconds, at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(uid) DO NOTHING",
                (r.uid, r.card_id, r.content_hash, r.rating, r.seconds, r.at),
            )
            if cur.rowcount:
                added["reviews"] += 1
                touched.add(r.card_id)
        for rep in backup.reports or ():
            cur = conn.execute(
                "INSERT INTO reports(uid, item_id, content_hash, kind, text, context, session_id, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(uid) DO NOTHING",
                (rep.uid, rep.item_id, rep.content_hash, rep.kind, rep.text, rep.context, rep.session_id, rep.at),
            )
            added["reports"] += cur.rowcount
        added["item_control"], added["attempt_regrades"] = _merge_control(conn, backup)
        if replace:
            now = utc_iso(dt.datetime.now(dt.timezone.utc))
            for i in backup.items:
                # due and last_review are read from the card itself, in the store's fixed-width form, so the
                # columns the scheduler sorts on always agree with the state it loads.
                card = fsrs.Card.from_dict(i.card)  # type: ignore[arg-type]
                conn.execute(
                    "INSERT INTO items(item_id, kind, content_hash, card_json, due, last_review, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (i.item_id, i.kind, i.content_hash, card.to_json(), utc_iso(card.due),
                     utc_iso(card.last_review) if card.last_review else None, now),
                )
                added["items"] += 1
            # Items the backup has no card for (one damaged on disk was left out of it) get theirs rebuilt.
            added["items"] += _replay(store, conn, touched - {i.item_id for i in backup.items})
        else:
            added["items"] = _replay(store, conn, touched)
        if replace or added["attempts"] or added["reviews"]:
            rebuild_aggregates(conn)
        for key, value in backup.settings.values().items():
            cur = conn.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", (key, json.dumps(value))
            )
            added["settings"] += cur.rowcount
    # Not counted above: the LRS settings and unknown keys the backup held, for the import to name.
    if backup.settings.ignored():
        added["ignored_settings"] = backup.settings.ignored()  # type: ignore[assignment]
    return added


def _merge_control(conn: sqlite3.Connection, backup: Any) -> tuple[int, int]:
    """Held-back items (the newer decision of the two wins, as for sessions) and regrade history (a row
    already there is not written twice, so a second regrade cannot double it). Returns the rows written."""
    held = 0
    for c in backup.item_control or ():
        held += conn.execute(
            "INSERT INTO item_control(item_id, suspended, buried_until, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(item_id) DO UPDATE SET suspended = excluded.suspended,"
            " buried_until = excluded.buried_until, updated_at = excluded.updated_at"
            " WHERE excluded.updated_at > item_control.updated_at",
            (c.item_id, int(c.suspended), c.buried_until, c.updated_at)).rowcount
    regraded = 0
    for g in backup.attempt_regrades or ():
        row = (g.attempt_uid, g.item_id, int(g.old_correct), int(g.new_correct), g.old_rating, g.new_rating,
               g.content_hash, g.at)
        regraded += conn.execute(
            f"INSERT INTO attempt_regrades({', '.join(_REGRADE_KEYS)}) SELECT ?, ?, ?, ?, ?, ?, ?, ?"
            " WHERE NOT EXISTS (SELECT 1 FROM attempt_regrades WHERE attempt_uid = ? AND at = ?"
            " AND new_correct = ? AND content_hash = ?)",
            (*row, g.attempt_uid, g.at, int(g.new_correct), g.content_hash)).rowcount
    return held, regraded


def _card_dict(card_json: str) -> dict[str, Any] | None:
    card = stored_card(card_json)
    return None if card is None else card.to_dict()


def _replay(store: Store, conn: sqlite3.Connection, item_ids: set[str]) -> int:
    """Rebuild the FSRS state of each item from its full history, oldest event first."""
    for item_id in sorted(item_ids):
        store._replay(conn, item_id)
    return len(item_ids)
