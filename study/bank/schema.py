"""The instructor's contract: pydantic models for questions, topic cards and the blueprint.

Models are frozen and forbid unknown fields, so a typo in a YAML key is a lint finding, not a silently
ignored line. Every loaded object carries a ``SourceRef`` so diagnostics and the app can point at it.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from typing import Annotated, Literal, overload

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

ID_PATTERN = r"^[a-z0-9][a-z0-9._-]*$"
OBJECTIVE_PATTERN = r"^[1-3]\.(?:[1-9]|10)$"
# The number has one way to match (``[0-9]*\.?[0-9]+`` could split a digit run n ways: quadratic on a failed
# match), and the blanks before the unit belong to the unit's group, so ``\s*`` never meets ``\s*``.
NUMBER_PATTERN = r"(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
TOLERANCE_PATTERN = rf"^\s*{NUMBER_PATTERN}(?:\s*(%|[A-Za-z][A-Za-z0-9/_-]*))?\s*$"
# ``{name}`` and ``{= expr}`` are placeholders; ``{{`` and ``}}`` are literal braces (group 1 is None), so a
# stem can show ``${{CUDA_HOME}}`` as ``${CUDA_HOME}``.
PLACEHOLDER_RE = re.compile(r"\{\{|\}\}|\{(=[^{}]+|[A-Za-z_][A-Za-z0-9_]*)\}")

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
# A yes/no field is `true` or `false` and nothing else, the one rule lint and `study schema` (JSON Schema's
# "boolean") share: pydantic's lax bool would also take "True", 1, "no" or "off", which the schema rejects.
# The YAML reader does its part by reading only true/false as booleans (YAML 1.2), not yes/no/on/off.
Flag = StrictBool
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=80)]
ObjectiveId = Annotated[str, StringConstraints(pattern=OBJECTIVE_PATTERN)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


class SourceRef(_Model):
    """Where an object was written: file path (as given) and 1-based line and column."""

    path: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class Reference(_Model):
    title: Text
    url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$")]


class Choice(_Model):
    text: Text
    correct: Flag = False
    why: Text


# A range is drawn from by index, never listed, but one with more values than this is a typo (a step of 1
# where 1e9 was meant) and lint would sample a vanishing part of it.
MAX_RANGE_VALUES = 10_000


class RangeValues(Sequence[int | float]):
    """The values of a ``Range``, computed on demand: ``len`` and indexing without building a list.

    ``random.choice`` on this picks what it picked from the list this replaces, so seeds keep their draws."""

    def __init__(self, low: float, step: float, count: int, as_int: bool) -> None:
        self._low, self._step, self._count, self._as_int = low, step, count, as_int

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> int | float: ...

    @overload
    def __getitem__(self, i: slice) -> list[int | float]: ...

    def __getitem__(self, i: int | slice) -> int | float | list[int | float]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._count))]
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        v = self._low + i * self._step
        return int(round(v)) if self._as_int else round(v, 10)


class Range(_Model):
    """A parameter drawn from ``low..high`` (inclusive) in steps of ``step``."""

    range: tuple[float, float]
    step: float = Field(gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        low, high = self.range
        if not all(math.isfinite(v) for v in (low, high, self.step)):
            raise PydanticCustomError("param_range", "range bounds and step must be finite numbers")
        if low > high:
            raise PydanticCustomError("param_range", "range low is above range high")
        ratio = (high - low) / self.step
        if not ratio < MAX_RANGE_VALUES:
            count = f"{ratio + 1:.3g}" if math.isfinite(ratio) else "too many"
            raise PydanticCustomError(
                "param_range",
                f"range {low:g} to {high:g} in steps of {self.step:g} gives {count} values; at most "
                f"{MAX_RANGE_VALUES:,} are allowed (is the step meant to be larger?)",
            )
        return self

    def values(self) -> RangeValues:
        low, high = self.range
        # The 1e-9 slack keeps `high` itself when (high - low) / step is 2.9999999999 in floating point.
        count = int(math.floor((high - low) / self.step + 1e-9)) + 1
        as_int = all(float(v).is_integer() for v in (low, high, self.step))
        return RangeValues(low, self.step, count, as_int)


ParamValue = int | float | str
ParamSpec = Annotated[list[ParamValue], Field(min_length=1)] | Range


def param_values(spec: ParamSpec) -> Sequence[ParamValue]:
    """The values a parameter can take, for drawing by index (a range is never listed in full)."""
    return spec.values() if isinstance(spec, Range) else spec


class NumericAnswer(_Model):
    """A number the learner types (practice) or picks among distractors (exam).

    ``value`` states the answer in ``unit``; ``calc`` computes it with the calculator. With both, lint
    checks they agree. ``tolerance`` is relative (``"2%"``) or absolute with a unit (``"0.5 GB"``).
    """

    value: float | None = None
    calc: Text | None = None
    unit: Text
    tolerance: Annotated[str, StringConstraints(pattern=TOLERANCE_PATTERN)] = "2%"
    digits: int = Field(default=3, ge=1, le=8, description="significant digits shown in feedback")

    @model_validator(mode="after")
    def _has_answer(self) -> NumericAnswer:
        if self.value is None and self.calc is None:
            raise ValueError("a numeric answer needs `value` or `calc`")
        return self


class Distractor(_Model):
    """A wrong numeric answer that models a typical mistake; ``why`` names the mistake."""

    calc: Text | None = None
    value: float | None = None
    why: Text

    @model_validator(mode="after")
    def _has_answer(self) -> Distractor:
        if self.value is None and self.calc is None:
            raise ValueError("a distractor needs `value` or `calc`")
        return self


class Exhibit(_Model):
    """A command's output from an operations lab (``content/labs``), shown with the question as a monospace
    block: ``exhibit: {lab: thermal-slowdown, run: "nvidia-smi", seed: 2}``."""

    lab: Id
    run: Text
    seed: int = Field(default=0, ge=0)


QuestionType = Literal["single", "multi", "true_false", "numeric"]


class Accept(_Model):
    """A lint warning the author means: its code and why the question is right as written."""

    code: Text
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=10)]
    # possible-twin only: the question this one was read against and found distinct. A pair, not the code for
    # the whole question, so a twin written later is still reported.
    other: Id | None = Field(default=None, description=(
        "possible-twin only: the id of the question found distinct from this one"))

    @model_validator(mode="after")
    def _known(self) -> Accept:
        from study.bank.warning_codes import ACCEPTABLE_CODES, PAIR_CODES

        if self.code not in ACCEPTABLE_CODES:
            known = ", ".join(sorted(ACCEPTABLE_CODES))
            raise PydanticCustomError("accept_code", f"unknown warning code {self.code!r} in accept (known: {known})")
        if self.code in PAIR_CODES and self.other is None:
            raise PydanticCustomError("accept_other", f"accept {self.code} names the other question: `other: ID`")
        if self.code not in PAIR_CODES and self.other is not None:
            raise PydanticCustomError("accept_other", f"`other` belongs to accept possible-twin, not {self.code}")
        return self


class Question(_Model):
    id: Id
    objective: ObjectiveId
    topic: Id | None = None
    difficulty: int = Field(ge=1, le=3)
    type: QuestionType
    stem: Text
    choices: list[Choice] | None = None
    choose: int | None = Field(default=None, ge=2)
    answer: Flag | NumericAnswer | None = None
    params: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], ParamSpec] | None = None
    distractors: list[Distractor] | None = None
    explanation: Text
    references: Annotated[list[Reference], Field(min_length=1)]
    verified: dt.date
    volatile: Flag = False
    tags: list[Text] = Field(default_factory=list)
    # The fact this question tests, shared by its twins (enemy items): an exam form, a timed quiz and a retake
    # hold at most one question per concept, and practice buries the others for the day once one is answered.
    concept: Id | None = Field(default=None, description=(
        "id of the fact this question tests, shared by its twins: an exam draws at most one question per concept"))
    # Warnings of this question that lint drops because the author meant them; each says why.
    accept: list[Accept] = Field(default_factory=list)
    exhibit: Exhibit | None = None
    source: SourceRef | None = Field(default=None, exclude=True)

    @property
    def accepted_codes(self) -> frozenset[str]:
        """Codes accepted for the whole question (a possible-twin accept covers one pair, not the code)."""
        return frozenset(a.code for a in self.accept if a.other is None)

    @property
    def domain(self) -> str:
        return self.objective.split(".")[0]

    @property
    def is_templated(self) -> bool:
        return bool(self.params)


class Blueprint_Objective(_Model):
    id: ObjectiveId
    title: Text


class Domain(_Model):
    id: Annotated[str, StringConstraints(pattern=r"^[1-3]$")]
    name: Text
    weight: int = Field(gt=0, le=100)
    objectives: list[Blueprint_Objective]


class ExamInfo(_Model):
    code: Text
    name: Text
    questions: int
    minutes: int
    target_percent: int = Field(ge=0, le=100)
    source: str
    verified: dt.date
    volatile: bool = False


class Blueprint(_Model):
    exam: ExamInfo
    domains: list[Domain]

    def objective_ids(self) -> list[str]:
        return [o.id for d in self.domains for o in d.objectives]

    def objective_titles(self) -> dict[str, str]:
        """Objective id -> title, as answers store them and results show them."""
        return {o.id: o.title for d in self.domains for o in d.objectives}

    def domain_of(self, objective: str) -> Domain:
        for d in self.domains:
            if any(o.id == objective for o in d.objectives):
                return d
        raise KeyError(objective)

    def objective(self, objective: str) -> Blueprint_Objective:
        for d in self.domains:
            for o in d.objectives:
                if o.id == objective:
                    return o
        raise KeyError(objective)


class TopicMeta(_Model):
    """Front matter of a topic file in ``content/topics/``."""

    id: Id
    title: Text
    objectives: Annotated[list[ObjectiveId], Field(min_length=1)]
    references: Annotated[list[Reference], Field(min_length=1)]
    verified: dt.date
    volatile: bool = False
    tags: list[Text] = Field(default_factory=list)


class Card(_Model):
    """One ``##`` section of a topic file: a screenful to read and review."""

    id: str
    topic: str
    title: str
    body: str
    objectives: tuple[str, ...]
    # The recall question shown on the front of the card in review; the card itself is the answer.
    prompt: str | None = None
    source: SourceRef | None = Field(default=None, exclude=True)


class Topic(_Model):
    meta: TopicMeta
    intro: str
    cards: tuple[Card, ...]
    source: SourceRef | None = Field(default=None, exclude=True)

    @property
    def id(self) -> str:
        return self.meta.id
