"""Lint and `study schema` agree on every text field: a plain scalar the loader reads as text (`tolerance: 0`,
`why: yes`) is valid for both, and what lint rejects the schema rejects."""

from __future__ import annotations

import datetime as dt
import json

import jsonschema
import pytest
import yaml

from study.bank.lint import lint
from study.cli import main

QUESTION = """questions:
  - id: {id}
    objective: "2.1"
    difficulty: 2
    type: numeric
    stem: {stem}
    answer:
      value: 80
      unit: {unit}
      tolerance: {tolerance}
    distractors:
      - value: 40
        why: {why}
      - value: 160
        why: Doubled.
      - value: 640
        why: Bits.
    explanation: {explanation}
    references:
      - title: {title}
        url: https://www.nvidia.com/en-us/data-center/h100/
    verified: 2026-11-30
"""
GOOD = {"id": "schema-agree", "stem": "How much memory?", "unit": "GB",
        "tolerance": "2%", "why": "Halved.", "explanation": "Read the datasheet.", "title": "H100 datasheet"}


def _jsonable(value):
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


@pytest.fixture(scope="module")
def validator():
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        main(["schema"])
    return jsonschema.Draft202012Validator(json.loads(out.getvalue()))


CASES = [("tolerance", "0"), ("tolerance", "0.5"), ("tolerance", "5"), ("tolerance", "-1"), ("tolerance", "2%"),
         ("unit", "1"), ("why", "yes"), ("why", "true"), ("why", "12"), ("why", "null"), ("title", "2026"),
         ("explanation", "0.5"), ("stem", "42"), ("id", "1234"), ("id", "-12"),
         ("tolerance", "'0.5 GB'"), ("tolerance", "much")]


@pytest.mark.parametrize(("key", "value"), CASES)
def test_lint_and_the_schema_agree(key, value, validator, tmp_path):
    text = QUESTION.format(**{**GOOD, key: value})
    path = tmp_path / "q.yaml"
    path.write_text(text, encoding="utf-8")
    lint_ok = not [d for d in lint([path]).diagnostics if d.severity == "error"]
    schema_ok = not list(validator.iter_errors(_jsonable(yaml.safe_load(text))))
    assert lint_ok == schema_ok, (key, value, [str(d) for d in lint([path]).diagnostics])


def test_tolerance_zero_is_valid_for_both(validator, tmp_path):
    text = QUESTION.format(**{**GOOD, "tolerance": "0"})
    assert not list(validator.iter_errors(_jsonable(yaml.safe_load(text))))
