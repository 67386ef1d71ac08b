"""Statistics over the store and the bank: what ``study stats`` and the TUI's progress screen show.

* accuracy: right / answered, all attempts ever, per objective and domain (from running totals kept with
  each event, so a year of history costs no full scan);
* mastery: mean FSRS retrievability *now* over the items seen (None when none seen); coverage says how many;
* coverage: seen / total items (questions and topic cards) in the current bank;
* streak: consecutive days with at least one answer or card review, ending today (or yesterday, so a streak
  is not shown broken before today's study);
* activity: answers + reviews per day for the last 365 days (the heatmap);
* forecast: FSRS reviews falling due on each of the next 30 days (overdue ones count on day 0);
* due now / next due: the one meaning of "due" (``study.progress.due``), shared with Review and Home;
* answers today: questions answered today, what the daily goal counts (card ratings are not answers);
* readiness: see ``study.progress.readiness``.

Days are calendar days in the time zone of the ``now`` passed in (the CLI passes local time). Activity is
counted per UTC hour as events are recorded and then assigned to local days, which is exact for whole-hour
offsets (a half-hour zone may put an event within 30 minutes of midnight on the neighbouring day).
Items no longer in the bank keep their history in the store but are left out of these figures, except lab
tasks (``study.lab``, ids ``lab.<lab>.<task>``, mode ``lab``): they are not bank items, but an answered task
counts for its objective (the one in the attempt's stored ``shown`` record) in accuracy, mastery and
readiness, like a question. Coverage stays the share of the bank's items seen. A lab task is never *due*:
Review shows bank items only and cannot rebuild a lab's simulated system, so counting one as due would show
a number Review cannot clear. Its FSRS state still moves with each answer and feeds mastery and readiness;
the lab itself is where it is practised again.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass, field
from typing import Any
from collections.abc import Sequence

from study.progress import schedule
from study.progress.readiness import CARD_PRIOR, Readiness, ReadinessItem, compute_readiness, guess_prior
from study.progress.store import Store, utc_iso

UTC = dt.timezone.utc
HEATMAP_DAYS = 365
FORECAST_DAYS = 30


@dataclass(frozen=True)
class Group:
    """Figures for one domain or objective."""

    id: str
    title: str
    attempts: int
    correct: int
    accuracy: float | None
    mastery: float | None
    seen: int
    total: int
    weight: float | None = None  # domains only

    @property
    def coverage(self) -> float:
        return self.seen / self.total if self.total else 0.0


@dataclass(frozen=True)
class Stats:
    now: dt.datetime
    domains: list[Group]
    objectives: list[Group]
    attempts: int
    reviews: int
    streak: int
    longest_streak: int
    activity: list[tuple[dt.date, int]]  # oldest first, HEATMAP_DAYS entries ending today
    forecast: list[tuple[dt.date, int]]  # FORECAST_DAYS entries starting today
    due_today: int  # the same number as due_now, the one meaning of due; forecast[0] adds later today
    new_items: int
    exam_history: list[dict[str, Any]]
    readiness: Readiness
    settings: dict[str, Any] = field(default_factory=dict)
    due_now: int = 0  # see study.progress.due: what Review takes right now
    next_due: dt.datetime | None = None  # when the next item falls due, if nothing is due now
    answers_today: int = 0  # the daily goal counts these (questions answered), not card ratings

    def to_dict(self) -> dict[str, Any]:
        def group(g: Group) -> dict[str, Any]:
            return {**asdict(g), "coverage": g.coverage}

        return {
            "now": self.now.isoformat(),
            "attempts": self.attempts,
            "reviews": self.reviews,
            "streak": self.streak,
            "longest_streak": self.longest_streak,
            "due_today": self.due_today,
            "due_now": self.due_now,
            "next_due": self.next_due.isoformat() if self.next_due else None,
            "answers_today": self.answers_today,
            "new_items": self.new_items,
            "domains": [group(g) for g in self.domains],
            "objectives": [group(g) for g in self.objectives],
            "activity": [[d.isoformat(), n] for d, n in self.activity],
            "forecast": [[d.isoformat(), n] for d, n in self.forecast],
            "exam_history": self.exam_history,
            "readiness": self.readiness.to_dict(),
            "settings": self.settings,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)


def exam_moment(exam_date: dt.date | None, now: dt.datetime) -> dt.datetime:
    """When to predict for: 09:00 on the exam date in ``now``'s zone, or ``now`` if unset or past."""
    if exam_date is None:
        return now
    moment = dt.datetime.combine(exam_date, dt.time(9, 0), tzinfo=now.tzinfo)
    return moment if moment > now else now


