"""Counts of the bank against the content targets: blueprint spread, types, difficulties, cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

from study.bank.bank import Bank


def bank_stats(bank: Bank) -> dict[str, Any]:
    qs = bank.questions
    total = len(qs)
    by_domain = Counter(q.domain for q in qs)
    by_objective = Counter(q.objective for q in qs)
    cards_by_objective = Counter(o for c in bank.cards for o in c.objectives[:1])
    cards_touching = Counter(o for c in bank.cards for o in c.objectives)
    domains = []
    for d in bank.blueprint.domains:
        n = by_domain.get(d.id, 0)
        domains.append(
            {
                "id": d.id,
                "name": d.name,
                "weight": d.weight,
                "questions": n,
                "percent": round(100 * n / total, 1) if total else 0.0,
                "objectives": [
                    {
                        "id": o.id,
                        "title": o.title,
                        "questions": by_objective.get(o.id, 0),
                        "cards": cards_by_objective.get(o.id, 0),
                        "cards_touching": cards_touching.get(o.id, 0),
                    }
                    for o in d.objectives
                ],
            }
        )
    by_type = Counter(q.type for q in qs)
    choose_two = sum(1 for q in qs if q.type == "multi" and q.choose == 2)
    return {
        "questions": total,
        "topics": len(bank.topics),
        "cards": len(bank.cards),
        "domains": domains,
        "types": dict(sorted(by_type.items())),
        "choose_two": choose_two,
        "choose_two_percent": round(100 * choose_two / total, 1) if total else 0.0,
        "difficulty": {str(k): v for k, v in sorted(Counter(q.difficulty for q in qs).items())},
        "templated": sum(1 for q in qs if q.is_templated),
        "calculator": sum(1 for q in qs if q.type == "numeric" and q.answer is not None and not isinstance(q.answer, bool) and q.answer.calc),
        "volatile": sum(1 for q in qs if q.volatile),
        "errors": len(bank.errors),
    }
