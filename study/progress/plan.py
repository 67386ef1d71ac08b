"""Today's plan to the exam date, in minutes of the learner's own pace.

How it is computed (``PLAN_METHOD`` holds the same words for the Help screen):

1. **Reviews today**: the items (topic cards and questions) FSRS schedules by the end of today, local time
   (the forecast's first day: what is due now plus what falls due later today), suspended and buried ones
   left out.
2. **New questions today**: the daily goal (``daily_goal``, questions answered a day) less what was
   answered today and the questions among today's reviews, capped by the new-items-a-day limit
   (``new_per_day``) less the items already started today; never below zero. They go to the objectives
   readiness ranks first under "Study next" (the largest expected gain on the exam score), in that order,
   at most half of them on one objective while another has unseen questions, so the weakest come first.
3. **Minutes**: questions (reviews and new) x your median seconds per answer, plus cards x your median
   seconds per card rating, both over your last ``PACE_WINDOW`` answers and ratings. With fewer than
   ``PACE_MIN_SAMPLES`` of either, a stated default stands in: ``DEFAULT_SECONDS_PER_ANSWER`` (72 s at the
   exam's pace plus reading the explanation, the same 2 minutes readiness assumes) and
   ``DEFAULT_SECONDS_PER_RATING`` (20 s to recall and rate a card).
4. **On track**: with an exam date set, whether the new questions a day of step 2's rule (the daily goal,
   capped by ``new_per_day``) reach every unseen question before the exam day:
   ``ceil(unseen / new a day) <= days left``. Readiness (``study stats``) says what score to expect; this
   says whether the bank will have been seen at all.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from dataclasses import asdict, dataclass
from typing import Any

from study.progress.control import held_back, new_allowance, new_per_day
from study.progress.plan_method import PLAN_METHOD  # noqa: F401  (re-exported: Help and the CLI read it)
from study.progress.stats import compute_stats
from study.progress.store import Store

PACE_WINDOW = 200
PACE_MIN_SAMPLES = 10
DEFAULT_SECONDS_PER_ANSWER = 120.0
DEFAULT_SECONDS_PER_RATING = 20.0
# One answer left open over lunch must not set the pace: longer spans count as this much.
MAX_SECONDS_COUNTED = 600.0


@dataclass(frozen=True)
class Pace:
    seconds_per_answer: float
    seconds_per_rating: float
    answers_measured: int  # how many answers the median is over (0: the default)
    ratings_measured: int

    @property
    def measured(self) -> bool:
        return bool(self.answers_measured or self.ratings_measured)


@dataclass(frozen=True)
class PlanObjective:
    objective: str
    title: str
    questions: int


@dataclass(frozen=True)
class Plan:
    today: dt.date
    exam_date: dt.date | None
    days_left: int | None  # None without an exam date; 0 on the day, negative once past
    review_cards: int
    review_questions: int
    new_questions: int
    new_by_objective: list[PlanObjective]
    minutes: int
    pace: Pace
    daily_goal: int
    answered_today: int
    unseen_questions: int
    new_a_day: int
    on_track: bool | None  # None without a future exam date
    on_track_text: str
    method: str = PLAN_METHOD

    @property
    def reviews(self) -> int:
        return self.review_cards + self.review_questions

    def summary(self) -> str:
        """``"12 reviews, 10 questions on 2.8, about 25 min"``: the line Home shows."""
        parts = [f"{self.reviews} review{'s' if self.reviews != 1 else ''}"]
        if self.new_questions:
            where = ", ".join(o.objective for o in self.new_by_objective)
            parts.append(f"{self.new_questions} new question{'s' if self.new_questions != 1 else ''} on {where}")
        if not self.reviews and not self.new_questions:
            # No new question has three causes; "your goal is met" was said for all of them.
            if self.answered_today >= self.daily_goal:
                why = "your goal is met"
            elif not self.unseen_questions:
                why = "no question is left unseen"
            else:
                why = "the new-items-a-day limit is reached"
            return f"Nothing planned for today: {why} and nothing is due"
        return f"{', '.join(parts)}, about {self.minutes} min"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["today"] = self.today.isoformat()
        d["exam_date"] = self.exam_date.isoformat() if self.exam_date else None
        d["reviews"] = self.reviews
        d["summary"] = self.summary()
        return d


def _median(values: list[float]) -> float:
    return float(statistics.median(min(v, MAX_SECONDS_COUNTED) for v in values))


def measured_pace(store: Store) -> Pace:
    """Median seconds per answer and per card rating over the last ``PACE_WINDOW`` of each."""
    answers = [r[0] for r in store._query("SELECT seconds FROM attempts WHERE seconds > 0 ORDER BY at DESC LIMIT ?",
                                          (PACE_WINDOW,))]
    ratings = [r[0] for r in store._query("SELECT seconds FROM reviews WHERE seconds > 0 ORDER BY at DESC LIMIT ?",
                                          (PACE_WINDOW,))]
    use_a, use_r = len(answers) >= PACE_MIN_SAMPLES, len(ratings) >= PACE_MIN_SAMPLES
    return Pace(_median(answers) if use_a else DEFAULT_SECONDS_PER_ANSWER,
                _median(ratings) if use_r else DEFAULT_SECONDS_PER_RATING,
                len(answers) if use_a else 0, len(ratings) if use_r else 0)


def _reviews_today(store: Store, bank: Any, now: dt.datetime) -> tuple[int, int]:
    """(cards, questions) due by the end of today in ``now``'s zone, held-back items left out."""
    from study.progress.control import start_of_next_day

    end = start_of_next_day(now)
    held = held_back(store, now)
    cards = {c.id for c in bank.cards}
    questions = {q.id for q in bank.questions}
    due = [i for i in store.due(end) if i not in held]
    return sum(i in cards for i in due), sum(i in questions for i in due)


