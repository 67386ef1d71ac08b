"""The instructor's contract: pydantic models for questions, topic cards and the blueprint.

Models are frozen and forbid unknown fields, so a typo in a YAML key is a lint finding, not a silently
ignored line. Every loaded object carries a ``SourceRef`` so diagnostics and the app can point at it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

ID_PATTERN = r"^[a-z0-9][a-z0-9._-]*$"
OBJECTIVE_PATTERN = r"^[1-3]\.(?:[1-9]|10)$"
TOLERANCE_PATTERN = r"^\s*[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?\s*(%|[A-Za-z][A-Za-z0-9/_-]*)?\s*$"
# ``{name}`` and ``{= expr}`` are placeholders; ``{{`` and ``}}`` are literal braces (group 1 is None), so a
# stem can show ``${{CUDA_HOME}}`` as ``${CUDA_HOME}``.
PLACEHOLDER_RE = re.compile(r"\{\{|\}\}|\{(=[^{}]+|[A-Za-z_][A-Za-z0-9_]*)\}")

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
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
    correct: bool = False
    why: Text


class Range(_Model):
    """A parameter drawn from ``low..high`` (inclusive) in steps of ``step``."""

    range: tuple[float, float]
    step: float = Field(gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> "Range":
        if self.range[0] > self.range[1]:
            raise ValueError("range low is above range high")
        return self

    def values(self) -> list[float]:
        low, high = self.range
        n = int(round((high - low) / self.step)) + 1
        vals = [low + i * self.step for i in range(n)]
        as_int = all(float(v).is_integer() for v in (low, high, self.step))
        return [int(round(v)) if as_int else round(v, 10) for v in vals if v <= high + 1e-9]


ParamValue = Union[int, float, str]
ParamSpec = Union[Annotated[list[ParamValue], Field(min_length=1)], Range]


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
    def _has_answer(self) -> "NumericAnswer":
        if self.value is None and self.calc is None:
            raise ValueError("a numeric answer needs `value` or `calc`")
        return self


class Distractor(_Model):
    """A wrong numeric answer that models a typical mistake; ``why`` names the mistake."""

    calc: Text | None = None
    value: float | None = None
    why: Text

    @model_validator(mode="after")
    def _has_answer(self) -> "Distractor":
        if self.value is None and self.calc is None:
            raise ValueError("a distractor needs `value` or `calc`")
        return self


QuestionType = Literal["single", "multi", "true_false", "numeric"]


class Question(_Model):
    id: Id
    objective: ObjectiveId
    topic: Id | None = None
    difficulty: int = Field(ge=1, le=3)
    type: QuestionType
    stem: Text
    choices: list[Choice] | None = None
    choose: int | None = Field(default=None, ge=2)
    answer: bool | NumericAnswer | None = None
    params: dict[Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], ParamSpec] | None = None
    distractors: list[Distractor] | None = None
    explanation: Text
    references: Annotated[list[Reference], Field(min_length=1)]
    verified: dt.date
    volatile: bool = False
    tags: list[Text] = Field(default_factory=list)
    source: SourceRef | None = Field(default=None, exclude=True)

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
