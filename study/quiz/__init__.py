"""The quiz engine: selection, templated instances, grading with units, sessions and reports.

No Textual here: the TUI and ``study quiz --plain`` both drive these objects.

    from study.quiz import build_exam, build_practice, QuizSession, grade_answer
    s = build_exam(bank, seed=7, store=store, now=now)        # 50 questions, 60 minutes, 19/20/11
    s.current.stem, s.current.options, s.current.labels        # what to show
    s.answer("B", now=t); s.flag(now=t); s.next(now=t)          # every action persists with a store
    s.tick(now=t)            # -> ["15 min"] alerts, or ["time up"] after submitting itself
    report = s.submit(now=t) # -> Report (.score, .by_domain, .questions, .to_json(), .render_text())
    QuizSession.from_json(s.to_json(), bank)                   # resume exactly

Practice: ``build_practice(bank, seed, count, domain=, objective=, topic=, difficulty=, pick='any'|'due'|
'weak'|'missed'|'unseen', store=)``; ``answer`` returns the :class:`Grade` at once.
"""

from __future__ import annotations

from study.quiz.grade import AnswerError, Grade, PickResult, grade_answer, normalize_answer
from study.quiz.instance import Instance, InstanceError, NumericKey, Option, format_value, instantiate
from study.quiz.report import Report, Tally, QuestionResult, build_report
from study.quiz.select import (
    PICKS,
    History,
    SelectionError,
    domain_quota,
    filter_questions,
    largest_remainder,
    select_exam,
    select_practice,
)
from study.quiz.session import (
    MODES,
    QuizSession,
    Review,
    SessionError,
    TimeUp,
    alert_thresholds,
    unfinished,
)
from study.quiz.build import build_exam, build_practice

__all__ = [
    "AnswerError", "Grade", "PickResult", "grade_answer", "normalize_answer",
    "Instance", "InstanceError", "NumericKey", "Option", "format_value", "instantiate",
    "Report", "Tally", "QuestionResult", "build_report",
    "PICKS", "History", "SelectionError", "domain_quota", "filter_questions", "largest_remainder",
    "select_exam", "select_practice",
    "MODES", "QuizSession", "Review", "SessionError", "TimeUp", "alert_thresholds", "build_exam",
    "build_practice", "unfinished",
]
