"""Today's plan on Home: the reviews due now, questions up to the daily goal on the objective that gains most,
and the minutes that takes at the learner's own pace.

An adapter over what the core offers today (the store's timings, the readiness' "study next"); when the core
gains its own plan (issue 20, ``study plan``), ``todays_plan`` is the function to point at it.
"""

from __future__ import annotations

import math
from statistics import median
from typing import Any

# Until the learner has a measured pace: the real exam's 72 s per question, and a short recall per card.
DEFAULT_QUESTION_SECONDS = 72.0
DEFAULT_CARD_SECONDS = 20.0
PACE_SAMPLE = 100  # the latest answers (and card ratings) the pace is the median of
MIN_SAMPLE = 5

PLAN_HELP = (
    "**Today's plan** (Home, over Study next): the reviews due now, then questions up to the daily goal on the "
    "objective that gains most; the minutes are those counts times your own median time per answer and per "
    "card rating over your last 100 of each (72 s and 20 s until you have 5)."
)


def _median_seconds(store: Any, table: str, default: float) -> float:
    try:
        rows = store._query(f"SELECT seconds FROM {table} WHERE seconds > 0 ORDER BY at DESC LIMIT ?",
                            (PACE_SAMPLE,))
    except Exception:  # a store without timings: the default pace
        return default
    values = [float(r[0]) for r in rows if r[0] is not None]
    return median(values) if len(values) >= MIN_SAMPLE else default


def todays_plan(store: Any, stats: Any, cards_due: int, questions_due: int) -> str:
    """ "today: 2 reviews + 10 questions on 2.1, about 13 min" (or "today's goal is met")."""
    goal = int(stats.settings.get("daily_goal") or 20)
    done = stats.activity[-1][1] if stats.activity else 0
    reviews = cards_due + questions_due
    fresh = max(0, goal - done - reviews)
    nxt = list(stats.readiness.study_next)
    if not reviews and not fresh:
        return "today's goal is met"
    q_pace = _median_seconds(store, "attempts", DEFAULT_QUESTION_SECONDS)
    c_pace = _median_seconds(store, "reviews", DEFAULT_CARD_SECONDS)
    minutes = math.ceil((cards_due * c_pace + (questions_due + fresh) * q_pace) / 60)
    parts = [f"{reviews} review{'s' if reviews != 1 else ''}"] if reviews else []
    if fresh:
        parts.append(f"{fresh} question{'s' if fresh != 1 else ''}" + (f" on {nxt[0].objective}" if nxt else ""))
    return f"today: {' + '.join(parts)}, about {minutes} min"
