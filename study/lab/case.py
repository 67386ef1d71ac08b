"""One case of a lab: its variables drawn for a seed, the system filled in, the tasks as bank questions.

The same seed always gives the same case (``random.Random(f"{seed}:{lab.id}")``), so ``--seed N`` is
reproducible and a retried lab with a new seed is a new case. Tasks are graded from the case's own state:
their text and answers are written with the same ``{var}`` placeholders as the system they ask about.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterator, Mapping

from study.lab.draw import CaseError, draw, fill
from study.lab.schema import Lab, Lookup, Pick, System

__all__ = ["Case", "CaseError", "build_case", "draw_vars", "every_vars", "fill", "task_questions"]


@dataclass(frozen=True)
class Case:
    lab: Lab
    seed: int
    vars: Mapping[str, Any]
    system: System

    @property
    def questions(self) -> list[Any]:
        return task_questions(self.lab, self.vars)


def draw_vars(lab: Lab, seed: int) -> dict[str, Any]:
    return draw(lab.id, lab.model_dump(include={"vars"})["vars"], seed)


def every_vars(lab: Lab, limit: int = 256) -> Iterator[dict[str, Any]]:
    """Every combination of the lab's variables (for lint), or ``limit`` seeds' draws when there are more."""
    lookups = {n: s for n, s in lab.vars.items() if isinstance(s, Lookup)}
    names = [n for n in lab.vars if n not in lookups]
    pools: list[list[Any]] = []
    for n in names:
        spec = lab.vars[n]
        assert not isinstance(spec, Lookup)  # set apart above
        pools.append(list(spec.from_ if isinstance(spec, Pick) else spec))
    total = 1
    for pool in pools:
        total *= len(pool)
    if total > limit:
        seen: set[tuple[Any, ...]] = set()
        for seed in range(limit):
            v = draw_vars(lab, seed)
            key = tuple(v.values())
            if key not in seen:
                seen.add(key)
                yield v
        return
    picks = {n: s for n, s in lab.vars.items() if isinstance(s, Pick)}
    for combo in itertools.product(*pools):
        v = dict(zip(names, combo))
        ok = all(v[n] not in {v[o] for o in spec.not_} for n, spec in picks.items())
        if ok:
            for n, spec in lookups.items():
                v[n] = spec.map.get(str(v.get(spec.by)), "")
            yield {k: v[k] for k in lab.vars}


def build_system(lab: Lab, env: Mapping[str, Any]) -> System:
    """The validated system for these variables (pydantic's error when the filled-in data is wrong)."""
    return System.model_validate(fill(lab.system, env))


def build_case(lab: Lab, seed: int = 0) -> Case:
    from pydantic import ValidationError

    env = draw_vars(lab, seed)
    try:
        system = build_system(lab, env)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CaseError(f"lab {lab.id!r} seed {seed}: system.{where}: {first['msg']}") from None
    return Case(lab, seed, env, system)


def task_id(lab: Lab, task_id_: str) -> str:
    return f"lab.{lab.id}.{task_id_}"


def task_questions(lab: Lab, env: Mapping[str, Any]) -> list[Any]:
    """The lab's tasks as bank :class:`~study.bank.schema.Question` objects, filled in for ``env``.

    Numeric variables are also the question's parameters, so an answer's ``calc`` can compute from them
    (``total_mib - used_mib``) with the bank's own evaluator."""
    from study.bank.schema import Question

    params = {k: [v] for k, v in env.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    out = []
    for t in lab.tasks:
        data = t.model_dump(exclude_none=True, by_alias=True)
        data = fill(data, env)
        data.update(
            id=task_id(lab, t.id),
            objective=t.objective or lab.objectives[0],
            difficulty=t.difficulty or lab.difficulty,
            references=[r.model_dump() for r in lab.references],
            verified=lab.verified,
            volatile=lab.volatile,
            tags=["lab", lab.id],
        )
        if params and t.type == "numeric":
            data["params"] = params
        if data.get("answer") and "calc" in data["answer"] and "value" in data["answer"]:
            data["answer"].pop("value")
        out.append(Question.model_validate(data))
    return out
