"""Past exams, reopened from the store: the ``Report`` each finished exam saved (``Report.to_dict``), read back
so its results and its answer review can be shown again (the app's Progress screen, ``study stats --exam N``).

A stored report is data from disk, perhaps from an older ``study``, a merged backup or a regrade (which
rewrites marks, tallies and score, see ``study.progress.regrades``): every field is checked for its type, a
field an older report lacks takes its default, and a report that cannot be read raises ``ValueError`` with
one line saying what is wrong, so a damaged row is named instead of raising deep inside a screen.

Exams are numbered from 1, oldest first, as ``study stats --exam`` lists them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from study.quiz.grade import PickResult
from study.quiz.report import QuestionResult, Report, Tally


@dataclass(frozen=True)
class PastExam:
    number: int  # 1-based, oldest first
    session_id: str
    finished_at: str  # ISO, as stored
    report: Report | None  # None when the stored report is damaged
    error: str = ""  # why it could not be read
    regraded: int = 0  # how many regrades rescored it

    @property
    def label(self) -> str:
        """``"exam 3 (2026-12-01)"``"""
        return f"exam {self.number} ({self.finished_at[:10]})"


def _str(d: Mapping[str, Any], key: str, default: str | None = None) -> str:
    v = d.get(key, default)
    if v is None and default is not None:
        return default
    if not isinstance(v, str):
        raise ValueError(f"{key!r} is not text")
    return v


def _opt_str(d: Mapping[str, Any], key: str) -> str | None:
    v = d.get(key)
    if v is not None and not isinstance(v, str):
        raise ValueError(f"{key!r} is not text")
    return v


def _int(d: Mapping[str, Any], key: str, default: int | None = None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"{key!r} is not a whole number")
    return v


def _num(d: Mapping[str, Any], key: str, default: float | None = None) -> float:
    v = d.get(key, default)
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v != v or v < 0:
        raise ValueError(f"{key!r} is not a number of seconds")
    return float(v)


def _bool(d: Mapping[str, Any], key: str, default: bool | None = None) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise ValueError(f"{key!r} is not true or false")
    return v


def _tallies(d: Mapping[str, Any], key: str) -> dict[str, Tally]:
    raw = d.get(key, {})
    if not isinstance(raw, dict):
        raise ValueError(f"{key!r} is not a table")
    out = {}
    for k, t in raw.items():
        if not isinstance(t, dict):
            raise ValueError(f"{key!r} {k!r} is not a tally")
        out[str(k)] = Tally(_int(t, "correct"), _int(t, "total"), _str(t, "name", ""))
    return out


def _pick(c: Any) -> PickResult:
    if not isinstance(c, dict):
        raise ValueError("a choice is not a table")
    return PickResult(_str(c, "label"), _str(c, "text"), _bool(c, "picked"), _bool(c, "correct"), _str(c, "why", ""))


def _question(k: int, q: Any) -> QuestionResult:
    if not isinstance(q, dict):
        raise ValueError(f"question {k} is not a table")
    try:
        derivation = q.get("derivation") or []
        references = q.get("references") or []
        choices = q.get("choices") or []
        if not all(isinstance(x, list) for x in (derivation, references, choices)):
            raise ValueError("derivation, references or choices is not a list")
        if not all(isinstance(s, str) for s in derivation):
            raise ValueError("a derivation step is not text")
        refs = []
        for r in references:
            if not (isinstance(r, list) and len(r) == 2 and all(isinstance(x, str) for x in r)):
                raise ValueError("a reference is not a title and an address")
            refs.append((r[0], r[1]))
        return QuestionResult(
            position=_int(q, "position", k), id=_str(q, "id"), objective=_str(q, "objective", ""),
            domain=_str(q, "domain", ""), type=_str(q, "type", ""), stem=_str(q, "stem", ""),
            given=_opt_str(q, "given"), given_display=_str(q, "given_display", ""),
            expected=_str(q, "expected", ""), expected_display=_str(q, "expected_display", ""),
            correct=_bool(q, "correct"), answered=_bool(q, "answered", True), flagged=_bool(q, "flagged", False),
            seconds=_num(q, "seconds", 0.0), message=_str(q, "message", ""),
            explanation=_str(q, "explanation", ""), derivation=tuple(derivation),
            matched_distractor_why=_opt_str(q, "matched_distractor_why"), references=tuple(refs),
            choices=tuple(_pick(c) for c in choices),
        )
    except ValueError as exc:
        raise ValueError(f"question {k}: {exc}") from None


def report_from_dict(data: Any) -> Report:
    """The ``Report`` a ``Report.to_dict()`` (as stored, perhaps regraded) describes; ``ValueError`` if damaged."""
    if not isinstance(data, dict):
        raise ValueError("the stored report is not a table")
    questions = data.get("questions", [])
    if not isinstance(questions, list):
        raise ValueError("'questions' is not a list")
    new = data.get("new_to_you")
    if new is not None and (not isinstance(new, int) or isinstance(new, bool)):
        raise ValueError("'new_to_you' is not a whole number")
    return Report(
        session_id=_str(data, "session_id"), mode=_str(data, "mode", "exam"), correct=_int(data, "correct"),
        total=_int(data, "total"), target_percent=_int(data, "target_percent"),
        timed_out=_bool(data, "timed_out", False), started_at=_str(data, "started_at", ""),
        finished_at=_opt_str(data, "finished_at"), seconds=_num(data, "seconds", 0.0),
        by_domain=_tallies(data, "by_domain"), by_objective=_tallies(data, "by_objective"),
        questions=tuple(_question(k, q) for k, q in enumerate(questions, start=1)),
        skipped=_int(data, "skipped", 0), new_to_you=new,
    )


def past_exams(store: Any) -> list[PastExam]:
    """Every finished exam with a saved report, oldest first, numbered from 1; a damaged one keeps its place
    (and its number) with ``report`` None and the reason in ``error``."""
    out = []
    for n, s in enumerate(store.exam_history(), start=1):
        data = s.report
        finished = s.finished_at.isoformat() if s.finished_at else ""
        regrades = data.get("regrades") if isinstance(data, dict) else None
        try:
            report = report_from_dict(data)
            error = ""
        except ValueError as exc:
            report, error = None, str(exc)
        out.append(PastExam(n, s.id, finished, report, error, len(regrades) if isinstance(regrades, list) else 0))
    return out


def find_past_exam(exams: list[PastExam], which: str) -> PastExam:
    """The exam ``which`` names: its number (1 = the first taken, -1 or ``last`` = the latest) or its session
    id. ``LookupError`` with one line otherwise."""
    if not exams:
        raise LookupError("no exam has been taken yet")
    text = which.strip()
    if text.lower() in ("last", "latest"):
        return exams[-1]
    try:
        n = int(text)
    except ValueError:
        hit = [e for e in exams if e.session_id == text]
        if hit:
            return hit[0]
        raise LookupError(f"no exam {text!r}: give its number, 1 to {len(exams)}, 'last' or a session id") from None
    if 1 <= n <= len(exams):
        return exams[n - 1]
    if -len(exams) <= n <= -1:
        return exams[n]
    raise LookupError(f"no exam {n}: {len(exams)} exam{'s have' if len(exams) != 1 else ' has'} been taken, "
                      f"numbered 1 to {len(exams)} (or 'last')")
