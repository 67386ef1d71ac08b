"""A calc expression that is a bare number is read in the answer's unit, the same way in lint and in quizzes."""

from __future__ import annotations

import datetime as dt

from study.bank.schema import Question
from study.calc import evaluate, value_in_unit
from study.quiz import grade_answer, instantiate


def _question(calc: str, unit: str) -> Question:
    return Question.model_validate(
        {
            "id": "bare-number",
            "objective": "2.3",
            "difficulty": 2,
            "type": "numeric",
            "stem": "Thirty-two systems of 10.2 kW at a PUE of 1.5: what does the facility draw?",
            "answer": {"calc": calc, "unit": unit, "tolerance": "2%"},
            "explanation": "IT power times PUE.",
            "references": [{"title": "The Green Grid, PUE", "url": "https://www.thegreengrid.org/"}],
            "verified": dt.date(2026, 11, 30),
        }
    )


def test_bare_number_is_in_the_answer_unit() -> None:
    assert value_in_unit(evaluate("32 * 10.2 * 1.5"), "kW") == 32 * 10.2 * 1.5
    # A quantity with a unit is converted.
    assert value_in_unit(evaluate("weights_memory(params=70e9, dtype='fp16')"), "GB") == 140.0


def test_quiz_instance_and_grading_agree_with_lint_on_bare_numbers() -> None:
    inst = instantiate(_question("32 * 10.2 * 1.5", "kW"), seed=1)
    assert abs(inst.numeric.value - 489.6) < 1e-9
    assert grade_answer(inst, "490 kW").correct
    assert grade_answer(inst, "0.49 MW").correct
    assert not grade_answer(inst, "0.49 kW").correct
