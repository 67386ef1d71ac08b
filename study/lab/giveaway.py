"""Whether one task's feedback states another task's answer (a give-away, refused by ``study lint``).

A lab's tasks are answered in any order and each answer shows its feedback (the explanation and every
choice's "why"), so feedback that says what another task keys lets a learner score that task without reading
a tool. Two shapes are caught: a numeric key printed as a number in another task's feedback, and a phrase of
two words that only the right choice of a choice task has (none of its wrong choices nor its stem) appearing
in another task's feedback. Pure: questions in, findings out.
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Sequence

_WORD = re.compile(r"[a-z0-9][a-z0-9._+-]*[a-z0-9]|[a-z0-9]")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\d)")
# Words that make a phrase common rather than telling (a bigram of two of these says nothing).
_FILLER = frozenset(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "in", "is", "it", "its", "of", "on", "or", "the", "to", "with", "that", "this", "its"])


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("`", " "))


def _bigrams(text: str) -> set[tuple[str, str]]:
    w = _words(text)
    return {(a, b) for a, b in zip(w, w[1:]) if not (a in _FILLER or b in _FILLER)}


def feedback(q: Any) -> str:
    return " ".join([q.explanation or "", *(c.why or "" for c in (q.choices or []))])


def _number_text(value: float) -> str:
    return f"{value:g}"


def giveaways(questions: Sequence[Any], numeric_keys: Sequence[float | None]) -> list[tuple[int, int, str]]:
    """(task shown, task given away, what gives it away) for every pair where task ``i``'s feedback states
    task ``j``'s answer. ``numeric_keys[j]`` is task ``j``'s key when it is numeric."""
    out: list[tuple[int, int, str]] = []
    for j, qj in enumerate(questions):
        key = numeric_keys[j]
        telling: set[tuple[str, str]] = set()
        if qj.choices:
            right = " ".join(c.text for c in qj.choices if c.correct)
            others = " ".join([qj.stem, *(c.text for c in qj.choices if not c.correct)])
            telling = _bigrams(right) - _bigrams(others)
        for i, qi in enumerate(questions):
            if i == j:
                continue
            said = feedback(qi)
            if key is not None and _number_text(key) in _NUMBER.findall(said) \
                    and _number_text(key) not in _NUMBER.findall(qj.stem):
                out.append((i, j, f"states task {j + 1}'s answer {_number_text(key)}"))
            hit = sorted(telling & _bigrams(said))
            if hit:
                out.append((i, j, f"states task {j + 1}'s answer ({' '.join(hit[0])!r})"))
    return out
