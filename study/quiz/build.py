"""Building quiz sessions: an exam shaped like the real one, a practice set, a custom timed quiz.

Selection is ``study.quiz.select``; this module instantiates what it picks (dropping a question the
calculator cannot instantiate) and wraps it in a :class:`~study.quiz.session.QuizSession`.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Sequence

from study.quiz.clock import Clock, as_utc, system_clock
from study.quiz.instance import Instance, InstanceError, instantiate
from study.quiz.select import History, SelectionError, filter_questions, select_exam, select_practice, siblings
from study.quiz.session import QuizSession, _domain_names, _objective_titles, _resolve_now


def _hash(bank: Any, qid: str) -> str | None:
    fn = getattr(bank, "content_hash", None)
    try:
        return fn(qid) if fn is not None else None
    except KeyError:
        return None


def _instances(bank: Any, pick: Callable[[set[str]], list[Any]], seed: int | str, as_choice: bool) -> list[Instance]:
    """Instantiate the picked questions; a question the calculator cannot instantiate is dropped and the
    selection redone without it, so one broken question does not break an exam."""
    broken: set[str] = set()
    for _ in range(20):
        questions = pick(broken)
        out: list[Instance] = []
        failed = False
        for q in questions:
            try:
                out.append(instantiate(q, seed, as_choice=as_choice, hash_=_hash(bank, q.id)))
            except InstanceError:
                broken.add(q.id)
                failed = True
        if not failed:
            return out
    return out


def build_exam(
    bank: Any,
    seed: int | str = 0,
    count: int | None = None,
    minutes: float | None = None,
    *,
    store: Any = None,
    now: Any = None,
    clock: Clock | None = None,
    session_id: str | None = None,
    questions: Sequence[Any] | None = None,
) -> QuizSession:
    """A timed exam shaped like the real one (default: the blueprint's 50 questions in 60 minutes).

    Other lengths split by largest remainder on the domain weights; ``minutes`` defaults to the blueprint's
    time scaled to the number of questions drawn (fewer than ``count`` when the bank runs short). With a ``store``, questions from the learner's last exams are avoided when the
    bank allows, and the session saves and records itself. ``now`` is the start time (UTC datetime) or a
    clock callable; ``clock`` answers later actions that pass no ``now``.
    """
    exam = bank.blueprint.exam
    count = exam.questions if count is None else count
    started, now_clock = _resolve_now(now)
    clock = clock or now_clock or system_clock
    started = started or as_utc(clock())
    pool = list(bank.questions if questions is None else questions)
    history = History(store, started) if store is not None else None
    avoid = history.recent_exam_questions() if history is not None else set()
    last_seen = history.last_seen() if history is not None else {}
    held = history.held_back() if history is not None else set()

    def pick(broken: set[str]) -> list[Any]:
        return select_exam([q for q in pool if q.id not in broken and q.id not in held], bank.blueprint, count,
                           seed, avoid, last_seen=last_seen)

    instances = _instances(bank, pick, seed, as_choice=True)
    if minutes is None:
        # The time belongs to the questions actually drawn: asking for more than the bank holds must not
        # buy more minutes per question than the real exam gives.
        minutes = exam.minutes * len(instances) / exam.questions
    session = QuizSession(
        instances, mode="exam", started_at=started, minutes=minutes, seed=seed, session_id=session_id,
        target_percent=exam.target_percent, domain_names=_domain_names(bank),
        objective_titles=_objective_titles(bank), clock=clock, store=store,
    )
    if history is not None:
        session.new_to_you = [inst.qid not in last_seen for inst in instances]
    # Saved at once: an exam closed before its first answer is still offered for resume, its clock running.
    session._persist()
    return session


def build_practice(
    bank: Any,
    seed: int | str = 0,
    count: int = 10,
    *,
    domain: str | None = None,
    objective: str | None = None,
    topic: str | None = None,
    difficulty: int | Sequence[int] | None = None,
    pick: str = "any",
    minutes: float | None = None,
    timed_like_exam: bool = False,
    store: Any = None,
    now: Any = None,
    clock: Clock | None = None,
    session_id: str | None = None,
) -> QuizSession:
    """A practice set (feedback after each answer, numbers typed), optionally with a deadline.

    ``pick`` is ``any``, ``due``, ``weak``, ``missed`` or ``unseen`` (the last four read the store).
    ``timed_like_exam=True`` with ``minutes`` makes a custom timed quiz (mode ``quiz``): N questions in M
    minutes, graded at the end, numeric questions with distractors as choices.
    Raises :class:`SelectionError` when nothing matches.
    """
    started, now_clock = _resolve_now(now)
    clock = clock or now_clock or system_clock
    started = started or as_utc(clock())
    if objective is not None:
        try:
            bank.blueprint.objective(str(objective))
        except KeyError:
            raise SelectionError(f"unknown objective {objective!r}; objectives are 1.1 to 3.4") from None
    pool = filter_questions(bank.questions, domain=domain, objective=objective, topic=topic, difficulty=difficulty)
    history = History(store, started) if store is not None else None
    order = bank.blueprint.objective_ids()

    held = history.held_back() if history is not None else set()
    if history is not None:
        # Anki-style sibling burying: once one twin was answered today, the others wait for tomorrow.
        held |= siblings(bank.questions, history.answered_today())

    def choose(broken: set[str]) -> list[Any]:
        return select_practice([q for q in pool if q.id not in broken and q.id not in held], count, seed, pick=pick,
                               history=history, objective_order=order)

    mode = "quiz" if timed_like_exam and minutes else "practice"
    instances = _instances(bank, choose, seed, as_choice=mode == "quiz")
    if not instances:
        what = {"due": "nothing is due", "weak": "no attempted questions yet", "missed": "no missed questions",
                "unseen": "every matching question has been seen"}.get(pick, "no questions match the filters")
        raise SelectionError(what)
    session = QuizSession(
        instances, mode=mode, started_at=started, minutes=minutes, seed=seed, session_id=session_id,
        target_percent=bank.blueprint.exam.target_percent, domain_names=_domain_names(bank),
        objective_titles=_objective_titles(bank), clock=clock, store=store,
    )
    if history is not None:
        last_seen = history.last_seen()
        session.new_to_you = [inst.qid not in last_seen for inst in instances]
    # A timed set is saved at once, as an exam is: left before its first answer, it still resumes.
    session._persist()
    return session
