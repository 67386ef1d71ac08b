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
