"""Findings of the review of the calculator scenario questions (questions/*/calc-*.yaml) that are calculator bugs.

Each test states the expected value from a hand computation with the formula in
/work/shared/reference/calculator.md, not from the calculator's own output.
"""

from __future__ import annotations

import pytest

from study.calc import evaluate, value_in_unit

# Llama 3 8B (8,030,261,248 parameters, content/specs/models.yaml) at 9,000 tokens/s per GPU on an H200 SXM
# (989.4 TFLOP/s dense BF16). MFU = tokens/s x 6N / dense peak (Chowdhery et al. 2022, PaLM, appendix B;
# calculator.md F8) = 9000 x 6 x 8,030,261,248 / 989.4e12 = 0.4383, i.e. 43.83 %.
MFU_FRACTION = 9000 * 6 * 8_030_261_248 / 989.4e12
MFU_CALL = "mfu(model='llama-3-8b', tokens_per_sec_per_gpu=9000, gpu='h200-sxm', dtype='bf16')"


def test_a_calculated_fraction_is_converted_to_percent() -> None:
    # questions/README.md: "A calculator result carries its unit ... and is converted to the answer's unit."
    # mfu() returns a fraction (unit "1"); asked in "%" it must read 43.8, not 0.438. Since commit 505e9ad,
    # value_in_unit treats every dimensionless result as a bare number typed in the answer's unit, so
    # calc-mfu-01, calc-mfu-cluster-02, calc-bandwidth-util-05 and calc-cluster-allocation-06 are keyed
    # "0.438%" and a learner who types the right "43.8%" is marked wrong.
    assert value_in_unit(evaluate(MFU_CALL), "%") == pytest.approx(100 * MFU_FRACTION, rel=1e-3)


def test_a_ratio_of_two_calculated_quantities_is_converted_to_percent() -> None:
    # Roofline decode time over the time at 75 % memory-bandwidth efficiency is 0.75 = 75 %
    # (calc-bandwidth-util-05): a ratio of two seconds-valued results, not a number the author typed.
    ratio = ("decode_time(model='llama-3-8b', gpu='h100-sxm', batch=1, dtype='fp16')"
             " / decode_time(model='llama-3-8b', gpu='h100-sxm', batch=1, dtype='fp16', efficiency=0.75)")
    assert value_in_unit(evaluate(ratio), "%") == pytest.approx(75.0, rel=1e-6)


def test_a_fraction_asked_as_a_fraction_stays_a_fraction() -> None:
    # The same MFU asked with unit "1" must stay 0.438 whichever way the percent case is fixed.
    assert value_in_unit(evaluate(MFU_CALL), "1") == pytest.approx(MFU_FRACTION, rel=1e-3)


def test_a_typed_bare_number_is_still_read_in_the_answer_unit() -> None:
    # The rule commit 505e9ad introduced for literal numbers (tests/unit/quiz/test_bare_numbers.py) must survive
    # the fix: a literal 39.5 with unit "%" means 39.5 %.
    assert value_in_unit(evaluate("39.5"), "%") == pytest.approx(39.5)


# Content guard from the same review: templated questions drew contexts no model can hold (Llama 2 70B at
# 8,192 tokens, Llama 3 at 16K-32K) and sized Mistral 7B's KV cache past its 4,096-token sliding window,
# which its rolling buffer caps (Jiang et al. 2023, arXiv:2310.06825).
SLIDING_WINDOW = {"mistral-7b": 4096}
CONTEXT_PARAMS = ("seq", "prompt")


def _context_draws():
    import itertools
    import re

    from study.bank import load_bank
    from study.quiz.instance import param_values

    for q in load_bank().questions:
        if q.type != "numeric" or not q.params or not any(p in q.params for p in CONTEXT_PARAMS):
            continue
        names = sorted(q.params)
        fixed = set(re.findall(r"model='([\w.-]+)'", q.answer.calc or ""))
        for combo in itertools.product(*(param_values(q.params[n]) for n in names)):
            draw = dict(zip(names, combo))
            for model_id in ({draw["m"]} if "m" in draw else fixed):
                for name in CONTEXT_PARAMS:
                    if name in draw:
                        yield q.id, model_id, name, int(draw[name])


def test_no_templated_question_draws_a_context_beyond_the_model() -> None:
    from study.calc import model

    draws = list(_context_draws())
    assert draws, "the bank has templated context-length questions"
    too_long = sorted({(qid, m, n, v) for qid, m, n, v in draws
                       if v > model(m).context or (n == "seq" and v > SLIDING_WINDOW.get(m, v))})
    assert not too_long, too_long
