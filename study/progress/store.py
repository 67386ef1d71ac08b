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
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from collections.abc import Callable, Mapping, Sequence

from study.progress import schedule
from study.progress.schedule import Rating, rating_for
from study.progress.store_open import (
    StoreError,
    WriteTx,
    file_identity,
    is_damage,
    open_connection,
    reopen_after_damage,
    write_error,
)

UTC = dt.timezone.utc
Mode = Literal["practice", "exam", "review", "quiz", "lab"]
Kind = Literal["card", "question"]
MODES = ("practice", "exam", "review", "quiz", "lab")

RETENTION_RANGE = (0.70, 0.97)  # the desired retention the app offers (FSRS target recall)
DEFAULT_SETTINGS: dict[str, Any] = {
    "exam_date": None,  # ISO date string, e.g. "2027-01-15"
    "desired_retention": 0.9,  # FSRS target recall at review time
    "daily_goal": 20,  # questions answered per day (card ratings are not answers)
    "new_per_day": 20,  # items never seen before to start in a day (study.progress.control)
    "theme": None,
}


def utc_iso(at: dt.datetime) -> str:
    """The stored form of a timestamp. Naive datetimes are refused: their zone is a guess."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError(f"naive datetime {at!r}: pass an aware (UTC) datetime")
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def parse_iso(text: str | None) -> dt.datetime | None:
    if text is None:
        return None
    value = dt.datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _now() -> dt.datetime:
    return dt.datetime.now(UTC)


@dataclass(frozen=True)
class Attempt:
    """One answered question. ``given`` is the learner's answer as text (the quiz layer chooses the form,
    e.g. ``"B"``, ``"A,C"``, ``"141.2"``); ``params`` the instance parameters of a templated question."""

    item_id: str
    content_hash: str
    params: Mapping[str, Any]
    given: str
    correct: bool
    seconds: float
    mode: Mode
    session_id: str | None = None
    at: dt.datetime = field(default_factory=_now)
    uid: str = field(default_factory=lambda: uuid.uuid4().hex)
    # The texts of the options picked, in the order shown; empty for a typed answer.
    picked: tuple[str, ...] = ()
    # The question as shown when answered (``study.quiz.shown``): stem, choices in order with stable ids.
    # None for attempts recorded before it was kept; exports then fall back to the current bank.
    shown: Mapping[str, Any] | None = None

    @property
    def rating(self) -> Rating:
        return rating_for(self.correct, self.seconds)


@dataclass(frozen=True)
class Review:
    """One topic-card review rated by the learner."""

    card_id: str
    content_hash: str
    rating: Rating
    seconds: float
    at: dt.datetime
    uid: str


@dataclass(frozen=True)
class Session:
    id: str
    kind: str
    started_at: dt.datetime
    updated_at: dt.datetime
    deadline: dt.datetime | None
    state_json: str | None
    finished_at: dt.datetime | None
    report_json: str | None

    @property
    def report(self) -> Any:
        return stored_json(self.report_json, None) if self.report_json else None


@dataclass(frozen=True)
class ItemSummary:
    """Running totals for one question (see ``Store.summaries``)."""

    item_id: str
    attempts: int
    correct: int
    last_correct: bool | None
    last_at: dt.datetime | None


@dataclass(frozen=True)
class ItemState:
    """The scheduler's view of one item. ``card`` is the ``fsrs.Card``."""

    item_id: str
    kind: Kind
    content_hash: str
    card: Any
    due: dt.datetime
    last_review: dt.datetime | None


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


