from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from quiz_fixtures import multi, numeric, single, true_false
from study.quiz import AnswerError, grade_answer, instantiate, normalize_answer


def typed(value, unit, tolerance="2%", distractors=(), **kw):
    return instantiate(numeric("n", value, unit, tolerance, list(distractors), **kw), seed=1)


# --- choices ---------------------------------------------------------------------------------------------


def test_single_exact_with_the_picked_options_why():
    inst = instantiate(single("s", right=2), seed=1, shuffle=False)
    assert grade_answer(inst, "C").correct
    assert grade_answer(inst, "c").correct
    assert grade_answer(inst, 2).correct  # an index from a UI
    g = grade_answer(inst, "A")
    assert not g.correct and "C) option 2 of s" in g.message
    assert [p.picked for p in g.picks] == [True, False, False, False]
    assert g.picks[0].why == "why 0"


def test_true_false_accepts_letters_words_and_bools():
    inst = instantiate(true_false("tf", False), seed=1)
    for given_ in ("F", "f", "false", "B", "no", False):
        assert grade_answer(inst, given_).correct, given_
    for given_ in ("T", "true", "A", True):
        assert not grade_answer(inst, given_).correct, given_
    assert inst.expected == "F"
    with pytest.raises(AnswerError):
        normalize_answer(inst, "maybe")


def test_multi_is_all_or_nothing_and_says_which_picks_were_right():
    inst = instantiate(multi("m", right=(0, 2)), seed=1, shuffle=False)
    assert grade_answer(inst, "A,C").correct
    assert grade_answer(inst, "c a").correct
    assert grade_answer(inst, "AC").correct
    assert grade_answer(inst, [0, 2]).correct
    g = grade_answer(inst, "A,B")
    assert not g.correct
    assert "right picks A" in g.message and "wrong picks B" in g.message and "missed C" in g.message
    assert [(p.label, p.picked, p.correct) for p in g.picks][:3] == [("A", True, True), ("B", True, False), ("C", False, True)]
    assert not grade_answer(inst, "A").correct
    assert not grade_answer(inst, "A,C,D").correct
    with pytest.raises(AnswerError):
        normalize_answer(inst, "A,Q")


def test_no_answer_is_wrong_and_says_so():
    inst = instantiate(single("s"), seed=1)
    g = grade_answer(inst, None)
    assert not g.correct and not g.answered and g.message.startswith("Not answered")
    assert not grade_answer(inst, "  ").answered


# --- numbers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, unit, given_",
    [
        (21.5, "GB", "21.5 GB"),
        (21.5, "GB", "21.5GB"),
        (21.5, "GB", "21.5"),              # a bare number is read in the answer's unit
        (21.5, "GB", "20 GiB"),            # 21.47 GB: within 2%
        (21.5, "GB", "21474836480"),       # all the digits: bytes
        (21.5, "GB", "2.15e10 B"),
        (21.5, "GB", "21,500 MB"),
        (21.5, "GB", "0.0215 TB"),
        (1.2, "s", "1.2 s"),
        (1.2, "s", "1200 ms"),
        (0.95, "s", "950 ms"),
        (3.3, "TB/s", "3.3 TB/s"),
        (3.3, "TB/s", "3300 GB/s"),
        (50, "GB/s", "400 Gb/s"),          # bits are bytes / 8
        (400, "Gb/s", "50 GB/s"),
        (72, "%", "72 %"),
        (72, "%", "72"),
        (3.2, "TFLOP/s", "3.2 TFLOPS"),
        (48, "h", "2 days"),
        (16, "GPUs", "16 GPUs"),
        (16, "GPUs", "16"),
    ],
)
def test_numeric_forms_people_type(value, unit, given_):
    g = grade_answer(typed(value, unit), given_)
    assert g.correct, (given_, g.message)


@pytest.mark.parametrize(
    "value, unit, given_",
    [(21.5, "GB", "20 GB"), (21.5, "GB", "21.5 Gb"), (1.2, "s", "950 ms"), (50, "GB/s", "400 GB/s"),
     (140, "GB", "130 GB"), (72, "%", "0.72")],
)
def test_numeric_wrong_values(value, unit, given_):
    g = grade_answer(typed(value, unit), given_)
    assert not g.correct and not g.wrong_dimension


