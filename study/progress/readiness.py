"""Exam readiness: the expected score on the exam date, a range, and what to study next.

How it is computed (the same words are in the README and ``study stats``):

1. **Each item's chance on exam day.** For an item (question) the FSRS card gives R(T), the predicted
   probability of recalling it on the exam date T if no further study happens. A learner who does not recall
   can still guess, so the chance of answering it right is ``p = R + (1 - R) * g``, where ``g`` is the chance
   of a blind guess on the exam's multiple-choice form of that item (``guess_prior``). An item never seen
   has R = 0, so it counts at exactly ``g``: 1/4 for a 4-choice single answer, 1/2 for true/false,
   1/C(n, k) for "choose k of n", 1/(1 + distractors) for a numeric item shown with distractors. The prior
   is the guess rate, not 0, because a learner who knows nothing still scores that on the real exam, and not
   higher, because we have no evidence of any knowledge. An item whose latest outcome was a failure (a
   question answered wrong, a card rated Again) also counts at ``g`` until it is got right again: FSRS
   assumes the answer was studied when the item was rated, which a wrong exam answer does not show.
2. **Domains.** The expected score is ``sum over domains of weight_d * mean(p over the domain's items)``,
   weights from the blueprint (38/40/22). Topic cards count only for an objective that has no questions
   yet (at the 4-choice prior): a card's rating is the learner's judgement of a text, weaker evidence than
   an answered question, so questions take precedence wherever they exist. A domain with no items at all
   counts at the 4-choice prior (the exam still asks about it; we have no evidence either way).
3. **Range.** The real exam has 50 questions split by weight (19/20/11). Drawing a question at random from
   a domain is right with probability mean(p), so the number right is a sum of three binomials; the range
   is its 5th to 95th percentile, computed exactly. It reflects the luck of the draw only, not the error of
   the FSRS model itself, so read it as a lower bound on the uncertainty.
4. **Study next.** An hour is taken as 30 items (2 minutes each: 72 s at exam pace plus reading the
   explanation). For every item we simulate one successful (Good) review now and recompute its p on exam
   day; the gain in the expected score is ``weight_d / n_d * (p_after - p_now)``. An objective's hourly gain
   is the sum of its 30 largest item gains; objectives are ranked by it. This favours objectives with many
   unseen or fading items in heavy domains, and gives little to items just reviewed, as spacing should.

5. **Measured on exams.** Beside the model, ``measured`` is what the learner's last ``MEASURED_EXAMS``
   practice exams scored, weighted by how much of each exam was new to the learner: an exam's weight is its
   share of questions never attempted before it (``new_to_you / total``), at least ``MIN_EXAM_WEIGHT``. An
   exam of fresh questions measures knowledge; one of repeats mostly measures memory of the last session,
   so 45 of 50 new counts nine times as much as 5 of 50. An exam recorded before the count was kept weighs
   ``UNKNOWN_EXAM_WEIGHT``.

Everything assumes no further study before T, so the number rises as the learner keeps reviewing.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import asdict, dataclass, field
from typing import Any
from collections.abc import Iterable, Sequence

from study.progress import schedule

SECONDS_PER_ITEM = 120
ITEMS_PER_HOUR = 3600 // SECONDS_PER_ITEM
CARD_PRIOR = 0.25
RANGE_LEVEL = 0.90
MEASURED_EXAMS = 5
MIN_EXAM_WEIGHT = 0.1
UNKNOWN_EXAM_WEIGHT = 0.5


@dataclass(frozen=True)
class ReadinessItem:
    """One scored item: its objective, guess prior and FSRS card (None if never seen)."""

    item_id: str
    objective: str
    prior: float
    card: Any = None
    # Last answered wrong (or a card last rated Again) and not right since: no evidence of knowledge yet.
    lapsed: bool = False


@dataclass(frozen=True)
class StudyNext:
    objective: str
    title: str
    gain: float  # expected exam score gain from an hour on this objective, as a fraction (0.01 = 1 point)
    items: int  # how many items the hour would cover
    unseen: int


@dataclass(frozen=True)
class Readiness:
    at: dt.datetime  # the moment predictions are made for (exam date, or now if none is set)
    exam_date: dt.date | None
    expected: float  # fraction of the exam expected right
    low: float  # RANGE_LEVEL central interval of the score fraction on an exam of `questions` items
    high: float
    questions: int
    domains: dict[str, float]  # domain id -> mean p
    domain_questions: dict[str, int]
    study_next: list[StudyNext] = field(default_factory=list)
    method: str = ""
    measured: float | None = None  # weighted score of recent exams (point 5), None before the first exam
    measured_exams: int = 0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["at"] = self.at.isoformat()
        d["exam_date"] = self.exam_date.isoformat() if self.exam_date else None
        return d


def guess_prior(question: Any) -> float:
    """Chance of a blind guess on the exam form of a ``study.bank.schema.Question``."""
    qtype = question.type
    choices = list(question.choices or [])
    if qtype == "true_false":
        return 0.5
    if qtype == "single":
        return 1.0 / len(choices) if choices else CARD_PRIOR
    if qtype == "multi":
        k = question.choose or sum(1 for c in choices if c.correct) or 1
        return 1.0 / math.comb(len(choices), k) if len(choices) >= k else CARD_PRIOR
    if qtype == "numeric":
        n = len(question.distractors or [])
        return 1.0 / (1 + n) if n else 0.0
    return CARD_PRIOR


def chance(item: ReadinessItem, at: dt.datetime) -> float:
    # FSRS's R assumes the answer was learned when the item was rated; a wrong answer is not knowledge, so a
    # lapsed item counts at the guess rate until the learner gets it right again.
    r = 0.0 if item.lapsed else schedule.retrievability(item.card, at)
    return r + (1.0 - r) * item.prior


def exam_weight(report: Any) -> float:
    """How much one exam's score says about knowledge: its share of questions new to the learner."""
    new, total = _get(report, "new_to_you"), _get(report, "total")
    if not isinstance(new, int) or not isinstance(total, int) or total <= 0:
        return UNKNOWN_EXAM_WEIGHT
    return max(MIN_EXAM_WEIGHT, min(1.0, new / total))


