"""What a saved session must hold before :meth:`QuizSession.from_json` trusts it (issue 19, defect 9).

A saved state comes back from the store, which a backup from elsewhere can fill: an ``index`` of 999 was an
``IndexError`` on resume, a deadline in 2099 locked the learner out of new exams, a string where the alerts
belong or an ``answers`` list of the wrong length crashed the app. Each rule here is what a later action of
the session relies on, so a state that passes can always be resumed, answered, submitted and reported.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any
from collections.abc import Callable, Sequence

# A real exam is 60 minutes and a custom quiz a few hours at most; a day is far above either.
MAX_MINUTES = 24 * 60
MAX_QUESTIONS = 1_000
MAX_SECONDS = 10**7
MAX_ANSWER_CHARS = 200
STATUSES = ("active", "submitted")
SLACK = dt.timedelta(seconds=1)  # a deadline is computed from the start; rounding may move it a little


class SavedStateError(ValueError):
    """The saved state cannot be a session of ours; the message names the first field that is wrong."""


def check_saved_state(data: Any, instances: Sequence[Any]) -> None:
    """Raise :class:`SavedStateError` unless ``data`` (the parsed state) fits ``instances`` (already built
    from it) in every field a session reads."""
    from study.quiz.clock import from_iso
    from study.quiz.grade import AnswerError, normalize_answer

    count = len(instances)
    if not 0 < count <= MAX_QUESTIONS:
        raise SavedStateError(f"{count} questions (expected 1 to {MAX_QUESTIONS})")
    index = data.get("index")
    if not _whole(index) or not 0 <= index < count:
        raise SavedStateError(f"index {_short(index)} is not a question of its {count}")
    for key in ("answers", "flags", "seconds"):
        value = data.get(key)
        if not isinstance(value, list) or len(value) != count:
            raise SavedStateError(f"{key} must be a list of {count} values, one per question")
    for i, (inst, answer) in enumerate(zip(instances, data["answers"])):
        if answer is None:
            continue
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
            raise SavedStateError(f"answer {i + 1} is not an answer ({_short(answer)})")
        try:
            if normalize_answer(inst, answer) != answer:
                raise SavedStateError(f"answer {i + 1} {_short(answer)} is not in the form study saves")
        except AnswerError as exc:
            raise SavedStateError(f"answer {i + 1} {_short(answer)} does not fit its question: {exc}") from None
    if not all(isinstance(f, bool) for f in data["flags"]):
        raise SavedStateError("flags must be true or false")
    _check_struck(data.get("struck"), instances)
    if not all(_number(s) and 0 <= s <= MAX_SECONDS for s in data["seconds"]):
        raise SavedStateError(f"seconds must be numbers from 0 to {MAX_SECONDS}")
    recorded = data.get("recorded")
    if not isinstance(recorded, list) or not all(_whole(i) and 0 <= i < count for i in recorded):
        raise SavedStateError("recorded must list question numbers of this session")
    if data.get("status") not in STATUSES:
        raise SavedStateError(f"status {_short(data.get('status'))} is not one of {', '.join(STATUSES)}")
    if not isinstance(data.get("timed_out"), bool):
        raise SavedStateError("timed_out must be true or false")
    target = data.get("target_percent")
    if not _whole(target) or not 0 <= target <= 100:
        raise SavedStateError(f"target_percent {_short(target)} is not from 0 to 100")
    for key in ("domain_names", "objective_titles"):
        names = data.get(key, {})
        if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
            raise SavedStateError(f"{key} must map ids to names")
    form = data.get("form")
    if form is not None and not (isinstance(form, dict) and set(form) == {"name", "id"}
                                 and all(isinstance(v, str) and 0 < len(v) <= 64 for v in form.values())):
        raise SavedStateError("form must name the exam form by its name and id")
    _check_clock(data, from_iso)


def _check_clock(data: dict[str, Any], from_iso: Callable[[str | None], dt.datetime | None]) -> None:
    minutes = data.get("minutes")
    if minutes is not None and not (_number(minutes) and 0 < minutes <= MAX_MINUTES):
        raise SavedStateError(f"minutes {_short(minutes)} is not from 0 to {MAX_MINUTES}")
    times: dict[str, dt.datetime | None] = {}
    for key in ("started_at", "deadline", "mark", "finished_at"):
        text = data.get(key)
        if text is None and key != "started_at":
            times[key] = None
            continue
        try:
            times[key] = from_iso(text) if isinstance(text, str) else None
        except (ValueError, OverflowError):
            times[key] = None
        if times[key] is None:
            raise SavedStateError(f"{key} {_short(text)} is not a date and time")
    start, deadline = times["started_at"], times["deadline"]
    if (minutes is None) != (deadline is None):
        raise SavedStateError("a deadline needs its minutes, and minutes their deadline")
    # The loop raised on a missing start, and the check above pairs minutes with the deadline.
    if (deadline is not None and start is not None and minutes is not None
            and not start < deadline <= start + dt.timedelta(minutes=minutes) + SLACK):
        raise SavedStateError(f"deadline is not within {minutes:g} minutes of the start")
    for key in ("alerts", "fired"):
        marks = data.get(key)
        limit = (minutes or 0) * 60
        if not isinstance(marks, list) or not all(_whole(a) and 0 <= a <= limit for a in marks):
            raise SavedStateError(f"{key} must be a list of seconds left, from 0 to the exam's {limit:g}")


def _check_struck(struck: Any, instances: Sequence[Any]) -> None:
    """Struck-out choices: missing in a state saved before they were kept; else per question, choice numbers
    of that question's options, each once."""
    if struck is None:
        return
    if not isinstance(struck, list) or len(struck) != len(instances):
        raise SavedStateError(f"struck must be a list of {len(instances)} lists, one per question")
    for i, (inst, marks) in enumerate(zip(instances, struck)):
        options = len(inst.options)
        if (not isinstance(marks, list) or len(set(marks)) != len(marks)
                or not all(_whole(m) and 0 <= m < options for m in marks)):
            raise SavedStateError(f"struck choices of question {i + 1} are not choices of its {options}")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _short(value: Any) -> str:
    from study.untrusted import shown

    text = shown(repr(value), keep_newlines=False)
    return text if len(text) <= 40 else text[:37] + "..."


def read_saved_session(state_json: str) -> Any:
    """A saved session's state read as ``--resume`` would (a ``QuizSession``, with ``started_at`` and
    ``deadline``), or ``SessionError``: the reader a backup's import and export pass to the store's checks."""
    from study.quiz.session import QuizSession

    return QuizSession.from_json(state_json)