def compute_plan(store: Store, bank: Any, now: dt.datetime | None = None, stats: Any = None) -> Plan:
    """Today's plan at ``now`` (aware; its zone defines today). ``stats`` (``compute_stats``) may be
    passed in when the caller has it, to read the store once."""
    now = now or dt.datetime.now().astimezone()
    stats = stats or compute_stats(store, bank, now)
    today = now.date()
    goal = int(stats.settings.get("daily_goal") or 20)
    review_cards, review_questions = _reviews_today(store, bank, now)
    answered = stats.answers_today
    room = max(0, goal - answered - review_questions)
    new_q = min(room, new_allowance(store, now))

    held = held_back(store, now)
    seen = store.seen_ids("question")
    unseen: dict[str, int] = {}
    for q in bank.questions:
        if q.id not in seen and q.id not in held:
            unseen[q.objective] = unseen.get(q.objective, 0) + 1
    titles = bank.blueprint.objective_titles()
    order = [s.objective for s in stats.readiness.study_next]
    order += [o for o in bank.blueprint.objective_ids() if o not in order]
    new_q = min(new_q, sum(unseen.values()))
    spread = [PlanObjective(o, titles.get(o, ""), k) for o, k in _spread(new_q, order, unseen)]

    pace = measured_pace(store)
    seconds = (review_questions + new_q) * pace.seconds_per_answer + review_cards * pace.seconds_per_rating
    minutes = math.ceil(seconds / 60) if seconds else 0

    exam_date = stats.readiness.exam_date
    days_left = (exam_date - today).days if exam_date else None
    total_unseen = sum(unseen.values())
    a_day = min(goal, new_per_day(store))
    on_track, text = _on_track(days_left, total_unseen, a_day)
    return Plan(today, exam_date, days_left, review_cards, review_questions, new_q, spread, minutes, pace, goal,
                answered, total_unseen, a_day, on_track, text)


def _spread(count: int, order: list[str], unseen: dict[str, int]) -> list[tuple[str, int]]:
    """``count`` new questions over the objectives in ``order``, at most half (rounded up) on any one while
    others have unseen questions, so a day's new work covers the two or three weakest objectives."""
    cap = max(1, math.ceil(count / 2))
    taken: dict[str, int] = {}
    left = count
    for limit in (cap, count):  # the cap first; if the weakest few run dry, fill from them regardless
        for o in order:
            if left <= 0:
                break
            take = min(left, unseen.get(o, 0) - taken.get(o, 0), max(0, limit - taken.get(o, 0)))
            if take > 0:
                taken[o] = taken.get(o, 0) + take
                left -= take
    return [(o, taken[o]) for o in order if taken.get(o)]


def _on_track(days_left: int | None, unseen: int, a_day: int) -> tuple[bool | None, str]:
    if days_left is None:
        return None, "Set your exam date (`study settings exam_date YYYY-MM-DD`) to see whether you are on track."
    if days_left < 0:
        return None, "Your exam date has passed; set the next one to plan again."
    if unseen == 0:
        return True, "On track: you have seen every question; keep up the reviews."
    if a_day <= 0:
        return False, "Not on track: the new-items-a-day limit is 0, so no unseen question is started."
    need = math.ceil(unseen / a_day)
    verdict = "On track" if need <= days_left else "Not on track"
    return need <= days_left, (f"{verdict}: at {a_day} new questions a day you will have seen the {unseen} unseen "
                               f"in {need} day{'s' if need != 1 else ''}; the exam is in "
                               f"{days_left} day{'s' if days_left != 1 else ''}.")
