"""A practice set of given questions, in the order given: "retake what I missed" after an exam or quiz."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from study.quiz.clock import Clock, as_utc, system_clock
from study.quiz.select import SelectionError, one_per_concept
from study.quiz.build import _instances
from study.quiz.session import QuizSession, _domain_names, _objective_titles


def build_retake(bank: Any, qids: Iterable[str], seed: int | str = 0, *, store: Any = None,
                 clock: Clock | None = None) -> QuizSession:
    """Practice (feedback after each answer) on ``qids``, each once. Questions no longer in the bank are left
    out; raises :class:`SelectionError` when none is left. A templated question is drawn anew from ``seed``,
    so a retake asks the same thing with fresh numbers rather than replaying the answer."""
    wanted = list(dict.fromkeys(qids))
    by_id = {q.id: q for q in bank.questions}
    # One question per concept: a retake is a form too, and a twin would hand over its sibling's answer.
    questions = one_per_concept(by_id[q] for q in wanted if q in by_id)
    if not questions:
        raise SelectionError("none of those questions is in the bank any more")
    clock = clock or system_clock
    instances = _instances(bank, lambda broken: [q for q in questions if q.id not in broken], seed, as_choice=False)
    if not instances:
        raise SelectionError("none of those questions can be drawn")
    return QuizSession(
        instances, mode="practice", started_at=as_utc(clock()), seed=seed,
        target_percent=bank.blueprint.exam.target_percent, domain_names=_domain_names(bank),
        objective_titles=_objective_titles(bank), clock=clock, store=store,
    )
