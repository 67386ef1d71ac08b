"""Recording into the progress store: an answer, a topic card's rating and taking one back, each in one
durable transaction that also moves the item's FSRS state on (or rebuilds it from the history when the
stored state was damaged or an import changed the history). ``Store`` (``study.progress.store``) has it."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import uuid
from typing import Any

from study.progress import schedule
from study.progress.schedule import Rating
from study.progress.store_reading import StoreReading
from study.progress.store_rows import (
    DEFAULT_SETTINGS,
    ITEM_COLS,
    MODES,
    RETENTION_RANGE,
    UTC,
    Attempt,
    ItemState,
    Kind,
    item_of,
    stored_card,
    stored_json,
    stored_time,
    utc_iso,
    utc_now,
)


# Reading is inherited because taking a rating back answers with the item's state read afresh.
class StoreEvents(StoreReading):
    def record_attempt(self, attempt: Attempt) -> None:
        """Record an answer and update that question's FSRS state, in one durable transaction.

        Every mode feeds the scheduler (exams too). A ``session_id`` not yet saved gets a bare session row
        (kind = the attempt's mode) so the attempt is never lost to a foreign-key error.
        """
        if attempt.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {attempt.mode!r}")
        at = utc_iso(attempt.at)
        rating = attempt.rating
        self._follow_path()
        with self._tx() as conn:
            if attempt.session_id is not None:
                conn.execute(
                    "INSERT OR IGNORE INTO sessions(id, kind, started_at, updated_at) VALUES (?, ?, ?, ?)",
                    (attempt.session_id, attempt.mode, at, at),
                )
            conn.execute(
                "INSERT INTO attempts(uid, item_id, content_hash, params_json, given, correct, seconds, mode,"
                " session_id, at, rating, picked_json, shown_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    attempt.uid,
                    attempt.item_id,
                    attempt.content_hash,
                    json.dumps(dict(attempt.params), sort_keys=True, default=str),
                    attempt.given,
                    int(bool(attempt.correct)),
                    float(attempt.seconds),
                    attempt.mode,
                    attempt.session_id,
                    at,
                    int(rating),
                    json.dumps(list(attempt.picked), ensure_ascii=False) if attempt.picked else None,
                    json.dumps(dict(attempt.shown), ensure_ascii=False, sort_keys=True) if attempt.shown else None,
                ),
            )
            self._apply_review(conn, attempt.item_id, "question", attempt.content_hash, rating, attempt.at,
                               attempt.seconds, mode=attempt.mode)
            conn.execute(
                "INSERT INTO item_totals(item_id, attempts, correct, last_correct, last_at) VALUES (?, 1, ?, ?, ?)"
                " ON CONFLICT(item_id) DO UPDATE SET attempts = attempts + 1, correct = correct + excluded.correct,"
                " last_correct = CASE WHEN excluded.last_at >= coalesce(last_at, '') THEN excluded.last_correct"
                " ELSE last_correct END, last_at = max(coalesce(last_at, ''), excluded.last_at)",
                (attempt.item_id, int(bool(attempt.correct)), int(bool(attempt.correct)), at),
            )
            conn.execute(
                "INSERT INTO activity(hour, answers) VALUES (?, 1) ON CONFLICT(hour)"
                " DO UPDATE SET answers = answers + 1",
                (at[:13],),
            )

    def review_card(
        self,
        card_id: str,
        content_hash: str,
        rating: Rating | int,
        seconds: float,
        at: dt.datetime | None = None,
    ) -> ItemState:
        """Record the learner's rating of a topic card and reschedule it; returns the new state."""
        rating = Rating(int(rating))
        at = at or utc_now()
        self._follow_path()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO reviews(uid, card_id, content_hash, rating, seconds, at) VALUES (?, ?, ?, ?, ?, ?)",
                (uuid.uuid4().hex, card_id, content_hash, int(rating), float(seconds), utc_iso(at)),
            )
            conn.execute(
                "INSERT INTO activity(hour, reviews) VALUES (?, 1) ON CONFLICT(hour)"
                " DO UPDATE SET reviews = reviews + 1",
                (utc_iso(at)[:13],),
            )
            return self._apply_review(conn, card_id, "card", content_hash, rating, at, seconds)

    def undo_review(self, card_id: str, before: ItemState | None = None) -> ItemState | None:
        """Take back the newest rating of a topic card: its review row and its count in the activity go, and
        the card's FSRS state becomes what it was before. ``before`` is the state the caller read just before
        rating; without it the state is replayed from the remaining history, which is exact only when fuzz
        is off (fuzzed intervals are drawn afresh). Returns the restored state (None: never reviewed now)."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT id, at FROM reviews WHERE card_id = ? ORDER BY at DESC, id DESC LIMIT 1", (card_id,)
            ).fetchone()
            if row is None:
                raise ValueError(f"card {card_id!r} has no review to undo")
            review_id, at = row
            conn.execute("DELETE FROM reviews WHERE id = ?", (review_id,))
            conn.execute("UPDATE activity SET reviews = max(reviews - 1, 0) WHERE hour = ?", (at[:13],))
            if before is not None:
                return self._write_item(conn, card_id, before.kind, before.content_hash, before.card)
            conn.execute("DELETE FROM items WHERE item_id = ?", (card_id,))
            self._replay(conn, card_id)
        return self.item_state(card_id)

    def _apply_review(
        self,
        conn: sqlite3.Connection,
        item_id: str,
        kind: Kind,
        content_hash: str,
        rating: Rating,
        at: dt.datetime,
        seconds: float | None,
        mode: str | None = None,
    ) -> ItemState:
        row = conn.execute("SELECT card_json FROM items WHERE item_id = ?", (item_id,)).fetchone()
        if row and stored_card(row[0]) is None:
            # The stored state is damaged: rebuild it from the whole history (this event is already in it).
            self._replay(conn, item_id)
            return item_of(conn.execute(f"SELECT {ITEM_COLS} FROM items WHERE item_id = ?", (item_id,)).fetchone())
        card = schedule.review(row[0] if row else None, item_id, rating, at.astimezone(UTC), seconds,
                               desired_retention=self._retention(conn), fuzz=self.fuzz, mode=mode)
        return self._write_item(conn, item_id, kind, content_hash, card)

    def _replay(self, conn: sqlite3.Connection, item_id: str) -> None:
        """Rebuild one item's FSRS state from its whole history, oldest event first (after an import)."""
        events = conn.execute(
            "SELECT at, rating, seconds, content_hash, 'question', mode FROM attempts WHERE item_id = ?"
            " UNION ALL SELECT at, rating, seconds, content_hash, 'card', 'review' FROM reviews WHERE card_id = ?"
            " ORDER BY 1",
            (item_id, item_id),
        ).fetchall()
        if not events:
            return
        retention = self._retention(conn)
        card = None
        for at, rating, seconds, _h, _k, mode in events:
            when = stored_time(at)
            if when is None:
                continue  # an event whose time was damaged on disk cannot be placed in the history
            card = schedule.review(card, item_id, Rating(rating), when, seconds,
                                   desired_retention=retention, fuzz=self.fuzz, mode=mode)
        if card is None:
            return
        _at, _r, _s, content_hash, kind, _m = events[-1]
        self._write_item(conn, item_id, kind, content_hash, card)

    @staticmethod
    def _write_item(conn: sqlite3.Connection, item_id: str, kind: Kind, content_hash: str, card: Any) -> ItemState:
        conn.execute(
            "INSERT INTO items(item_id, kind, content_hash, card_json, due, last_review, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(item_id) DO UPDATE SET kind = excluded.kind,"
            " content_hash = excluded.content_hash, card_json = excluded.card_json, due = excluded.due,"
            " last_review = excluded.last_review, updated_at = excluded.updated_at",
            (item_id, kind, content_hash, card.to_json(), utc_iso(card.due),
             utc_iso(card.last_review) if card.last_review else None, utc_iso(utc_now())),
        )
        return ItemState(item_id, kind, content_hash, card, card.due, card.last_review)

    def _retention(self, conn: sqlite3.Connection) -> float:
        row = conn.execute("SELECT value FROM settings WHERE key = 'desired_retention'").fetchone()
        value = stored_json(row[0], None) if row else None
        # A value out of range (written by an older import, or damaged on disk) must not stop every answer.
        if isinstance(value, (int, float)) and RETENTION_RANGE[0] <= value <= RETENTION_RANGE[1]:
            return float(value)
        return float(DEFAULT_SETTINGS["desired_retention"])
