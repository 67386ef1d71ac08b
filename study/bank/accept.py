"""A question's ``accept`` list applied to lint's findings: the warnings its author meant are dropped.

Any warning code in ``warning_codes.ACCEPTABLE_CODES`` can be accepted, whichever check raised it; a finding
belongs to the question whose YAML block holds its line. Errors are never dropped. An accepted item-flaw code
that its check no longer finds is itself a warning, so a stale reason does not outlive the flaw it excused.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from study.bank.load import Diagnostic
from study.bank.schema import Question
from study.bank.warning_codes import ITEM_FLAW_CODES


def _owners(questions: Sequence[Question]) -> dict[str, tuple[list[int], list[Question]]]:
    """Per file, the questions' start lines in order, so a line finds its question by bisection."""
    by_file: dict[str, list[Question]] = {}
    for q in questions:
        if q.source is not None:
            by_file.setdefault(q.source.path, []).append(q)
    out = {}
    for path, qs in by_file.items():
        qs.sort(key=lambda q: q.source.line)  # type: ignore[union-attr]
        out[path] = ([q.source.line for q in qs], qs)  # type: ignore[union-attr]
    return out


def owner(owners: dict[str, tuple[list[int], list[Question]]], d: Diagnostic) -> Question | None:
    lines, qs = owners.get(d.path, ([], []))
    i = bisect.bisect_right(lines, d.line) - 1
    return qs[i] if i >= 0 else None


def apply_accepts(diags: Iterable[Diagnostic], questions: Sequence[Question], checked: Sequence[Question] | None = None) -> tuple[list[Diagnostic], int]:
    """The findings left once each question's accepted warnings are dropped, and how many were dropped.

    ``checked`` are the questions the item-flaw checks ran on (default all): only they can hold a stale accept."""
    owners = _owners(questions)
    kept: list[Diagnostic] = []
    used: set[tuple[str, str]] = set()
    dropped = 0
    for d in diags:
        q = owner(owners, d) if d.severity == "warning" else None
        if q is not None and d.code in q.accepted_codes:
            used.add((q.id, d.code))
            dropped += 1
            continue
        kept.append(d)
    for q in questions if checked is None else checked:
        for a in q.accept:
            # A pair's accept (possible-twin, other: ID) says two questions were read and found distinct; it
            # is not stale when the scores move (a new question shifts every term weight a little).
            if a.other is None and a.code in ITEM_FLAW_CODES and (q.id, a.code) not in used and q.source is not None:
                kept.append(Diagnostic(q.source.path, q.source.line, q.source.column, "warning", "accept-unused",
                                       f"{q.id} accepts {a.code}, but that check finds nothing here now: remove the entry"))
    return kept, dropped
