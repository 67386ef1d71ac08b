"""Counts of the bank against the content targets: blueprint spread, types, difficulties, cards, and the gaps.

The targets are the content issue's (issue 7) and the ones ``tests/unit/content`` holds the shipped bank to;
they live here once so ``study bank stats`` and the tests cannot drift apart. A *gap* with severity
``error`` is a target not met; a ``warning`` is a shortfall that meets the targets but is worth closing
(a domain under its blueprint weight, an objective with no choose-two question or without a difficulty level).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterable

from study.bank.bank import Bank
from study.bank.schema import Question
from study.text import count

QUESTION_TYPES = ("single", "multi", "true_false", "numeric")
DIFFICULTIES = ("1", "2", "3")


@dataclass(frozen=True)
class Targets:
    """What a complete bank has (issue 7, and ``test_bank_meets_the_content_targets``)."""

    min_questions: int = 300
    domain_tolerance_points: float = 5.0
    objective_min_questions: int = 8
    objective_min_cards: int = 2  # cards touching the objective, first-listed or not
    choose_two_min_percent: float = 15.0
    min_calculator: int = 40

    def to_json(self) -> dict[str, Any]:
        return {
            "min_questions": self.min_questions,
            "domain_tolerance_points": self.domain_tolerance_points,
            "objective_min_questions": self.objective_min_questions,
            "objective_min_cards": self.objective_min_cards,
            "choose_two_min_percent": self.choose_two_min_percent,
            "difficulties": [int(d) for d in DIFFICULTIES],
            "min_calculator": self.min_calculator,
        }


TARGETS = Targets()


def is_calculator(q: Question) -> bool:
    return q.type == "numeric" and q.answer is not None and not isinstance(q.answer, bool) and bool(q.answer.calc)


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def _breakdown(qs: list[Question]) -> dict[str, Any]:
    types: Counter[str] = Counter(q.type for q in qs)
    diff = Counter(str(q.difficulty) for q in qs)
    return {
        "by_type": {t: types.get(t, 0) for t in QUESTION_TYPES},
        "by_difficulty": {d: diff.get(d, 0) for d in DIFFICULTIES},
        "templated": sum(1 for q in qs if q.is_templated),
        "choose_two": sum(1 for q in qs if q.type == "multi" and q.choose == 2),
        "calculator": sum(1 for q in qs if is_calculator(q)),
    }


def more_needed(have: int, total: int, percent: float) -> int:
    """How many questions added to ``have`` (and so to ``total``) bring ``have/total`` up to ``percent``.

    Solves (have + k) / (total + k) >= p for the least whole k >= 0; 0 when already there.
    """
    p = percent / 100.0
    if p >= 1:  # only a bank made wholly of this part reaches 100%; adding questions cannot help
        return 0
    need = (p * total - have) / (1 - p)
    # Guard against float noise: 0.4 * 440 - 176 is a hair above 0 in binary.
    return max(0, math.ceil(need - 1e-9))


def others_needed(have: int, total: int, percent: float) -> int:
    """How many questions added elsewhere bring ``have/total`` down to ``percent``: have / (total + k) <= p."""
    p = percent / 100.0
    if p <= 0:
        return 0
    return max(0, math.ceil(have / p - total - 1e-9))


def _gap(severity: str, code: str, where: str, message: str, short_by: int | float) -> dict[str, Any]:
    return {"severity": severity, "code": code, "where": where, "message": message, "short_by": short_by}


def find_gaps(stats: dict[str, Any], targets: Targets = TARGETS) -> list[dict[str, Any]]:
    """Each gap names what is short and by how much; errors first, then in blueprint order."""
    gaps: list[dict[str, Any]] = []
    total = stats["questions"]
    if total < targets.min_questions:
        gaps.append(_gap("error", "bank-size", "bank", f"the bank has {total} questions, target {targets.min_questions} ({targets.min_questions - total} short)", targets.min_questions - total))
    tol = targets.domain_tolerance_points
    # Shares of an empty bank mean nothing; its size is the gap.
    for d in stats["domains"] if total else ():
        n, w, pct = d["questions"], d["weight"], d["percent"]
        diff = round(pct - w, 1)
        head = f"domain {d['id']} is {pct}% of the bank, blueprint {w}% ({diff:+.1f} points"
        # Each message states the share the suggested change gives, so it stays true for a tiny bank, where
        # whole questions can jump past the band.
        if pct < w - tol:
            k = more_needed(n, total, w - tol)
            after = _percent(n + k, total + k)
            gaps.append(_gap("error", "domain-weight", d["id"], f"{head}; {count(k, 'more question')} here would make it {after}%)", k))
        elif pct > w + tol:
            k = others_needed(n, total, w + tol)
            after = _percent(n, total + k)
            gaps.append(_gap("error", "domain-weight", d["id"], f"{head}; {count(k, 'more question')} in other domains would make it {after}%)", k))
        elif pct < w:
            k = more_needed(n, total, w)
            if k:
                after = _percent(n + k, total + k)
                gaps.append(_gap("warning", "domain-weight", d["id"], f"{head}; {count(k, 'more question')} here would make it {after}%)", k))
    for d in stats["domains"]:
        for o in d["objectives"]:
            label = f"{o['id']} {o['title']}"
            q = o["questions"]
            if q < targets.objective_min_questions:
                short = targets.objective_min_questions - q
                gaps.append(_gap("error", "objective-questions", o["id"], f"{label}: {q} questions, target {targets.objective_min_questions} ({short} short)", short))
            c = o["cards_touching"]
            if c < targets.objective_min_cards:
                short = targets.objective_min_cards - c
                gaps.append(_gap("error", "objective-cards", o["id"], f"{label}: {c} cards, target {targets.objective_min_cards} ({short} short)", short))
            if q:
                missing = [k for k, v in o["by_difficulty"].items() if not v]
                if missing:
                    gaps.append(_gap("warning", "objective-difficulty", o["id"], f"{label}: {q} questions, none of difficulty {' or '.join(missing)}", len(missing)))
                if not o["choose_two"]:
                    gaps.append(_gap("warning", "objective-choose-two", o["id"], f"{label}: {q} questions, no choose-two question", 1))
    if total and stats["choose_two_percent"] < targets.choose_two_min_percent:
        k = more_needed(stats["choose_two"], total, targets.choose_two_min_percent)
        gaps.append(_gap("error", "choose-two", "bank", f"choose-two questions are {stats['choose_two_percent']}% of the bank, target {targets.choose_two_min_percent:g}% ({k} more would reach it)", k))
    missing = [d for d in DIFFICULTIES if not stats["difficulty"].get(d)]
    if total and missing:
        gaps.append(_gap("error", "difficulty", "bank", f"no question of difficulty {' or '.join(missing)}; the bank needs 1, 2 and 3", len(missing)))
    if stats["calculator"] < targets.min_calculator:
        short = targets.min_calculator - stats["calculator"]
        gaps.append(_gap("error", "calculator", "bank", f"{stats['calculator']} calculator scenarios (numeric, answer by calc), target {targets.min_calculator} ({short} short)", short))
    return sorted(gaps, key=lambda g: g["severity"] != "error")


def item_flaw_counts(questions: list[Question]) -> dict[str, dict[str, int]]:
    """Per item-flaw code, the questions with an open finding and those that accept it with a reason."""
    from study.bank.accept import apply_accepts
    from study.bank.item_flaws import common_words, flaw_findings
    from study.bank.near_duplicates import near_duplicate_findings
    from study.bank.warning_codes import ITEM_FLAW_CODES

    from study.bank.twins import twin_findings

    found = flaw_findings(questions, common_words(questions)) + near_duplicate_findings(questions) + twin_findings(questions)
    kept, _dropped = apply_accepts(found, questions)
    open_ = Counter(d.code for d in kept)
    accepted = Counter(a.code for q in questions for a in q.accept if a.code in ITEM_FLAW_CODES)
    return {code: {"open": open_.get(code, 0), "accepted": accepted.get(code, 0)} for code in ITEM_FLAW_CODES}


def bank_stats(bank: Bank, targets: Targets = TARGETS) -> dict[str, Any]:
    qs = list(bank.questions)
    total = len(qs)
    by_domain: dict[str, list[Question]] = {}
    by_objective: dict[str, list[Question]] = {}
    for q in qs:
        by_domain.setdefault(q.domain, []).append(q)
        by_objective.setdefault(q.objective, []).append(q)
    cards_by_objective = Counter(o for c in bank.cards for o in c.objectives[:1])
    cards_touching = Counter(o for c in bank.cards for o in c.objectives)
    domains = []
    for d in bank.blueprint.domains:
        dqs = by_domain.get(d.id, [])
        objectives = []
        for o in d.objectives:
            oqs = by_objective.get(o.id, [])
            objectives.append(
                {
                    "id": o.id,
                    "title": o.title,
                    "questions": len(oqs),
                    "cards": cards_by_objective.get(o.id, 0),
                    "cards_touching": cards_touching.get(o.id, 0),
                    **_breakdown(oqs),
                }
            )
        domains.append(
            {
                "id": d.id,
                "name": d.name,
                "weight": d.weight,
                "questions": len(dqs),
                "percent": _percent(len(dqs), total),
                **_breakdown(dqs),
                "objectives": objectives,
            }
        )
    overall = _breakdown(qs)
    stats: dict[str, Any] = {
        "questions": total,
        "topics": len(bank.topics),
        "cards": len(bank.cards),
        "domains": domains,
        "types": dict(sorted(Counter(q.type for q in qs).items())),
        "choose_two": overall["choose_two"],
        "choose_two_percent": _percent(overall["choose_two"], total),
        "difficulty": {str(k): v for k, v in sorted(Counter(q.difficulty for q in qs).items())},
        "templated": overall["templated"],
        "calculator": overall["calculator"],
        "volatile": sum(1 for q in qs if q.volatile),
        "errors": len(bank.errors),
        "item_flaws": item_flaw_counts(qs),
        "targets": targets.to_json(),
    }
    stats["gaps"] = find_gaps(stats, targets)
    return stats


def gap_counts(gaps: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """(errors, warnings) among ``gaps``."""
    errors = warnings = 0
    for g in gaps:
        if g["severity"] == "error":
            errors += 1
        else:
            warnings += 1
    return errors, warnings
