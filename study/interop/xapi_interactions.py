"""A question as an xAPI ``cmi.interaction`` activity: its definition (choices in the author's order,
true-false, or a numeric range from the tolerance) and the learner's answer in its response format, built
either from what the learner was shown (``attempts.shown_json``) or, for an older answer, from the bank."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from study.interop.xapi_formats import INTERACTION_TYPE, choice_id, lang, number_text, title
from study.interop.xapi_sessions import StoredSession, json_or_none, picked_texts

_LETTERS = re.compile(r"^[A-Z](?:,[A-Z])*$")


class BankLookup:
    """Look-ups into the bank, with each question instance built once."""

    def __init__(self, bank: Any) -> None:
        self.bank = bank
        self._instances: dict[tuple[str, str], Any] = {}

    def question(self, qid: str) -> Any:
        if self.bank is None:
            return None
        try:
            return self.bank.question(qid)
        except KeyError:
            return None

    def instance(self, question: Any, params: Mapping[str, Any]) -> Any:
        """The question as it was asked: a templated one with the attempt's parameters, unshuffled. None if
        the bank can no longer build it (a parameter renamed or a value no longer valid)."""
        key = (question.id, json.dumps(params, sort_keys=True))
        if key not in self._instances:
            from study.quiz.instance import InstanceError, instantiate

            inst = None
            try:
                pinned = {name: params[name] for name in question.params} if question.params else None
                inst = instantiate(question, 0, shuffle=False, hash_="", params=pinned)
            except (KeyError, InstanceError, ValueError, ArithmeticError):
                inst = None
            self._instances[key] = inst
        return self._instances[key]


def _half_width(key: Any) -> float:
    text = key.tolerance.strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100.0 * abs(key.value)
    try:
        return float(text)
    except ValueError:
        from study.calc.units import convert, parse_quantity

        return float(convert(float(parse_quantity(text).value), key.unit))


def _numeric_response(inst: Any, text: str, correct: bool, low: float, high: float) -> str | None:
    """The number the learner gave, in the answer's unit, read the way the grader reads it."""
    from study.quiz.grade import AnswerError, read_number

    try:
        reading = read_number(inst, text)
    except (AnswerError, ValueError):
        return None
    if reading.value is None:  # a time given for a size: no number in the question's unit
        return None
    value = reading.value
    # The grader also accepts a bare number in base units (1.4e11 for 140 GB); report the reading it graded.
    if correct and not low <= value <= high and reading.base_value is not None and low <= reading.base_value <= high:
        value = reading.base_value
    return number_text(value)


@dataclass
class Interaction:
    definition: dict[str, Any]
    response: str | None


def interaction_from_bank(question: Any, inst: Any, given: str, correct: bool, session: StoredSession | None,
                          ext: str, stored: list[str] | None = None) -> Interaction:
    """The activity definition of ``question`` as asked in ``inst``, and ``given`` in its response format.

    ``stored`` is the attempt's own record of the picked texts (schema 5 on); older attempts fall back to
    the session's saved order or its report."""
    definition: dict[str, Any] = {
        "name": lang(title(inst.stem)),
        "description": lang(inst.stem.strip()),
        "type": INTERACTION_TYPE,
    }
    extensions: dict[str, Any] = {f"{ext}/objective": question.objective, f"{ext}/difficulty": question.difficulty}
    response: str | None = None
    if question.type in ("single", "multi"):
        choices = list(question.choices or ())
        definition["interactionType"] = "choice"
        definition["correctResponsesPattern"] = ["[,]".join(choice_id(i) for i, c in enumerate(choices) if c.correct)]
        definition["choices"] = [{"id": choice_id(i), "description": lang(c.text)} for i, c in enumerate(choices)]
        if given and _LETTERS.match(given):
            texts = stored or picked_texts(session, question.id, given)
            by_text = {c.text: i for i, c in enumerate(choices)}
            if texts is not None and all(t in by_text for t in texts):
                response = "[,]".join(choice_id(i) for i in sorted({by_text[t] for t in texts}))
    elif question.type == "true_false":
        definition["interactionType"] = "true-false"
        definition["correctResponsesPattern"] = ["true" if question.answer else "false"]
        if given in ("T", "F"):
            response = "true" if given == "T" else "false"
    else:
        low, high = _numeric_definition(inst.numeric, definition, extensions, ext)
        text: str | None = given or None
        if given and _LETTERS.match(given):  # asked as multiple choice (exam): the picked option is a number
            picked = stored or picked_texts(session, question.id, given)
            text = picked[0] if picked and len(picked) == 1 else None
        if text:
            response = _numeric_response(inst, text, correct, low, high)
    definition["extensions"] = extensions
    return Interaction(definition, response)


