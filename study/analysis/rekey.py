"""A response graded against the question's *current* key, and sorted into its response class.

Each answer keeps what the learner saw and picked (the option texts, or the number typed), so after a key
is fixed every response can be marked again exactly: a picked text is right when the current question marks
that text right; a number is read the way the grader reads it and compared with the current key of the
question instantiated with the learner's own parameters. When a response cannot be read against the current
question (a choice whose text was edited since, a templated question whose parameters are gone), there is
no new mark and the recorded one stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

from study.analysis.answers import Response

if TYPE_CHECKING:
    from study.bank.schema import Question
    from study.quiz.instance import Instance

RIGHT = "right"
OTHER = "other"


@dataclass(frozen=True)
class Bucket:
    """One class of response: a choice's text (single, multi, true/false) or, for numbers, ``right``, a
    distractor's mistake, or ``other``. ``index`` is the choice's or distractor's position in the file."""

    key: str
    label: str
    correct: bool
    index: int | None = None


class Keys:
    """The current question's instances, one per set of parameters: a class shares a few draws."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], Any] = {}

    def instance(self, question: Question, params: Mapping[str, Any]) -> Instance | None:
        from study.quiz.instance import InstanceError, instantiate

        pinned: dict[str, Any] | None = None
        if question.params:
            if not all(name in params for name in question.params):
                return None
            pinned = {name: params[name] for name in question.params}
        key = (question.id, repr(sorted((pinned or {}).items())))
        if key not in self._cache:
            try:
                self._cache[key] = instantiate(question, 0, shuffle=False, hash_="", params=pinned)
            except (InstanceError, ValueError, ArithmeticError, KeyError):
                self._cache[key] = None
        return self._cache[key]


def _number(inst: Instance, text: str) -> float | None:
    from study.quiz.grade import AnswerError, read_number

    try:
        reading = read_number(inst, text)
    except (AnswerError, ValueError, ArithmeticError):
        return None
    return reading.value


def _typed(response: Response) -> str | None:
    if response.typed is not None:
        return response.typed
    return response.picked[0] if len(response.picked) == 1 else None


def mark_now(question: Question, response: Response, keys: Keys) -> float | None:
    """The mark of ``response`` under the current key of ``question``; None when it cannot be read."""
    if question.type == "true_false":
        if response.picked not in (("True",), ("False",)):
            return None
        return float((response.picked[0] == "True") == bool(question.answer))
    if question.type in ("single", "multi"):
        choices = {c.text: c.correct for c in question.choices or ()}
        if not response.picked or any(t not in choices for t in response.picked):
            return None
        return float(set(response.picked) == {t for t, ok in choices.items() if ok})
    inst = keys.instance(question, response.params)
    text = _typed(response)
    if inst is None or inst.numeric is None or text is None:
        return None
    from study.quiz.grade import grade_answer

    return float(grade_answer(inst, text).correct)


def buckets_of(question: Question) -> list[Bucket]:
    """Every response class of ``question``, in the file's order, before any learner is counted."""
    if question.type == "true_false":
        truth = bool(question.answer)
        return [Bucket("True", "True", truth, 0), Bucket("False", "False", not truth, 1)]
    if question.type in ("single", "multi"):
        return [Bucket(c.text, c.text, c.correct, k) for k, c in enumerate(question.choices or ())]
    out = [Bucket(RIGHT, "right (within the tolerance of the key)", True)]
    out += [Bucket(f"d{k}", d.why, False, k) for k, d in enumerate(question.distractors or ())]
    return out + [Bucket(OTHER, "other", False)]


def classify(question: Question, response: Response, keys: Keys) -> list[str]:
    """The bucket keys a response falls in (several for a multi's picks); ``other`` when it is no current
    choice or no mistake a distractor models."""
    if question.type in ("single", "multi", "true_false"):
        known = {b.key for b in buckets_of(question)}
        return [t if t in known else OTHER for t in response.picked] or [OTHER]
    inst = keys.instance(question, response.params)
    text = _typed(response)
    if inst is None or inst.numeric is None or text is None:
        return [OTHER]
    from study.quiz.instance import within

    key = inst.numeric
    value = _number(inst, text)
    if mark_now(question, response, keys):
        return [RIGHT]
    if value is None:
        return [OTHER]
    # The instance drops distractors that round to the key; match the rest back to the file's by mistake.
    whys = [d.why for d in question.distractors or ()]
    for dv, why in key.distractors:
        if within(value, dv, key.tolerance, key.unit) and why in whys:
            return [f"d{whys.index(why)}"]
    return [OTHER]
