"""The learner's progress store: one SQLite file, written one event per durable transaction.

Durability choices (see ``bench/store.py`` for what they cost):

* WAL journal + ``synchronous=FULL``: a committed answer survives a power cut, and readers (the TUI's
  stats worker) never block the writer.
* ``BEGIN IMMEDIATE`` for every write and a generous ``busy_timeout``: two processes (the app and a
  ``study quiz --plain`` in another terminal) queue for the write lock instead of failing, and no
  transaction can deadlock upgrading a read lock.
* Schema version in ``PRAGMA user_version``; ``study.progress.migrations`` moves old files forward and a
  file from a newer ``study`` is refused rather than downgraded.
* A damaged file (checked with ``PRAGMA quick_check`` as it opens, or found broken later) is renamed aside
  (``progress.db.corrupt-YYYYmmddTHHMMSS``) and a fresh store is started; ``Store.notice`` says so. Nothing
  is ever overwritten. ``study.progress.store_open`` holds that path.
* Timestamps are stored as fixed-width UTC ISO strings (``2026-11-30T13:17:12.000000+00:00``), so text order
  is time order and SQL range queries work on them.

History is keyed by item id with the content hash seen at the time, so an edited or deleted question keeps
its attempts and its FSRS state.

``Store`` is assembled from one part per concern, each a module of its own: ``store_handle`` (the connection,
its lock and transactions), ``store_events`` (recording answers and ratings), ``store_reading`` (the history
and the schedule), ``store_sessions`` (saved and finished sessions) and ``store_rows`` (the records handed out
and the stored forms of values). This module adds settings, LRS acknowledgements and the whole-file
operations (backup, restore, reset), and names every public part again: import them from here.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

from study.progress.store_events import StoreEvents
from study.progress.store_open import StoreError, write_error
from study.progress.store_rows import (
    DEFAULT_SETTINGS,
    MODES,
    RETENTION_RANGE,
    UTC,
    Attempt,
    ItemState,
    ItemSummary,
    Kind,
    Mode,
    Review,
    Session,
    parse_iso,
    stored_card,
    stored_json,
    stored_time,
    utc_iso,
    utc_now,
)
from study.progress.store_sessions import StoreSessions

# A learner id as kept: ours are 12 hex digits; another plain token (an older or edited store) is kept too.
LEARNER_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

__all__ = [
    "DEFAULT_SETTINGS",
    "LEARNER_ID",
    "MODES",
    "RETENTION_RANGE",
    "UTC",
    "Attempt",
    "ItemState",
    "ItemSummary",
    "Kind",
    "Mode",
    "Review",
    "Session",
    "Store",
    "StoreError",
    "open_store",
    "parse_iso",
    "stored_card",
    "stored_json",
    "stored_time",
    "utc_iso",
]


def open_store(path: str | os.PathLike[str] | None = None, *, fuzz: bool = True) -> Store:
    """Open (creating and migrating as needed) the progress store.

    ``path`` None means ``study.paths.default_db_path()`` (``STUDY_DB``, else the platform data dir).
    ``fuzz=False`` makes FSRS intervals deterministic (tests). Raises ``StoreError`` for a store written by
    a newer version, or a location that cannot be written. A damaged file is moved aside and a new store is
    created; ``store.notice`` then holds the message to show.
    """
    if path is None:
        from study.paths import default_db_path

        path = default_db_path()
    return Store(Path(path), fuzz=fuzz)


class Store(StoreEvents, StoreSessions):
    """Thread-safe handle on one progress file; use ``open_store``. Close it, or use it as a context manager."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- settings ----------------------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting's value (JSON types). Known keys: exam_date (ISO date), desired_retention, daily_goal,
        theme, learner_id (the xAPI export's default actor). Falls back to ``default``, then to
        ``DEFAULT_SETTINGS``."""
        rows = self._query("SELECT value FROM settings WHERE key = ?", (key,))
        value = stored_json(rows[0][0], None) if rows else None
        if value is not None:
            return value
        return default if default is not None else DEFAULT_SETTINGS.get(key)

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable value; ``None`` removes the key."""
        with self._tx() as conn:
            if value is None:
                conn.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                conn.execute(
                    "INSERT INTO settings(key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, json.dumps(value)),
                )

    def settings(self) -> dict[str, Any]:
        out = dict(DEFAULT_SETTINGS)
        stored = {k: stored_json(v, None) for k, v in self._query("SELECT key, value FROM settings")}
        out.update({k: v for k, v in stored.items() if v is not None})
        return out

    def learner_id(self) -> str:
        """This store's learner id (setting ``learner_id``), made on first use and kept: 12 random hex digits.
        It names the xAPI export's default actor and travels in every export, so one learner's JSON export and
        xAPI statements are matched as one learner. Any other plain token found there (an older or edited
        store) is kept: replacing it would give the learner a second identity in an LRS."""
        current = self.get_setting("learner_id")
        if isinstance(current, str) and LEARNER_ID.match(current):
            return current
        import uuid

        self.set_setting("learner_id", uuid.uuid4().hex[:12])
        # Read back: if another process made one at the same moment, the stored value is the one that lasts.
        return str(self.get_setting("learner_id"))

    # -- learning record store ---------------------------------------------------------------------------

    def lrs_acked(self, endpoint: str) -> set[str]:
        """Ids of the statements the LRS at ``endpoint`` has acknowledged (``study sync``)."""
        return {r[0] for r in self._query("SELECT statement_id FROM lrs_acks WHERE endpoint = ?", (endpoint,))}

    def record_lrs_acks(self, endpoint: str, statement_ids: Sequence[str], at: dt.datetime | None = None) -> None:
        """Remember, in one transaction, that the LRS stored these statements, so no later sync sends them."""
        when = utc_iso(at or utc_now())
        with self._tx() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO lrs_acks(endpoint, statement_id, at) VALUES (?, ?, ?)",
                [(endpoint, sid, when) for sid in statement_ids],
            )

    # -- backup, restore, reset --------------------------------------------------------------------------

    def export_data(self, read_session: Any = None) -> dict[str, Any]:
        """Everything, as JSON-ready data (see ``study.progress.transfer`` for the format). A backup meant
        to be imported again passes the quiz's ``read_saved_session``, so a saved exam it could not resume
        is left out rather than making the whole file refused later.

        The store gets its learner id here if it has none yet, so every export carries it: a JSON export made
        before the first xAPI export had none, and the two exports of one learner counted as two. (Not when
        the store is created: a backup merged into a new store keeps the local settings, so a new store's
        own id would have replaced the learner's.)"""
        from study.progress.transfer import export_data

        try:
            self.learner_id()
        except StoreError:
            pass  # a store that cannot be written still exports, without an id to carry

        with self._lock:
            if self._conn is None:
                raise StoreError("the progress store is closed")
            try:
                return export_data(self, read_session)
            except sqlite3.Error as exc:
                raise self._failed(exc) from exc

    def import_data(self, data: Mapping[str, Any], *, replace: bool = False,
                    read_session: Any = None) -> dict[str, int]:
        """Merge (default) or replace with an export; returns counts of rows added. See ``transfer``; the
        importer passes the quiz's ``read_saved_session`` so a saved exam must be one the quiz can resume."""
        from study.progress.transfer import import_data

        return import_data(self, data, replace=replace, read_session=read_session)

    def backup_to(self, target: str | os.PathLike[str]) -> Path:
        """A consistent SQLite copy of the whole store (online backup API), safe while others write."""
        from study.held_files import refusal

        target = Path(target)
        held = refusal(target)
        if held:
            raise StoreError(f"cannot back up into {target}: {held}")
        with self._lock:
            if self._conn is None:
                raise StoreError("the progress store is closed")
            existed = target.exists()
            try:
                dest = sqlite3.connect(target)
                try:
                    self._conn.backup(dest)
                finally:
                    dest.close()
            except sqlite3.Error as exc:
                if not existed:  # a half-written copy (a full disk) restores nothing and only takes space
                    target.unlink(missing_ok=True)
                raise write_error(target, exc) from exc
        return target

    def reset(self, *, keep_settings: bool = True) -> None:
        """Delete all progress in one transaction (settings kept unless asked). Callers back up first.

        Every table the migrations create is emptied, read from the schema itself: a list written by hand
        missed ``attempt_regrades`` when migration 8 added it. The schema version lives in ``user_version``,
        not in a table, so nothing of the schema's own is lost."""
        with self._tx() as conn:
            tables = [r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            for table in tables:
                if table != "settings" or not keep_settings:
                    conn.execute(f'DELETE FROM "{table}"')
