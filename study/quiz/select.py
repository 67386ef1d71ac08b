"""Which questions a quiz asks: exam blueprints, practice filters, and what the learner's history says.

Everything here is seeded: the same bank, seed, options and history give the same questions in the same
order. Nothing reads the clock; ``now`` is passed in where the scheduler needs it.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter, defaultdict
from typing import Any, Literal
from collections.abc import Collection, Iterable, Mapping, Sequence

from study.bank.schema import Blueprint, Question

Pick = Literal["any", "due", "weak", "missed", "unseen"]
PICKS: tuple[str, ...] = ("any", "due", "weak", "missed", "unseen")
# Questions tagged so go beyond the associate level: practice may ask them, an exam draw leaves them out.
STRETCH_TAG = "stretch"


class SelectionError(ValueError):
    """No question matches what was asked (an empty filter, an unknown objective)."""


def largest_remainder(weights: Mapping[str, float], total: int) -> dict[str, int]:
    """Split ``total`` in proportion to ``weights``: floors first, then the largest fractional parts.

    Ties go to the key listed first, so the split is deterministic. 50 on 38/40/22 gives 19/20/11.
    """
    keys = list(weights)
    wsum = float(sum(weights[k] for k in keys))
    if total <= 0 or not keys or wsum <= 0:
        return {k: 0 for k in keys}
    exact = {k: total * weights[k] / wsum for k in keys}
    out = {k: int(exact[k]) for k in keys}
    left = total - sum(out.values())
    order = sorted(keys, key=lambda k: (-(exact[k] - out[k]), keys.index(k)))
    for k in order[:left]:
        out[k] += 1
    return out


def domain_quota(blueprint: Blueprint, count: int, available: Mapping[str, int] | None = None) -> dict[str, int]:
    """Questions per domain for an exam of ``count``, capped by what the bank has.

    A domain that is short gives its missing questions to the others, again in proportion to the weights, so
    an exam is as long as asked whenever the bank as a whole is large enough.
    """
    weights = {d.id: float(d.weight) for d in blueprint.domains}
    if available is None:
        return largest_remainder(weights, count)
    total = min(count, sum(available.get(k, 0) for k in weights))
    quota = largest_remainder(weights, total)
    while True:
        excess = sum(max(0, quota[k] - available.get(k, 0)) for k in quota)
        if excess == 0:
            break
        quota = {k: min(n, available.get(k, 0)) for k, n in quota.items()}
        open_ = {k: weights[k] for k in quota if quota[k] < available.get(k, 0)}
        if not open_:
            break
        for k, n in largest_remainder(open_, excess).items():
            quota[k] += n
    return quota


def concept_key(q: Question) -> str:
    """The group a question belongs to for enemy-item rules: its ``concept``, else its own id (a group of one)."""
    return f"concept:{q.concept}" if q.concept else f"id:{q.id}"


def one_per_concept(questions: Iterable[Question], taken: set[str] | None = None) -> list[Question]:
    """``questions`` in order, dropping each whose concept an earlier one (or ``taken``) already holds.

    Twins (enemy items) test one fact, so the first asked gives the second away; a form holds one of them.
    ``taken`` is updated in place, so several calls can share one form.
    """
    used = taken if taken is not None else set()
    out = []
    for q in questions:
        key = concept_key(q)
        if key in used:
            continue
        used.add(key)
        out.append(q)
    return out


def siblings(questions: Iterable[Question], answered: Collection[str]) -> set[str]:
    """Ids of the questions sharing a concept with one in ``answered``, the answered ones excluded.

    Practice buries these for the day once one sibling is answered, as Anki buries sibling cards: the twin
    asked an hour later is answered from the other's feedback, not from memory.
    """
    qs = list(questions)
    concepts = {q.concept for q in qs if q.concept and q.id in answered}
    return {q.id for q in qs if q.concept in concepts and q.id not in answered}


def _spread(
    groups: Mapping[str, list[Question]],
    n: int,
    rng: random.Random,
    avoid: Collection[str] = (),
    difficulty_counts: Counter[int] | None = None,
    taken: set[str] | None = None,
) -> list[Question]:
    """Take ``n`` questions across ``groups`` (objective -> shuffled questions) as evenly as supply allows.

    Round robin over the objectives (in a seeded order), first over questions not in ``avoid`` and only then
    over the avoided ones; within an objective the pick balances difficulty across the whole selection.
    """
    diff = difficulty_counts if difficulty_counts is not None else Counter()
    used = taken if taken is not None else set()
    fresh = {k: [q for q in v if q.id not in avoid] for k, v in groups.items()}
    stale = {k: [q for q in v if q.id in avoid] for k, v in groups.items()}
    order = list(groups)
    rng.shuffle(order)
    chosen: list[Question] = []
    for supply in (fresh, stale):
        while len(chosen) < n and any(supply[k] for k in order):
            for k in order:
                if len(chosen) >= n:
                    break
                cands = supply[k]
                # A twin of a question already on the form is never drawn (enemy items).
                cands[:] = [c for c in cands if concept_key(c) not in used]
                if not cands:
                    continue
                best = min(range(len(cands)), key=lambda i: (diff[cands[i].difficulty], i))
                q = cands.pop(best)
                diff[q.difficulty] += 1
                used.add(concept_key(q))
                chosen.append(q)
    return chosen


def _by_objective(questions: Iterable[Question], rng: random.Random, objective_order: Sequence[str]) -> dict[str, list[Question]]:
    groups: dict[str, list[Question]] = defaultdict(list)
    for q in sorted(questions, key=lambda q: q.id):
        groups[q.objective].append(q)
    for v in groups.values():
        rng.shuffle(v)
    rank = {o: i for i, o in enumerate(objective_order)}
    return {k: groups[k] for k in sorted(groups, key=lambda o: (rank.get(o, len(rank)), o))}


def select_exam(
    questions: Sequence[Question],
    blueprint: Blueprint,
    count: int,
    seed: int | str,
    avoid: Collection[str] = (),
    include_stretch: bool = False,
    last_seen: Mapping[str, Any] | None = None,
) -> list[Question]:
    """An exam that measures: per-domain quotas by weight, objectives spread, difficulties mixed, shuffled.

    Within each domain's quota the draw takes, in this order: questions the learner never attempted (keys
    absent from ``last_seen``, question id -> time of the latest attempt), spread over objectives; then
    questions seen longest ago; last of all ``avoid`` (ids from the learner's last exams), again oldest
    first. So after a practice session the next exam asks what was not just practised, as long as the
    bank has fresh questions for that domain. Stretch items (tag ``stretch``) are left out unless
    ``include_stretch``.
    """
    rng = random.Random(f"exam:{seed}")
    seen_at = {k: str(v) for k, v in (last_seen or {}).items()}
    by_domain: dict[str, list[Question]] = defaultdict(list)
    seen: set[str] = set()
    for q in questions:
        if q.id in seen or (not include_stretch and STRETCH_TAG in (q.tags or ())):
            continue
        seen.add(q.id)
        by_domain[q.domain].append(q)
    quota = domain_quota(blueprint, count, {d: len(v) for d, v in by_domain.items()})
    chosen: list[Question] = []
    objective_order = blueprint.objective_ids()
    # Concepts on the form so far, across domains: twins may sit in different domains.
    concepts: set[str] = set()
    for d in blueprint.domains:
        pool = by_domain.get(d.id, [])
        n = quota.get(d.id, 0)
        fresh = [q for q in pool if q.id not in seen_at and q.id not in avoid]
        picked = _spread(_by_objective(fresh, rng, objective_order), n, rng, (), Counter(), concepts)
        if len(picked) < n:
            # Oldest first; a question from a recent exam only after every other one.
            taken = {q.id for q in picked}
            rest = sorted((q for q in pool if q.id not in taken),
                          key=lambda q: (q.id in avoid, seen_at.get(q.id, ""), q.id))
            for q in rest:
                # Stop at the quota: a twin left undrawn must not block its concept for the later domains.
                if len(picked) >= n:
                    break
                if concept_key(q) not in concepts:
                    concepts.add(concept_key(q))
                    picked.append(q)
        chosen += picked
    rng.shuffle(chosen)
    return chosen


def filter_questions(
    questions: Iterable[Question],
    domain: str | None = None,
    objective: str | None = None,
    topic: str | None = None,
    difficulty: int | Collection[int] | None = None,
) -> list[Question]:
    """Questions matching every given filter (``None`` means any)."""
    if isinstance(difficulty, int):
        difficulty = (difficulty,)
    out = []
    for q in questions:
        if domain is not None and q.domain != str(domain):
            continue
        if objective is not None and q.objective != str(objective):
            continue
        if topic is not None and q.topic != topic:
            continue
        if difficulty is not None and q.difficulty not in difficulty:
            continue
        out.append(q)
    return out


def select_practice(
    questions: Sequence[Question],
    count: int,
    seed: int | str,
    *,
    pick: str = "any",
    history: History | None = None,
    objective_order: Sequence[str] = (),
) -> list[Question]:
    """``count`` questions from ``questions`` (already filtered) chosen by ``pick``.

    - ``any``: spread over objectives, difficulties mixed.
    - ``due``: what the scheduler says is due, most overdue first.
    - ``weak``: seen questions with the lowest mastery first.
    - ``missed``: questions whose last attempt was wrong.
    - ``unseen``: questions never attempted, spread over objectives.
    ``due``/``weak``/``missed`` never pad with other questions: a "due" quiz that asks non-due questions would
    mislead. Without a history (no store) they select nothing.
    """
    if pick not in PICKS:
        raise SelectionError(f"unknown pick {pick!r}; choose one of {', '.join(PICKS)}")
    rng = random.Random(f"practice:{pick}:{seed}")
    by_id = {q.id: q for q in questions}
    if pick in ("any", "unseen"):
        pool = list(by_id.values())
        if pick == "unseen":
            seen = history.seen() if history is not None else set()
            pool = [q for q in pool if q.id not in seen]
        groups = _by_objective(pool, rng, objective_order)
        chosen = _spread(groups, count, rng, taken=set())
        rng.shuffle(chosen)
        return chosen
    if history is None:
        return []
    if pick == "due":
        ids = [i for i in history.due() if i in by_id]
    elif pick == "weak":
        mastery = history.mastery(by_id)
        ids = sorted(mastery, key=lambda i: (mastery[i], i))
    else:
        last = history.last_outcomes(by_id)
        ids = sorted(i for i, ok in last.items() if not ok)
        rng.shuffle(ids)
    return one_per_concept(by_id[i] for i in ids)[:count]


def as_utc_day(when: dt.datetime) -> dt.date:
    """The UTC calendar day of ``when`` (a naive time counts as UTC, as the store writes UTC)."""
    if when.tzinfo is None:
        return when.date()
    return when.astimezone(dt.timezone.utc).date()


class History:
    """What the quiz layer needs from the progress store, behind one small adapter.

    The adapter keeps selection testable with a fake and isolates the store's API in one place. Any method
    of the store that is missing yields "no history" rather than an error: a quiz still runs.
    """

    def __init__(self, store: Any, now: dt.datetime | None = None, recent_exams: int = 3) -> None:
        self.store = store
        self.now = now
        self.recent_exams = recent_exams

    def due(self) -> list[str]:
        fn = getattr(self.store, "due", None)
        if fn is None or self.now is None:
            return []
        return list(fn(self.now, kind="question"))

    def _attempts(self, item_id: str | None = None) -> list[Any]:
        fn = getattr(self.store, "history", None)
        if fn is None:
            return []
        return list(fn(item_id=item_id) if item_id is not None else fn())

    def last_seen(self) -> dict[str, str]:
        """Question id -> time of its latest attempt (ISO text, so it sorts), for every attempted question."""
        sums = self._summaries()
        if sums is not None:
            return {i: s.last_at.isoformat() if s.last_at else "" for i, s in sums.items() if s.attempts}
        out: dict[str, str] = {}
        for a in self._attempts():
            iid, at = _field(a, "item_id"), str(_field(a, "at") or "")
            if at >= out.get(iid, ""):
                out[iid] = at
        return out

    def held_back(self) -> set[str]:
        """Suspended and buried ids (``study.progress.control``): never drawn."""
        if self.now is None or not hasattr(self.store, "_query"):
            return set()  # a fake store in tests: nothing is held back
        from study.progress.control import held_back

        return held_back(self.store, self.now)

    def answered_today(self) -> set[str]:
        """Ids attempted on ``now``'s UTC day: their siblings are buried for the rest of it."""
        if self.now is None:
            return set()
        day = as_utc_day(self.now)
        out = set()
        for i, at in self.last_seen().items():
            try:
                when = dt.datetime.fromisoformat(at)
            except ValueError:
                continue  # an unreadable time buries nothing rather than failing the quiz
            if as_utc_day(when) == day:
                out.add(i)
        return out

    def seen(self) -> set[str]:
        fn = getattr(self.store, "seen_ids", None)
        if fn is not None:
            return set(fn(kind="question"))
        return {_field(a, "item_id") for a in self._attempts()}

    def _summaries(self) -> dict[str, Any] | None:
        # Running totals kept by the store: no scan of a history that grows to 100k answers.
        fn = getattr(self.store, "summaries", None)
        return dict(fn()) if fn is not None else None

    def last_outcomes(self, ids: Iterable[str]) -> dict[str, bool]:
        """Question id -> whether its latest attempt was right (only for attempted questions)."""
        wanted = set(ids)
        sums = self._summaries()
        if sums is not None:
            return {i: bool(s.last_correct) for i, s in sums.items() if i in wanted and s.last_correct is not None}
        latest: dict[str, tuple[Any, bool]] = {}
        for a in self._attempts():
            iid = _field(a, "item_id")
            if iid not in wanted:
                continue
            at = _field(a, "at")
            if iid not in latest or str(at) >= str(latest[iid][0]):
                latest[iid] = (at, bool(_field(a, "correct")))
        return {k: v[1] for k, v in latest.items()}

    def mastery(self, ids: Iterable[str]) -> dict[str, float]:
        """Seen question id -> mastery in [0, 1]: FSRS retrievability now, else the share answered right."""
        wanted = set(ids)
        sums = self._summaries()
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        if sums is not None:
            for iid, s in sums.items():
                if iid in wanted and s.attempts:
                    tally[iid] = [s.correct, s.attempts]
        else:
            for a in self._attempts():
                iid = _field(a, "item_id")
                if iid in wanted:
                    tally[iid][0] += bool(_field(a, "correct"))
                    tally[iid][1] += 1
        out: dict[str, float] = {}
        retr = getattr(self.store, "retrievability", None)
        for iid, (right, total) in tally.items():
            if sums is not None and sums[iid].last_correct is False:
                # Just missed: FSRS would call it fresh (it assumes the answer was studied); it is weak.
                out[iid] = 0.0
                continue
            value = None
            if retr is not None and self.now is not None:
                value = retr(iid, self.now)
            out[iid] = float(value) if value is not None else right / total
        return out

    def recent_exam_questions(self) -> set[str]:
        """Question ids asked in the learner's last ``recent_exams`` finished exams."""
        fn = getattr(self.store, "exam_history", None)
        if fn is None:
            return set()
        exams = list(fn())
        exams.sort(key=lambda e: str(_field(e, "finished_at") or _field(e, "at") or ""), reverse=True)
        ids: set[str] = set()
        for exam in exams[: self.recent_exams]:
            ids |= _exam_question_ids(exam)
        return ids


def _field(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _exam_question_ids(exam: Any) -> set[str]:
    import json

    for key in ("question_ids", "items"):
        val = _field(exam, key)
        if val:
            return {str(v) for v in val}
    report = _field(exam, "report_json") or _field(exam, "report")
    if isinstance(report, str):
        try:
            report = json.loads(report)
        except ValueError:
            return set()
    if isinstance(report, Mapping):
        return {str(q.get("id")) for q in report.get("questions", ()) if isinstance(q, Mapping)}
    return set()
