"""Spaced repetition on top of the ``fsrs`` package (FSRS-6, pinned ``fsrs>=6,<7`` in pyproject).

The store keeps one FSRS ``Card`` (as its JSON) per item id; this module turns events into ratings and
ratings into new card states. Topic cards are rated by the learner; a question's rating comes from its
outcome (``rating_for``). See ``/work/shared/reference/study_apps.md`` b1 for the API and formulas.

How each kind of answer feeds the scheduler (``SCHEDULING_RULES`` holds the same words for Help):

* **Practice and review** (feedback at once): FSRS with its learning steps. The learner has just seen the
  key and the explanation, so a short step (1 and 10 minutes, FSRS's defaults) checks that it stuck.
* **Exam and timed quiz** (graded only at the end): no learning steps. An exam is a measurement, not a
  study session; dozens of items coming back within minutes would flood the review queue with questions
  the learner has not even seen the key of yet. A right answer graduates at once to FSRS's own interval
  (at least a day: ``EXAM_MIN_RIGHT``); a wrong one comes back ``EXAM_WRONG_DELAY`` (4 hours) after it,
  time for the learner to read the report first, then it follows FSRS's relearning as usual.
* **Topic cards** are rated by the learner and follow FSRS's learning steps.
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

# Modes graded only at the end (no feedback while answering): see the module docstring.
MEASURED_MODES = ("exam", "quiz")
EXAM_WRONG_DELAY = dt.timedelta(hours=4)
EXAM_MIN_RIGHT = dt.timedelta(days=1)
SCHEDULING_RULES = (
    "Practice answers and card ratings follow FSRS with its short learning steps (1 and 10 minutes): you "
    "have just seen the answer, so it comes back soon to check it stuck. Exam and timed-quiz answers skip "
    "those steps: a right answer is next due after FSRS's own interval, at least a day later; a wrong one "
    "4 hours after the exam, once you have read the report."
)

__all__ = ["Rating", "EXAM_PACE_SECONDS", "rating_for", "scheduler", "MEASURED_MODES", "SCHEDULING_RULES", "new_card", "review", "retrievability"]


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


@lru_cache(maxsize=16)
def _measured_scheduler(desired_retention: float, fuzz: bool, wrong: bool) -> fsrs.Scheduler:
    # Right: no steps at all, so the card graduates to a day-scale interval. Wrong: one step of
    # EXAM_WRONG_DELAY, learning or relearning alike, after which FSRS's usual path resumes.
    steps = (EXAM_WRONG_DELAY,) if wrong else ()
    return fsrs.Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz, learning_steps=steps,
                          relearning_steps=steps)


def scheduler_for(mode: str | None, rating: Rating, desired_retention: float = 0.9,
                  fuzz: bool = True) -> fsrs.Scheduler:
    """The scheduler an answer given in ``mode`` is reviewed with (see the module docstring)."""
    if mode in MEASURED_MODES:
        return _measured_scheduler(desired_retention, fuzz, rating == Rating.Again)
    return scheduler(desired_retention, fuzz)


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
    mode: str | None = None,
) -> fsrs.Card:
    """The item's card after one review at ``at`` (UTC). ``card_json`` (JSON or a Card, which is not
    modified) None means first sight. ``mode`` is the attempt's mode (None: a card rating or practice)."""
    if isinstance(card_json, fsrs.Card):
        card = card_json
    else:
        card = fsrs.Card.from_json(card_json) if card_json else new_card(item_id, at)
    duration = None if seconds is None else int(round(seconds * 1000))
    card, _log = scheduler_for(mode, rating, desired_retention, fuzz).review_card(
        card, fsrs.Rating(int(rating)), review_datetime=at, review_duration=duration
    )
    if mode in MEASURED_MODES and rating != Rating.Again and card.due < at + EXAM_MIN_RIGHT:
        card.due = at + EXAM_MIN_RIGHT  # FSRS rounds intervals up to a day; this only states the promise
    return card


def retrievability(card: fsrs.Card | str | None, at: dt.datetime) -> float:
    """Predicted probability of recall at ``at`` (0.0 for an item never reviewed)."""
    if card is None:
        return 0.0
    if isinstance(card, str):
        card = fsrs.Card.from_json(card)
    return float(scheduler().get_card_retrievability(card, at))