class Store:
    """Thread-safe handle on one progress file; use ``open_store``. Close it, or use it as a context manager."""

    def __init__(self, path: Path, *, fuzz: bool = True) -> None:
        self.path = Path(path)
        self.fuzz = fuzz
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None
        self._conn, self.notice = open_connection(self.path)
        self._opened_as = file_identity(self.path)  # see ``_follow_path``
        self.on_notice: Callable[[str], None] | None = None  # the app's toast for a notice found in use

    # -- plumbing ----------------------------------------------------------------------------------------

    def _tx(self) -> _locked_tx:
        return _locked_tx(self)

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            if self._conn is None:
                raise StoreError("the progress store is closed")
            try:
                return self._conn.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from exc

    def _failed(self, exc: sqlite3.Error) -> StoreError:
        """The one-line error for a failed statement. Damage found in use is handled as on opening: the file
        is kept aside and a fresh store takes over, so the next action works."""
        if not is_damage(exc):
            return write_error(self.path, exc)
        with self._lock:
            try:
                self._conn, self.notice = reopen_after_damage(self.path, self._conn, exc)
                self._opened_as = file_identity(self.path)
            except StoreError as err:
                self._conn = None
                return err
        return StoreError(self.notice)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None  # type: ignore[assignment]

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return self._query("PRAGMA user_version")[0][0]

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

    # -- learning record store ---------------------------------------------------------------------------

    def lrs_acked(self, endpoint: str) -> set[str]:
        """Ids of the statements the LRS at ``endpoint`` has acknowledged (``study sync``)."""
        return {r[0] for r in self._query("SELECT statement_id FROM lrs_acks WHERE endpoint = ?", (endpoint,))}

    def record_lrs_acks(self, endpoint: str, statement_ids: Sequence[str], at: dt.datetime | None = None) -> None:
        """Remember, in one transaction, that the LRS stored these statements, so no later sync sends them."""
        when = utc_iso(at or _now())
        with self._tx() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO lrs_acks(endpoint, statement_id, at) VALUES (?, ?, ?)",
                [(endpoint, sid, when) for sid in statement_ids],
            )

    def _retention(self, conn: sqlite3.Connection) -> float:
        row = conn.execute("SELECT value FROM settings WHERE key = 'desired_retention'").fetchone()
        value = stored_json(row[0], None) if row else None
        # A value out of range (written by an older import, or damaged on disk) must not stop every answer.
        if isinstance(value, (int, float)) and RETENTION_RANGE[0] <= value <= RETENTION_RANGE[1]:
            return float(value)
        return float(DEFAULT_SETTINGS["desired_retention"])

    # -- events ------------------------------------------------------------------------------------------

    def _follow_path(self) -> None:
        """Before a write: if the file at ``self.path`` was deleted or replaced since it was opened, SQLite
        would go on writing into the unlinked file and the answer would be lost at quit. So the store at the
        path is opened instead (a new one if nothing is there), the learner is told, and the write goes there."""
        now = file_identity(self.path)
        if now == self._opened_as or self._conn is None:
            return
        with self._lock:
            old, self._conn = self._conn, None
            try:
                old.close()
            except sqlite3.Error:
                pass  # it was the unlinked file: nothing there is the learner's any more
            try:
                self._conn, _notice = open_connection(self.path)
            except StoreError as exc:
                raise StoreError(f"the progress store {self.path} went away while study ran, and no new one "
                                 f"could be started there: {exc}") from None
            self._opened_as = file_identity(self.path)
            what = ("was deleted while study ran; a new store was started there" if now is None
                    else "was replaced while study ran; study now records into the file found there")
            self.notice = f"the progress store {self.path} {what}, and your answers go on being recorded"
        if self.on_notice is not None:
            self.on_notice(self.notice)

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
        at = at or _now()
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
            return _item(conn.execute(f"SELECT {_ITEM_COLS} FROM items WHERE item_id = ?", (item_id,)).fetchone())
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
             utc_iso(card.last_review) if card.last_review else None, utc_iso(_now())),
        )
        return ItemState(item_id, kind, content_hash, card, card.due, card.last_review)

    # -- sessions ----------------------------------------------------------------------------------------

    def save_session(
        self, session_id: str, kind: str, state_json: str, deadline: dt.datetime | None = None
    ) -> None:
        """Create or update an in-progress session (call after every exam action: it is what resume reads)."""
        now = utc_iso(_now())
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO sessions(id, kind, started_at, updated_at, deadline, state_json)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET kind = excluded.kind,"
                " updated_at = excluded.updated_at, deadline = excluded.deadline,"
                " state_json = excluded.state_json",
                (session_id, kind, now, now, utc_iso(deadline) if deadline else None, state_json),
            )

    def active_session(self, kind: str = "exam") -> tuple[str, str, dt.datetime | None] | None:
        """The most recently updated unfinished session of ``kind`` that has saved state, as
        ``(session_id, state_json, deadline)``, or None. A deadline in the past is the caller's to handle
        (e.g. submit the exam as it stands)."""
        rows = self._query(
            "SELECT id, state_json, deadline FROM sessions WHERE kind = ? AND finished_at IS NULL"
            " AND state_json IS NOT NULL ORDER BY updated_at DESC LIMIT 1",
            (kind,),
        )
        if not rows:
            return None
        sid, state, deadline = rows[0]
        return sid, state, parse_iso(deadline)

    def finish_session(self, session_id: str, report_json: str, at: dt.datetime | None = None) -> None:
        """Mark a session finished with its report; it no longer resumes. Its in-progress state is dropped."""
        stamp = utc_iso(at or _now())
        with self._tx() as conn:
            cur = conn.execute(
                "UPDATE sessions SET finished_at = ?, updated_at = ?, report_json = ?, state_json = NULL"
                " WHERE id = ?",
                (stamp, stamp, report_json, session_id),
            )
            if cur.rowcount == 0:
                raise KeyError(f"no session {session_id!r}")

    def discard_session(self, session_id: str) -> None:
        """Abandon an unfinished session (the learner declined to resume). Its attempts stay recorded."""
        stamp = utc_iso(_now())
        with self._tx() as conn:
            conn.execute(
                "UPDATE sessions SET finished_at = ?, updated_at = ?, state_json = NULL WHERE id = ?"
                " AND finished_at IS NULL",
                (stamp, stamp, session_id),
            )

    def session(self, session_id: str) -> Session | None:
        rows = self._query(f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ?", (session_id,))
        return _session(rows[0]) if rows else None

    def exam_history(self) -> list[Session]:
        """Finished exam sessions with a report, oldest first."""
        rows = self._query(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE kind = 'exam' AND finished_at IS NOT NULL"
            " AND report_json IS NOT NULL ORDER BY finished_at"
        )
        return [_session(r) for r in rows]

    # -- reading -----------------------------------------------------------------------------------------

    def history(
        self, item_id: str | None = None, limit: int | None = None, since: dt.datetime | None = None
    ) -> list[Attempt]:
        """Attempts, newest first; optionally for one item, since a time, and at most ``limit``."""
        sql = f"SELECT {_ATTEMPT_COLS} FROM attempts"
        where, args = [], []
        if item_id is not None:
            where.append("item_id = ?")
            args.append(item_id)
        if since is not None:
            where.append("at >= ?")
            args.append(utc_iso(since))
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [_attempt(r) for r in self._query(sql, tuple(args))]

    def reviews(self, card_id: str | None = None, limit: int | None = None) -> list[Review]:
        """Topic-card reviews, newest first."""
        sql = "SELECT card_id, content_hash, rating, seconds, at, uid FROM reviews"
        args: list[Any] = []
        if card_id is not None:
            sql += " WHERE card_id = ?"
            args.append(card_id)
        sql += " ORDER BY at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [
            Review(c, h, Rating(r), s, parse_iso(a), u)  # type: ignore[arg-type]
            for c, h, r, s, a, u in self._query(sql, tuple(args))
        ]

    def item_state(self, item_id: str) -> ItemState | None:
        """The FSRS state of an item, or None if never seen."""
        rows = self._query(
            f"SELECT {_ITEM_COLS} FROM items WHERE item_id = ?",
            (item_id,),
        )
        return _item(rows[0]) if rows else None

    def item_states(self, kind: Kind | None = None) -> list[ItemState]:
        sql = f"SELECT {_ITEM_COLS} FROM items"
        rows = self._query(sql + " WHERE kind = ?", (kind,)) if kind else self._query(sql)
        return [_item(r) for r in rows]

    def retrievability(self, item_id: str, at: dt.datetime | None = None) -> float | None:
        """Predicted probability of recalling the item at ``at`` (now by default); None if never seen."""
        state = self.item_state(item_id)
        if state is None:
            return None
        return schedule.retrievability(state.card, at or _now())

    def due(self, now: dt.datetime | None = None, kind: Kind | None = None, limit: int | None = None) -> list[str]:
        """Ids of seen items whose FSRS due time is at or before ``now``, most overdue first: "due now", the
        one meaning of due (``study.progress.due``). Items never seen are not "due": the caller decides how
        many new ones to mix in (see ``seen_ids``). Suspended and buried items are never due."""
        # Suspended and buried items are held back (``study.progress.control``).
        stamp = utc_iso(now or _now())
        sql = ("SELECT item_id FROM items WHERE due <= ? AND item_id NOT IN (SELECT item_id FROM item_control"
               " WHERE suspended = 1 OR buried_until > ?)")
        args: list[Any] = [stamp, stamp]
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        sql += " ORDER BY due, item_id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [r[0] for r in self._query(sql, tuple(args))]

    def summaries(self) -> dict[str, ItemSummary]:
        """Per answered question: attempts, right, and the latest outcome, from running totals (no scan of
        the history). Includes questions no longer in the bank; filter with ``bank.has_item``."""
        rows = self._query("SELECT item_id, attempts, correct, last_correct, last_at FROM item_totals")
        return {
            i: ItemSummary(i, n, c, None if lc is None else bool(lc), stored_time(la))
            for i, n, c, lc, la in rows
        }

    def seen_ids(self, kind: Kind | None = None) -> set[str]:
        sql = "SELECT item_id FROM items"
        rows = self._query(sql + " WHERE kind = ?", (kind,)) if kind else self._query(sql)
        return {r[0] for r in rows}

    def counts(self) -> dict[str, int]:
        """Row counts per table (for ``study stats`` and the reset confirmation)."""
        with self._lock:
            return {
                t: self._query(f"SELECT count(*) FROM {t}")[0][0]
                for t in ("attempts", "reviews", "sessions", "items", "settings")
            }

    # -- backup, restore, reset --------------------------------------------------------------------------

    def export_data(self, read_session: Any = None) -> dict[str, Any]:
        """Everything, as JSON-ready data (see ``study.progress.transfer`` for the format). A backup meant
        to be imported again passes the quiz's ``read_saved_session``, so a saved exam it could not resume
        is left out rather than making the whole file refused later."""
        from study.progress.transfer import export_data

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
        target = Path(target)
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


