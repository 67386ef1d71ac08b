"""The text form of the response analysis: per question, each response with its count, its share, and its
share of the top and bottom thirds; the wrong-key hint with where the key is written."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from study.untrusted import shown as _safe

if TYPE_CHECKING:
    from rich.console import Console


def _key_place(location: str | None) -> str:
    if not location:
        return "not in the question bank"
    from study.bank.bank import display_path

    path, _, line = location.rpartition(":")
    return f"{display_path(Path(path))}:{line}"


def _third(n: int, third: int) -> str:
    return f"{n}/{third}" if third else "-"


def render_responses(analysis: Any, console: Console, *, flagged_only: bool = False) -> None:
    """One block per question with known responses (only the flagged ones with ``flagged_only``)."""
    from rich.markup import escape

    rows = [q for q in analysis.questions if q.id in analysis.responses and (q.flags or not flagged_only)]
    if not rows:
        return
    console.print("[bold]Responses[/] (top / bottom: thirds by rest score; \u2713 right by the current key)",
                  highlight=False)
    hinted = False
    for q in rows:
        table = analysis.responses[q.id]
        hinted = hinted or bool(table.hint)
        regraded = analysis.regraded.get(q.id, 0)
        note = f", {regraded} regraded" if regraded else ""
        console.print(f"  [bold]{escape(q.id)}[/]  {table.known} responses, top {table.top_size} and bottom "
                      f"{table.bottom_size} by rest score{note}",
                      highlight=False, soft_wrap=True)
        for row in table.rows:
            mark = "\u2713" if row.correct else " "
            text = escape(_safe(row.response, keep_newlines=False))
            limit = max(20, console.width - 40)
            if len(text) > limit:
                text = text[: limit - 1] + "\u2026"
            console.print(f"   {mark} {row.count:4d} {row.share:5.1f}%  top {_third(row.top, table.top_size):>5}  "
                          f"bottom {_third(row.bottom, table.bottom_size):>5}  {text}", highlight=False,
                          soft_wrap=True)
        if table.hint:
            console.print(f"    [red]{escape(_safe(table.hint, keep_newlines=False))}[/]", highlight=False, soft_wrap=True)
            # Each response the hint names on its own line with where it is written: with a choose-two the
            # key to fix is the one the strong learners reject, not the first `correct: true` of the question.
            named = [c for c in table.culprits if q.type != "true_false"]
            if not named:
                console.print(f"    key at {escape(_key_place(table.key_location))}", highlight=False,
                              soft_wrap=True)
            for c in named:
                what = "key rejected" if c.role == "key" else "distractor chosen"
                # A number is named by its value, then by the mistake it models (or as the key).
                label = c.response if c.value is None else \
                    f"{c.value} ({'the key' if c.role == 'key' else c.response})"
                text = escape(_safe(label, keep_newlines=False))
                console.print(f"    {what} ({c.top}/{table.top_size} of the top third): {text} at "
                              f"{escape(_key_place(c.location))}", highlight=False, soft_wrap=True)
    if hinted:
        from study.analysis.responses import HINT_RULE

        console.print(f"[dim]Wrong-key hints: {HINT_RULE}; a hint alone exits 0 unless --strict.[/]", highlight=False,
                      soft_wrap=True)