def _parse_date(value: Any) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def _day_counts(store: Store, tz: dt.tzinfo, column: str = "answers + reviews") -> dict[dt.date, int]:
    # One zone offset per UTC day rather than a datetime conversion per hour bucket (a year of heavy use
    # has ~9,000 buckets). Taking the offset at noon misplaces at most the hour around midnight on the two
    # days a year the clocks change.
    days: dict[dt.date, int] = {}
    offsets: dict[str, tuple[dt.date, int]] = {}
    for hour, n in store._query(f"SELECT hour, {column} FROM activity"):
        day = hour[:10]
        known = offsets.get(day)
        if known is None:
            utc_day = dt.date.fromisoformat(day)
            noon = dt.datetime.combine(utc_day, dt.time(12), tzinfo=dt.timezone.utc)
            off = noon.astimezone(tz).utcoffset() or dt.timedelta(0)
            known = offsets[day] = (utc_day, int(off.total_seconds() // 60))
        utc_day, off_min = known
        shift = (int(hour[11:13]) * 60 + off_min) // 1440
        local = utc_day + dt.timedelta(days=shift) if shift else utc_day
        days[local] = days.get(local, 0) + n
    return days


def _streaks(days: set[dt.date], today: dt.date) -> tuple[int, int]:
    longest = run = 0
    prev: dt.date | None = None
    for d in sorted(days):
        run = run + 1 if prev is not None and d - prev == dt.timedelta(days=1) else 1
        longest = max(longest, run)
        prev = d
    end = today if today in days else today - dt.timedelta(days=1)
    current = 0
    while end in days:
        current += 1
        end -= dt.timedelta(days=1)
    return current, longest


def compute_stats(store: Store, bank: Any, now: dt.datetime | None = None) -> Stats:
    """All statistics at ``now`` (aware; its zone defines "today"). ``bank`` needs ``blueprint``,
    ``questions`` and ``cards`` (a ``study.bank.Bank``)."""
    now = now or dt.datetime.now().astimezone()
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tz = now.tzinfo
    today = now.date()
    blueprint = bank.blueprint
    settings = store.settings()

    states = {s.item_id: s for s in store.item_states()}
    per_item = {item: (n, c) for item, n, c in store._query("SELECT item_id, attempts, correct FROM item_totals")}
    total_attempts, total_reviews = store._query(
        "SELECT coalesce(sum(answers), 0), coalesce(sum(reviews), 0) FROM activity"
    )[0]

    bank_ids = {q.id for q in bank.questions} | {c.id for c in bank.cards}
    labs = lab_items(store, bank_ids)
    lab_members: dict[str, list[str]] = {}
    for lab_id, (objective, _prior) in labs.items():
        lab_members.setdefault(objective, []).append(lab_id)

    # item id -> objectives it belongs to (cards can serve several)
    members: dict[str, list[str]] = {}
    for q in bank.questions:
        members.setdefault(q.objective, []).append(q.id)
    for c in bank.cards:
        for o in c.objectives:
            members.setdefault(o, []).append(c.id)

    lapsed = lapsed_items(store)
    r_now = {i: 0.0 if i in lapsed else schedule.retrievability(s.card, now) for i, s in states.items()}

    def group(gid: str, title: str, ids: list[str], weight: float | None = None, extra: Sequence[str] = ()) -> Group:
        # ``extra``: lab tasks of the group, counted in accuracy and mastery but not in the bank's coverage.
        seen = [i for i in ids if i in states]
        practised = seen + [i for i in extra if i in states]
        att = sum(per_item.get(i, (0, 0))[0] for i in (*ids, *extra))
        cor = sum(per_item.get(i, (0, 0))[1] or 0 for i in (*ids, *extra))
        mastery = sum(r_now[i] for i in practised) / len(practised) if practised else None
        return Group(gid, title, att, cor, cor / att if att else None, mastery, len(seen), len(ids), weight)

    objectives: list[Group] = []
    domains: list[Group] = []
    for d in blueprint.domains:
        d_ids: list[str] = []
        d_labs: list[str] = []
        for o in d.objectives:
            ids = list(dict.fromkeys(members.get(o.id, [])))
            objectives.append(group(o.id, o.title, ids, extra=lab_members.get(o.id, [])))
            d_ids.extend(i for i in ids if i not in d_ids)
            d_labs.extend(lab_members.get(o.id, []))
        domains.append(group(d.id, d.name, d_ids, float(d.weight), extra=d_labs))

    # readiness items: questions; cards only for objectives without questions
    with_questions = {q.objective for q in bank.questions}
    r_items = [
        ReadinessItem(q.id, q.objective, guess_prior(q), states[q.id].card if q.id in states else None,
                      q.id in lapsed)
        for q in bank.questions
    ]
    for c in bank.cards:
        for o in c.objectives:
            if o not in with_questions:
                r_items.append(ReadinessItem(c.id, o, CARD_PRIOR, states[c.id].card if c.id in states else None,
                                             c.id in lapsed))
    r_items += [ReadinessItem(i, o, prior, states[i].card if i in states else None, i in lapsed)
                for i, (o, prior) in labs.items()]
    exam_date = _parse_date(settings.get("exam_date"))
    at = exam_moment(exam_date, now)
    readiness = compute_readiness(
        r_items,
        [(d.id, d.weight, [(o.id, o.title) for o in d.objectives]) for d in blueprint.domains],
        at,
        now.astimezone(UTC),
        questions=blueprint.exam.questions,
        exam_date=exam_date,
        exams=[r for r in (e.report for e in store.exam_history()) if isinstance(r, dict)],
    )

    start = today - dt.timedelta(days=HEATMAP_DAYS - 1)
    all_days = _day_counts(store, tz)
    all_answers = _day_counts(store, tz, "answers")
    activity = [(start + dt.timedelta(days=k), all_days.get(start + dt.timedelta(days=k), 0)) for k in range(HEATMAP_DAYS)]
    streak, longest = _streaks(set(all_days), today)

    forecast_counts = [0] * FORECAST_DAYS
    from study.progress.control import controls

    # Suspended items are never due; a buried one falls due when its burial ends at the earliest.
    held = {c.item_id: c for c in controls(store)}
    for item_id, s in states.items():
        if item_id not in bank_ids:
            continue
        c = held.get(item_id)
        if c is not None and c.suspended:
            continue
        due = max(s.due, c.buried_until) if c is not None and c.buried_until else s.due
        offset = max(0, (due.astimezone(tz).date() - today).days)
        if offset < FORECAST_DAYS:
            forecast_counts[offset] += 1
    forecast = [(today + dt.timedelta(days=k), n) for k, n in enumerate(forecast_counts)]

    exams = []
    from study.progress.due import due_now, next_due

    due_ids = due_now(store, now, known=bank_ids)
    upcoming = None if due_ids else next_due(store, now, known=bank_ids)
    answers_today = all_answers.get(today, 0)

    for sess in store.exam_history():
        exams.append({"id": sess.id, "started_at": sess.started_at.isoformat(),
                      "finished_at": sess.finished_at.isoformat() if sess.finished_at else None,
                      "report": sess.report})

    return Stats(
        now=now,
        domains=domains,
        objectives=objectives,
        attempts=total_attempts,
        reviews=total_reviews,
        streak=streak,
        longest_streak=longest,
        activity=activity,
        forecast=forecast,
        due_today=len(due_ids),
        new_items=len(bank_ids - set(states)),
        exam_history=exams,
        readiness=readiness,
        settings=settings,
        due_now=len(due_ids),
        next_due=upcoming,
        answers_today=answers_today,
    )


def weekly_accuracy(
    store: Any, today: dt.date, weeks: int = 12, tz: dt.tzinfo | None = None
) -> list[tuple[dt.date, int, int]]:
    """``(monday, answered, right)`` for each of the last ``weeks`` weeks ending with ``today``'s, oldest first.

    Days are counted in ``tz`` (the learner's zone, UTC when None), like the heatmap. SQLite groups the
    attempts by UTC hour over the ``at`` index, so a long history is never loaded into Python."""
    zone = tz or dt.timezone.utc
    this_monday = today - dt.timedelta(days=today.weekday())
    first = this_monday - dt.timedelta(weeks=weeks - 1)
    buckets = {first + dt.timedelta(weeks=k): [0, 0] for k in range(weeks)}
    # A day earlier than the first local Monday covers every zone offset.
    since = dt.datetime.combine(first - dt.timedelta(days=1), dt.time(), dt.timezone.utc)
    rows = store._query(
        "SELECT substr(at, 1, 13), count(*), sum(correct) FROM attempts WHERE at >= ? GROUP BY 1",
        (utc_iso(since),),
    )
    for hour, answered, right in rows:
        at = dt.datetime.fromisoformat(hour + ":00:00+00:00")
        day = at.astimezone(zone).date()
        monday = day - dt.timedelta(days=day.weekday())
        if monday in buckets:
            buckets[monday][0] += answered
            buckets[monday][1] += right or 0
    return [(monday, n, r) for monday, (n, r) in sorted(buckets.items())]


def lapsed_items(store: Any) -> set[str]:
    """Items whose latest outcome is a failure: a question last answered wrong, a card last rated Again.

    FSRS rates a just-failed item as almost certainly recalled a moment later (it assumes the answer was
    studied), so right after an exam full of mistakes "mastery" would read near 100%. Until the learner gets
    such an item right again, mastery and readiness count it as not known."""
    questions = {r[0] for r in store._query("SELECT item_id FROM item_totals WHERE last_correct = 0")}
    cards = {
        r[0]
        for r in store._query(
            "SELECT card_id FROM reviews AS r WHERE rating = 1 AND at = "
            "(SELECT max(at) FROM reviews WHERE card_id = r.card_id)"
        )
    }
    return questions | cards


LAB_PREFIX = "lab."
LAB_ID_END = "lab/"  # "/" follows "." in code points: every id starting "lab." sorts below it
MAX_SHOWN_CHARS = 200_000  # a shown record is a stem and a few choices; anything larger is not read


def lab_items(store: Any, bank_ids: set[str]) -> dict[str, tuple[str, float]]:
    """Lab tasks the learner answered (mode ``lab``, ids ``lab.<lab>.<task>`` not in the bank), each with its
    objective and the guess rate of its form, from the latest attempt's stored ``shown`` record.

    The record is what was asked, so it holds even after the lab file changes; a task answered without one
    (an old import) has no objective to count under and is left out. The id range is read over the
    ``attempts_item`` index, so the rest of the history is not scanned."""
    out: dict[str, tuple[str, float]] = {}
    rows = store._query(
        "SELECT a.item_id, a.shown_json FROM attempts AS a WHERE a.item_id >= ? AND a.item_id < ?"
        " AND a.mode = 'lab' AND a.shown_json IS NOT NULL AND length(a.shown_json) <= ?"
        " AND a.at = (SELECT max(b.at) FROM attempts AS b WHERE b.item_id = a.item_id"
        " AND b.mode = 'lab' AND b.shown_json IS NOT NULL)",
        (LAB_PREFIX, LAB_ID_END, MAX_SHOWN_CHARS),
    )
    for item_id, raw in rows:
        if item_id in bank_ids:
            continue
        try:
            shown = json.loads(raw)
        except ValueError:
            continue
        objective = shown.get("objective") if isinstance(shown, dict) else None
        if isinstance(objective, str) and objective:
            out[item_id] = (objective, _shown_prior(shown))
    return out


def _shown_prior(shown: dict[str, Any]) -> float:
    """The blind-guess rate of a task as it was shown (see ``readiness.guess_prior``): choices and how many
    of them are right are in the record; a typed number has no choices to guess from."""
    import math

    listed = shown.get("choices")
    choices: list[Any] = listed if isinstance(listed, list) else []
    n = len(choices)
    k = sum(1 for c in choices if isinstance(c, dict) and c.get("correct")) or 1
    kind = shown.get("type")
    if kind == "true_false":
        return 0.5
    if kind in ("single", "multi") and n >= k:
        return 1.0 / math.comb(n, k)
    if kind == "numeric":
        return 0.0
    return CARD_PRIOR
