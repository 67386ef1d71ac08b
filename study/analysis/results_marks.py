"""What every form of results comes down to: one learner's marks and the first-answer rule, which answers
``--mode`` keeps, answer times, and question ids made safe to print. Shared by the readers of progress exports
(``results_exports``) and of xAPI statements (``results_xapi``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any


class ResultsError(ValueError):
    """A results file cannot be read; the message starts with its location."""


@dataclass
class Learner:
    label: str
    first: dict[str, float]  # question id -> mark of the first answer
    answers: int  # answers read, before keeping the first per question


def first_marks(times: list[Any], qids: list[str], marks: list[float]) -> dict[str, float]:
    """The mark of the earliest answer to each question; ties keep the order read."""
    if times != sorted(times):  # exports are written in time order: sort only what is not
        order = sorted(range(len(times)), key=times.__getitem__)
        qids = [qids[k] for k in order]
        marks = [marks[k] for k in order]
    # Read backwards, the earliest answer to a question is written last and stays.
    return dict(zip(reversed(qids), reversed(marks)))


def keeps(mode: str, attempt_mode: str | None) -> bool:
    """Whether ``--mode`` keeps an answer given in ``attempt_mode``; practice is everything but exams (labs
    included: a lab task is answered while learning), ``lab`` only the operations labs' tasks."""
    if mode == "all":
        return True
    if mode in ("exam", "lab"):
        return attempt_mode == mode
    return attempt_mode != "exam"


def parse_time(value: Any, where: str) -> dt.datetime:
    if not isinstance(value, str):
        raise ResultsError(f"{where}: the time must be an ISO 8601 string, not {value!r}")
    try:
        at = dt.datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        raise ResultsError(f"{where}: {value!r} is not an ISO 8601 time") from None
    return at if at.tzinfo else at.replace(tzinfo=dt.timezone.utc)


def shown_ids(qids: list[str]) -> list[str]:
    """Question ids from a file are printed in the table: a control character in one (an ESC, or %1b in an
    xAPI object IRI) is shown escaped (issue 19, defect 8). Bank ids never hold one, so matching is unchanged."""
    from study.untrusted import has_controls, shown

    if not any(has_controls(q) or "\n" in q for q in qids):
        return qids
    return [shown(q, keep_newlines=False) for q in qids]
