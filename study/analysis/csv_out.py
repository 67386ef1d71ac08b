"""``study analyze --csv FILE``: the figures for a spreadsheet, one row per question (or per learner with
``--by-learner``), with the question's objective and where its key is written; ``--choices-csv FILE``: the
response analysis in long form, one row per question and response (question, response, correct, count, top,
bottom and the sizes of the thirds), which a pivot table turns into any view. Text from outside (ids, actors) is written with its control characters escaped, and a
cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@`` first) is quoted with ``'``."""

from __future__ import annotations

import csv
import io
from typing import Any
from collections.abc import Iterable, Sequence

from study.untrusted import shown

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    text = shown(str(value), keep_newlines=False)
    return "'" + text if text.startswith(_FORMULA_START) and not _is_number(text) else text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def to_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


QUESTION_COLUMNS = ("question", "location", "type", "responses", "facility", "sd", "discrimination",
                    "discriminative_efficiency", "intended_weight", "effective_weight", "random_guess",
                    "regraded", "flags", "key_hint", "objective", "key_location")
# New columns go last: an earlier CSV is recognised (and may be replaced) by how its header starts.
CHOICE_COLUMNS = ("question", "response", "correct", "count", "share", "top", "bottom", "top_size", "bottom_size")


def questions_csv(analysis: Any) -> str:
    rows = []
    for q in analysis.questions:
        table = analysis.responses.get(q.id)
        rows.append((q.id, q.location, q.type, q.responses, q.facility, q.sd, q.discrimination,
                     q.discriminative_efficiency, q.intended_weight, q.effective_weight, q.random_guess,
                     analysis.regraded.get(q.id, 0), "; ".join(q.flags), table.hint if table else None,
                     q.objective, q.key_location))
    return to_csv(QUESTION_COLUMNS, rows)


def choices_csv(analysis: Any) -> str:
    """One row per (question, response class), in the report's question order."""
    rows = []
    for q in analysis.questions:
        table = analysis.responses.get(q.id)
        if table is None:
            continue
        for r in table.rows:
            rows.append((q.id, r.response, "yes" if r.correct else "no", r.count, r.share, r.top, r.bottom,
                         table.top_size, table.bottom_size))
    return to_csv(CHOICE_COLUMNS, rows)


def learners_csv(rows: Sequence[Any]) -> str:
    domains = sorted({d for r in rows for d in r.domains})
    header = ["learner", "score", "answered"] + [f"domain {d} {k}" for d in domains for k in ("score", "answered")]
    body = [[r.learner, r.score, r.answered] + [v for d in domains for v in (r.domains[d][1], r.domains[d][0])]
            for r in rows]
    return to_csv(header, body)