def measured_score(reports: Sequence[Any]) -> float | None:
    """Freshness-weighted mean score (fraction) of the last ``MEASURED_EXAMS`` exam reports, oldest first in
    ``reports`` (``Report`` objects or their dicts); None without an exam that graded anything."""
    pairs = []
    for r in list(reports)[-MEASURED_EXAMS:]:
        total, correct = _get(r, "total"), _get(r, "correct")
        if isinstance(total, int) and total > 0 and isinstance(correct, int):
            pairs.append((exam_weight(r), correct / total))
    wsum = sum(w for w, _ in pairs)
    return sum(w * x for w, x in pairs) / wsum if wsum else None


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def split_questions(total: int, weights: dict[str, float]) -> dict[str, int]:
    """Exam questions per domain by weight, largest remainder so they add up to ``total``."""
    wsum = sum(weights.values())
    raw = {d: total * w / wsum for d, w in weights.items()}
    out = {d: int(math.floor(v)) for d, v in raw.items()}
    for d in sorted(raw, key=lambda d: raw[d] - out[d], reverse=True)[: total - sum(out.values())]:
        out[d] += 1
    return out


def _binomial(n: int, p: float) -> list[float]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def score_distribution(counts: dict[str, int], means: dict[str, float]) -> list[float]:
    """P(number right = k) for a sum of independent Binomial(n_d, p_d)."""
    dist = [1.0]
    for d, n in counts.items():
        pmf = _binomial(n, means[d])
        new = [0.0] * (len(dist) + n)
        for i, a in enumerate(dist):
            if a:
                for j, b in enumerate(pmf):
                    new[i + j] += a * b
        dist = new
    return dist


def _quantile(dist: Sequence[float], q: float) -> int:
    acc = 0.0
    for k, pk in enumerate(dist):
        acc += pk
        if acc >= q - 1e-12:
            return k
    return len(dist) - 1


