from __future__ import annotations

import pytest

from quiz_fixtures import multi, numeric, single, true_false
from study.quiz import Instance, format_value, instantiate
from study.quiz.instance import format_number


@pytest.mark.parametrize(
    "value, digits, text",
    [(140.0, 3, "140"), (21.4748, 3, "21.5"), (0.0125, 3, "0.0125"), (21474836480, 3, "21500000000"),
     (1 / 3, 4, "0.3333"), (1999.6, 3, "2000"), (0, 3, "0"), (-2.5, 2, "-2.5"), (1.2e-9, 2, "1.2e-09")],
)
def test_format_number(value, digits, text):
    assert format_number(value, digits) == text


def test_format_value_units():
    assert format_value(72, "%") == "72%"
    assert format_value(3.3, "TB/s") == "3.3 TB/s"
    assert format_value(5, "1") == "5"


def test_choice_order_is_seeded_per_question():
    q = single("s", n=5, right=3)
    a, b, c = instantiate(q, seed=1), instantiate(q, seed=1), instantiate(q, seed=2)
    assert a.options == b.options
    assert sorted(o.text for o in a.options) == sorted(o.text for o in c.options)
    orders = {tuple(o.text for o in instantiate(q, seed=s).options) for s in range(20)}
    assert len(orders) > 5  # really shuffled
    assert [o.text for o in a.options if o.correct] == ["option 3 of s"]
    assert a.expected == a.correct_labels[0]


def test_unshuffled_keeps_authoring_order():
    inst = instantiate(multi("m", right=(1, 3)), seed=9, shuffle=False)
    assert inst.expected == "B,D" and inst.choose == 2
    assert "B) pick 1" in inst.expected_display and "D) pick 3" in inst.expected_display


def test_true_false_instance():
    inst = instantiate(true_false("tf", True), seed=1)
    assert [o.text for o in inst.options] == ["True", "False"]
    assert inst.expected == "T" and not inst.is_numeric_typed


def test_fixed_numeric_typed_and_as_choice():
    q = numeric("n", 140, "GB", distractors=[(70, "half"), (280, "double")])
    typed = instantiate(q, seed=1)
    assert typed.is_numeric_typed and typed.options == ()
    assert typed.expected == "140 GB"
    mc = instantiate(q, seed=1, as_choice=True)
    assert not mc.is_numeric_typed and mc.type == "numeric"
    assert sorted(o.text for o in mc.options) == ["140 GB", "280 GB", "70 GB"]
    assert [o.text for o in mc.options if o.correct] == ["140 GB"]


def test_numeric_without_distractors_stays_typed_even_in_an_exam():
    inst = instantiate(numeric("n", 140, "GB"), seed=1, as_choice=True)
    assert inst.is_numeric_typed


def test_unfair_distractors_are_dropped():
    # 141 GB is within the 2% tolerance (it would grade right) and 70.0001 GB displays like 70 GB.
    q = numeric("n", 140, "GB", distractors=[(141, "close"), (70, "half"), (70.0001, "half again"), (280, "x")])
    inst = instantiate(q, seed=1)
    assert [v for v, _ in inst.numeric.distractors] == [70, 280]


def test_instance_dict_round_trip():
    for q in (single("s"), multi("m"), true_false("tf", False),
              numeric("n", 140, "GB", distractors=[(70, "half")])):
        for as_choice in (False, True):
            inst = instantiate(q, seed=4, as_choice=as_choice)
            assert Instance.from_dict(inst.to_dict()) == inst
