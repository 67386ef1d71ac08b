"""The quick path's checker (study.lab.shape) against the pydantic models it stands in for.

Its one promise: for any input it returns exactly what ``Model.model_validate(data).model_dump(mode="json")``
returns, or raises Unsure. These tests hold it to that on every shipped case and on inputs built to find
where the two could part: wrong types, bounds, blanks, patterns, coercions pydantic makes in lax mode,
unknown and missing keys.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from study.bank.yamlsafe import parse_yaml
from study.lab import shape, shape_export
from study.lab.case import build_case
from study.lab.load import all_labs, labs_dir
from study.lab.quick import system_from_data
from study.lab.schema import Lab, System

LABS = all_labs()
SEEDS = range(24)


def _yaml(lab_id: str) -> dict[str, Any]:
    data = parse_yaml((labs_dir() / f"{lab_id}.yaml").read_text(encoding="utf-8")).data
    assert isinstance(data, dict)
    return data


def _same(a: Any, b: Any) -> bool:
    # json.dumps tells 71 from 71.0 and True from 1, which == does not.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_the_committed_shape_is_a_fresh_export_of_the_models():
    assert shape.SHAPE_FILE.read_text(encoding="utf-8") == shape_export.render(), (
        "study/lab/schema.py changed: run python -m study.lab.shape_export")


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: lab.id)
def test_every_shipped_case_takes_the_quick_path_and_equals_the_models(lab):
    data = _yaml(lab.id)
    assert _same(shape.check("Lab", data), lab.model_dump(mode="json"))
    seen = set()
    for seed in SEEDS:
        case = build_case(lab, seed)
        seen.add(json.dumps(case.vars, sort_keys=True))
        quick = system_from_data(lab.id, data, seed)
        assert quick is not None, f"seed {seed}: the quick path gave up on a valid case"
        assert _same(quick, case.system.model_dump(mode="json")), f"seed {seed}"
    assert len(seen) > 1 or len(lab.vars) == 0 or all(len(v) == 1 for v in lab.vars.values() if isinstance(v, list))


# Values that pydantic coerces, rejects, or might treat differently from Python, for any leaf.
HOSTILE: list[Any] = [
    None, True, False, 0, 1, -1, 2, 7, 80, 10**20, 0.5, 71.0, float("nan"), float("inf"), -0.0,
    "", " ", "x", " padded ", "tab\t", "line\n", "\u00a0nbsp\u00a0", "\x1cfs", "41872", "007", "-5", "1_000", "1.5",
    "true", "on", "C", "nvswitch", "h100-sxm", "a/b", "../x", "é", "x" * 81, "gpu:8",
    dt.date(2026, 1, 2), dt.datetime(2026, 1, 2, 3, 4), [], [1, 2], [[0, 1]], {}, {"k": "v"}, {"index": 0},
]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value``; of a list, the first item only (the others have its shape)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list) and value:
        out += _paths(value[0], (*path, 0))
    return out


def _replaced(data: Any, path: tuple[Any, ...], new: Any) -> Any:
    data = copy.deepcopy(data)
    if not path:
        return new
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return data


def _agrees(root: str, model: type[BaseModel], data: Any) -> None:
    try:
        want = model.model_validate(data).model_dump(mode="json")
    except ValidationError:
        want = None
    try:
        got = shape.check(root, data)
    except shape.Unsure:
        return  # always allowed: the models decide
    assert want is not None, f"the quick path accepted what pydantic rejects: {data!r:.300}"
    assert _same(got, want), f"the quick path and pydantic differ on {data!r:.300}"


def _system_samples() -> list[dict[str, Any]]:
    wanted = ("thermal-slowdown", "k8s-mig-mixed", "slurm-node-drained", "ib-port-down", "gfd-labels-missing")
    return [build_case(lab, 0).system.model_dump(mode="json") for lab in LABS if lab.id in wanted]


@pytest.mark.parametrize("sample", range(5))
def test_hostile_values_anywhere_in_a_system_get_the_models_answer_or_none(sample):
    base = _system_samples()[sample]
    checked = 0
    for path in _paths(base):
        for value in HOSTILE:
            _agrees("System", System, _replaced(base, path, value))
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("sample", range(5))
def test_unknown_missing_and_renamed_keys_get_the_models_answer_or_none(sample):
    base = _system_samples()[sample]
    for path in _paths(base):
        node = base
        for key in path:
            node = node[key]
        if not isinstance(node, dict):
            continue
        for key in list(node):
            smaller = {k: v for k, v in node.items() if k != key}
            _agrees("System", System, _replaced(base, path, smaller))
        _agrees("System", System, _replaced(base, path, {**node, "colour": "red"}))


def test_lab_files_with_hostile_values_get_the_models_answer_or_none():
    base = _yaml("power-cap")
    for path in _paths(base):
        if path[:1] == ("system",):
            continue  # any data: the filled-in system is checked as a System above
        for value in HOSTILE:
            _agrees("Lab", Lab, _replaced(base, path, value))


def test_a_pick_named_both_by_alias_and_by_field_name_is_left_to_the_models():
    data = _yaml("thermal-slowdown")
    data["vars"] = {"gpu": {"from": [1, 2], "from_": [3, 4]}}
    _agrees("Lab", Lab, data)
    with pytest.raises(shape.Unsure):
        shape.check("Lab", data)


def test_a_lab_whose_id_is_not_its_name_or_whose_case_cannot_be_drawn_goes_to_the_models():
    data = _yaml("power-cap")
    assert system_from_data("power-cap", data, 0) is not None
    assert system_from_data("thermal-slowdown", data, 0) is None
    broken = {**data, "vars": {"a": [1], "b": {"by": "a", "map": {"2": 3}}}}
    assert system_from_data("power-cap", broken, 0) is None


def test_data_nested_past_the_recursion_limit_is_left_to_the_models():
    data = _yaml("power-cap")
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    data["system"]["host"]["gpu_defaults"]["deep"] = deep
    assert system_from_data("power-cap", data, 0) is None


class _WithValidator(BaseModel):
    name: str

    @field_validator("name")
    @classmethod
    def _upper(cls, v: str) -> str:
        return v.upper()


class _WithMultiple(BaseModel):
    n: int = Field(multiple_of=2)


@pytest.mark.parametrize("model", [_WithValidator, _WithMultiple])
def test_the_export_refuses_a_rule_the_quick_path_would_not_check(model):
    with pytest.raises(shape_export.ExportError, match="teach study/lab/shape.py"):
        shape_export.export_models({"X": model})
