"""Every published figure in calc_cases.json (copied from shared/reference, sources inside) is reproduced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from study.calc import call

CASES = json.loads((Path(__file__).with_name("calc_cases.json")).read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_published_case(case: dict) -> None:
    # Arguments are passed exactly as the CLI would receive them: kebab-case names, strings with units.
    args = {k.replace("-", "_"): v for k, v in case["args"].items()}
    result = call(case["function"], **args)
    assert result.unit == case["unit"]
    assert result.value == pytest.approx(case["expect"], rel=case["rel_tol"]), case["source"]
    assert result.steps, "every result explains itself"


def test_cases_cover_required_functions() -> None:
    assert len(CASES) >= 13
