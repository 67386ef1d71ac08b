"""Typed numbers that are not answers (issue 19, defect 14): ``-1e999`` was graded as "you gave -inf GB" and
a pasted 100,000-digit number as "inf GB", stored whole. Now each is refused with a message that says what
to type, and plain mode asks again."""

from __future__ import annotations

import io

import pytest

from quiz_fixtures import T0, make_bank, numeric
from study.quiz import AnswerError, build_practice, instantiate, normalize_answer
from study.quiz.grade import MAX_ANSWER_CHARS
from study.quiz.plain import run_plain


def typed(value=140.0, unit="GB"):
    return instantiate(numeric("n", value, unit), seed=1)


@pytest.mark.parametrize("text", ["-1e999", "1e999", "1e999 GB", "-1e400 GiB", "inf", "inf GB", "nan", "NaN GB",
                                  "-Infinity"])
def test_a_number_that_is_not_finite_is_refused(text):
    with pytest.raises(AnswerError) as info:
        normalize_answer(typed(), text)
    assert "finite" in str(info.value) or "cannot read" in str(info.value)
    assert "inf" not in str(info.value).replace(repr(text), "").lower()  # never "you gave -inf GB"


def test_a_pasted_wall_of_digits_is_refused_by_length():
    with pytest.raises(AnswerError, match=f"at most {MAX_ANSWER_CHARS} characters"):
        normalize_answer(typed(), "9" * 100_000)
    assert normalize_answer(typed(), "1" * 20 + " GB") == "1" * 20 + " GB"  # long but plausible: kept


def test_plain_mode_asks_again_and_records_nothing_odd():
    from quiz_fixtures import FakeStore

    bank = make_bank(extra=[numeric("big", 140.0, "GB", objective="1.1")])
    store = FakeStore()
    s = build_practice(bank, seed=1, count=1, objective="1.1", now=T0, store=store)
    s.instances = [typed()]
    s.answers, s.flags, s.seconds = [None], [False], [0.0]
    out = io.StringIO()
    run_plain(s, io.StringIO("-1e999\n" + "9" * 100_000 + "\n140 GB\n"), out, lambda: T0)
    text = out.getvalue()
    assert "not a finite number" in text and f"at most {MAX_ANSWER_CHARS} characters" in text
    assert s.answers == ["140 GB"]
    assert "inf GB" not in text
