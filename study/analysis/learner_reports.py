"""Learners' reports of problems with questions (``study.progress.reports``), read from their progress
exports so that ``study analyze`` shows them beside each question's figures.

The exports' fast path parses only the attempts; the reports are the export's last key, so they are found
from the end of the text and decoded alone rather than parsing the whole file again.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

_REPORTS_KEY = re.compile(r'"reports"\s*:\s*(?=\[)')
_DECODER = json.JSONDecoder()


def reports_of_export(text: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The well-formed reports of one progress export (``data`` as parsed, maybe only its attempts)."""
    found = data.get("reports")
    if found is None:
        found = _last_reports(text)
    if not isinstance(found, list):
        return []
    return [dict(r) for r in found
            if isinstance(r, Mapping) and isinstance(r.get("item_id"), str) and isinstance(r.get("kind"), str)]


def _last_reports(text: str) -> Any:
    key = _REPORTS_KEY.match(text, max(0, text.rfind('"reports"')))
    if key is None:
        return None
    try:
        value, end = _DECODER.raw_decode(text, key.end())
    except json.JSONDecodeError:
        return None
    # Only the top-level key counts: nothing but the closing brace may follow it.
    return value if text[end:].strip() == "}" else None


def by_question(reports: Iterable[Mapping[str, Any]]) -> dict[str, tuple[dict[str, Any], ...]]:
    """Reports grouped by question id, each counted once (two backups of one store share their uids)."""
    seen: set[Any] = set()
    grouped: dict[str, list[dict[str, Any]]] = {}
    for r in reports:
        key = r.get("uid") or (r.get("item_id"), r.get("kind"), r.get("text"), r.get("at"))
        if key in seen:
            continue
        seen.add(key)
        grouped.setdefault(str(r["item_id"]), []).append(dict(r))
    return {q: tuple(sorted(rs, key=lambda r: str(r.get("at") or ""))) for q, rs in sorted(grouped.items())}


def render_reports(analysis: Any, console: Console) -> None:
    """Each reported question with its figures, then what the learners said, oldest first."""
    if not analysis.reports:
        return
    figures = {q.id: q for q in analysis.questions}
    console.print(f"[bold]Reported by learners[/] ({sum(map(len, analysis.reports.values()))} reports)",
                  highlight=False)
    for qid, reports in analysis.reports.items():
        kinds = Counter(str(r.get("kind")) for r in reports)
        q = figures.get(qid)
        stats = (f"n {q.responses}, facility {_pct(q.facility)}, discr {_pct(q.discrimination, '')}"
                 if q is not None else "no answers in these results")
        # A learner's words and ids come from their file: control characters are shown escaped, and no
        # markup of theirs is obeyed (issue 19, defect 8).
        console.print(f"  {_safe(qid)}: {', '.join(f'{_safe(k)} {n}' for k, n in sorted(kinds.items()))} ({stats})",
                      highlight=False, soft_wrap=True, markup=False)
        for r in reports:
            where = f" in {_safe(str(r['context']))}" if r.get("context") else ""
            said = f": {_safe(str(r['text']))}" if r.get("text") else ""
            console.print(f"    {_safe(str(r.get('at') or '')[:10])} {_safe(str(r['kind']))}{where}{said}",
                          highlight=False, soft_wrap=True, markup=False)


def _safe(text: str) -> str:
    from study.untrusted import shown

    return shown(text, keep_newlines=False)


def _pct(value: float | None, suffix: str = "%") -> str:
    return "-" if value is None else f"{value:.0f}{suffix}"
