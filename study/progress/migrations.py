"""Forward-only schema migrations for the progress store, keyed by ``PRAGMA user_version``.

Migration ``n`` takes a store at version ``n - 1`` to version ``n``. They are never edited once released:
a learner's file may be at any earlier version, and ``tests/unit/progress/data/v1.sql`` is a frozen copy of
what version 1 looked like, so a change here that breaks old stores fails a test. Each list runs inside
the same ``BEGIN IMMEDIATE`` transaction as the ``user_version`` bump, so a crash mid-migration leaves the
old version intact.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable

_V1: list[str | Callable[[sqlite3.Connection], None]] = [
    """CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        deadline    TEXT,
        state_json  TEXT,
        finished_at TEXT,
        report_json TEXT
    )""",
    """CREATE TABLE attempts (
        id           INTEGER PRIMARY KEY,
        item_id      TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        params_json  TEXT NOT NULL DEFAULT '{}',
        given        TEXT NOT NULL,
        correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
        seconds      REAL NOT NULL CHECK (seconds >= 0),
        mode         TEXT NOT NULL,
        session_id   TEXT REFERENCES sessions(id) ON DELETE SET NULL,
        at           TEXT NOT NULL
    )""",
    "CREATE INDEX attempts_item ON attempts(item_id, at)",
    "CREATE INDEX attempts_at ON attempts(at)",
    """CREATE TABLE items (
        item_id      TEXT PRIMARY KEY,
        kind         TEXT NOT NULL CHECK (kind IN ('card', 'question')),
        content_hash TEXT NOT NULL,
        card_json    TEXT NOT NULL,
        due          TEXT NOT NULL,
        last_review  TEXT,
        updated_at   TEXT NOT NULL
    )""",
    "CREATE INDEX items_due ON items(kind, due)",
    "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
]


def _v2_backfill(conn: sqlite3.Connection) -> None:
    # Version 1 had no attempt uid (needed to merge imports without duplicates) and no stored rating
    # (so a later change of the pace rule would silently re-rate history). Derive both from the row:
    # the uid from its content, so two copies of the same v1 store migrate to the same uids.
    rows = conn.execute(
        "SELECT id, item_id, at, given, mode, correct, seconds FROM attempts"
    ).fetchall()
    for row_id, item_id, at, given, mode, correct, seconds in rows:
        uid = hashlib.sha256(f"v1\x00{item_id}\x00{at}\x00{given}\x00{mode}\x00{row_id}".encode()).hexdigest()[:32]
        # The pace rule as it stood at version 2 (72 s), frozen here on purpose.
        rating = 1 if not correct else (2 if seconds > 72.0 else 3)
        conn.execute("UPDATE attempts SET uid = ?, rating = ? WHERE id = ?", (uid, rating, row_id))


_V2: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE attempts ADD COLUMN uid TEXT",
    "ALTER TABLE attempts ADD COLUMN rating INTEGER CHECK (rating BETWEEN 1 AND 4)",
    _v2_backfill,
    "CREATE UNIQUE INDEX attempts_uid ON attempts(uid)",
    """CREATE TABLE reviews (
        id           INTEGER PRIMARY KEY,
        uid          TEXT NOT NULL UNIQUE,
        card_id      TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        rating       INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
        seconds      REAL NOT NULL CHECK (seconds >= 0),
        at           TEXT NOT NULL
    )""",
    "CREATE INDEX reviews_at ON reviews(at)",
    "CREATE INDEX reviews_card ON reviews(card_id, at)",
    "CREATE INDEX sessions_open ON sessions(kind, finished_at, updated_at)",
]

def _v3_backfill(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO item_totals(item_id, attempts, correct)"
        " SELECT item_id, count(*), sum(correct) FROM attempts GROUP BY item_id"
    )
    conn.execute(
        "INSERT INTO activity(hour, answers, reviews) SELECT hour, sum(a), sum(r) FROM ("
        " SELECT substr(at, 1, 13) AS hour, 1 AS a, 0 AS r FROM attempts"
        " UNION ALL SELECT substr(at, 1, 13), 0, 1 FROM reviews) GROUP BY hour"
    )


# Running totals kept in the same transaction as each event, so statistics read a few hundred rows
# instead of scanning every attempt (a year of heavy use is 100,000 rows; see bench/store.py).
_V3: list[str | Callable[[sqlite3.Connection], None]] = [
    """CREATE TABLE item_totals (
        item_id  TEXT PRIMARY KEY,
        attempts INTEGER NOT NULL DEFAULT 0,
        correct  INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE activity (
        hour    TEXT PRIMARY KEY,  -- UTC hour, 'YYYY-MM-DDTHH'
        answers INTEGER NOT NULL DEFAULT 0,
        reviews INTEGER NOT NULL DEFAULT 0
    )""",
    _v3_backfill,
]


def _v4_backfill(conn: sqlite3.Connection) -> None:
    # SQLite returns the bare columns of the row holding max(at): each item's latest attempt.
    conn.execute(
        "UPDATE item_totals SET (last_correct, last_at) = (SELECT correct, max(at) FROM attempts a"
        " WHERE a.item_id = item_totals.item_id)"
    )


# The latest outcome per question, for the quiz layer's "missed" and "weak" picks without a full scan.
_V4: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE item_totals ADD COLUMN last_correct INTEGER",
    "ALTER TABLE item_totals ADD COLUMN last_at TEXT",
    _v4_backfill,
]

# The texts of the choices a learner picked. ``given`` holds the letters as shown, which mean nothing once
# the shuffled order is gone (an untimed practice set is never saved); exports such as xAPI need the choice.
_V5: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE attempts ADD COLUMN picked_json TEXT",
]

# Three records that must not change after the fact:
# - ``shown_json``: the question exactly as the learner saw it when answering (stem, choices with a stable
#   identity, the order shown), so an exported xAPI statement stays byte-identical after the bank is edited;
# - ``reports``: a learner's report of a problem with a question (wrong key, unclear, outdated, free text),
#   kept for the learner and carried to instructors in exports;
# - ``lrs_acks``: which statements a learning record store has acknowledged, so an interrupted sync resumes
#   without sending anything twice.
_V6: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE attempts ADD COLUMN shown_json TEXT",
    """CREATE TABLE reports (
        id           INTEGER PRIMARY KEY,
        uid          TEXT NOT NULL UNIQUE,
        item_id      TEXT NOT NULL,
        content_hash TEXT NOT NULL DEFAULT '',
        kind         TEXT NOT NULL CHECK (kind IN ('wrong-key', 'unclear', 'outdated', 'other')),
        text         TEXT NOT NULL DEFAULT '',
        context      TEXT NOT NULL DEFAULT '',
        session_id   TEXT,
        at           TEXT NOT NULL
    )""",
    "CREATE INDEX reports_item ON reports(item_id, at)",
    """CREATE TABLE lrs_acks (
        endpoint     TEXT NOT NULL,
        statement_id TEXT NOT NULL,
        at           TEXT NOT NULL,
        PRIMARY KEY (endpoint, statement_id)
    )""",
]

# Card control as in Anki (``study.progress.control``): a suspended item is never drawn nor due until the
# learner unsuspends it; a buried one is held back until ``buried_until`` (the start of the next local day).
_V7: list[str | Callable[[sqlite3.Connection], None]] = [
    """CREATE TABLE item_control (
        item_id      TEXT PRIMARY KEY,
        suspended    INTEGER NOT NULL DEFAULT 0 CHECK (suspended IN (0, 1)),
        buried_until TEXT,
        updated_at   TEXT NOT NULL
    )""",
]


# ``study regrade``: when an instructor fixes a key, a learner's stored answers are marked again and the
# scheduler replayed; each change keeps the grade the attempt had before, so nothing is lost.
_V8: list[str | Callable[[sqlite3.Connection], None]] = [
    """CREATE TABLE attempt_regrades (
        id           INTEGER PRIMARY KEY,
        attempt_uid  TEXT NOT NULL,
        item_id      TEXT NOT NULL,
        old_correct  INTEGER NOT NULL CHECK (old_correct IN (0, 1)),
        new_correct  INTEGER NOT NULL CHECK (new_correct IN (0, 1)),
        old_rating   INTEGER,
        new_rating   INTEGER,
        content_hash TEXT NOT NULL DEFAULT '',  -- the question's version the new grade comes from
        at           TEXT NOT NULL
    )""",
    "CREATE INDEX attempt_regrades_uid ON attempt_regrades(attempt_uid, at)",
]

MIGRATIONS: list[list[str | Callable[[sqlite3.Connection], None]]] = [_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8]
SCHEMA_VERSION = len(MIGRATIONS)


def rebuild_aggregates(conn: sqlite3.Connection) -> None:
    """Recompute the running totals of the current schema from the raw events (after an import)."""
    conn.execute("DELETE FROM item_totals")
    conn.execute("DELETE FROM activity")
    _v3_backfill(conn)
    _v4_backfill(conn)


def migrate(conn: sqlite3.Connection, current: int) -> int:
    """Apply every migration above ``current``; the caller owns the transaction. Returns the new version."""
    for version in range(current + 1, SCHEMA_VERSION + 1):
        for step in MIGRATIONS[version - 1]:
            if callable(step):
                step(conn)
            else:
                conn.execute(step)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return SCHEMA_VERSION