def compute_readiness(
    items: Iterable[ReadinessItem],
    domains: Sequence[tuple[str, float, Sequence[tuple[str, str]]]],
    at: dt.datetime,
    now: dt.datetime,
    *,
    questions: int = 50,
    exam_date: dt.date | None = None,
    top: int = 5,
    exams: Sequence[Any] = (),
) -> Readiness:
    """``domains`` is ``[(domain_id, weight, [(objective_id, title), ...]), ...]``; ``items`` the scored
    items (already chosen per objective, see the module docstring); ``at`` the exam moment."""
    now = now.astimezone(dt.timezone.utc)  # fsrs insists on UTC
    objective_domain = {o: d for d, _w, objs in domains for o, _t in objs}
    titles = {o: t for _d, _w, objs in domains for o, t in objs}
    weights = {d: float(w) for d, w, _objs in domains}
    wsum = sum(weights.values())
    by_domain: dict[str, list[ReadinessItem]] = {d: [] for d in weights}
    for item in items:
        d = objective_domain.get(item.objective)
        if d is not None:
            by_domain[d].append(item)

    means: dict[str, float] = {}
    p_now: dict[str, float] = {}
    for d, its in by_domain.items():
        ps = [chance(i, at) for i in its]
        p_now.update({i.item_id: p for i, p in zip(its, ps)})
        means[d] = sum(ps) / len(ps) if ps else CARD_PRIOR
    expected = sum(weights[d] / wsum * means[d] for d in weights)

    counts = split_questions(questions, weights)
    dist = score_distribution(counts, means)
    tail = (1 - RANGE_LEVEL) / 2
    low, high = _quantile(dist, tail) / questions, _quantile(dist, 1 - tail) / questions

    gains: dict[str, list[float]] = {}
    unseen: dict[str, int] = {}
    good = schedule.Rating.Good
    # Every unseen item starts from the same blank card, so simulate its first review once.
    r_first = schedule.retrievability(schedule.review(None, "new", good, now, fuzz=False), at)
    for d, its in by_domain.items():
        for i in its:
            if i.card is None:
                after = r_first
            else:
                after = schedule.retrievability(schedule.review(i.card, i.item_id, good, now, fuzz=False), at)
            p_after = after + (1 - after) * i.prior
            gain = weights[d] / wsum / len(its) * max(0.0, p_after - p_now[i.item_id])
            gains.setdefault(i.objective, []).append(gain)
            unseen[i.objective] = unseen.get(i.objective, 0) + (i.card is None)
    ranked = []
    for o, gs in gains.items():
        best = sorted(gs, reverse=True)[:ITEMS_PER_HOUR]
        ranked.append(StudyNext(o, titles.get(o, ""), sum(best), len(best), unseen.get(o, 0)))
    ranked.sort(key=lambda s: (-s.gain, s.objective))

    return Readiness(
        at=at,
        exam_date=exam_date,
        expected=expected,
        low=low,
        high=high,
        questions=questions,
        domains=means,
        domain_questions=counts,
        study_next=[s for s in ranked if s.gain > 0][:top],
        method=METHOD,
        measured=measured_score(exams),
        measured_exams=min(len(exams), MEASURED_EXAMS),
    )


METHOD = (
    "Expected score = sum over domains of blueprint weight x mean chance over the domain's questions of "
    "answering right on the exam date, where chance = R + (1 - R) x guess rate, R being FSRS's predicted "
    "recall on that date with no further study (0 for unseen items and for items last answered wrong, which "
    "therefore count at the guess rate, e.g. 1/4 for four choices). Range: 5th-95th percentile of the number right on a 50-question exam "
    "drawn by weight (sum of binomials). Study next: objectives whose 30 best item reviews (an hour at 2 "
    "minutes each) raise the expected score most. Measured: the last 5 exams' scores, each weighted by its "
    "share of questions new to you (at least 0.1), so an exam of fresh questions counts above one of repeats."
)