class _locked_tx:
    """``with store._tx() as conn``: the store's lock plus one ``BEGIN IMMEDIATE`` transaction. Any SQLite error
    inside comes out as a one-line ``StoreError`` (see ``Store._failed``), after the rollback."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tx: WriteTx | None = None

    def __enter__(self) -> sqlite3.Connection:
        self.store._lock.acquire()
        if self.store._conn is None:
            self.store._lock.release()
            raise StoreError("the progress store is closed")
        try:
            self.tx = WriteTx(self.store._conn)
            return self.tx.__enter__()
        except sqlite3.Error as exc:
            try:
                raise self.store._failed(exc) from exc
            finally:
                self.store._lock.release()
        except BaseException:
            self.store._lock.release()
            raise

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            assert self.tx is not None
            try:
                self.tx.__exit__(exc_type, exc, tb)
            except sqlite3.Error as err:
                raise self.store._failed(err) from err
            if isinstance(exc, sqlite3.Error):
                raise self.store._failed(exc) from exc
        finally:
            self.store._lock.release()


_ATTEMPT_COLS = ("item_id, content_hash, params_json, given, correct, seconds, mode, session_id, at, uid,"
                 " picked_json, shown_json")
_ITEM_COLS = "item_id, kind, content_hash, card_json, due, last_review"
_SESSION_COLS = "id, kind, started_at, updated_at, deadline, state_json, finished_at, report_json"


def _attempt(row: tuple) -> Attempt:
    item_id, chash, params, given, correct, seconds, mode, sid, at, uid, picked, shown = row
    return Attempt(item_id, chash, stored_json(params, {}), given, bool(correct), seconds, mode, sid, parse_iso(at),
                   uid, tuple(stored_json(picked, ())) if picked else (), stored_json(shown, None) if shown else None)


def _session(row: tuple) -> Session:
    sid, kind, started, updated, deadline, state, finished, report = row
    return Session(sid, kind, parse_iso(started), parse_iso(updated), parse_iso(deadline), state,
                   parse_iso(finished), report)  # type: ignore[arg-type]


def _item(row: tuple) -> ItemState:
    item_id, kind, chash, card_json, due, last = row
    card = stored_card(card_json)
    due_at = stored_time(due)
    if card is None:
        # Damaged on disk: a new card due at its stored time; the next review rebuilds it from the history.
        card = schedule.new_card(item_id, due_at or dt.datetime.now(UTC))
    # The card holds the same two times: it answers for a column damaged on disk.
    last_at = (stored_time(last) or card.last_review) if last else None
    return ItemState(item_id, kind, chash, card, due_at or card.due, last_at)


def stored_card(card_json: str) -> Any:
    """The stored FSRS card, or None if its text is damaged (valid pages can still hold a flipped byte)."""
    import fsrs

    try:
        return fsrs.Card.from_json(card_json)
    except (ValueError, KeyError, TypeError, RecursionError):
        return None


def stored_time(text: str | None) -> dt.datetime | None:
    """A timestamp read back from the store; None if absent or damaged on disk."""
    try:
        return parse_iso(text)
    except (ValueError, TypeError):
        return None


def stored_json(text: str, fallback: Any) -> Any:
    """A JSON value read back from the store; ``fallback`` if its text is damaged."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return fallback
