"""A question's ``accept: [{code, reason}]``: its lint warnings of those codes are accepted with a reason and
not reported. Only warnings: an error is never accepted, and an accepted code that no warning of the
question has any more is reported, so a stale acceptance does not hide a future one."""

from __future__ import annotations

from typing import Any, Sequence

from study.bank.load import Diagnostic
from study.bank.schema import Question


def apply_accepts(questions: Sequence[Question], diags: list[Diagnostic], span_of: Any) -> list[Diagnostic]:
    """``diags`` without the warnings each question accepts; ``span_of(q)`` gives its (first, last) line."""
    spans = []
    for q in questions:
        if q.accept and q.source is not None:
            first, last = span_of(q)
            spans.append((q, q.source.path, first, last, {a.code for a in q.accept}))
    if not spans:
        return diags
    kept: list[Diagnostic] = []
    used: set[tuple[str, str]] = set()
    for d in diags:
        owner = next((s for s in spans if s[1] == d.path and s[2] <= d.line <= s[3]), None)
        if owner is not None and d.severity == "warning" and d.code in owner[4]:
            used.add((owner[0].id, d.code))
            continue
        kept.append(d)
    for q, path, first, _last, codes in spans:
        for code in sorted(codes - {c for qid, c in used if qid == q.id}):
            kept.append(Diagnostic(path, first, 1, "warning", "unused-accept",
                                   f"question {q.id!r} accepts {code!r} but has no such warning: remove it"))
    return kept
