"""An answer's calc must give a number or a quantity: text is refused, never read as a number."""

from __future__ import annotations

import datetime as dt

import pytest

from study.bank.schema import Distractor, NumericAnswer, Question, Reference
from study.calc.expr import NotANumberError, evaluate, value_in_unit
from study.quiz.instance import InstanceError, instantiate


def numeric_question(calc: str) -> Question:
    return Question(
        id="calc-answer", objective="2.1", difficulty=2, type="numeric", stem="How much?",
        answer=NumericAnswer(calc=calc, unit="GB"), explanation="x.",
        references=[Reference(title="T", url="https://docs.nvidia.com/")], verified=dt.date(2026, 11, 30),
    )


@pytest.mark.parametrize("calc", ["model('llama-2-70b').name", "'140'"])
def test_text_is_not_a_value_in_a_unit(calc: str) -> None:
    with pytest.raises(NotANumberError, match="gives the text"):
        value_in_unit(evaluate(calc), "GB")


@pytest.mark.parametrize("calc", ["model('llama-2-70b').name", "'140'"])
def test_a_question_whose_calc_gives_text_cannot_be_instantiated(calc: str) -> None:
    # The quiz drops a question raising InstanceError; any other error ended the session in a traceback.
    with pytest.raises(InstanceError, match="needs a number or a quantity"):
        instantiate(numeric_question(calc))


def test_a_number_still_is_a_value_in_the_answer_unit() -> None:
    assert instantiate(numeric_question("140")).numeric.value == 140


@pytest.mark.parametrize("unit, tolerance", [("0b11", "2%"), ("GB", "3 furlongs")])
def test_an_unknown_unit_makes_the_question_unbuildable_not_a_crash(unit: str, tolerance: str) -> None:
    # Found by the fuzz suite: the ValueError of parse_unit escaped instantiate, ending a quiz.
    q = numeric_question("140").model_copy(update={"answer": NumericAnswer(calc="140", unit=unit, tolerance=tolerance)})
    q = q.model_copy(update={"distractors": [Distractor(value=70, why="half")]})
    with pytest.raises(InstanceError):
        instantiate(q)
