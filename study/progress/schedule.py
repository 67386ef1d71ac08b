"""Spaced repetition on top of the ``fsrs`` package (FSRS-6, pinned ``fsrs>=6,<7`` in pyproject).

The store keeps one FSRS ``Card`` (as its JSON) per item id; this module turns events into ratings and
ratings into new card states. Topic cards are rated by the learner; a question's rating comes from its
outcome (``rating_for``). See ``/work/shared/reference/study_apps.md`` b1 for the API and formulas.
"""

from __future__ import annotations

import datetime as dt
import zlib
from enum import IntEnum
from functools import lru_cache

import fsrs

# Pace of the real exam: 60 minutes for 50 questions = 72 s per question (content/blueprint.yaml, from the
# NVIDIA exam page; volatile: NVIDIA may change the exam length, re-check when the blueprint is re-verified).
EXAM_PACE_SECONDS = 72.0

__all__ = ["Rating", "EXAM_PACE_SECONDS", "rating_for", "scheduler", "new_card", "review", "retrievability"]


class Rating(IntEnum):
    """The four FSRS grades, same numbers as ``fsrs.Rating`` (and Anki's buttons 1-4)."""

    Again = 1
    Hard = 2
    Good = 3
    Easy = 4


def rating_for(correct: bool, seconds: float) -> Rating:
    """A question's outcome as a rating: wrong -> Again; right but slower than the exam pace -> Hard;
    right -> Good. Never Easy: the learner did not say it was easy, and Easy inflates intervals most."""
    if not correct:
        return Rating.Again
    if seconds > EXAM_PACE_SECONDS:
        return Rating.Hard
    return Rating.Good


@lru_cache(maxsize=16)
def scheduler(desired_retention: float = 0.9, fuzz: bool = True) -> fsrs.Scheduler:
    """An FSRS scheduler with default parameters (not yet optimised per learner)."""
    return fsrs.Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz)


def _card_id(item_id: str) -> int:
    # fsrs.Card() without an id sleeps 1 ms to make its epoch-ms id unique; ours are keyed by item id anyway.
    return zlib.crc32(item_id.encode())


def new_card(item_id: str, at: dt.datetime) -> fsrs.Card:
    return fsrs.Card(card_id=_card_id(item_id), due=at)


def review(
    card_json: str | fsrs.Card | None,
    item_id: str,
    rating: Rating,
    at: dt.datetime,
    seconds: float | None = None,
    *,
    desired_retention: float = 0.9,
    fuzz: bool = True,
) -> fsrs.Card:
    """The item's card after one review at ``at`` (UTC). ``card_json`` (JSON or a Card, which is not
    modified) None means first sight."""
    if isinstance(card_json, fsrs.Card):
        card = card_json
    else:
        card = fsrs.Card.from_json(card_json) if card_json else new_card(item_id, at)
    duration = None if seconds is None else int(round(seconds * 1000))
    card, _log = scheduler(desired_retention, fuzz).review_card(
        card, fsrs.Rating(int(rating)), review_datetime=at, review_duration=duration
    )
    return card


def retrievability(card: fsrs.Card | str | None, at: dt.datetime) -> float:
    """Predicted probability of recall at ``at`` (0.0 for an item never reviewed)."""
    if card is None:
        return 0.0
    if isinstance(card, str):
        card = fsrs.Card.from_json(card)
    return float(scheduler().get_card_retrievability(card, at))
