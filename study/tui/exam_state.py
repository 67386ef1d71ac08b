"""How far each exam question is answered, for the navigator and the submit dialogs.

The session only knows "an answer or none"; a choose-two with one pick is an answer it grades wrong, so the
screens tell it apart from a complete one rather than count it as answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ANSWERED, PARTIAL, BLANK = "answered", "partial", "blank"


def picks_of(instance: Any, answer: Any) -> int:
    """How many choices an answer holds (a typed number or a single pick counts one)."""
    if answer is None:
        return 0
    if getattr(instance, "is_multi", False) and isinstance(answer, str):
        return len([p for p in answer.split(",") if p.strip()])
    return 1


def answer_state(instance: Any, answer: Any) -> str:
    if answer is None:
        return BLANK
    need = getattr(instance, "choose", 1) or 1
    if getattr(instance, "is_multi", False) and picks_of(instance, answer) < need:
        return PARTIAL
    return ANSWERED


def answer_states(session: Any) -> list[str]:
    return [answer_state(inst, a) for inst, a in zip(session.instances, session.answers)]


@dataclass(frozen=True)
class Tally:
    answered: int
    partial: int
    blank: int

    def sentence(self) -> str:
        """ "34 answered, 1 partly answered, 15 blank" (the partly answered part only when there is one)."""
        parts = [f"{self.answered} answered"]
        if self.partial:
            parts.append(f"{self.partial} partly answered")
        parts.append(f"{self.blank} blank")
        return ", ".join(parts)


def tally(session: Any) -> Tally:
    states = answer_states(session)
    return Tally(states.count(ANSWERED), states.count(PARTIAL), states.count(BLANK))


def resumable(store: Any) -> tuple[str, str, Any] | None:
    """The unfinished session the app offers to resume: an exam, else a timed quiz (a practice set with a time
    limit runs on the exam screen, pauses as an exam does and its clock runs on the same way). Untimed practice
    is not kept for later."""
    return store.active_session("exam") or store.active_session("quiz")


def paused_exam(services: Any) -> dict[str, Any] | None:
    """The unfinished exam the store would offer to resume, as Home shows it: how far it got and the
    deadline its clock runs to (None when there is none or it cannot be read; the resume offer says why)."""
    store, bank = services.store, services.bank
    if store is None or bank is None:
        return None
    try:
        active = resumable(store)
        if not active:
            return None
        from study.quiz import QuizSession

        session = QuizSession.from_json(active[1], bank, clock=services.clock)
    except Exception:  # the resume offer on start names the problem; Home only leaves the line out
        return None
    t = tally(session)
    return {"answered": t.answered, "partial": t.partial, "count": session.count, "deadline": session.deadline,
            "title": "Timed quiz" if session.mode == "quiz" else "Exam"}
