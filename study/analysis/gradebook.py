"""``study analyze --by-learner``: a simple gradebook, one row per learner: their score over the questions
they answered (first answers, graded against the current key), how many they answered, and the same per
exam domain."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from study.analysis.rekey import Keys
from study.analysis.responses import regrade_marks
from study.analysis.results import Responses

if TYPE_CHECKING:
    from study.bank import Bank


@dataclass(frozen=True)
class LearnerRow:
    learner: str
    answered: int
    score: float | None  # % right of the questions answered
    domains: dict[str, tuple[int, float | None]]  # domain -> (answered, % right)

    def to_dict(self) -> dict[str, Any]:
        return {"learner": self.learner, "answered": self.answered, "score": self.score,
                "domains": {d: {"answered": n, "score": s} for d, (n, s) in self.domains.items()}}


def _pct(values: np.ndarray) -> float | None:
    answered = values[~np.isnan(values)]
    return float(100 * answered.mean()) if answered.size else None


def gradebook(responses: Responses, bank: Bank | None) -> list[LearnerRow]:
    known = {q.id: q for q in bank.questions} if bank is not None else {}
    marks, _ = regrade_marks(responses.marks, responses.questions, responses.given, known, Keys())
    domain_of = [known[q].domain if q in known else "?" for q in responses.questions]
    domains = sorted(set(domain_of))
    out = []
    for r, learner in enumerate(responses.learners):
        row = marks[r]
        per: dict[str, tuple[int, float | None]] = {}
        for d in domains:
            cols = np.array([k for k, dd in enumerate(domain_of) if dd == d])
            part = row[cols]
            per[d] = (int((~np.isnan(part)).sum()), _pct(part))
        out.append(LearnerRow(learner, int((~np.isnan(row)).sum()), _pct(row), per))
    return sorted(out, key=lambda lr: (-(lr.score if lr.score is not None and not math.isnan(lr.score) else -1),
                                       lr.learner))


def render_gradebook(rows: list[LearnerRow], console: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    from study.untrusted import shown

    domains = sorted({d for r in rows for d in r.domains})
    table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold")
    table.add_column("learner", overflow="ellipsis", no_wrap=True, max_width=max(12, console.width - 20 - 9 * len(domains)))
    table.add_column("score", justify="right")
    table.add_column("answered", justify="right")
    for d in domains:
        table.add_column(f"domain {d}", justify="right")
    for r in rows:
        cells = [f"{r.domains[d][1]:.0f}% ({r.domains[d][0]})" if r.domains[d][1] is not None else "-"
                 for d in domains]
        table.add_row(escape(shown(r.learner, keep_newlines=False)),
                      f"{r.score:.1f}%" if r.score is not None else "-", str(r.answered), *cells)
    console.print("[bold]Gradebook[/] (first answers, graded against the current key; domain: score (answered))",
                  highlight=False)
    console.print(table)
