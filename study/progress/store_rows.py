"""The progress store's rows as Python values: the records it hands out, the stored form of a timestamp, and
reading back a value that was damaged on disk.

``study.progress.store`` names them all again: code outside the store imports them from there.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal, overload
from collections.abc import Mapping

from study.progress import schedule
from study.progress.schedule import Rating, rating_for

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


@overload
def parse_iso(text: str) -> dt.datetime: ...
@overload
def parse_iso(text: None) -> None: ...
@overload
def parse_iso(text: str | None) -> dt.datetime | None: ...
def parse_iso(text: str | None) -> dt.datetime | None:
    if text is None:
        return None
    value = dt.datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def utc_now() -> dt.datetime:
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
    at: dt.datetime = field(default_factory=utc_now)
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


# The columns each reader selects, in the order its decoder below unpacks them.
ATTEMPT_COLS = ("item_id, content_hash, params_json, given, correct, seconds, mode, session_id, at, uid,"
                " picked_json, shown_json")
ITEM_COLS = "item_id, kind, content_hash, card_json, due, last_review"
SESSION_COLS = "id, kind, started_at, updated_at, deadline, state_json, finished_at, report_json"


# A row whose own time was damaged on disk cannot be placed in the history: its reader returns None and the
# row is left out, as the scheduler's replay leaves it out, rather than make every reader of the history fail.


def attempt_of(row: tuple[Any, ...]) -> Attempt | None:
    item_id, chash, params, given, correct, seconds, mode, sid, at, uid, picked, shown = row
    when = stored_time(at)
    if when is None:
        return None
    return Attempt(item_id, chash, stored_json(params, {}), given, bool(correct), seconds, mode, sid, when,
                   uid, tuple(stored_json(picked, ())) if picked else (), stored_json(shown, None) if shown else None)


def session_of(row: tuple[Any, ...]) -> Session | None:
    sid, kind, started, updated, deadline, state, finished, report = row
    finished_at = stored_time(finished)
    # Its other times stand in for a damaged one; a deadline or finish that is unreadable is unknown.
    started_at = stored_time(started) or stored_time(updated) or finished_at
    if started_at is None:
        return None
    return Session(sid, kind, started_at, stored_time(updated) or started_at, stored_time(deadline), state,
                   finished_at, report)


def item_of(row: tuple[Any, ...]) -> ItemState:
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