@pytest.mark.parametrize(
    "unit, given_, phrase",
    [("GB", "2 s", "That is a time; the question asks for a size"),
     ("s", "2 GB", "That is a size; the question asks for a time"),
     ("GB/s", "3 GB", "That is a size; the question asks for a bandwidth"),
     ("TFLOP/s", "3 TFLOP", "That is a compute amount; the question asks for a compute rate")],
)
def test_wrong_dimension_gets_a_specific_message(unit, given_, phrase):
    g = grade_answer(typed(10, unit), given_)
    assert not g.correct and g.wrong_dimension
    assert g.message.startswith(phrase)


def test_unreadable_numbers():
    inst = typed(140, "GB")
    for bad in ("lots", "140 gigs", "GB"):
        with pytest.raises(AnswerError):
            normalize_answer(inst, bad)
        assert not grade_answer(inst, bad).correct


def test_tolerance_relative_and_absolute():
    rel = typed(140, "GB", "2%")
    assert grade_answer(rel, "142.7 GB").correct
    assert not grade_answer(rel, "143 GB").correct
    absolute = typed(140, "GB", "0.5 GB")
    assert grade_answer(absolute, "140.4 GB").correct
    assert not grade_answer(absolute, "140.6 GB").correct
    assert grade_answer(absolute, "140400 MB").correct
    plain = typed(10, "s", "0.5")
    assert grade_answer(plain, "10.4 s").correct and not grade_answer(plain, "10.6 s").correct


def test_a_typed_distractor_shows_that_mistake():
    inst = typed(140, "GB", distractors=[(70, "K and V were counted once."), (130.4, "GiB taken for GB.")])
    g = grade_answer(inst, "70 GB")
    assert not g.correct and g.matched_distractor_why == "K and V were counted once."
    assert "K and V were counted once." in g.message
    assert grade_answer(inst, "150 GB").matched_distractor_why is None
    # 130.4 GB is 140 GiB read back as GB: the classic binary/decimal slip.
    assert grade_answer(inst, "130.4").matched_distractor_why == "GiB taken for GB."


def test_a_picked_distractor_shows_that_mistake():
    inst = instantiate(numeric("n", 140, "GB", distractors=[(70, "K and V once."), (280, "FP32 bytes.")]),
                       seed=3, as_choice=True)
    assert sorted(o.text for o in inst.options) == ["140 GB", "280 GB", "70 GB"]
    label = {o.text: l for l, o in zip(inst.labels, inst.options)}
    assert grade_answer(inst, label["140 GB"]).correct
    g = grade_answer(inst, label["280 GB"])
    assert not g.correct and g.matched_distractor_why == "FP32 bytes."


# --- hypothesis: the parser agrees with arithmetic -------------------------------------------------------

SIZE_UNITS = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30,
              "TiB": 2**40}
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "min": 60, "h": 3600}


def _spell(x: float, style: int) -> str:
    if style == 0:
        return repr(x)
    if style == 1:
        return f"{x:.6e}"
    # Positional with thousands separators, as a person copies a long number.
    return f"{x:,.6f}" if x >= 1000 else format(Decimal(repr(x)), "f")


@settings(max_examples=300, deadline=None)
@given(
    base=st.floats(1e3, 1e15),
    answer_unit=st.sampled_from(sorted(SIZE_UNITS)),
    typed_unit=st.sampled_from(sorted(SIZE_UNITS)),
    style=st.integers(0, 2),
    space=st.booleans(),
)
def test_any_size_in_any_unit_grades_right(base, answer_unit, typed_unit, style, space):
    inst = typed(base / SIZE_UNITS[answer_unit], answer_unit, "1%", digits=8)
    text = _spell(base / SIZE_UNITS[typed_unit], style) + (" " if space else "") + typed_unit
    g = grade_answer(inst, text)
    assert g.correct, (text, g.message)


@settings(max_examples=200, deadline=None)
@given(
    base=st.floats(1e-6, 1e6),
    answer_unit=st.sampled_from(sorted(TIME_UNITS)),
    typed_unit=st.sampled_from(sorted(TIME_UNITS)),
    factor=st.floats(1.05, 20),
    above=st.booleans(),
)
def test_a_time_off_by_more_than_the_tolerance_is_wrong(base, answer_unit, typed_unit, factor, above):
    inst = typed(base / TIME_UNITS[answer_unit], answer_unit, "2%", digits=8)
    off = base * factor if above else base / factor
    text = f"{off / TIME_UNITS[typed_unit]!r} {typed_unit}"
    g = grade_answer(inst, text)
    assert not g.correct, (text, g.message)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=12))
def test_arbitrary_text_never_crashes_the_grader(text):
    inst = typed(140, "GB")
    assume(text.strip())
    g = grade_answer(inst, text)
    assert isinstance(g.correct, bool) and g.message