def _numeric_definition(key: Any, definition: dict[str, Any], extensions: dict[str, Any],
                        ext: str) -> tuple[float, float]:
    """A numeric interaction's accepted range, unit and tolerance, the same from the bank or as shown."""
    definition["interactionType"] = "numeric"
    low, high = key.value - _half_width(key), key.value + _half_width(key)
    definition["correctResponsesPattern"] = [f"{number_text(low)}[:]{number_text(high)}"]
    extensions[f"{ext}/unit"] = key.unit
    extensions[f"{ext}/tolerance"] = key.tolerance
    return low, high


def interaction_as_shown(shown: Mapping[str, Any], qid: str, given: str, correct: bool,
                         ext: str) -> Interaction:
    """The activity definition from what the learner was shown (``attempts.shown_json``), so the statement
    never changes when the bank is reworded or reordered later: the stem as shown, the choices in the order
    shown with their stable ids, and the response by those ids."""
    from study.quiz.shown import shown_instance

    stem = str(shown.get("stem") or "")
    definition: dict[str, Any] = {"name": lang(title(stem)), "description": lang(stem.strip()),
                                  "type": INTERACTION_TYPE}
    extensions: dict[str, Any] = {f"{ext}/objective": shown.get("objective"),
                                  f"{ext}/difficulty": shown.get("difficulty")}
    choices = [c for c in shown.get("choices") or () if isinstance(c, Mapping)]
    kind = shown.get("type")
    picked: list[int] = []
    if given and _LETTERS.match(given):
        picked = sorted({ord(x) - ord("A") for x in given.split(",")})
        if not all(0 <= i < len(choices) for i in picked):
            picked = []
    response: str | None = None
    if kind in ("single", "multi"):
        definition["interactionType"] = "choice"
        definition["correctResponsesPattern"] = ["[,]".join(str(c["id"]) for c in choices if c.get("correct"))]
        definition["choices"] = [{"id": str(c["id"]), "description": lang(str(c["text"]))} for c in choices]
        if picked:
            response = "[,]".join(str(choices[i]["id"]) for i in picked)
    elif kind == "true_false":
        definition["interactionType"] = "true-false"
        truth = any(c.get("correct") and str(c.get("text")).lower() == "true" for c in choices)
        definition["correctResponsesPattern"] = ["true" if truth else "false"]
        if given in ("T", "F"):
            response = "true" if given == "T" else "false"
    else:
        inst = shown_instance(dict(shown), qid)
        low, high = _numeric_definition(inst.numeric, definition, extensions, ext)
        text: str | None = given or None
        if given and _LETTERS.match(given) and choices:  # asked as multiple choice: the picked option is a number
            text = str(choices[picked[0]]["text"]) if len(picked) == 1 else None
        if text:
            response = _numeric_response(inst, text, correct, low, high)
    definition["extensions"] = extensions
    return Interaction(definition, response)


def usable_shown(value: Any) -> Mapping[str, Any] | None:
    if isinstance(value, str):
        value = json_or_none(value)
    if isinstance(value, Mapping) and value.get("v") == 1 and value.get("type") and "stem" in value:
        if value.get("type") == "numeric" and not isinstance(value.get("numeric"), Mapping):
            return None
        return value
    return None

