"""Questions become concrete instances: parameters drawn, placeholders filled, answers computed.

An :class:`Instance` is plain data (strings, numbers, tuples) so a session can be written to JSON and resumed
exactly, even if the bank or the calculator change later. The calculator (``study.calc``) is imported lazily:
a bank without templated or calculated questions never loads it.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping, Sequence

from study.bank.schema import PLACEHOLDER_RE, NumericAnswer, Question, param_values

if TYPE_CHECKING:
    import re

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class InstanceError(ValueError):
    """A question could not be turned into an instance (a bad expression, a calculator error)."""


@dataclass(frozen=True)
class Option:
    """One choice as shown: its text, whether it is right, and why."""

    text: str
    correct: bool
    why: str = ""


@dataclass(frozen=True)
class NumericKey:
    """The expected number, in ``unit``, with what grading needs.

    ``distractors`` are ``(value in unit, why)`` pairs; those that would pass the tolerance are dropped when
    the instance is built, so a distractor can never be graded right.
    """

    value: float
    unit: str
    tolerance: str = "2%"
    digits: int = 3
    distractors: tuple[tuple[float, str], ...] = ()

    @property
    def display(self) -> str:
        return format_value(self.value, self.unit, self.digits)


@dataclass(frozen=True)
class Instance:
    """One question as the learner sees it.

    ``options`` is empty for a number the learner types. ``true_false`` questions have the options
    ``True``/``False`` (labels A/B; the plain driver also accepts T/F). A numeric question asked as multiple
    choice (exam mode, with distractors) keeps ``type == "numeric"`` and has ``options`` plus ``numeric``.
    """

    qid: str
    objective: str
    domain: str
    type: str
    difficulty: int
    stem: str
    options: tuple[Option, ...] = ()
    choose: int = 1
    numeric: NumericKey | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    derivation: tuple[str, ...] = ()
    explanation: str = ""
    references: tuple[tuple[str, str], ...] = ()
    topic: str | None = None
    content_hash: str = ""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(LABELS[i] for i in range(len(self.options)))

    @property
    def is_numeric_typed(self) -> bool:
        return self.type == "numeric" and not self.options

    @property
    def is_multi(self) -> bool:
        return self.type == "multi"

    @property
    def correct_labels(self) -> tuple[str, ...]:
        return tuple(LABELS[i] for i, o in enumerate(self.options) if o.correct)

    @property
    def expected(self) -> str:
        """The right answer in the form the learner gives it: ``"B"``, ``"A,C"`` or ``"140 GB"``."""
        if self.is_numeric_typed:
            assert self.numeric is not None
            return self.numeric.display
        if self.type == "true_false":
            return "T" if self.options[0].correct else "F"
        return ",".join(self.correct_labels)

    @property
    def expected_display(self) -> str:
        """The right answer for a person: labels with their text, or the number with its unit."""
        if self.is_numeric_typed:
            return self.expected
        return "; ".join(f"{LABELS[i]}) {o.text}" for i, o in enumerate(self.options) if o.correct)

    def answer_display(self, given: str | None) -> str:
        """A given answer for a person: picked labels with their text ("B) 1.34 GB"), else as typed."""
        if not given or self.is_numeric_typed or not self.options:
            return given or ""
        if self.type == "true_false" and given in ("T", "F"):
            return "true" if given == "T" else "false"
        shown = []
        for label in given.split(","):
            i = LABELS.find(label.strip())
            shown.append(f"{label.strip()}) {self.options[i].text}" if 0 <= i < len(self.options) else label)
        return "; ".join(shown)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["params"] = dict(self.params)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Instance:
        d = dict(data)
        d["options"] = tuple(Option(**o) for o in d.get("options", ()))
        num = d.get("numeric")
        if num is not None:
            num = dict(num)
            num["distractors"] = tuple((float(v), str(w)) for v, w in num.get("distractors", ()))
            d["numeric"] = NumericKey(**num)
        d["derivation"] = tuple(d.get("derivation", ()))
        d["references"] = tuple(tuple(r) for r in d.get("references", ()))
        return cls(**d)


def format_number(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, positional (``140``, ``0.0125``, ``21500``), never ``1.4e+02``."""
    if value == 0 or value != value or value in (float("inf"), float("-inf")):
        return str(0 if value == 0 else value)
    rounded = float(f"{value:.{digits}g}")
    if not 1e-6 <= abs(rounded) < 1e15:
        return f"{rounded:.{digits}g}"
    text = format(Decimal(repr(rounded)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def group_thousands(number: str) -> str:
    """``"10000"`` -> ``"10,000"``: keys read like the calculator's figures ("9,996 tokens/s")."""
    if "e" in number.lower():
        return number
    sign, body = ("-", number[1:]) if number.startswith("-") else ("", number)
    whole, dot, frac = body.partition(".")
    if not whole.isdigit():
        return number
    return f"{sign}{int(whole):,}{dot}{frac}"


def format_value(value: float, unit: str, digits: int = 3) -> str:
    """A value as the learner reads it: significant digits, thousands grouped, the unit after."""
    unit = unit.strip()
    number = group_thousands(format_number(value, digits))
    if unit in ("", "1"):
        return number
    return f"{number}%" if unit == "%" else f"{number} {unit}"


def draw_params(question: Question, rng: random.Random) -> dict[str, Any]:
    """One combination of the question's parameters; sorted names keep the draw stable across runs."""
    if not question.params:
        return {}
    return {name: rng.choice(param_values(question.params[name])) for name in sorted(question.params)}


@lru_cache(maxsize=4096)
def _compiled(src: str) -> Any:
    from study.calc.expr import compile_expr

    return compile_expr(src)


def evaluate(src: str, env: Mapping[str, Any]) -> Any:
    """Evaluate a calculator expression; compiled forms are cached because exams instantiate many."""
    try:
        return _compiled(src).evaluate(dict(env))
    except ImportError:
        raise
    except Exception as exc:  # the calculator's own errors carry the useful message
        raise InstanceError(f"cannot evaluate {src!r}: {exc}") from exc


def in_unit(evaluation: Any, unit: str) -> float:
    from study.calc.expr import ExprError, value_in_unit
    from study.calc.units import DimensionError

    try:
        return value_in_unit(evaluation, unit)
    except (ExprError, DimensionError) as exc:  # text, or a size asked in seconds: the question is broken
        raise InstanceError(f"cannot give the answer in {unit!r}: {getattr(exc, 'message', exc)}") from exc


def step_text(step: Any) -> str:
    """One derivation line from a calculator ``Step`` (label, formula, substituted numbers, outcome)."""
    if isinstance(step, str):
        return step
    parts = [str(getattr(step, name, "") or "") for name in ("formula", "substituted", "outcome")]
    parts = [p for p in parts if p]
    label = str(getattr(step, "label", "") or "")
    body = " = ".join(dict.fromkeys(parts))
    if label and body:
        return f"{label}: {body}"
    return label or body or str(step)


def _show_param(value: Any) -> str:
    if isinstance(value, float):
        return format_number(value, 6)
    return str(value)


def render_stem(question: Question, params: Mapping[str, Any]) -> str:
    """Fill ``{name}`` with the drawn value and ``{= expr}`` with the calculator's display of it.

    Unknown ``{name}`` placeholders are left as written: lint reports them, and a stem about code may show
    braces on purpose.
    """

    def fill(match: re.Match[str]) -> str:
        body = match.group(1)
        if body is None:  # {{ or }}: a literal brace
            return match.group(0)[0]
        if body.startswith("="):
            return str(evaluate(body[1:].strip(), params).display)
        if body in params:
            return _show_param(params[body])
        return match.group(0)

    if "{" not in question.stem and "}}" not in question.stem:
        stem = question.stem
    else:
        stem = PLACEHOLDER_RE.sub(fill, question.stem)
    return with_exhibit(question, stem)


def with_exhibit(question: Question, stem: str) -> str:
    """The stem followed by its lab exhibit as a fenced block (added after the placeholders are filled, so the
    braces of real tool output are never read as placeholders)."""
    exhibit = getattr(question, "exhibit", None)
    if exhibit is None:
        return stem
    from study.lab.exhibit import ExhibitError, exhibit_block

    try:
        return f"{stem}\n\n{exhibit_block(exhibit.lab, exhibit.run, exhibit.seed)}"
    except ExhibitError as exc:
        raise InstanceError(f"{question.id}: {exc}") from exc


def content_hash(question: Question) -> str:
    """Fallback when the bank offers no ``content_hash``: a digest of the question's JSON form."""
    blob = json.dumps(question.model_dump(mode="json"), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def _relative_tolerance(tolerance: str) -> float | None:
    text = tolerance.strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100.0
    return None


def within(value: float, target: float, tolerance: str, unit: str) -> bool:
    """Whether ``value`` (in ``unit``) is within ``tolerance`` of ``target`` (relative ``2%`` or absolute)."""
    rel = _relative_tolerance(tolerance)
    if rel is not None:
        return abs(value - target) <= rel * abs(target) + 1e-12 * max(1.0, abs(target))
    text = tolerance.strip()
    try:
        bound = float(text)
    except ValueError:
        from study.calc.units import convert, parse_quantity

        bound = float(convert(float(parse_quantity(text).value), unit))
    return abs(value - target) <= bound * (1 + 1e-12)


def _numeric_key(question: Question, params: Mapping[str, Any]) -> tuple[NumericKey, tuple[str, ...]]:
    ans = question.answer
    assert isinstance(ans, NumericAnswer)
    derivation: tuple[str, ...] = ()
    if ans.calc is not None:
        ev = evaluate(ans.calc, params)
        derivation = tuple(step_text(s) for s in (getattr(ev, "steps", None) or ()))
        computed = in_unit(ev, ans.unit)
        value = computed if ans.value is None or question.params else float(ans.value)
    else:
        value = float(ans.value)  # type: ignore[arg-type]
    distractors: list[tuple[float, str]] = []
    shown = {format_value(value, ans.unit, ans.digits)}
    for d in question.distractors or ():
        if d.calc is not None:
            dv = in_unit(evaluate(d.calc, params), ans.unit)
        else:
            dv = float(d.value)  # type: ignore[arg-type]
        label = format_value(dv, ans.unit, ans.digits)
        # A distractor that rounds to the answer, or to another distractor, would be an unfair option.
        if label in shown or within(dv, value, ans.tolerance, ans.unit):
            continue
        shown.add(label)
        distractors.append((dv, d.why))
    key = NumericKey(value=value, unit=ans.unit, tolerance=ans.tolerance, digits=ans.digits,
                     distractors=tuple(distractors))
    return key, derivation


def instantiate(
    question: Question,
    seed: int | str = 0,
    *,
    as_choice: bool = False,
    shuffle: bool = True,
    hash_: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> Instance:
    """Turn ``question`` into an :class:`Instance`.

    The draw depends only on ``seed`` and the question id, so the same seed gives the same parameters and
    choice order whatever else is in the quiz. ``as_choice`` asks a numeric question with distractors as
    multiple choice (exam mode). ``shuffle`` shuffles the choices of single and multi questions.
    ``params`` rebuilds a templated question as it was asked with those values (for example from a stored
    attempt) instead of drawing them.
    """
    rng = random.Random(f"{seed}:{question.id}")
    params = dict(params) if params is not None else draw_params(question, rng)
    try:
        stem = render_stem(question, params)
    except InstanceError as exc:
        raise InstanceError(f"{question.id}: {exc}") from exc
    options: tuple[Option, ...] = ()
    numeric: NumericKey | None = None
    derivation: tuple[str, ...] = ()
    choose = 1
    qtype = question.type
    if qtype in ("single", "multi"):
        opts = [Option(c.text, c.correct, c.why) for c in question.choices or ()]
        if shuffle:
            rng.shuffle(opts)
        options = tuple(opts)
        if qtype == "multi":
            choose = question.choose or sum(o.correct for o in opts)
    elif qtype == "true_false":
        truth = bool(question.answer)
        options = (Option("True", truth), Option("False", not truth))
    elif qtype == "numeric":
        try:
            numeric, derivation = _numeric_key(question, params)
        except InstanceError as exc:
            raise InstanceError(f"{question.id}: {exc}") from exc
        except (ValueError, ArithmeticError) as exc:  # an unknown unit or tolerance unit: lint reports it
            raise InstanceError(f"{question.id}: {exc}") from exc
        if as_choice and numeric.distractors:
            opts = [Option(numeric.display, True, "")]
            opts += [Option(format_value(v, numeric.unit, numeric.digits), False, why)
                     for v, why in numeric.distractors]
            rng.shuffle(opts)
            options = tuple(opts)
    return Instance(
        qid=question.id,
        objective=question.objective,
        domain=question.domain,
        type=qtype,
        difficulty=question.difficulty,
        stem=stem,
        options=options,
        choose=choose,
        numeric=numeric,
        params=params,
        derivation=derivation,
        explanation=question.explanation,
        references=tuple((r.title, r.url) for r in question.references),
        topic=question.topic,
        content_hash=hash_ if hash_ is not None else content_hash(question),
    )


def instantiate_all(questions: Sequence[Question], seed: int | str, **kw: Any) -> list[Instance]:
    return [instantiate(q, seed, **kw) for q in questions]
