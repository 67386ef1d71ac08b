"""A quantity of the wrong dimension is not an answer (issue 20): the learner is told what is asked and
answers again, in practice and exam alike; a fraction for a percentage gets a hint; keys read 10,000."""

from __future__ import annotations

import datetime as dt

import pytest

from quiz_fixtures import numeric
from study.quiz import AnswerError, QuizSession, grade_answer, instantiate, normalize_answer
from study.quiz.instance import format_value

T0 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.timezone.utc)


def typed(value, unit, tolerance="2%"):
    return instantiate(numeric("n", value, unit, tolerance, []), seed=1)


@pytest.mark.parametrize("unit, given_, asked", [("%", "29 GB", "a percentage"), ("GB", "2 s", "a size"),
                                                 ("s", "3 GB/s", "a time")])
def test_a_wrong_dimension_is_refused_with_what_is_asked(unit, given_, asked):
    inst = typed(26.3, unit)
    with pytest.raises(AnswerError, match=f"the question asks for {asked}"):
        normalize_answer(inst, given_)


@pytest.mark.parametrize("mode", ["practice", "quiz"])
def test_a_session_lets_the_learner_answer_again(mode):
    inst = typed(26.3, "%")
    s = QuizSession([inst], mode=mode, started_at=T0, minutes=10 if mode == "quiz" else None)
    with pytest.raises(AnswerError, match="a percentage"):
        s.answer("29 GB", now=T0)
    assert s.answers == [None]
    s.answer("26.3%", now=T0)
    assert s.answers == ["26.3%"]


def test_a_fraction_for_a_percentage_gets_a_hint():
    g = grade_answer(typed(26.3, "%"), "0.264")
    assert not g.correct
    assert "0.264 is the fraction; the question asks for a percentage, 26.4%" in g.message
    assert "fraction" not in grade_answer(typed(26.3, "%"), "0.9").message


def test_keys_group_thousands_like_the_calculator():
    assert format_value(10000, "tokens/s") == "10,000 tokens/s"
    assert format_value(1234.5, "GB", 5) == "1,234.5 GB"
    assert format_value(-25000, "W") == "-25,000 W"
    assert format_value(999, "GB") == "999 GB" and format_value(0.0125, "s") == "0.0125 s"
    g = grade_answer(typed(10000, "tokens/s"), "9996 tokens/s")
    assert g.correct and "Correct: 10,000 tokens/s" in g.message
    assert grade_answer(typed(10000, "tokens/s"), "10,000 tokens/s").correct
