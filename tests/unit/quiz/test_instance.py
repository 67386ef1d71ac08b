from __future__ import annotations

from pathlib import Path

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


# --- templated questions: the calculator computes the answer ---------------------------------------------

def kv_question():
    from study.bank.schema import Distractor, NumericAnswer, Question, Range, Reference
    import datetime as dt

    calc = "kv_cache(model=model, seq_len=seq, batch=batch, dtype='fp16')"
    return Question(
        id="kv-gqa", objective="2.1", difficulty=3, type="numeric",
        params={"model": ["llama-2-70b", "llama-3-70b"], "seq": Range(range=(2048, 8192), step=2048),
                "batch": [1, 4, 8]},
        stem="Serve **{model}** in FP16, {seq} tokens, batch {batch}. It has {= model(model).kv_heads} KV heads.",
        answer=NumericAnswer(calc=calc, unit="GB", tolerance="3%"),
        distractors=[Distractor(calc=f"{calc} / 2", why="K and V counted once."),
                     Distractor(calc="kv_cache(model=model, seq_len=seq, batch=batch, dtype='fp16', "
                                     "kv_heads=model(model).heads)", why="All heads instead of KV heads.")],
        explanation="2 x layers x KV heads x head dim x tokens x batch x bytes.",
        references=[Reference(title="NVIDIA blog", url="https://developer.nvidia.com/blog/")],
        verified=dt.date(2026, 11, 30),
    )


def test_templated_numeric_instance():
    inst = instantiate(kv_question(), seed=12)
    p = inst.params
    assert p["model"] in ("llama-2-70b", "llama-3-70b")
    assert p["seq"] in (2048, 4096, 6144, 8192) and p["batch"] in (1, 4, 8)
    # Both models: 80 layers, 8 KV heads of dimension 128 (published Hugging Face configs), 64 query heads.
    expected_gb = 2 * 80 * 8 * 128 * p["seq"] * p["batch"] * 2 / 1e9
    assert inst.numeric.value == pytest.approx(expected_gb, rel=1e-9)
    assert inst.stem == (f"Serve **{p['model']}** in FP16, {p['seq']} tokens, batch {p['batch']}. "
                         "It has 8 KV heads.")
    assert [round(v / expected_gb, 6) for v, _ in inst.numeric.distractors] == [0.5, 8.0]
    assert inst.derivation and any("128" in line for line in inst.derivation)


def test_templated_draw_is_reproducible_and_varies():
    q = kv_question()
    assert instantiate(q, seed=3) == instantiate(q, seed=3)
    draws = {tuple(sorted(instantiate(q, seed=s).params.items())) for s in range(40)}
    assert len(draws) > 10


def test_given_params_rebuild_the_instance_that_was_asked():
    q = kv_question()
    asked = {"model": "llama-3-70b", "seq": 6144, "batch": 4}
    inst = instantiate(q, seed=99, params=asked)
    assert dict(inst.params) == asked
    # 2 (K and V) x 80 layers x 8 KV heads x 128 dims x 6144 tokens x 4 sequences x 2 bytes.
    assert inst.numeric.value == pytest.approx(2 * 80 * 8 * 128 * 6144 * 4 * 2 / 1e9, rel=1e-9)
    assert "6144 tokens, batch 4" in inst.stem


def test_templated_exam_instance_is_multiple_choice_and_grades():
    from study.quiz import grade_answer

    inst = instantiate(kv_question(), seed=5, as_choice=True)
    assert len(inst.options) == 3
    right = inst.expected
    assert grade_answer(inst, right).correct
    wrong = next(l for l in inst.labels if l != right)
    assert grade_answer(inst, wrong).matched_distractor_why in ("K and V counted once.", "All heads instead of KV heads.")
    typed = instantiate(kv_question(), seed=5)
    assert grade_answer(typed, typed.numeric.display).correct
    assert grade_answer(typed, f"{typed.numeric.value / 2} GB").matched_distractor_why == "K and V counted once."


def test_calc_with_stated_value_uses_the_stated_value():
    import datetime as dt

    from study.bank.schema import NumericAnswer, Question, Reference

    q = Question(id="w", objective="2.1", difficulty=1, type="numeric", stem="70B in FP16?",
                 answer=NumericAnswer(value=140, calc="weights_memory(params=70e9, dtype='fp16')", unit="GB"),
                 explanation="2 B per parameter.", references=[Reference(title="t", url="https://x.org")],
                 verified=dt.date(2026, 11, 30))
    inst = instantiate(q, seed=1)
    assert inst.numeric.value == 140 and inst.derivation


def test_a_broken_expression_is_an_instance_error():
    import datetime as dt

    from study.bank.schema import NumericAnswer, Question, Reference
    from study.quiz import InstanceError

    q = Question(id="bad", objective="2.1", difficulty=1, type="numeric", stem="?",
                 answer=NumericAnswer(calc="no_such_function(1)", unit="GB"),
                 explanation="x", references=[Reference(title="t", url="https://x.org")],
                 verified=dt.date(2026, 11, 30))
    with pytest.raises(InstanceError, match="bad"):
        instantiate(q, seed=1)


def test_doubled_braces_show_literal_braces_and_are_not_placeholders(tmp_path):
    from study.bank.lint import lint

    q = single("brace-01").model_copy(update={"stem": "Which variable does ${{CUDA_HOME}} name? {{x}} is a set."})
    assert instantiate(q, seed=1).stem == "Which variable does ${CUDA_HOME} name? {x} is a set."
    good = Path(__file__).parents[2] / "data" / "lint" / "dupe" / "duplicate_id_a.yaml"
    text = good.read_text().replace("stem: Which fabric", "stem: In ${{CUDA_HOME}}, which fabric", 1)
    (tmp_path / "b.yaml").write_text(text)
    # The copied question is a twin of its bank original (possible-twin); that is not what this test is about.
    assert [d for d in lint([tmp_path], with_calc=True).diagnostics if d.code != "possible-twin"] == []
