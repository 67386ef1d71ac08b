"""Reading what a learner types and grading it.

Choice questions take letters (``B``, ``A,C``, ``a c``), true/false also ``T``/``F``/``true``/``false``.
Numbers take what a person writes: ``21.5 GB``, ``20 GiB``, ``2.15e10 B``, ``950 ms``, ``400 Gb/s``,
``1,024 GB``; the calculator's unit parser converts them to the answer's unit before the tolerance applies.
"""

from __future__ import annotations

import math

import re
from dataclasses import dataclass, field
from typing import Any

from study.quiz.instance import LABELS, Instance, format_value, within

# The mantissa needs a digit: "E0" alone is not a number (float() refused it after this matched).
_BARE_NUMBER = re.compile(r"^\s*[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?\s*$")
_TRUE = {"t", "true", "yes", "y"}
_FALSE = {"f", "false", "no", "n"}


class AnswerError(ValueError):
    """The input cannot be read as an answer to this question (an unknown letter, no number)."""


@dataclass(frozen=True)
class PickResult:
    """One option after grading: for showing which picks were right."""

    label: str
    text: str
    picked: bool
    correct: bool
    why: str = ""


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer and everything the feedback shows."""

    correct: bool
    message: str
    expected_display: str
    given_display: str = ""
    answered: bool = True
    matched_distractor_why: str | None = None
    derivation: tuple[str, ...] = ()
    picks: tuple[PickResult, ...] = field(default_factory=tuple)
    wrong_dimension: bool = False

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


def _letters(instance: Instance, raw: str) -> list[int]:
    # Tokens keep what the learner typed: an error names "f", not an "F" they never wrote.
    tokens = [t for t in re.split(r"[\s,;/]+", raw.strip()) if t]
    if len(tokens) == 1 and len(tokens[0]) > 1 and tokens[0].isalpha():
        tokens = list(tokens[0])  # "AC" means A and C
    picks: list[int] = []
    for t in tokens:
        if len(t) != 1 or t.upper() not in LABELS[: len(instance.options)]:
            last = LABELS[len(instance.options) - 1]
            raise AnswerError(f"{t!r} is not a choice; answer with a letter A to {last}")
        idx = LABELS.index(t.upper())
        if idx not in picks:
            picks.append(idx)
    if not picks:
        raise AnswerError("no choice given")
    return sorted(picks)


def normalize_answer(instance: Instance, raw: Any) -> str:
    """The canonical form of an answer: ``"B"``, ``"A,C"``, ``"T"``/``"F"`` or the typed number text.

    Raises :class:`AnswerError` when ``raw`` cannot be an answer to this question: not a choice, not a
    number, or a quantity of the wrong dimension (``29 GB`` where a percentage is asked), which the learner
    may answer again in practice and exam alike.
    """
    if instance.type == "true_false":
        if isinstance(raw, bool):
            return "T" if raw else "F"
        text = str(raw).strip().lower()
        if text in _TRUE or text == "a":
            return "T"
        if text in _FALSE or text == "b":
            return "F"
        raise AnswerError("answer T (true) or F (false)")
    if instance.is_numeric_typed:
        text = str(raw).strip()
        if not text:
            raise AnswerError("no number given")
        if len(text) > MAX_ANSWER_CHARS:
            # A pasted 100,000-digit number was graded as "inf GB" and stored whole.
            raise AnswerError(f"an answer is at most {MAX_ANSWER_CHARS} characters ({len(text):,} given): "
                              "type the number and its unit, like 140 GB")
        reading = read_number(instance, text)  # raises AnswerError if unreadable
        if reading.value is None:
            # Not an answer to this question, like "banana": say what is asked and let the learner answer.
            raise AnswerError(f"that is {reading.given_dim}; the question asks for {reading.wanted_dim}")
        return text
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = LABELS[raw] if 0 <= raw < len(instance.options) else str(raw)
    if isinstance(raw, (list, tuple, set, frozenset)):
        raw = ",".join(LABELS[r] if isinstance(r, int) else str(r) for r in raw)
    picks = _letters(instance, str(raw))
    if instance.type != "multi" and len(picks) != 1:
        raise AnswerError("pick one letter")
    return ",".join(LABELS[i] for i in picks)


@dataclass(frozen=True)
class _Reading:
    value: float | None  # in the answer's unit; None when of the wrong dimension
    display: str
    given_dim: str = ""
    wanted_dim: str = ""
    base_value: float | None = None  # a bare number read in base units (bytes, seconds), as an alternative


MAX_ANSWER_CHARS = 64  # "1,234.5 GiB/s" is 13; a typed answer far longer is a paste, not an answer


def _finite(value: float, text: str) -> float:
    # float() reads "-1e999" as -inf and "nan" as nan: neither is an answer ("you gave -inf GB").
    if not math.isfinite(value):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise AnswerError(f"{shown!r} is not a finite number: type a number like 140 or 1.5e3")
    return value


def read_number(instance: Instance, text: str) -> _Reading:
    """How the grader reads ``text`` typed for a numeric ``instance`` (a unit, or a bare number by the
    bare-number rule). Raises :class:`AnswerError` when it is not a number. Exports use it to report the
    answer exactly as it was graded."""
    assert instance.numeric is not None
    unit = instance.numeric.unit
    digits = instance.numeric.digits
    if _BARE_NUMBER.match(text) and any(c.isdigit() for c in text):
        value = _finite(float(text.replace(",", "").strip()), text)
        base = None
        if unit.strip() not in ("", "1", "%"):
            from study.calc.units import convert

            base = float(convert(value, unit))
        return _Reading(value, format_value(value, unit, digits), base_value=base)
    from study.calc.units import convert, dimension_name, parse_quantity, parse_unit

    try:
        q = parse_quantity(text)
    except ValueError as exc:
        raise AnswerError(f"cannot read {text!r} as a number with a unit: {exc}") from exc
    _finite(float(q.value), text)
    wanted = parse_unit(unit).dim
    # Counts (tokens, GPUs) carry no conversion factor: "16 GPUs" answers a question asked in "GPUs" or "1".
    if q.dim != wanted and q.dim.without_counts() != wanted.without_counts():
        asked = "a percentage" if unit.strip() == "%" else dimension_name(wanted)
        return _Reading(None, text, dimension_name(q.dim), asked)
    return _Reading(float(convert(float(q.value), unit)), text)


def grade_answer(instance: Instance, given: Any) -> Grade:
    """Grade ``given`` (raw or canonical; ``None`` or ``""`` for no answer) against ``instance``.

    single and true_false are exact, multi is all-or-nothing with each pick marked, numeric converts units
    and applies the tolerance; a typed number matching a distractor (or a picked distractor) carries that
    mistake's ``why``.
    """
    expected = instance.expected_display
    if given is None or (isinstance(given, str) and not given.strip()):
        return Grade(False, f"Not answered. The answer is {expected}.", expected, "", answered=False,
                     derivation=instance.derivation)
    if instance.is_numeric_typed:
        return _grade_typed(instance, str(given).strip())
    canonical = normalize_answer(instance, given)
    if instance.type == "true_false":
        picked = {0} if canonical == "T" else {1}
    else:
        picked = {LABELS.index(c) for c in canonical.split(",")}
    right = {i for i, o in enumerate(instance.options) if o.correct}
    picks = tuple(PickResult(LABELS[i], o.text, i in picked, o.correct, o.why) for i, o in enumerate(instance.options))
    ok = picked == right
    given_display = "; ".join(f"{LABELS[i]}) {instance.options[i].text}" for i in sorted(picked))
    why = None
    if not ok and len(picked) == 1:
        why = instance.options[next(iter(picked))].why or None
    if ok:
        message = "Correct."
    elif instance.is_multi:
        good = [LABELS[i] for i in sorted(picked & right)]
        bad = [LABELS[i] for i in sorted(picked - right)]
        missed = [LABELS[i] for i in sorted(right - picked)]
        bits = []
        if good:
            bits.append(f"right picks {', '.join(good)}")
        if bad:
            bits.append(f"wrong picks {', '.join(bad)}")
        if missed:
            bits.append(f"missed {', '.join(missed)}")
        message = f"Incorrect ({'; '.join(bits)}). The answer is {expected}."
    else:
        message = f"Incorrect. The answer is {expected}."
    if why and instance.type == "numeric":
        message += f" {why}"
    return Grade(ok, message, expected, given_display, matched_distractor_why=why if instance.type == "numeric" else None,
                 derivation=instance.derivation, picks=picks)


def _grade_typed(instance: Instance, text: str) -> Grade:
    key = instance.numeric
    assert key is not None
    expected = key.display
    try:
        reading = read_number(instance, text)
    except AnswerError as exc:
        return Grade(False, f"{exc}. The answer is {expected}.", expected, text, derivation=instance.derivation)
    if reading.value is None:
        msg = f"That is {reading.given_dim}; the question asks for {reading.wanted_dim}. The answer is {expected}."
        return Grade(False, msg[0].upper() + msg[1:], expected, text, derivation=instance.derivation,
                     wrong_dimension=True)
    candidates = [reading.value]
    if reading.base_value is not None:
        candidates.append(reading.base_value)
    for value in candidates:
        if within(value, key.value, key.tolerance, key.unit):
            note = "" if value is reading.value else f" (read {text} as base units: {format_value(value, key.unit, key.digits)})"
            return Grade(True, f"Correct: {expected}.{note}", expected, text, derivation=instance.derivation)
    shown = format_value(reading.value, key.unit, key.digits)
    for dv, why in key.distractors:
        if within(reading.value, dv, key.tolerance, key.unit):
            return Grade(False, f"Not quite: you gave {shown}, the answer is {expected}. {why}", expected, text,
                         matched_distractor_why=why, derivation=instance.derivation)
    slip = _fraction_slip(reading.value, key)
    return Grade(False, f"Not quite: you gave {shown}, the answer is {expected}.{slip}", expected, text,
                 derivation=instance.derivation)


def _fraction_slip(value: float, key: Any) -> str:
    """The hint for a fraction typed where a percentage is asked (``0.264`` for 26.4%)."""
    if key.unit.strip() != "%" or not 0 < abs(value) <= 1 or not within(value * 100, key.value, key.tolerance, key.unit):
        return ""
    return (f" {format_value(value, '1', key.digits)} is the fraction; the question asks for a percentage, "
            f"{format_value(value * 100, '%', key.digits)}.")
